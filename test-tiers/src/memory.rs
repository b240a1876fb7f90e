//! Peak memory of one piece of work, measured in a process of its own.
//! That process is the test binary run again with an environment variable naming the work.
//! Growth tests compare the peak at `n` and at `4 n`: about 4 is linear, 16 quadratic.
//! No clock is read.

use std::process::Command;

/// A field of `/proc/self/status`, in KiB.
fn status_kib(field: &str) -> u64 {
    let status = std::fs::read_to_string("/proc/self/status").expect("/proc/self/status");
    status
        .lines()
        .find_map(|line| line.strip_prefix(field)?.strip_prefix(':'))
        .and_then(|rest| rest.trim().trim_end_matches("kB").trim().parse().ok())
        .unwrap_or_else(|| panic!("no {field} in /proc/self/status"))
}

/// In the child: runs `work` and prints the peak of its resident memory above what the
/// process held before it (`VmHWM` and `VmRSS`), for [`peak_kib`] to read.
pub fn report_peak(work: impl FnOnce()) {
    let before = status_kib("VmRSS");
    work();
    println!("peak {}", status_kib("VmHWM").saturating_sub(before));
}

/// In the parent: runs the test `test` of this test binary again with `variable` set to
/// `value` (the test then calls [`report_peak`]); returns the peak it reports, in KiB.
/// The test is a slow one, so `#[ignore]`d: the child includes ignored tests.
pub fn peak_kib(test: &str, variable: &str, value: &str) -> u64 {
    let output = Command::new(std::env::current_exe().expect("the test binary"))
        .args([
            test,
            "--exact",
            "--include-ignored",
            "--nocapture",
            "--test-threads=1",
        ])
        .env(variable, value)
        .output()
        .expect("the test binary runs");
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(
        output.status.success(),
        "{value}: {}\n{stdout}",
        String::from_utf8_lossy(&output.stderr)
    );
    stdout
        .lines()
        .find_map(|line| line.rsplit_once("peak ")?.1.parse().ok())
        .unwrap_or_else(|| panic!("{value}: no peak in {stdout}"))
}
