//! The learning boundary of the server: what `typestar.learnClass` asks of a learner, as plain
//! data, and [`Learners`], the production learner over the `learner` crate's backends:
//! - `jvm`: `learner::backend::jvm`: the experiment is drafted by an agent on the host JVM
//!   (`draft_experiment`) for review, then learned in agent processes;
//! - `robolectric`: `learner::backend::robolectric`: the agent inside Robolectric at the
//!   configured SDK level, from an experiment the repository ships (`learner/experiments/`) or
//!   one the user wrote (drafting needs the host JVM, which has no Android classes);
//! - `model`: a class of the library re-learned on a simulated device;
//! - `android`: the agent on Android devices over adb (experiments are written by hand).
//!
//! Every backend learns through the learner's one entry point, `learner::backend::learn`.
//!
//! When a run cannot start for want of configuration (a class not on the classpath, an Android
//! class on the host JVM, Robolectric's artifacts missing, no JDK), the error says what to set.
//!
//! Learners run on a blocking thread; the async learner futures are driven there and dropped
//! (killing the agents) when the user cancels. The protocol tests plug in a scripted learner.

use std::path::{Path, PathBuf};
use std::time::Duration;

use std::future::Future;
use std::sync::Arc;

pub use learner::backend::jvm::Draft;
use learner::backend::jvm::{self, Experiment, JvmError};
use learner::{End, Progress, ProgressUpdate, Request};
use typestates::Typestate;

/// Where membership queries run: the learner's one list of backends.
pub use learner::backend::BackendKind as Backend;

/// One learning run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnRequest {
    /// The fully qualified class to learn.
    pub class: String,
    /// The class's protocol in the library, if it has one (what the model backend simulates).
    pub reference: Option<Typestate>,
    /// The experiment file (`learner/EXPERIMENTS.md`), for the backends that need one.
    pub experiment: PathBuf,
    /// How and where to learn (the `typestar.*` learning settings).
    pub settings: LearnSettings,
}

/// How and where learning runs: the learning part of the server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnSettings {
    /// Where queries run.
    pub backend: Backend,
    /// Jars and folders holding the classes to learn.
    pub classpath: Vec<PathBuf>,
    /// The device, for the Android backend.
    pub device_serial: Option<String>,
    /// The Android SDK level, for the Robolectric backend.
    pub sdk: u32,
    /// How long a wait lasts before it counts as quiet.
    pub quiescence: Duration,
    /// Timeout of one membership query.
    pub query_timeout: Duration,
    /// Timeout of the whole run.
    pub learn_timeout: Duration,
    /// Parallel queries.
    pub jobs: usize,
}

/// A progress report of a running learner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnProgress {
    /// What the learner is doing: "round 2: 41 membership queries".
    pub message: String,
    /// How far along, when the learner can tell.
    pub percentage: Option<u32>,
}

/// Why a run produced no typestate.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum LearnError {
    /// The user cancelled.
    Cancelled,
    /// This build cannot learn with this backend.
    Unavailable(String),
    /// The run failed.
    Failed(String),
}

impl std::fmt::Display for LearnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LearnError::Cancelled => f.write_str("cancelled"),
            LearnError::Unavailable(why) => write!(f, "learning is unavailable: {why}"),
            LearnError::Failed(why) => write!(f, "learning failed: {why}"),
        }
    }
}

/// Drafts experiments and runs learning; called on a blocking thread of the runtime.
pub trait Learner: Send + Sync + 'static {
    /// A first experiment file for `request.class`, with the harness sources it names, for the
    /// user to review.
    fn draft(&self, request: &LearnRequest) -> Result<Draft, LearnError>;

    /// Learns `request.class`, reporting progress; stops soon after `cancelled` turns true.
    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut (dyn FnMut(LearnProgress) + Send),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError>;
}

/// The production learner: the `learner` crate's backends.
#[derive(Clone, Copy, Debug, Default)]
pub struct Learners;

