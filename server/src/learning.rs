//! The learning boundary of the server: what `typestar.learnClass` asks of a learner, as plain
//! data, and the experiment draft it writes for review.
//!
//! [`ModelLearner`] is the production learner. The `learner` crate has one backend so far, the
//! model backend, which runs a known typestate as a simulated device: with `backend: "model"`
//! a class of the library is re-learned through the whole pipeline (L*, equivalence oracles,
//! query engine). The JVM, Android and Robolectric backends are not in the learner yet, so
//! those settings answer "unavailable". The protocol tests plug in a scripted learner.

use std::path::PathBuf;
use std::time::Duration;

use learner::backend::model::ModelConfig;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice};
use learner::{Algorithm, End, PipelineConfig};
use serde::Deserialize;
use typestates::mealy::to_typestate;
use typestates::{LearningStats, Provenance, ProvenanceKind, Typestate};

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
    /// The class's library protocol run as a simulated device (the learner's model backend).
    Model,
}

impl Backend {
    /// The name used in settings and drafts.
    pub fn name(self) -> &'static str {
        match self {
            Backend::Jvm => "jvm",
            Backend::Android => "android",
            Backend::Robolectric => "robolectric",
            Backend::Model => "model",
        }
    }
}

/// One learning run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnRequest {
    /// The fully qualified class to learn.
    pub class: String,
    /// The class's protocol in the library, if it has one (what the model backend simulates).
    pub reference: Option<Typestate>,
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

/// The production learner: the learner crate's pipeline on the backends it has.
#[derive(Clone, Copy, Debug, Default)]
pub struct ModelLearner;

impl Learner for ModelLearner {
    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut dyn FnMut(LearnProgress),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError> {
        if request.backend != Backend::Model {
            return Err(LearnError::Unavailable(format!(
                "the learner has no {} backend yet (only `model`); the draft {} is ready for when it does",
                request.backend.name(),
                request.experiment.display()
            )));
        }
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
        let model = ModelConfig {
            quiescence_timeout_ms: request.quiescence.as_millis() as u64,
            ..ModelConfig::default()
        };
        let run = tokio::runtime::Handle::current()
            .block_on(learn_simulated(
                reference,
                Algorithm::default(),
                EquivalenceChoice::BoundOneThenWMethod(state_bound(reference)),
                &PipelineConfig::default(),
                model,
                request.jobs,
            ))
            .map_err(|err| LearnError::Failed(err.to_string()))?;
        if cancelled() {
            return Err(LearnError::Cancelled);
        }
        let hypothesis = match (&run.outcome.end, &run.outcome.hypothesis) {
            (End::Learned, Some(hypothesis)) => hypothesis,
            (end, _) => return Err(LearnError::Failed(format!("{end:?}"))),
        };
        let mut typestate = to_typestate(&hypothesis.mealy, &reference.signature());
        typestate.provenance = Provenance {
            kind: ProvenanceKind::Learned,
            sources: vec![format!(
                "typestar learner, model backend simulating the library protocol of {}",
                request.class
            )],
            platform: Some("simulated device (model backend)".to_string()),
            stats: Some(LearningStats {
                states: typestate.states.len() as u32,
                time_ms: run.simulated_ms,
                mq_asked: run.asked.queries,
                mq_executed: run.executed.queries,
                eq: run.outcome.rounds,
                distinguisher_bound: run.outcome.distinguisher_bound,
            }),
        };
        Ok(typestate)
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
