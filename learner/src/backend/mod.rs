//! Systems the learner runs queries on. Process, JVM and adb IO live here and nowhere else.
//!
//! - [`model`]: any typestate run as a black box on a simulated clock, with callback
//!   latencies, the quiescence timeout and optional noise; for tests and benchmarks.

pub mod model;