impl Learner for Learners {
    fn draft(&self, request: &LearnRequest) -> Result<Draft, LearnError> {
        match request.settings.backend {
            Backend::Jvm => {
                refuse_android_on_the_host(request)?;
                tokio::runtime::Handle::current()
                    .block_on(jvm::draft_experiment(
                        &request.class,
                        &request.settings.classpath,
                    ))
                    .map_err(|err| setup_error(err, request))
            }
            Backend::Robolectric => shipped_experiment(request),
            Backend::Model => Err(LearnError::Failed(
                "the model backend needs no experiment".to_string(),
            )),
            Backend::Android => Err(LearnError::Unavailable(
                "experiments are drafted on the host JVM, which lacks Android's classes: write \
                 the experiment by hand (learner/EXPERIMENTS.md), then learn on android"
                    .to_string(),
            )),
        }
    }

    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut (dyn FnMut(LearnProgress) + Send),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError> {
        let settings = &request.settings;
        let mut learn = Request::new(settings.backend);
        learn.session.jobs = settings.jobs;
        match settings.backend {
            Backend::Model => {
                let Some(reference) = &request.reference else {
                    return Err(LearnError::Unavailable(format!(
                        "the model backend simulates a protocol the library already has, and {} has none",
                        request.class
                    )));
                };
                report(LearnProgress {
                    message: format!("learning {} on a simulated device", request.class),
                    percentage: None,
                });
                learn.model = Some(reference.clone());
                learn.device.quiescence_timeout_ms = settings.quiescence.as_millis() as u64;
            }
            Backend::Jvm | Backend::Robolectric | Backend::Android => {
                if settings.backend == Backend::Jvm {
                    refuse_android_on_the_host(request)?;
                }
                let experiment = Experiment::load(&request.experiment)
                    .map_err(|err| setup_error(err.into(), request))?;
                learn.experiment = Some(Arc::new(experiment));
                learn.classpath = settings.classpath.clone();
                learn.sdk = Some(settings.sdk);
                learn.android.serials = settings.device_serial.iter().cloned().collect();
            }
        }
        let mut progress = Reports(report);
        let run = until_cancelled(learner::learn_request(learn, &mut progress), cancelled)?
            .map_err(|err| match err {
                learner::LearnError::Jvm(err) => setup_error(err, request),
                learner::LearnError::Missing(..) => LearnError::Unavailable(err.to_string()),
                err => LearnError::Failed(err.to_string()),
            })?;
        match (run.outcome.end, run.typestate) {
            (End::Learned, Some(typestate)) => Ok(typestate),
            (end, _) => Err(LearnError::Failed(format!("{end:?}"))),
        }
    }
}

/// Android framework classes are not on the host JVM: learning them there cannot start.
fn refuse_android_on_the_host(request: &LearnRequest) -> Result<(), LearnError> {
    let class = &request.class;
    if !class.starts_with("android.") {
        return Ok(());
    }
    Err(LearnError::Unavailable(format!(
        "{class} is an Android framework class, which the host JVM does not have: set \
         `typestar.backend` to `robolectric` (its artifacts: {ROBOLECTRIC_SETUP})"
    )))
}

/// What to set up for the Robolectric backend.
const ROBOLECTRIC_SETUP: &str = "run `learner/robolectric/fetch.sh --sdk N` for the SDK level \
     of `typestar.sdk`, or point the server's TYPESTAR_ROBOLECTRIC_DIR at a folder it filled";

/// The experiment the repository ships for the class, as the draft to review: drafting asks
/// an agent on the host JVM to describe the class, which cannot load Android classes.
fn shipped_experiment(request: &LearnRequest) -> Result<Draft, LearnError> {
    let shipped = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../learner/experiments")
        .join(format!("{}.toml", request.class));
    match std::fs::read_to_string(&shipped) {
        Ok(experiment) => Ok(Draft {
            experiment,
            harnesses: Vec::new(),
        }),
        Err(_) => Err(LearnError::Unavailable(format!(
            "the robolectric backend needs an experiment for {class}, and none ships with \
             typestar: write {experiment} (learner/EXPERIMENTS.md says how), then learn again",
            class = request.class,
            experiment = request.experiment.display(),
        ))),
    }
}

/// An error of the JVM or Robolectric backend: what to set when configuration is missing,
/// else a failure.
fn setup_error(err: JvmError, request: &LearnRequest) -> LearnError {
    match err {
        JvmError::Refused { ref code, .. } if code == "class-not-found" => {
            let classpath: Vec<String> = request
                .settings
                .classpath
                .iter()
                .map(|path| path.display().to_string())
                .collect();
            LearnError::Unavailable(format!(
                "{class} is not on the learning class path (`typestar.classpath`: [{classpath}]): \
                 build the project and add the folders or jars of its compiled classes (e.g. \
                 app/build/intermediates/javac/debug/classes) to `typestar.classpath`; if {class} \
                 is or extends an Android class, also set `typestar.backend` to `robolectric` \
                 ({ROBOLECTRIC_SETUP}) ({err})",
                class = request.class,
                classpath = classpath.join(", "),
            ))
        }
        JvmError::RobolectricArtifacts { .. }
        | JvmError::JavaNotFound { .. }
        | JvmError::BadJavaHome { .. }
        | JvmError::Experiment(_) => LearnError::Unavailable(err.to_string()),
        err => LearnError::Failed(err.to_string()),
    }
}

/// Drives `run` on this blocking thread, dropping it when `cancelled` turns true (checked
/// every 50 ms).
fn until_cancelled<T>(
    run: impl Future<Output = T>,
    cancelled: &dyn Fn() -> bool,
) -> Result<T, LearnError> {
    tokio::runtime::Handle::current().block_on(async {
        tokio::pin!(run);
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(50));
        loop {
            tokio::select! {
                done = &mut run => return Ok(done),
                _ = tick.tick() => if cancelled() {
                    return Err(LearnError::Cancelled);
                },
            }
        }
    })
}

/// The learner's phase changes as progress reports.
struct Reports<'a>(&'a mut (dyn FnMut(LearnProgress) + Send));

impl Progress for Reports<'_> {
    fn update(&mut self, update: ProgressUpdate) {
        (self.0)(LearnProgress {
            message: format!(
                "round {}: {:?}, {} states so far",
                update.rounds, update.phase, update.n_states
            ),
            percentage: None,
        });
    }
}
