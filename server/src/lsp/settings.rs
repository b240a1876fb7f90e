//! The server's settings, declared once: what the client sends under `typestar` (through
//! `workspace/configuration` or `initializationOptions`, every field optional) and the resolved
//! values the code reads.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;

use crate::analysis::{CheckOptions, Leaks, Seconds};
use crate::sdk::SdkSetting;

pub use crate::learning::{Backend, LearnSettings};

/// The configuration section the server asks the client for.
pub const SECTION: &str = "typestar";

/// The settings as the client sent them (`typestar.*`).
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct Options {
    /// `typestar.backend`: `jvm`, `android`, `robolectric` or `model`.
    pub backend: Option<Backend>,
    /// `typestar.classpath`: jars and folders holding the classes to learn.
    pub classpath: Option<Vec<PathBuf>>,
    /// `typestar.deviceSerial`: the adb serial of the device to learn on.
    pub device_serial: Option<String>,
    /// `typestar.adbServers`: the adb servers (`host:port`) to find devices on.
    pub adb_servers: Option<Vec<String>>,
    /// `typestar.sdk`: the Android SDK level the Robolectric backend runs classes on.
    pub sdk: Option<u32>,
    /// `typestar.timeouts`.
    pub timeouts: Option<TimeoutOptions>,
    /// `typestar.jobs`: membership queries run in parallel.
    pub jobs: Option<usize>,
    /// `typestar.diagnostics`.
    pub diagnostics: Option<DiagnosticOptions>,
    /// `typestar.inlayHints`.
    pub inlay_hints: Option<InlayHintOptions>,
    /// `typestar.minSdk`: the app's minSdk, for modules whose Gradle file and manifest do not
    /// say.
    pub min_sdk: Option<u32>,
    /// `typestar.targetSdk`: the app's targetSdk, likewise.
    pub target_sdk: Option<u32>,
    /// `typestar.unreleased`: report every leak, as `typestar check --unreleased` does.
    pub unreleased: Option<bool>,
    /// `typestar.timeLimitSeconds`: how long parsing and checking one file may take, as
    /// `typestar check --time-limit` says.
    pub time_limit_seconds: Option<Seconds>,
}

/// `typestar.inlayHints.*`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct InlayHintOptions {
    /// `typestar.inlayHints.states`: show the states an object may be in before each call.
    pub states: Option<bool>,
}

/// Whether inlay hints show the possible states before each protocol call.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum StateHints {
    /// Shown (opted in).
    Shown,
    /// Not shown (the default).
    #[default]
    Hidden,
}

/// `typestar.timeouts.*`, in milliseconds.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct TimeoutOptions {
    /// `typestar.timeouts.quiescenceMs`: how long to wait for a callback before calling it quiet.
    pub quiescence_ms: Option<u64>,
    /// `typestar.timeouts.queryMs`: the longest one membership query may take.
    pub query_ms: Option<u64>,
    /// `typestar.timeouts.learnMs`: the longest a whole learning run may take.
    pub learn_ms: Option<u64>,
}

/// `typestar.diagnostics.*`.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(rename_all = "camelCase", default)]
pub struct DiagnosticOptions {
    /// `typestar.diagnostics.debounceMs`: the longest burst window (see
    /// `diagnostics::burst_delay`).
    pub debounce_ms: Option<u64>,
}

/// The resolved settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Settings {
    /// How and where `typestar.learnClass` learns.
    pub learning: LearnSettings,
    /// The longest burst window: edits closer together than one check of the document (at
    /// least 20 ms, at most this) are checked once, after the last.
    pub debounce: Duration,
    /// Inlay hints with the possible states.
    pub state_hints: StateHints,
    /// The app's API levels for modules that do not say.
    pub sdk: SdkSetting,
    /// Which leak reports are published, and how long one file's check may take.
    pub check: CheckOptions,
}

impl Default for Settings {
    fn default() -> Settings {
        Settings::resolve(Options::default())
    }
}

