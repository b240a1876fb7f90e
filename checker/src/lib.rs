//! Static checking of Java and Kotlin client code against callback typestates.
//!
//! The pipeline, one module per step:
//! - [`source`] accepts a file (UTF-8, known language, size limit).
//! - [`lang`] parses it with tree-sitter and lowers it into the language-neutral [`ir`].
//! - [`resolve`] gives receivers and locals their fully qualified types without a build.
//! - `accessors` turns Kotlin property reads of Java getters on protocol objects back into calls.
//! - [`cfg`] builds a control-flow graph per method body and lambda.
//!   It inlines the lambdas of Kotlin's inline functions (`inline`: `apply`, `let`, `use`, `forEach`, …).
//! - `flow` solves forward dataflow problems over those graphs to a fixpoint.
//!   A body whose solve stops at the solver's cap short of one withholds its class's findings ([`Unconverged`]).
//! - [`protocols`] is the typestate library as the checker sees it, with `platform` knowledge of class hierarchies.
//! - [`places`] finds the tracked objects, and `typestate_flow` tracks their states through one body.
//! - `events` orders the bodies of a class: Android lifecycles, event handlers, listener callbacks.
//!   It caps its rounds; a model stopped short withholds the class's findings too.
//! - `clients` decides which methods of a plain class its clients drive.
//! - `wrappers` derives a wrapper's protocol, to check its clients against.
//!   Inside the wrapper, only what fails within one call is reported.
//! - `diagnostics` turns what the analysis saw into violations.
//! - `suppress` drops the suppressed ones, and `fixes` attaches the quick fixes the checker vouches for.
//! - `leak_fixes` says where each leak is lost and attaches the leak fixes a second check confirms.
//!
//! A [`Project`] checks many files, lowering each at most once.
//! A `prefilter` on their text skips the files that name nothing a protocol object can come from.
//! An [`Incremental`] checks one document again after each edit, as the LSP server does.
//! It reparses only around the edit, and keeps the findings when the edit cannot change them (`incremental/relocate.rs`).
//! Otherwise it reuses the analyses of untouched method bodies through a layer under the event model (`events::Runner`).
//! No analysis sees that layer: `typestate_flow` and `events` take their inputs and return results.
//! Its results are those of [`check`].
//!
//! To add a language:
//! 1. Add its tree-sitter grammar to `Cargo.toml` (only `lang` uses grammars), a variant of [`ir::Language`], and its extensions in `source.rs`.
//! 2. Write `lang/<language>.rs`, lowering its node kinds into the [`ir`] through `lang::LowerCx`, as `lang/java.rs` does.
//!    The `match`es over the language in `lang/mod.rs` name what it must give: the grammar, `lower_file`, `lower_member_method`, `is_class_node`.
//! 3. The compiler lists the other `match`es: default imports in `resolve.rs`, and the text of fixes in `fixes.rs` and `leak_fixes.rs`.
//! 4. Decide the rules written as `== Language::Kotlin` or `== Language::Java` for it (`grep -rn "Language::" checker/src`).
//!    They are Kotlin's constructor calls, inline lambdas and property accessors, and Java's `break` out of a `switch`.
//! 5. Add its fixtures beside `tests/fixtures/java/` (`checks/`, `protocols/`, `unreleased/`), and name it in the tests that list languages (`tests/check.rs`, `tests/unreleased.rs`, `tests/fixes.rs`).
//! 6. In `server`, its extensions in `analysis::Language` and the project walk (`server/src/project.rs`).
//!
//! The public API is what `server` and the benchmarks use: the modules declared `pub` below and the re-exports.
//! Every other module is private to the crate.
//!
//! ```text
//! let library = typestates::library::Library::bundled();
//! let file = SourceFile::from_bytes(path, bytes)?;
//! for v in checker::check(&library, &file, &CheckConfig::default()).violations {
//!     println!("{}:{}: {}: {}", file.path.display(), v.span.start, v.kind.name(), v.message);
//! }
//! ```

// The tests inside the crate name it as the tests outside do.
#[cfg(test)]
extern crate self as checker;

// The helpers of the tests outside the crate, for the tests inside it.
#[cfg(test)]
#[path = "../tests/support/mod.rs"]
mod support;

mod accessors;
mod assertions;
pub mod cfg;
mod check;
mod clients;
mod diagnostics;
mod events;
mod fixes;
mod flow;
mod incremental;
mod inline;
pub mod ir;
pub mod lang;
mod leak_fixes;
pub mod leaks;
mod once;
pub mod places;
mod platform;
mod prefilter;
mod project;
pub mod protocols;
mod registrations;
pub mod resolve;
pub mod source;
mod suppress;
mod typestate_flow;
mod visit;
mod visit_mut;
mod wrappers;

pub use check::{
    check, project_config, states_at, CheckConfig, CheckResult, LeakScan, StatesAt, Unconverged,
    Unsettled,
};
pub use diagnostics::{Fix, FixEdit, Related, StateMeaning, Unreleased, Violation, ViolationKind};
pub use incremental::{Incremental, Lowering, Reuse};
pub use prefilter::NameFilter;
pub use project::Project;
pub use source::{OnDisk, SourceFile, Sources};
