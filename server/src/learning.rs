//! The learning boundary of the server: what `typestar.learnClass` asks of a learner, as plain
//! data, and the experiment draft it writes for review.
//!
//! The learner itself (branch `learner`, `learner::learn`) is not on this branch yet;
//! [`PendingLearner`] says so to the user, and the protocol tests plug in a scripted learner.

use std::path::PathBuf;
use std::time::Duration;

use serde::Deserialize;
use typestates::Typestate;

/// Where membership queries run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Backend {
    /// A JVM on this machine, running the class from the classpath.
    #[default]
    Jvm,
    /// An Android device or emulator over adb.
    Android,
    /// Robolectric on the host JVM.
    Robolectric,
}

impl Backend {
    /// The name used in settings and drafts.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Jvm => "jvm",
            Backend::Android => "android",
            Backend::Robolectric => "robolectric",
        }
    }
}

/// One learning run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnRequest {
    /// The fully qualified class to learn.
    pub class: String,
    /// The reviewed experiment draft.
    pub experiment: PathBuf,
    /// Where queries run.
    pub backend: Backend,
    /// Jars and folders holding the class.
    pub classpath: Vec<PathBuf>,
    /// The device, for the Android backend.
    pub device_serial: Option<String>,
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

/// Runs learning; called on a blocking thread.
pub trait Learner: Send + Sync + 'static {
    /// Learns `request.class`, reporting progress and polling `cancelled` between queries.
    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut dyn FnMut(LearnProgress),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError>;
}

/// The production learner until `learner::learn` lands on this branch.
#[derive(Clone, Copy, Debug, Default)]
pub struct PendingLearner;

impl Learner for PendingLearner {
    fn learn(
        &self,
        request: &LearnRequest,
        _report: &mut dyn FnMut(LearnProgress),
        _cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError> {
        Err(LearnError::Unavailable(format!(
            "this typestar build has no learner for the {} backend yet; the draft {} is ready for when it does",
            request.backend.name(),
            request.experiment.display()
        )))
    }
}

/// The experiment draft for a class, for the user to review before learning.
pub fn draft(request: &LearnRequest) -> String {
    let classpath: Vec<String> = request
        .classpath
        .iter()
        .map(|path| format!("{:?}", path.display().to_string()))
        .collect();
    format!(
        "# Experiment draft for {class}: review, then run typestar.learnClass again.\n\
         class = {class:?}\n\
         backend = {backend:?}\n\
         classpath = [{classpath}]\n\
         device_serial = {serial:?}\n\
         quiescence_ms = {quiescence}\n\
         query_timeout_ms = {query}\n\
         jobs = {jobs}\n\
         # callins = [\"...\"]     # the methods to call; all public methods when absent\n\
         # callbacks = [\"...\"]   # the listener methods to observe\n",
        class = request.class,
        backend = request.backend.name(),
        classpath = classpath.join(", "),
        serial = request.device_serial.as_deref().unwrap_or(""),
        quiescence = request.quiescence.as_millis(),
        query = request.query_timeout.as_millis(),
        jobs = request.jobs,
    )
}
