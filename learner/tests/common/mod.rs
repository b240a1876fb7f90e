//! Shared fixtures of the learner's integration tests: the reference typestates.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the fixtures"
)]

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

/// When a [`LateOnce`] system's callback comes late.
pub enum When {
    /// The first time a run repeats a prefix that earlier ended in a callback: the fault
    /// lands on a later observation contradicting an earlier one, whatever the query order.
    Repeated,
    /// The first callback on a prefix never run before while the flag is set (a test's
    /// progress sets it while an equivalence query runs): a counterexample's first run.
    FreshWhile(std::sync::Arc<std::sync::atomic::AtomicBool>),
}

/// A model whose callback comes late once, as on a loaded machine: it misses the quiescence
/// timeout and the wait answers `quiet`.
pub struct LateOnce {
    inner: learner::backend::model::ModelSul,
    run: Vec<learner::Input>,
    ran: std::collections::HashSet<Vec<learner::Input>>,
    when: When,
    late: std::sync::Arc<std::sync::atomic::AtomicBool>,
}

impl LateOnce {
    /// `model` on a simulated device, its callback late once `when` says; the flag is set
    /// once the late callback has happened.
    pub fn new(
        model: &Typestate,
        when: When,
    ) -> (LateOnce, std::sync::Arc<std::sync::atomic::AtomicBool>) {
        use learner::backend::model::{ModelConfig, ModelSul, SimClock};
        let late = std::sync::Arc::default();
        let clock = std::sync::Arc::new(SimClock::default());
        let inner = ModelSul::new(model, ModelConfig::default(), 0, clock);
        let sul = LateOnce {
            inner,
            run: Vec::new(),
            ran: Default::default(),
            when,
            late: std::sync::Arc::clone(&late),
        };
        (sul, late)
    }
}

impl learner::oracle::sul::Sul for LateOnce {
    async fn reset(&mut self) -> Result<(), learner::oracle::sul::SulError> {
        self.run.clear();
        self.inner.reset().await
    }

    async fn step(
        &mut self,
        input: learner::Input,
    ) -> Result<learner::Output, learner::oracle::sul::SulError> {
        use std::sync::atomic::Ordering;
        let output = self.inner.step(input).await?;
        self.run.push(input);
        let fresh = self.ran.insert(self.run.clone());
        let due = match &self.when {
            When::Repeated => !fresh,
            When::FreshWhile(flag) => fresh && flag.load(Ordering::Relaxed),
        };
        if due
            && matches!(output, learner::Output::Callback(_))
            && !self.late.swap(true, Ordering::Relaxed)
        {
            return Ok(learner::Output::Quiet);
        }
        Ok(output)
    }
}
