//! Runs the `typestar` binary on the cases in `tests/cli/cases.txt` and compares its output
//! (stdout, then stderr) with the golden file beside each case.

use std::path::Path;
use std::process::Command;

#[test]
fn cli_cases_match_their_golden_output() {
    let tests = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/cli");
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("workspace root");
    let cases = std::fs::read_to_string(tests.join("cases.txt")).expect("cases.txt is readable");
    let mut count = 0;
    for line in cases
        .lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
    {
        let fields: Vec<&str> = line.split('|').map(str::trim).collect();
        let [name, code, args] = fields[..] else {
            panic!("malformed case line: {line}");
        };
        let output = Command::new(env!("CARGO_BIN_EXE_typestar"))
            .args(args.split_whitespace())
            .current_dir(root)
            .env("NO_COLOR", "1")
            .output()
            .expect("typestar runs");
        let actual = format!(
            "{}{}",
            String::from_utf8_lossy(&output.stdout),
            String::from_utf8_lossy(&output.stderr)
        );
        assert_eq!(
            output.status.code(),
            Some(code.parse().expect("exit code is a number")),
            "case {name} (`typestar {args}`) exited differently; output:\n{actual}"
        );
        expect_test::expect_file![tests.join(format!("{name}.out"))].assert_eq(&actual);
        count += 1;
    }
    assert!(count >= 10, "the case table was read");
}
