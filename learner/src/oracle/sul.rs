//! The system under learning, one input at a time, and a decorator that counts what it costs.
//!
//! A [`Sul`] is one instance of the class in its experiment.
//! `reset` builds a fresh object.
//! `step` gives one input of the synchronous closure and returns its output, `steps` several back to back.
//! Process, JVM and
//! device backends implement it in `crate::backend`; [`CountingSul`] wraps any of them.

use std::future::Future;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;

use thiserror::Error;

use crate::closure::{Input, Output};
use crate::cost::CostModel;

/// One instance of the system under learning.
pub trait Sul: Send + 'static {
    /// Discards the current object and builds a fresh one in the initial state.
    fn reset(&mut self) -> impl Future<Output = Result<(), SulError>> + Send;

    /// Gives one input and returns its output. After an `err` the object is dead; callers
    /// reset before the next step.
    fn step(&mut self, input: Input) -> impl Future<Output = Result<Output, SulError>> + Send;

    /// Gives `inputs` back to back and returns their outputs, up to and including the first
    /// `err` (the result is shorter than `inputs` only then). A backend whose steps cross a
    /// process or device boundary sends them in one request, so that no round trip of the
    /// learner sits between two callins: a timer scheduled 5 ms ahead must not fire between
    /// `schedule` and `cancel` only because the learner was slow to send `cancel`.
    fn steps(
        &mut self,
        inputs: &[Input],
    ) -> impl Future<Output = Result<Vec<Output>, SulError>> + Send {
        async move {
            let mut outputs = Vec::with_capacity(inputs.len());
            for &input in inputs {
                let output = self.step(input).await?;
                outputs.push(output);
                if output == Output::Err {
                    break;
                }
            }
            Ok(outputs)
        }
    }
}

/// A failure of the system itself, not an answer: the process died, the device went away.
#[derive(Clone, Debug, Error, PartialEq, Eq)]
#[error("{message}")]
pub struct SulError {
    /// What went wrong, in the backend's words.
    pub message: String,
}

impl SulError {
    /// An error with this message.
    pub fn new(message: impl Into<String>) -> SulError {
        SulError {
            message: message.into(),
        }
    }
}

/// Counters shared by the layers of one pipeline; every field only grows.
#[derive(Debug, Default)]
pub struct Counts {
    queries: AtomicU64,
    symbols: AtomicU64,
    resets: AtomicU64,
    callins: AtomicU64,
    callback_waits: AtomicU64,
    quiet_waits: AtomicU64,
}

/// A copy of [`Counts`] at one moment.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CountSnapshot {
    /// Membership queries.
    pub queries: u64,
    /// Input symbols in those queries.
    pub symbols: u64,
    /// Resets of the system.
    pub resets: u64,
    /// Callins executed.
    pub callins: u64,
    /// Waits that ended with a callback.
    pub callback_waits: u64,
    /// Waits that ended quiet, after the full quiescence timeout.
    pub quiet_waits: u64,
}

impl std::ops::Add for CountSnapshot {
    type Output = CountSnapshot;

    fn add(self, other: CountSnapshot) -> CountSnapshot {
        CountSnapshot {
            queries: self.queries + other.queries,
            symbols: self.symbols + other.symbols,
            resets: self.resets + other.resets,
            callins: self.callins + other.callins,
            callback_waits: self.callback_waits + other.callback_waits,
            quiet_waits: self.quiet_waits + other.quiet_waits,
        }
    }
}

impl std::ops::Sub for CountSnapshot {
    type Output = CountSnapshot;

    /// The counts between an earlier snapshot `other` and this one.
    fn sub(self, other: CountSnapshot) -> CountSnapshot {
        CountSnapshot {
            queries: self.queries - other.queries,
            symbols: self.symbols - other.symbols,
            resets: self.resets - other.resets,
            callins: self.callins - other.callins,
            callback_waits: self.callback_waits - other.callback_waits,
            quiet_waits: self.quiet_waits - other.quiet_waits,
        }
    }
}

impl CountSnapshot {
    /// Inputs executed on the system: callins and waits.
    pub fn steps(&self) -> u64 {
        self.callins + self.callback_waits + self.quiet_waits
    }

    /// Waits executed on the system, with a callback or quiet.
    pub fn waits(&self) -> u64 {
        self.callback_waits + self.quiet_waits
    }

    /// Device time these counts cost under `cost`, in milliseconds.
    pub fn device_time_ms(&self, cost: &CostModel) -> u64 {
        cost.predict(self)
    }
}

impl Counts {
    /// The current values.
    pub fn snapshot(&self) -> CountSnapshot {
        let load = |it: &AtomicU64| it.load(Ordering::Relaxed);
        CountSnapshot {
            queries: load(&self.queries),
            symbols: load(&self.symbols),
            resets: load(&self.resets),
            callins: load(&self.callins),
            callback_waits: load(&self.callback_waits),
            quiet_waits: load(&self.quiet_waits),
        }
    }

    pub(crate) fn add_query(&self, symbols: usize) {
        self.queries.fetch_add(1, Ordering::Relaxed);
        self.symbols.fetch_add(symbols as u64, Ordering::Relaxed);
    }

    fn add_step(&self, input: Input, output: Output) {
        let counter = match (input, output) {
            (Input::Callin(_), _) => &self.callins,
            (Input::Wait, Output::Quiet) => &self.quiet_waits,
            (Input::Wait, _) => &self.callback_waits,
        };
        counter.fetch_add(1, Ordering::Relaxed);
    }
}

/// Counts the resets and steps of the system it wraps into shared [`Counts`].
pub struct CountingSul<S> {
    inner: S,
    counts: Arc<Counts>,
}

impl<S: Sul> CountingSul<S> {
    /// Wraps `inner`, counting into `counts`.
    pub fn new(inner: S, counts: Arc<Counts>) -> CountingSul<S> {
        CountingSul { inner, counts }
    }
}

impl<S: Sul> Sul for CountingSul<S> {
    async fn reset(&mut self) -> Result<(), SulError> {
        self.counts.resets.fetch_add(1, Ordering::Relaxed);
        self.inner.reset().await
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        let output = self.inner.step(input).await?;
        self.counts.add_step(input, output);
        Ok(output)
    }

    async fn steps(&mut self, inputs: &[Input]) -> Result<Vec<Output>, SulError> {
        let outputs = self.inner.steps(inputs).await?;
        for (&input, &output) in inputs.iter().zip(&outputs) {
            self.counts.add_step(input, output);
        }
        Ok(outputs)
    }
}
