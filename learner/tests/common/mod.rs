//! Shared fixtures of the learner's integration tests: reference typestates and one helper
//! that learns a reference through the model backend and the full query engine.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the fixtures"
)]

use std::sync::Arc;

use learner::backend::model::{ModelConfig, ModelSul, SimClock};
use learner::equivalence::CacheConsistency;
use learner::oracle::sul::CountSnapshot;
use learner::{
    learn, Algorithm, Alphabet, Chain, DistinguisherBound, EquivalenceOracle, LearnConfig,
    NoProgress, Outcome, Pipeline, PipelineConfig, WMethod,
};
use typestates::mealy::to_mealy;
use typestates::Typestate;

/// Reference typestates, small and written inline, plus the bundled CountDownTimer.
pub fn references() -> Vec<Typestate> {
    let mut texts = vec![(
        "CountDownTimer.typestate",
        include_str!("../../../typestates/library/android/os/CountDownTimer.typestate"),
    )];
    texts.extend(INLINE);
    texts
        .into_iter()
        .map(|(path, text)| {
            typestates::format::parse(path, text)
                .unwrap_or_else(|errors| panic!("{path} does not parse: {errors:?}"))
        })
        .collect()
}

/// The reference named by its simple class name.
pub fn reference(name: &str) -> Typestate {
    references()
        .into_iter()
        .find(|it| it.simple_name() == name)
        .unwrap_or_else(|| panic!("no reference {name}"))
}

const INLINE: [(&str, &str); 4] = [
    (
        "AsyncTask.typestate",
        r#"typestate android.os.AsyncTask
callin create: new() creates Fresh
callin execute: execute(..)
callin cancel: cancel(boolean)
callback postExecute: override onPostExecute()
callback cancelled: override onCancelled()

state Fresh initial
  execute -> Running
  cancel -> CancelledFresh
state Running
  cancel -> Cancelling
  on postExecute -> Done
state Cancelling
  cancel -> Cancelling
  on cancelled -> Done
state CancelledFresh
  cancel -> CancelledFresh
  execute -> CancelledFresh ignored
state Done
  cancel -> Done
"#,
    ),
    (
        "MediaRecorder.typestate",
        r#"typestate android.media.MediaRecorder
callin create: new() creates Initial
callin prepare: prepare()
callin start: start()
callin stop: stop()
callin reset: reset()

state Initial initial
  prepare -> Prepared
  reset -> Initial
state Prepared
  start -> Starting
  reset -> Initial
state Starting
  quiet -> Recording
  reset -> Initial
state Recording
  stop -> Initial
  reset -> Initial
"#,
    ),
    (
        "RequestQueue.typestate",
        r#"typestate com.android.volley.RequestQueue
callin create: new() creates Idle
callin add: add(..)
callin stop: stop()
callback response: override onResponse()

state Idle initial
  add -> Pending
  stop -> Stopped
state Pending
  stop -> Stopped
  on response -> Idle
state Stopped
  stop -> Stopped
"#,
    ),
    (
        "Call.typestate",
        r#"typestate okhttp3.Call
callin create: new() creates Created
callin enqueue: enqueue(..)
callin cancel: cancel()
callback response: override onResponse()
callback failure: override onFailure()

state Created initial
  enqueue -> Queued
  cancel -> CancelledEarly
state Queued
  cancel -> Cancelling
  on response -> Done
state Cancelling
  cancel -> Cancelling
  on failure -> Done
state CancelledEarly
  cancel -> CancelledEarly
  enqueue -> Cancelling
state Done
  cancel -> Done
  fails
"#,
    ),
];

/// The equivalence oracle of a run.
#[derive(Clone, Copy, Debug)]
pub enum Oracle {
    /// Algorithm 2 with this distinguisher bound.
    DistinguisherBound(usize),
    /// The W-method with the reference's exact number of states as the bound.
    WMethod,
}

/// What one learning run produced.
pub struct Run {
    pub outcome: Outcome,
    pub asked: CountSnapshot,
    pub executed: CountSnapshot,
    pub simulated_ms: u64,
}

impl Run {
    /// Whether the learned machine has the reference's traces.
    pub fn is_equivalent_to(&self, reference: &Typestate) -> bool {
        let Some(hypothesis) = &self.outcome.hypothesis else {
            return false;
        };
        let learned = hypothesis.mealy.minimize();
        learned
            .distinguishing_word(&to_mealy(reference).minimize())
            .is_none()
    }
}

/// Learns `reference` through the model backend with `n_instances` parallel instances.
pub async fn learn_reference(
    reference: &Typestate,
    algorithm: Algorithm,
    oracle: Oracle,
    pipeline_config: &PipelineConfig,
    model_config: ModelConfig,
    n_instances: usize,
) -> Result<Run, learner::oracle::JournalError> {
    let alphabet = Arc::new(Alphabet::of(reference.signature()));
    let clock = Arc::new(SimClock::default());
    let suls = ModelSul::pool(reference, model_config, n_instances, &clock);
    let pipeline = Pipeline::new(Arc::clone(&alphabet), suls, pipeline_config)?;
    let config = LearnConfig {
        algorithm,
        ..LearnConfig::new(Arc::clone(&alphabet))
    };
    let cache = CacheConsistency::new(Arc::clone(pipeline.tree()), Arc::clone(&alphabet));
    let outcome = match oracle {
        Oracle::DistinguisherBound(bound) => {
            run(
                &config,
                &pipeline,
                Chain(cache, DistinguisherBound::new(bound)),
            )
            .await
        }
        Oracle::WMethod => {
            let bound = to_mealy(reference).minimize().n_states();
            run(&config, &pipeline, Chain(cache, WMethod::new(bound))).await
        }
    };
    Ok(Run {
        outcome,
        asked: pipeline.asked(),
        executed: pipeline.executed(),
        simulated_ms: clock.now_ms(),
    })
}

async fn run<S: learner::oracle::Sul, E: EquivalenceOracle>(
    config: &LearnConfig,
    pipeline: &Pipeline<S>,
    mut eq: E,
) -> Outcome {
    learn(config, pipeline.oracle(), &mut eq, &mut NoProgress).await
}
