//! Active learning of callback typestates (the Starling paper, §3 and §4).
//!
//! # What it does
//! - It runs a class through the synchronous closure ([`closure`]) and learns its Mealy machine.
//! - It learns with error-aware L# ([`lsharp`], the default), L* or active k-tails.
//! - Active k-tails ([`lstar`]) is L* whose columns are every word up to the distinguisher bound.
//! - It checks hypotheses with an equivalence oracle ([`equivalence`]).
//!   That is the Starling paper's distinguisher-bound oracle (Algorithm 2), or a state bound.
//!   A state bound is proved from the observations where they suffice, else by the W-method.
//! - Every query goes through a query engine ([`oracle`]).
//!   It caches, closes errors, detects non-determinism, journals and runs queries in parallel.
//! - [`backend`] holds the systems it runs on.
//! - [`report`] and [`creators`] turn the last hypothesis into the typestate the library stores.
//!
//! # Noisy backends
//! - Answers can differ between runs on the JVM, Robolectric and Android backends.
//!   They can also differ on a model with noise.
//! - There, by default, each trace a result rests on runs until three runs gave it.
//!   That is [`oracle::pipeline::Confirmation::NOISY`].
//! - A disagreement is voted on until three runs agree.
//! - A counterexample also runs until three runs gave it before learning uses it.
//!   One the reruns vote down is dropped and counted ([`Outcome::dropped`]).
//! - The run then learns the majority's behaviour and lists the disagreements.
//!   Or it stops with the traces.
//!
//! # Backends
//! - The simulated model.
//! - Real classes on the host JVM ([`backend::jvm`]).
//! - Android framework classes inside Robolectric ([`backend::robolectric`]).
//!   It runs the JVM agent's core on the paused main looper, with waits on its simulated clock.
//!   Its Maven artifacts come from `learner/robolectric/fetch.sh`.
//!   Its provenance names the SDK level that ran.
//!   It also says what ran: AOSP code, a library's jar, the JDK's code, or Robolectric's simulation.
//! - Android devices over adb ([`backend::android`]).
//!
//! # One way to learn
//! - A front end fills a [`backend::Request`] and calls [`backend::learn`].
//! - The command line (`typestar learn`) and the editor's learn command do.
//!   So do the benchmarks, through [`simulation::learn_simulated`].
//! - `backend::learn` hands the request to its backend's module.
//! - Every backend learns through one pipeline, `session::learn_setup`.
//!   It holds the query engine and the user's choices over the backend's defaults.
//!   It also holds the learning loop, the check beyond a state bound and the statistics.
//!   It returns the learned typestate with its provenance ([`Learned`]).
//! - [`session::learn_system`] is that pipeline's core over any [`oracle::Sul`].
//!   Tests use it with scripted systems.
//!
//! # How to add a backend
//! 1. Write a module under `backend/` with a [`oracle::Sul`] that runs one query step by step.
//!    Give it a learn function that builds its instances into a `session::Setup`.
//!    The setup holds the alphabet, defaults, cost and origin; pass it to `session::learn_setup`.
//!    Agent backends reuse `backend::jvm`'s `learn_with`, which adds the experiment's filters and
//!    creators.
//! 2. Register it in `backend/mod.rs`: a variant of [`backend::BackendKind`] (name, help).
//!    Add its arm in [`backend::learn`].
//!    The arm reads what it needs from [`backend::Request`].
//!    Add a field there only for an option no backend had.
//! 3. The command line and the editor then offer it by name.
//! 4. The compiler points at the front ends' `match`es over the backend, where it gets its arm.
//!    `server/src/cli/learn.rs` and `server/src/learning.rs` say what it learns from.
//!    That is a model or an experiment.
//!    `Learners::draft` says how the editor drafts its experiment.
//!    The command line's table of options per backend says which of its options apply.
//!    That table is `refuse_what_the_backend_ignores`.
//!
//! ```text
//! let pipeline = Pipeline::new(Arc::clone(&alphabet), suls, &PipelineConfig::default())?;
//! let mut eq = DistinguisherBound::new(2);
//! let config = LearnConfig::new(alphabet);
//! let outcome = learn(&config, pipeline.oracle(), &mut eq, &mut NoProgress).await;
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
pub mod shipped;
pub mod simulation;

pub use backend::{learn as learn_request, BackendKind, LearnError, Request};
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
pub use session::{learn_system, Choices, Details, EquivalenceChoice, Learned, Session, SystemRun};
