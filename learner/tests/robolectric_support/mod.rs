//! Shared setup of the Robolectric backend's tests: the artifacts of an SDK level.

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
