//! Smoke test: the bench binary measures the 3-file corpus in `bench/checker/testdata/sample`
//! and writes a report, with no downloads (ast-grep is measured only when `BENCH_AST_GREP`
//! names its binary).

use std::path::Path;
use std::process::Command;

#[test]
fn measures_the_sample_corpus_and_writes_a_report() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    let out = std::env::temp_dir().join(format!("checker-bench-smoke-{}.md", std::process::id()));
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_checker-bench"));
    cmd.current_dir(&root)
        .args(["--corpus", "bench/checker/testdata/sample", "--reps", "1"])
        .args(["--threads", "1,2", "--out"])
        .arg(&out);
    let ast_grep = std::env::var_os("BENCH_AST_GREP");
    if let Some(binary) = &ast_grep {
        cmd.arg("--ast-grep").arg(binary);
    }
    let res = cmd.output().expect("the bench binary runs");
    assert!(
        res.status.success(),
        "checker-bench failed: {}",
        String::from_utf8_lossy(&res.stderr)
    );
    let report = std::fs::read_to_string(&out).expect("the report is written");
    let _ = std::fs::remove_file(&out);
    assert!(report.contains("| **total** | | 2 | 1 |"), "{report}");
    assert!(report.contains("| typestar parse | 1 |"), "{report}");
    assert!(report.contains("| typestar parse | 2 |"), "{report}");
    assert!(report.contains("| typestar frontend | 1 |"), "{report}");
    // The four misuses in each of Player.java and Recorder.kt, and no false positive.
    assert!(report.contains("| typestar check | 1 |"), "{report}");
    assert!(report.contains(" | 8 violations |"), "{report}");
    assert!(
        report.contains("| typestar check-project | 2 |"),
        "{report}"
    );
    // The three files parse cleanly: no syntax errors reported.
    assert!(!report.contains("syntax errors"), "{report}");
    assert!(report.contains("## Ratios and targets"), "{report}");
    if ast_grep.is_some() {
        // Four misuses in Player.java and four in Recorder.kt, plus the untyped rule's false
        // positive on MediaPlayer start(); stop() in Player.fine().
        assert!(report.contains("| 9 matches |"), "{report}");
    }
}
