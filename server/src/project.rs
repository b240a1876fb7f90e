//! Checks a set of paths as one project: finds the Java and Kotlin files under them, and hands
//! them to a [`checker::Project`], which skips the files that name no protocol class or
//! factory, lowers each other file once, learns the project's class hierarchy (so
//! `new DownloadTask()` counts as an AsyncTask when another file declares
//! `DownloadTask extends AsyncTask`), and checks every file, in parallel.

use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use checker::{CheckConfig, CheckResult, Project, SourceFile};
use typestates::library::Library;

/// Folders never descended into: build output, dependencies, version control.
const SKIPPED_DIRS: &[&str] = &["build", "target", "node_modules", "out", ".git", ".gradle"];

/// A file that could not be checked, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileError {
    /// The file.
    pub path: PathBuf,
    /// What went wrong, naming the file.
    pub message: String,
}

/// The outcome of checking a project.
#[derive(Debug, Default)]
pub struct ProjectResult {
    /// Each checked file with its findings, in path order.
    pub files: Vec<(SourceFile, CheckResult)>,
    /// Files that could not be checked.
    pub errors: Vec<FileError>,
}

impl ProjectResult {
    /// Number of findings over all files.
    pub fn n_violations(&self) -> usize {
        self.files
            .iter()
            .map(|(_, r)| r.violations.len() + r.unreleased.len())
            .sum()
    }

    /// How many findings are violations the code handles (`typestate-violation-handled`).
    pub fn n_handled(&self) -> usize {
        self.files
            .iter()
            .flat_map(|(_, r)| &r.violations)
            .filter(|v| v.kind == checker::ViolationKind::Handled)
            .count()
    }
}

/// The Java and Kotlin files named by `paths` (files as given, folders searched), sorted.
/// A path that does not exist, or a named file that is not Java or Kotlin, is an error.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    for path in paths {
        if path.is_dir() {
            walk(path, &mut files, &mut errors);
        } else if path.is_file() {
            files.push(path.clone());
        } else {
            errors.push(FileError {
                path: path.clone(),
                message: format!("{}: no such file or folder", path.display()),
            });
        }
    }
    files.sort();
    files.dedup();
    (files, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<FileError>) {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            errors.push(FileError {
                path: dir.to_owned(),
                message: format!("{}: cannot read folder: {err}", dir.display()),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref()) && !name.starts_with('.') {
                walk(&path, files, errors);
            }
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("java" | "kt" | "kts")
        ) {
            files.push(path);
        }
    }
}

/// Reads and checks `paths` against `library`, using up to `jobs` threads.
pub fn check_paths(
    library: &Library,
    paths: &[PathBuf],
    config: CheckConfig,
    jobs: usize,
) -> ProjectResult {
    let (found, mut errors) = collect(paths);
    let mut sources = Vec::new();
    for path in found {
        let read = std::fs::read(&path)
            .map_err(|err| format!("{}: cannot read: {err}", path.display()))
            .and_then(|bytes| SourceFile::from_bytes(&path, bytes).map_err(|e| e.to_string()));
        match read {
            Ok(source) => sources.push(source),
            Err(message) => errors.push(FileError { path, message }),
        }
    }
    let jobs = jobs.max(1);
    let project = Project::new(library, &sources, config, jobs);
    let results = check_all(&project, &sources, jobs);
    let mut files = Vec::new();
    for (source, result) in sources.into_iter().zip(results) {
        match result {
            Ok(result) => files.push((source, result)),
            Err(message) => errors.push(FileError {
                path: source.path.clone(),
                message,
            }),
        }
    }
    ProjectResult { files, errors }
}

/// Checks each source on a small pool of scoped threads; results keep the sources' order.
/// A panic inside the checker is caught and becomes that file's error, so one bad file never
/// takes the others down.
fn check_all(
    project: &Project<'_>,
    sources: &[SourceFile],
    jobs: usize,
) -> Vec<Result<CheckResult, String>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<CheckResult, String>>>> =
        Mutex::new(vec![None; sources.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(sources.len()) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                let Some(source) = sources.get(index) else {
                    break;
                };
                let result = if project.failed(index) {
                    Err(())
                } else {
                    std::panic::catch_unwind(AssertUnwindSafe(|| project.check(index)))
                        .map_err(|_| ())
                };
                let result = result.map_err(|()| {
                    format!(
                        "{}: internal error in the checker (please report it); the file was skipped",
                        source.path.display()
                    )
                });
                results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every source was checked"))
        .collect()
}
