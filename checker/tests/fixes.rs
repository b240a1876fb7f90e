//! Data-driven tests of the checker's quick fixes: each `tests/fixes/{java,kotlin}/X` sits
//! beside `X.fixed.{java,kt}`, the file with every offered fix applied (the cases that must
//! not get one stay as they are). Update with `UPDATE_EXPECT=1` after reading the diff.
//! Every applied fix must remove its violation and add none.

mod support;

use std::path::{Path, PathBuf};

use checker::{check, CheckConfig, SourceFile, Violation};
use typestates::library::Library;

fn inputs() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fixes");
    let mut out: Vec<PathBuf> = ["java", "kotlin"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).expect("fixes folder is readable"))
        .map(|entry| entry.expect("fixes entry").path())
        .filter(|path| {
            let name = path.file_name().and_then(|n| n.to_str()).unwrap_or("");
            !name.contains(".fixed.")
        })
        .collect();
    out.sort();
    out
}

fn check_text(path: &Path, text: &str) -> Vec<Violation> {
    let file = SourceFile {
        path: path.to_owned(),
        language: support::language_of(path),
        text: text.to_owned(),
    };
    let result = check(&Library::bundled(), &file, &CheckConfig::default());
    assert!(
        result.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        result.syntax_errors
    );
    result.violations
}

/// `text` with every fix of `violations` applied.
fn apply(text: &str, violations: &[Violation]) -> String {
    let mut edits: Vec<_> = violations
        .iter()
        .filter_map(|v| v.fix.as_ref())
        .flat_map(|fix| &fix.edits)
        .collect();
    edits.sort_by_key(|edit| edit.span.start_byte);
    let mut out = String::new();
    let mut at = 0;
    for edit in edits {
        assert!(edit.span.start_byte >= at, "fix edits overlap");
        out.push_str(&text[at..edit.span.start_byte]);
        out.push_str(&edit.new_text);
        at = edit.span.end_byte;
    }
    out.push_str(&text[at..]);
    out
}

#[test]
fn offered_fixes_give_the_fixed_files_and_remove_their_violations() {
    let inputs = inputs();
    assert_eq!(inputs.len(), 3, "the fix cases are found");
    for path in inputs {
        let text = std::fs::read_to_string(&path).expect("case is readable");
        let violations = check_text(&path, &text);
        let fixed = apply(&text, &violations);
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        let (stem, extension) = name.rsplit_once('.').expect("an extension");
        let expected = path.with_file_name(format!("{stem}.fixed.{extension}"));
        expect_test::expect_file![expected].assert_eq(&fixed);

        let n_fixes = violations.iter().filter(|v| v.fix.is_some()).count();
        let after = check_text(&path, &fixed);
        assert_eq!(
            after.len(),
            violations.len() - n_fixes,
            "{}: each fix removes its violation and adds none: {after:#?}",
            path.display()
        );
    }
}
