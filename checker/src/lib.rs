//! Static checking of Java and Kotlin client code against callback typestates.
//!
//! The pipeline, one module per step:
//! [`source`] accepts a file (UTF-8, known language, size limit);
//! [`lang`] parses it with tree-sitter and lowers it into the language-neutral [`ir`];
//! [`resolve`] gives receivers and locals their fully qualified types without a build, and
//! [`accessors`] turns Kotlin property reads of Java getters on protocol objects back into calls;
//! [`cfg`] builds a control-flow graph per method body and lambda, inlining the lambdas of
//! Kotlin's inline functions (`inline`: `apply`, `let`, `use`, `forEach`, …);
//! [`flow`] solves forward dataflow problems over those graphs to a fixpoint;
//! [`protocols`] is the typestate library as the checker sees it, with [`platform`] knowledge
//! of class hierarchies;
//! [`places`] finds the tracked objects, [`typestate_flow`] tracks their states through one
//! body, and [`events`] orders the bodies of a class (Android lifecycles, event handlers,
//! listener callbacks);
//! [`diagnostics`] turns what the analysis saw into violations, [`suppress`] drops the
//! suppressed ones, and [`fixes`] attaches the quick fixes the checker vouches for.
//! A [`Project`] checks many files, lowering each at most once and skipping, by a
//! [`prefilter`] on their text, the files that name nothing a protocol object can come from.
//! An [`Incremental`] checks one document again after each edit (as the LSP server does),
//! reparsing only around the edit and keeping the findings when the edit cannot change them
//! ([`relocate`]); its results are those of [`check`].
//!
//! ```text
//! let library = typestates::library::Library::bundled();
//! let file = SourceFile::from_bytes(path, bytes)?;
//! for v in checker::check(&library, &file, &CheckConfig::default()).violations {
//!     println!("{}:{}: {}: {}", file.path.display(), v.span.start, v.kind.name(), v.message);
//! }
//! ```

pub mod accessors;
mod body_memo;
pub mod cfg;
mod check;
pub mod diagnostics;
pub mod events;
pub mod fixes;
pub mod flow;
mod incremental;
mod inline;
pub mod ir;
pub mod lang;
pub mod leaks;
pub mod places;
pub mod platform;
pub mod prefilter;
mod project;
pub mod protocols;
pub mod relocate;
pub mod resolve;
pub mod source;
pub mod suppress;
pub mod typestate_flow;
pub mod visit;
pub mod visit_mut;

pub use check::{calls, check, project_supertypes, states_at, CheckConfig, CheckResult, StatesAt};
pub use diagnostics::{Fix, FixEdit, Related, Unreleased, Violation, ViolationKind};
pub use incremental::{Incremental, Lowering, Reuse};
pub use project::Project;
pub use source::SourceFile;
