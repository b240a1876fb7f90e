//! The bundled example app is checked exactly: every `// expect(definite|possible|ignored):
//! TEXT` annotation must be reported on its line with TEXT in the message, and no other line
//! may be reported.

use std::path::{Path, PathBuf};

use checker::{check, project_config, CheckConfig, SourceFile};
use typestates::library::Library;

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let mut entries: Vec<PathBuf> = std::fs::read_dir(dir)
        .expect("example directory is readable")
        .map(|entry| entry.expect("directory entry").path())
        .collect();
    entries.sort();
    for path in entries {
        if path.is_dir() {
            source_files(&path, out);
        } else if path
            .extension()
            .is_some_and(|ext| ext == "java" || ext == "kt")
        {
            out.push(path);
        }
    }
}

/// `(line, kind, text)` of each `// expect(kind): text` annotation.
fn expectations(text: &str) -> Vec<(u32, String, String)> {
    let mut out = Vec::new();
    for (index, line) in text.lines().enumerate() {
        let Some((_, rest)) = line.split_once("// expect(") else {
            continue;
        };
        let Some((kind, message)) = rest.split_once("):") else {
            continue;
        };
        out.push((index as u32 + 1, kind.to_owned(), message.trim().to_owned()));
    }
    out
}

#[test]
fn example_app_findings_match_annotations() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/android-app");
    let mut paths = Vec::new();
    source_files(&root, &mut paths);
    assert!(!paths.is_empty(), "no sources under {}", root.display());
    let library = Library::bundled();
    let files: Vec<SourceFile> = paths
        .iter()
        .map(|path| {
            let bytes = std::fs::read(path).expect("example source is readable");
            SourceFile::from_bytes(path, bytes).expect("example source is checkable")
        })
        .collect();
    let config = project_config(&library, &files, CheckConfig::default());
    let mut failures = Vec::new();
    for file in &files {
        let result = check(&library, file, &config);
        let mut expected = expectations(&file.text);
        for violation in &result.violations {
            let line = violation.span.start.line;
            let kind = violation.kind.name();
            let found = expected.iter().position(|(l, k, text)| {
                *l == line && k == kind && violation.message.contains(text.as_str())
            });
            match found {
                Some(index) => {
                    expected.remove(index);
                }
                None => failures.push(format!(
                    "{}:{line}: unexpected {kind}: {}",
                    file.path.display(),
                    violation.message
                )),
            }
        }
        for (line, kind, text) in expected {
            failures.push(format!(
                "{}:{line}: missing {kind}: {text}",
                file.path.display()
            ));
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}