impl Settings {
    /// Fills in defaults.
    pub fn resolve(options: Options) -> Settings {
        let timeouts = options.timeouts.unwrap_or_default();
        Settings {
            learning: LearnSettings {
                // The editor learns the classes of the project it edits: on the host JVM.
                backend: options.backend.unwrap_or(Backend::Jvm),
                classpath: options.classpath.unwrap_or_default(),
                device_serial: options.device_serial,
                adb_servers: options.adb_servers.unwrap_or_default(),
                sdk: options
                    .sdk
                    .unwrap_or(learner::backend::robolectric::DEFAULT_SDK),
                quiescence: Duration::from_millis(timeouts.quiescence_ms.unwrap_or(1_000)),
                query_timeout: Duration::from_millis(timeouts.query_ms.unwrap_or(30_000)),
                learn_timeout: Duration::from_millis(timeouts.learn_ms.unwrap_or(30 * 60_000)),
                jobs: options.jobs.unwrap_or(1).max(1),
            },
            debounce: Duration::from_millis(
                options
                    .diagnostics
                    .unwrap_or_default()
                    .debounce_ms
                    .unwrap_or(150),
            ),
            state_hints: match options.inlay_hints.and_then(|hints| hints.states) {
                Some(true) => StateHints::Shown,
                Some(false) | None => StateHints::Hidden,
            },
            sdk: SdkSetting {
                min_sdk: options.min_sdk,
                target_sdk: options.target_sdk,
            },
            check: CheckOptions {
                leaks: match options.unreleased {
                    Some(true) => Leaks::All,
                    Some(false) | None => Leaks::Vouched,
                },
                time_limit: options
                    .time_limit_seconds
                    .map_or(CheckOptions::default().time_limit, |Seconds(limit)| limit),
            },
        }
    }

    /// Resolves a JSON value from the client; `null` or a malformed value gives the defaults and
    /// the reason.
    pub fn from_json(value: serde_json::Value) -> (Settings, Option<String>) {
        if value.is_null() {
            return (Settings::default(), None);
        }
        match serde_json::from_value(value) {
            Ok(options) => (Settings::resolve(options), None),
            Err(err) => (
                Settings::default(),
                Some(format!("invalid typestar settings: {err}")),
            ),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn client_values_override_defaults() {
        let (settings, error) = Settings::from_json(json!({
            "backend": "android",
            "deviceSerial": "emulator-5554",
            "adbServers": ["farm-a:5037", "farm-b:5037"],
            "classpath": ["lib/a.jar"],
            "timeouts": { "queryMs": 5000 },
            "jobs": 4,
            "diagnostics": { "debounceMs": 0 },
            "unreleased": true,
            "timeLimitSeconds": 2.5
        }));
        assert_eq!(error, None);
        assert_eq!(settings.learning.backend, Backend::Android);
        assert_eq!(
            settings.learning.device_serial.as_deref(),
            Some("emulator-5554")
        );
        assert_eq!(
            settings.learning.adb_servers,
            ["farm-a:5037", "farm-b:5037"]
        );
        assert_eq!(settings.learning.query_timeout, Duration::from_secs(5));
        assert_eq!(settings.learning.quiescence, Duration::from_secs(1));
        assert_eq!(settings.learning.jobs, 4);
        assert_eq!(settings.debounce, Duration::ZERO);
        assert_eq!(settings.check.leaks, Leaks::All);
        assert_eq!(settings.check.time_limit, Duration::from_millis(2500));
    }

    #[test]
    fn the_time_limit_defaults_to_the_checkers() {
        let (settings, error) = Settings::from_json(json!({ "unreleased": true }));
        assert_eq!(error, None);
        assert_eq!(settings.check.time_limit, Duration::from_secs(10));
        assert_eq!(
            settings.check.time_limit,
            checker::CheckConfig::default().time_limit
        );
    }

    #[test]
    fn malformed_settings_fall_back_to_defaults() {
        let cases = [
            (json!({ "backend": "toaster" }), "toaster"),
            (
                json!({ "timeLimitSeconds": -1 }),
                "expected a number of seconds, 0 or more",
            ),
        ];
        for (value, reason) in cases {
            let (settings, error) = Settings::from_json(value);
            assert_eq!(settings, Settings::default());
            assert!(error.unwrap().contains(reason), "{reason}");
        }
    }
}
