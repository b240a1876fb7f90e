//! Systems the learner runs queries on. Process, JVM and adb IO live here and nowhere else.
//!
//! - [`model`]: any typestate run as a black box on a simulated clock, with callback
//!   latencies, the quiescence timeout and optional noise; for tests and benchmarks.
//! - [`jvm`]: real Java classes run by agent processes on the host JVM, described by TOML
//!   experiment files.

pub mod jvm;
pub mod model;
