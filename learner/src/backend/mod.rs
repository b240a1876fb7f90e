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
