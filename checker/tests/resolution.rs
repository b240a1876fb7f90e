//! Data-driven resolution tests: every call whose receiver type resolves must carry a
//! `// ^^^ <receiver type>` annotation under its name in the fixture, and nothing else may.
//! Fixtures live in `tests/fixtures/{java,kotlin}/`; each file holds many small cases.

mod support;

use std::path::Path;

use checker::ir::ExprKind;
use support::{annotations, assert_annotations, calls, language_of, receiver_text, Annotation};

/// Classes the fixtures may assume exist outside the file, as the typestate library will.
const KNOWN: &[&str] = &[
    "android.media.MediaPlayer",
    "android.media.MediaRecorder",
    "android.os.AsyncTask",
    "android.app.Activity",
];

#[track_caller]
fn check(path: &Path) {
    let text = std::fs::read_to_string(path).expect("fixture is readable UTF-8");
    let ir = checker::lang::lower(language_of(path), &text);
    assert!(
        ir.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        ir.syntax_errors
    );
    let res = checker::resolve::resolve(&ir, &KNOWN);
    let actual = calls(&ir)
        .into_iter()
        .filter_map(|call| {
            let ExprKind::Call(c) = &call.kind else {
                return None;
            };
            Some(Annotation {
                line: c.name_span.start.line,
                cols: (c.name_span.start.col, c.name_span.end.col),
                text: receiver_text(&res, call)?,
            })
        })
        .collect();
    assert_annotations(path, &text, actual);
}

#[test]
fn resolution_fixtures() {
    let mut n_files = 0;
    for dir in ["tests/fixtures/java", "tests/fixtures/kotlin"] {
        let mut paths: Vec<_> = std::fs::read_dir(dir)
            .expect("fixture directory exists")
            .map(|entry| entry.expect("directory entry").path())
            .filter(|path| {
                annotations(&std::fs::read_to_string(path).unwrap_or_default()).len() > 0
            })
            .collect();
        paths.sort();
        for path in paths {
            check(&path);
            n_files += 1;
        }
    }
    assert!(n_files >= 2, "expected annotated fixtures, found {n_files}");
}
