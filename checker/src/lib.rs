//! Static checking of Java and Kotlin client code against callback typestates.
//!
//! The pipeline, one module per step:
//! [`source`] accepts a file (UTF-8, known language, size limit);
//! [`lang`] parses it with tree-sitter and lowers it into the language-neutral [`ir`];
//! [`resolve`] gives receivers and locals their fully qualified types without a build;
//! [`cfg`] builds a control-flow graph per method body and lambda;
//! [`flow`] solves forward dataflow problems over those graphs to a fixpoint.

pub mod cfg;
pub mod flow;
pub mod ir;
pub mod lang;
pub mod resolve;
pub mod source;
