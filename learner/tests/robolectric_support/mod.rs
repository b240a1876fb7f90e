//! Shared setup of the Robolectric backend's tests: the switch of the slow tests and the
//! artifacts of the default SDK level.

use std::io::Write;
use std::process::Command;

use learner::backend::jvm::JvmConfig;
use learner::backend::robolectric::{
    default_artifacts_dir, fetch_script, RobolectricConfig, DEFAULT_SDK,
};

use super::jvm_support::target_dir;

/// Whether the slow tests run: `TYPESTAR_SLOW=1`, or in CI. Otherwise a line on the terminal
/// (past the test harness's capture) says how to run them.
pub fn slow_tests_enabled(test: &str) -> bool {
    let slow = std::env::var("TYPESTAR_SLOW").is_ok_and(|it| it == "1");
    let ci = std::env::var_os("CI").is_some_and(|it| !it.is_empty());
    if !(slow || ci) {
        let _ = writeln!(
            std::io::stderr(),
            "{test}: skipped: set TYPESTAR_SLOW=1 to learn it under Robolectric"
        );
    }
    slow || ci
}

/// The artifacts of the default SDK level, fetched by `fetch.sh` if missing (a no-op when
/// they are cached).
pub fn config() -> RobolectricConfig {
    config_on(DEFAULT_SDK)
}

/// The artifacts of SDK level `sdk`, fetched by `fetch.sh` if missing (an SDK's jar is about
/// 150-190 MB; a no-op when cached).
pub fn config_on(sdk: u32) -> RobolectricConfig {
    let dir = default_artifacts_dir();
    let status = Command::new(fetch_script())
        .arg("--dest")
        .arg(&dir)
        .arg("--sdk")
        .arg(sdk.to_string())
        .stdout(std::process::Stdio::null())
        .status()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", fetch_script().display()));
    assert!(
        status.success(),
        "{} failed ({status}); it needs mvn and Maven Central",
        fetch_script().display()
    );
    RobolectricConfig {
        sdk,
        artifacts: dir,
        jvm: JvmConfig {
            cache_dir: target_dir().join("typestar-agent-cache"),
            ..JvmConfig::default()
        },
    }
}
