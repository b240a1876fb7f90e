//! The `typestar` server library: the analysis boundary (plain data) and the LSP server built on
//! it.
//! The `typestar` binary (`src/main.rs`) adds the command line.
//!
//! ```text
//! let (service, socket) = server::lsp::service(server::lsp::production_engines());
//! tower_lsp_server::Server::new(stdin, stdout, socket).serve(service).await;
//! ```

pub mod analysis;
pub mod compare;
pub mod docs;
pub mod learning;
pub mod lsp;
pub mod project;
pub mod sdk;
pub mod unchecked;
