//! Data-driven tests of the checker's quick fixes: each `tests/fixes/{java,kotlin}/X` sits
//! beside `X.fixed.{java,kt}`, the file with every offered fix applied (the cases that must
//! not get one stay as they are). Update with `UPDATE_EXPECT=1` after reading the diff.
//! `tests/fixes/leaks/{java,kotlin}` holds the fixes of leak reports, checked with every leak
//! reported (`CheckConfig::report_unreleased`).
//! Every applied fix must remove its finding and add none.

mod support;

use std::path::{Path, PathBuf};

use checker::{check, CheckConfig, CheckResult, FixEdit, SourceFile};
use typestates::library::Library;

fn inputs(folder: &str) -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixes")
        .join(folder);
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

fn check_text(path: &Path, text: &str, config: &CheckConfig) -> CheckResult {
    let file = SourceFile {
        path: path.to_owned(),
        language: support::language_of(path),
        text: text.to_owned(),
    };
    let result = check(&Library::bundled(), &file, config);
    assert!(
        result.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        result.syntax_errors
    );
    result
}

/// Every finding as code, class, receiver and call, sorted: what an edit that moves it keeps.
fn keys(result: &CheckResult) -> Vec<String> {
    let mut out: Vec<String> = result
        .violations
        .iter()
        .map(|v| format!("{} {} {}.{}", v.kind.code(), v.class, v.receiver, v.callin))
        .chain(
            result
                .unreleased
                .iter()
                .map(|u| format!("{} {} {}", u.code, u.class, u.receiver)),
        )
        .collect();
    out.sort();
    out
}

/// `text` with every edit applied.
fn apply(text: &str, mut edits: Vec<&FixEdit>) -> String {
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

/// Checks the cases of `folder` with `config`; returns how many fixes were offered.
fn fixes_of(folder: &str, config: &CheckConfig) -> usize {
    let inputs = inputs(folder);
    assert!(!inputs.is_empty(), "the fix cases of {folder:?} are found");
    let mut offered = 0;
    for path in inputs {
        let text = std::fs::read_to_string(&path).expect("case is readable");
        let before = check_text(&path, &text, config);
        let fixed: Vec<(String, Vec<&FixEdit>)> = before
            .violations
            .iter()
            .filter_map(|v| {
                Some((
                    format!("{} {}", v.kind.code(), v.receiver),
                    &v.fix.as_ref()?.edits,
                ))
            })
            .chain(before.unreleased.iter().filter_map(|u| {
                Some((format!("{} {}", u.code, u.receiver), &u.fix.as_ref()?.edits))
            }))
            .map(|(what, edits)| (what, edits.iter().collect()))
            .collect();
        let all_edits = fixed.iter().flat_map(|(_, edits)| edits.clone()).collect();
        let text_fixed = apply(&text, all_edits);
        let name = path.file_name().and_then(|n| n.to_str()).expect("a name");
        let (stem, extension) = name.rsplit_once('.').expect("an extension");
        let expected = path.with_file_name(format!("{stem}.fixed.{extension}"));
        expect_test::expect_file![expected].assert_eq(&text_fixed);

        let (mut left, after) = (keys(&before), keys(&check_text(&path, &text_fixed, config)));
        for key in &after {
            let at = left.iter().position(|k| k == key);
            let at = at.unwrap_or_else(|| panic!("{}: a fix adds {key}", path.display()));
            left.remove(at);
        }
        assert!(
            left.len() >= fixed.len(),
            "{}: each fix removes its finding; left {after:#?}",
            path.display()
        );
        offered += fixed.len();
    }
    offered
}

#[test]
fn offered_fixes_give_the_fixed_files_and_remove_their_violations() {
    assert_eq!(fixes_of("", &CheckConfig::default()), 4);
}

#[test]
fn offered_leak_fixes_give_the_fixed_files_and_remove_their_leaks() {
    let config = CheckConfig {
        report_unreleased: true,
        ..CheckConfig::default()
    };
    assert_eq!(fixes_of("leaks", &config), 10);
}
