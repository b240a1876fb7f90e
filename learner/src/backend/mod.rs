//! Systems the learner runs queries on. Process, JVM and adb IO live here and nowhere else.
//!
//! - [`model`]: any typestate run as a black box on a simulated clock, with callback
//!   latencies, the quiescence timeout and optional noise; for tests and benchmarks.
//! - [`jvm`]: real Java classes run by agent processes on the host JVM, described by TOML
//!   experiment files.
//! - [`robolectric`]: Android framework classes run by the same agent inside Robolectric, on
//!   the paused main looper with a simulated clock, from the same experiment files.
//! - [`android`]: classes run by the agent on Android devices over adb, one worker per
//!   device, across any number of adb servers, from the same experiment files.

pub mod android;
pub mod jvm;
pub mod model;
pub mod robolectric;

/// The backends, by name: the one list the command line, the editor settings and the
/// benchmarks offer.
/// Adding a backend adds its module here, a variant here, and its arms where the front ends
/// match on this type (`server/src/cli/learn.rs`, `server/src/learning.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BackendKind {
    /// [`model`]: a typestate run as a black box on a simulated device.
    Model,
    /// [`jvm`]: agent processes on the host JVM, from an experiment file.
    Jvm,
    /// [`robolectric`]: the agent inside Robolectric, from an experiment file.
    Robolectric,
    /// [`android`]: the agent on Android devices over adb, from an experiment file.
    Android,
}

impl BackendKind {
    /// Every backend, in the order help texts list them.
    pub const ALL: [BackendKind; 4] = [
        BackendKind::Model,
        BackendKind::Jvm,
        BackendKind::Robolectric,
        BackendKind::Android,
    ];

    /// The name used on the command line, in settings and in messages.
    pub fn name(self) -> &'static str {
        match self {
            BackendKind::Model => "model",
            BackendKind::Jvm => "jvm",
            BackendKind::Robolectric => "robolectric",
            BackendKind::Android => "android",
        }
    }

    /// One line of help.
    pub fn help(self) -> &'static str {
        match self {
            BackendKind::Model => "the simulated model backend (a typestate run as a black box)",
            BackendKind::Jvm => "agents on the host JVM (an experiment file names the class, its alphabet and its reset)",
            BackendKind::Robolectric => "the agent inside Robolectric, for Android framework classes (an experiment file)",
            BackendKind::Android => "the agent on Android devices over adb, one worker per device (an experiment file)",
        }
    }

    /// Whether learning needs a reviewed experiment file: every backend but the model, which
    /// runs a known protocol.
    pub fn needs_experiment(self) -> bool {
        self != BackendKind::Model
    }
}

impl std::fmt::Display for BackendKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for BackendKind {
    type Err = String;

    fn from_str(text: &str) -> Result<BackendKind, String> {
        BackendKind::ALL
            .into_iter()
            .find(|it| it.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = BackendKind::ALL.iter().map(|it| it.name()).collect();
                format!("unknown backend `{text}` (backends: {})", names.join(", "))
            })
    }
}
