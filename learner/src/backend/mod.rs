//! Systems the learner runs queries on.
//! Process, JVM and adb IO live here and nowhere else.
//! [`learn`] is the one entry point: a front end fills a [`Request`], and its backend's module
//! learns it through the shared pipeline.
//!
//! - [`model`]: any typestate run as a black box on a simulated clock, for tests and benchmarks.
//!   The clock has callback latencies, the quiescence timeout and optional noise.
//! - [`jvm`]: real Java classes run by agent processes on the host JVM, described by TOML
//!   experiment files.
//! - [`robolectric`]: Android framework classes run by the same agent inside Robolectric, from the
//!   same experiment files.
//!   They run on the paused main looper with a simulated clock.
//! - [`android`]: classes run by the agent on Android devices over adb, from the same experiment
//!   files.
//!   It has one worker per device, across any number of adb servers.

pub mod android;
pub mod fixtures;
pub mod jvm;
pub mod model;
pub mod robolectric;

use std::path::PathBuf;
use std::sync::Arc;

use thiserror::Error;
use typestates::Typestate;

use crate::learn::Progress;
use crate::oracle::journal::JournalError;
use crate::session::{Learned, Session};
use android::{AndroidConfig, AndroidError};
use jvm::{Experiment, JvmConfig, JvmError};
use model::ModelConfig;
use robolectric::RobolectricConfig;

/// What a front end asks of a learning run, whatever the backend: each backend reads the
/// fields that concern it and refuses a run that lacks what it needs.
#[derive(Clone, Debug)]
pub struct Request {
    /// The backend to learn on.
    pub backend: BackendKind,
    /// The user's choices, the parallel instances and the journal.
    pub session: Session,
    /// Model backend: the typestate run as a black box.
    pub model: Option<Typestate>,
    /// Model backend: timing and noise of the simulated device.
    pub device: ModelConfig,
    /// Agent backends: the experiment.
    pub experiment: Option<Arc<Experiment>>,
    /// JVM and Robolectric backends: jars and class folders of the code under study.
    pub classpath: Vec<PathBuf>,
    /// Robolectric backend: the SDK level ([`robolectric::DEFAULT_SDK`] if `None`).
    pub sdk: Option<u32>,
    /// Android backend: the adb servers, the devices and the adb program.
    pub android: AndroidConfig,
}

impl Request {
    /// A request for `backend` with every option at its default.
    pub fn new(backend: BackendKind) -> Request {
        Request {
            backend,
            session: Session::default(),
            model: None,
            device: ModelConfig::default(),
            experiment: None,
            classpath: Vec::new(),
            sdk: None,
            android: AndroidConfig::default(),
        }
    }

    /// The JVM backend's configuration: the class path and the session.
    fn jvm(&self) -> JvmConfig {
        JvmConfig {
            classpath: self.classpath.clone(),
            jobs: self.session.jobs,
            journal: self.session.journal.clone(),
            choices: self.session.choices.clone(),
            ..JvmConfig::default()
        }
    }

    /// The experiment, which every backend but the model needs.
    fn experiment(&self) -> Result<Arc<Experiment>, LearnError> {
        self.experiment
            .clone()
            .ok_or(LearnError::Missing(self.backend, "an experiment file"))
    }
}

/// Why a run produced no [`Learned`]: its backend could not start or go on.
#[derive(Debug, Error)]
pub enum LearnError {
    /// The journal cannot be used or contradicts the system.
    #[error(transparent)]
    Journal(#[from] JournalError),
    /// The JVM or Robolectric agents failed.
    #[error(transparent)]
    Jvm(#[from] JvmError),
    /// The devices or their agents failed.
    #[error(transparent)]
    Android(#[from] AndroidError),
    /// The experiment's fixture files cannot be served.
    #[error(transparent)]
    Fixtures(#[from] fixtures::FixtureError),
    /// The request lacks what the backend needs.
    #[error("the {0} backend needs {1}")]
    Missing(BackendKind, &'static str),
}

/// Learns what `request` asks on its backend: the one entry point of the command line, the
/// editor and the benchmarks, and the one registration of a backend.
/// Every backend learns through the same pipeline (`session::learn_setup`): the query
/// engine, the user's guarantee over the backend's default, the learning loop, the check
/// beyond a state bound, the statistics and the learned typestate with its provenance.
pub async fn learn(request: Request, progress: &mut dyn Progress) -> Result<Learned, LearnError> {
    Ok(match request.backend {
        BackendKind::Model => {
            let typestate = request.model.as_ref().ok_or(LearnError::Missing(
                BackendKind::Model,
                "a typestate to simulate",
            ))?;
            model::learn(typestate, request.device, &request.session, progress).await?
        }
        BackendKind::Jvm => {
            let experiment = request.experiment()?;
            let _fixtures = serve_on_host(&experiment)?;
            jvm::learn_class(experiment, &request.jvm(), progress).await?
        }
        BackendKind::Robolectric => {
            let experiment = request.experiment()?;
            let _fixtures = serve_on_host(&experiment)?;
            let config = RobolectricConfig {
                sdk: request.sdk.unwrap_or(robolectric::DEFAULT_SDK),
                jvm: request.jvm(),
                ..RobolectricConfig::default()
            };
            robolectric::learn_class(experiment, &config, progress).await?
        }
        BackendKind::Android => {
            let mut config = AndroidConfig {
                jvm: request.jvm(),
                ..request.android.clone()
            };
            if config.jars.is_empty() {
                config.jars.push(android::dex_jar()?);
            }
            android::learn_on_devices(request.experiment()?, &config, progress).await?
        }
    })
}

/// Serves `experiment`'s fixtures where agents on the host fetch them: on the host at the
/// port the experiment names (devices reach them over `adb reverse` instead).
fn serve_on_host(
    experiment: &Experiment,
) -> Result<Option<fixtures::FixtureServer>, fixtures::FixtureError> {
    experiment
        .fixtures()
        .map(|it| fixtures::FixtureServer::start(&it.dir, it.port))
        .transpose()
}

/// The backends, by name: the one list the command line, the editor settings and the
/// benchmarks offer.
/// Adding a backend adds its module here, a variant here and its arm in [`learn`] (the
/// crate doc's recipe).
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
