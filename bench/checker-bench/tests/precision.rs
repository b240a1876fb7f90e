//! Data-driven test of `checker-bench precision`: the sample corpus
//! (`bench/checker/testdata/sample`) against the verdicts in
//! `bench/checker/testdata/precision/verdicts.toml`; the report from its summary on must equal
//! `expected.md` beside them (`UPDATE_EXPECT=1` rewrites it), and `--check` must fail.
//! Reading the same findings from a `typestar check --format json` report of the sample
//! (`typestar-check.json` beside them) must give the same report.

use std::path::Path;
use std::process::{Command, Output};

fn precision(extra: &[&str]) -> Output {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    Command::new(env!("CARGO_BIN_EXE_checker-bench"))
        .current_dir(&root)
        .args(["precision", "--corpus", "bench/checker/testdata/sample"])
        .args([
            "--verdicts",
            "bench/checker/testdata/precision/verdicts.toml",
        ])
        .args(extra)
        .output()
        .expect("the bench binary runs")
}

/// The report from `## Summary` on: the lines above it name the date and commit.
fn body(report: &str) -> &str {
    &report[report.find("## Summary").expect("a summary")..]
}

#[test]
fn the_report_matches_the_expected_one() {
    let out = precision(&[]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let report = String::from_utf8(out.stdout).expect("UTF-8");
    let expected_path =
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../checker/testdata/precision/expected.md");
    if std::env::var_os("UPDATE_EXPECT").is_some() {
        std::fs::write(&expected_path, body(&report)).expect("expected.md is written");
    }
    let expected = std::fs::read_to_string(&expected_path).expect("expected.md exists");
    assert_eq!(body(&report), expected);
}

#[test]
fn check_fails_on_unjudged_and_lost_findings() {
    let out = precision(&["--check"]);
    assert_eq!(out.status.code(), Some(1), "{out:?}");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stderr.contains("precision gate failed"), "{stderr}");
}

#[test]
fn a_typestar_json_report_gives_the_same_report() {
    let from_checker = precision(&[]);
    let from_json = precision(&[
        "--findings",
        "bench/checker/testdata/precision/typestar-check.json",
    ]);
    assert!(
        from_json.status.success(),
        "{}",
        String::from_utf8_lossy(&from_json.stderr)
    );
    let a = String::from_utf8(from_checker.stdout).expect("UTF-8");
    let b = String::from_utf8(from_json.stdout).expect("UTF-8");
    assert_eq!(body(&a), body(&b));
}
