//! The cost model of a device: what a reset, a callin and a wait cost in time.
//!
//! On a device every `wait` that ends `quiet` lasts the whole quiescence timeout.
//! A reset (a fresh object, often a fresh activity) costs more than any step.
//! The model predicts the device time of a run from its [`CountSnapshot`].
//! It decides whether extending the current run is worth it: it is whenever a reset costs more than a step.

use crate::oracle::sul::CountSnapshot;

/// Costs in milliseconds of the operations of a learning run on a device.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CostModel {
    /// Building a fresh object: tear-down, safety timeout, construction.
    pub reset_ms: u64,
    /// Calling one callin.
    pub callin_ms: u64,
    /// A `wait` that ends with a callback (the typical callback latency).
    pub callback_wait_ms: u64,
    /// A `wait` that ends quiet: the quiescence timeout.
    pub quiet_wait_ms: u64,
}

impl Default for CostModel {
    /// Costs in the range DroidStar's experiments report on an LG Nexus 5.
    fn default() -> CostModel {
        CostModel {
            reset_ms: 1_500,
            callin_ms: 20,
            callback_wait_ms: 250,
            quiet_wait_ms: 1_000,
        }
    }
}

impl CostModel {
    /// Predicted device time of `counts`, in milliseconds.
    pub fn predict(&self, counts: &CountSnapshot) -> u64 {
        counts.resets * self.reset_ms
            + counts.callins * self.callin_ms
            + counts.callback_waits * self.callback_wait_ms
            + counts.quiet_waits * self.quiet_wait_ms
    }

    /// Whether extending the current run beats resetting: a reset costs more than a step.
    pub fn prefers_extending_runs(&self) -> bool {
        self.reset_ms > self.callin_ms.max(self.callback_wait_ms)
    }
}
