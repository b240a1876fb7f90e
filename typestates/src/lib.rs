//! Callback typestates: the model every typestar crate speaks.
//!
//! A callback typestate is the finite-state protocol of a class: which callins (methods the
//! client calls) are allowed in which state, and which callbacks (client methods the framework
//! calls, asynchronously) may arrive. This crate holds:
//! - the model ([`Typestate`]) and its bindings to Java code ([`binding`]), with the steps
//!   that hold on some Android API levels only ([`levels`]);
//! - the Mealy machine of the synchronous closure ([`mealy`]) with minimisation and
//!   equivalence, and a behavioural [`diff`];
//! - a typestate projected onto some of its inputs ([`projection`]);
//! - the text format people write by hand and its JSON twin ([`format`]);
//! - renderings for people: DOT, Mermaid and the protocol table ([`render`]).
//!
//! ```text
//! let typestate = typestates::format::parse("CountDownTimer.typestate", &text)?;
//! let mealy = typestates::mealy::to_mealy(&typestate);
//! ```

pub mod binding;
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
    Callback, CallbackId, Callin, CallinId, Event, Example, LevelStep, Origin, State, StateId,
    Step, Typestate, WaitOutcome,
};
pub use obligation::{Basis, Deadline, Obligation};
pub use provenance::{Backend, Code, LearningRun, LearningStats, Provenance, ProvenanceKind};
