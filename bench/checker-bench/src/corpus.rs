//! The corpus on disk: its Java and Kotlin files, in a stable order, and what each source
//! (a top-level folder written by `bench/checker/fetch-corpus.sh`) contributes.

use std::collections::BTreeMap;
use std::fs;
use std::path::{Path, PathBuf};

/// Whether `path` is a file the benchmark reads.
pub fn is_source(path: &Path) -> bool {
    path.extension()
        .is_some_and(|ext| ext == "java" || ext == "kt")
}

/// Every `.java` and `.kt` file under `root`, sorted, skipping hidden folders.
pub fn files(root: &Path) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![root.to_owned()];
    while let Some(dir) = todo.pop() {
        let Ok(entries) = fs::read_dir(&dir) else {
            continue;
        };
        for entry in entries.flatten() {
            let path = entry.path();
            let Ok(kind) = entry.file_type() else {
                continue;
            };
            if kind.is_dir() {
                if !entry.file_name().to_string_lossy().starts_with('.') {
                    todo.push(path);
                }
            } else if kind.is_file() && is_source(&path) {
                out.push(path);
            }
        }
    }
    out.sort();
    out
}

/// Counts for one source, or for the whole corpus.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Counts {
    /// Java files.
    pub java_files: usize,
    /// Kotlin files.
    pub kotlin_files: usize,
    /// Non-blank lines in Java files.
    pub java_loc: usize,
    /// Non-blank lines in Kotlin files.
    pub kotlin_loc: usize,
    /// Bytes of all files.
    pub bytes: usize,
}

impl Counts {
    fn add(&mut self, other: &Counts) {
        self.java_files += other.java_files;
        self.kotlin_files += other.kotlin_files;
        self.java_loc += other.java_loc;
        self.kotlin_loc += other.kotlin_loc;
        self.bytes += other.bytes;
    }

    /// All files.
    pub fn files(&self) -> usize {
        self.java_files + self.kotlin_files
    }

    /// All non-blank lines.
    pub fn loc(&self) -> usize {
        self.java_loc + self.kotlin_loc
    }
}

/// One source of the corpus: a top-level folder and the spec it was fetched from.
#[derive(Debug, Clone)]
pub struct Source {
    /// The folder name.
    pub name: String,
    /// The `.source` line written by the fetch script (`npm react-native@0.88.1`), if any.
    pub spec: Option<String>,
    /// What it holds.
    pub counts: Counts,
}

/// The sources of the corpus at `root` and the totals; files directly in `root` form a
/// source named `.`.
pub fn survey(root: &Path, files: &[PathBuf]) -> (Vec<Source>, Counts) {
    let mut by_source: BTreeMap<String, Counts> = BTreeMap::new();
    for path in files {
        let name = match path.strip_prefix(root).ok().and_then(|rel| {
            let mut parts = rel.components();
            let first = parts.next()?;
            parts.next().map(|_| first)
        }) {
            Some(first) => first.as_os_str().to_string_lossy().into_owned(),
            None => ".".to_owned(),
        };
        let counts = by_source.entry(name).or_default();
        let Ok(bytes) = fs::read(path) else {
            continue;
        };
        let loc = bytes
            .split(|&b| b == b'\n')
            .filter(|line| line.iter().any(|b| !b.is_ascii_whitespace()))
            .count();
        counts.bytes += bytes.len();
        if path.extension().is_some_and(|ext| ext == "kt") {
            counts.kotlin_files += 1;
            counts.kotlin_loc += loc;
        } else {
            counts.java_files += 1;
            counts.java_loc += loc;
        }
    }
    let mut total = Counts::default();
    let sources = by_source
        .into_iter()
        .map(|(name, counts)| {
            total.add(&counts);
            let spec = fs::read_to_string(root.join(&name).join(".source"))
                .ok()
                .map(|s| s.trim().to_owned());
            Source { name, spec, counts }
        })
        .collect();
    (sources, total)
}
