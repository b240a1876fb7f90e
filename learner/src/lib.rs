//! Active learning of callback typestates (paper 002, §3 and §4).
//!
//! The learner runs a class through the synchronous closure ([`closure`]) and learns its
//! Mealy machine with error-aware L# ([`lsharp`], the default) or L* ([`lstar`]), checking
//! hypotheses with an equivalence oracle ([`equivalence`]): the distinguisher-bound oracle of
//! paper 002, Algorithm 2, or a state bound (proved from the observations where they
//! suffice, the W-method otherwise). Every query goes through a query engine
//! ([`oracle`]) that caches, closes errors, detects non-determinism, journals and runs
//! queries in parallel; [`backend`] holds the systems it runs on. [`report`] and [`creators`]
//! turn the last hypothesis into the typestate the library stores.
//!
//! Backends: the simulated model, real classes on the host JVM ([`backend::jvm`]), Android
//! framework classes inside Robolectric ([`backend::robolectric`]), and Android devices over
//! adb ([`backend::android`]).
//! Every one learns through [`session::learn_system`], which takes the backend's [`oracle::Sul`]
//! instances and the user's guarantee.
//! To add a backend: a module under `backend/` whose `Sul` runs one query step by step and
//! whose learn function hands its instances to `learn_system` (the agent backends share
//! `backend::jvm`'s `learn_with`, which also builds the typestate and its provenance); a
//! variant of [`backend::BackendKind`]; and its arms where the front ends match on that type
//! (`server/src/cli/learn.rs` for `typestar learn`, `server/src/learning.rs` for the editor).
//! The Robolectric backend runs the same agent core on the paused main looper, with waits on its simulated clock.
//! Its Maven artifacts come from `learner/robolectric/fetch.sh`, and its provenance says which SDK level ran and whether the class was AOSP code or Robolectric's simulation.
//!
//! ```text
//! let pipeline = Pipeline::new(alphabet, suls, &PipelineConfig::default())?;
//! let mut eq = DistinguisherBound::new(2);
//! let outcome = learn(&LearnConfig::default(), pipeline.oracle(), &mut eq, &mut NoProgress).await;
//! ```

pub(crate) mod apartness;
pub mod backend;
pub mod closure;
pub mod cost;
pub mod creators;
pub mod equivalence;
pub mod hypothesis;
pub mod learn;
pub mod lsharp;
pub mod lstar;
pub mod oracle;
pub mod purposes;
pub mod report;
pub mod session;
pub mod simulation;

pub use closure::{Alphabet, Input, Output, OutputWord, Word};
pub use cost::CostModel;
pub use creators::{creators_from_initial, CreatorsError};
pub use equivalence::{
    Chain, Counterexample, DistinguisherBound, EquivalenceOracle, StateBound, WMethod,
};
pub use hypothesis::Hypothesis;
pub use learn::{
    learn, Algorithm, End, LearnConfig, NoProgress, Outcome, Progress, ProgressUpdate,
};
pub use oracle::pipeline::{Pipeline, PipelineConfig};
pub use oracle::{MembershipOracle, QueryError};
pub use report::{learned_typestate, Statistics};
pub use session::{learn_system, Choices, EquivalenceChoice, SystemRun};
