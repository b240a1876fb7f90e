//! Callback typestates: the model every typestar crate speaks.
//!
//! A callback typestate is the finite-state protocol of a class.
//! It says which callins (methods the client calls) are allowed in which state, and which callbacks (client methods the framework calls, asynchronously) may arrive.
//! This crate holds:
//! - the model ([`Typestate`]) and its bindings to Java code ([`binding`]);
//! - the steps that hold on some Android API levels only ([`levels`]);
//! - the Mealy machine of the synchronous closure ([`mealy`]), with minimisation and equivalence;
//! - the protocol of a wrapper class, derived from what its methods do ([`derived`]);
//! - a behavioural [`diff`], and a typestate projected onto some of its inputs ([`projection`]);
//! - whether a library typestate abstracts a run over chosen data ([`abstraction`]);
//! - the text format people write by hand and its JSON twin ([`format`]);
//! - renderings for people: DOT, Mermaid and the protocol table ([`render`]).
//!
//! To add a protocol to the bundled library:
//! 1. Write `library/<package path>/<Class>.typestate` in the text format (`FORMAT.md`).
//!    A learned one comes from `typestar learn`, with its run; a documented one cites its sources (`source`, `from`).
//! 2. Name the file in the `bundled!` list of [`library`]; `tests/library.rs` fails on a file it does not name.
//! 3. If platform classes extend the class, add them to `SUPERTYPES` in `checker/src/platform.rs`, so the checker tracks their objects.
//! 4. Add a checker fixture: `checker/tests/fixtures/java/protocols/<Class>.java` with a true positive, then near misses after `// near misses`.
//!    A protocol with an obligation may have its fixture under `unreleased/` instead; `checker/tests/check.rs` fails on a protocol without one.
//! 5. Accept the goldens that list or learn every class, after reading their diffs:
//!    `UPDATE_EXPECT=1 cargo test -p server --test cli` (`typestar library`), and
//!    `UPDATE_EXPECT=1 cargo test -p learner --test library --test bounds --test heuristics --test purposes --test suites`.
//!
//! ```text
//! let typestate = typestates::format::parse("CountDownTimer.typestate", &text)?;
//! let mealy = typestates::mealy::to_mealy(&typestate);
//! ```

pub mod abstraction;
pub mod binding;
pub mod derived;
pub mod diff;
pub mod files;
pub mod format;
pub mod grouping;
pub mod levels;
pub mod library;
pub mod mealy;
pub mod model;
pub mod obligation;
pub mod projection;
pub mod provenance;
pub mod render;

pub use binding::{Answer, CallbackBinding, CallinBinding, MethodKind, MethodRef, Params};
pub use levels::{ApiLevels, LevelSet};
pub use model::{
    Callback, CallbackId, Callin, CallinId, Event, Example, Exclusion, Failure, LevelStep, Origin,
    PostedError, State, StateId, Step, Steps, Typestate, WaitOutcome,
};
pub use obligation::{Basis, Deadline, Obligation};
pub use provenance::{Backend, Code, LearningRun, LearningStats, Provenance, ProvenanceKind};
