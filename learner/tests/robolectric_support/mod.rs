//! Shared setup of the Robolectric backend's tests: the artifacts of an SDK level, and the
//! goldens of machines learned inside Robolectric.

use std::path::Path;
use std::process::Command;

use learner::backend::jvm::JvmConfig;
use learner::backend::robolectric::{
    default_artifacts_dir, fetch_script, RobolectricConfig, DEFAULT_SDK,
};

use super::jvm_support::{one_run_a_trace, target_dir};

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
            choices: one_run_a_trace(),
            ..JvmConfig::default()
        },
    }
}

/// Compares the machine of `learned` with the golden `tests/robolectric/NAME`: its text from the
/// first callin on, without the provenance (which names the run's day, folder and devices).
#[allow(dead_code, reason = "not every test binary compares machines")]
pub fn assert_machine(learned: &typestates::Typestate, name: &str) {
    let text = typestates::format::print(learned);
    let machine = text
        .lines()
        .skip_while(|line| !line.starts_with("callin "))
        .collect::<Vec<_>>()
        .join("\n");
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/robolectric")
        .join(name);
    expect_test::expect_file![path].assert_eq(&machine);
}
