//! The LSP server (`typestar lsp`), built on tower-lsp-server. This module tree is the only place
//! that knows LSP types; `to_proto` and `from_proto` convert to and from the analysis types.
//!
//! Read `server/CONTRIBUTING.md` before adding a handler: state changes happen synchronously,
//! before the first `.await`, and analysis runs on snapshots.

pub mod capabilities;
mod diagnostics;
mod documents;
pub mod ext;
pub mod framing;
pub mod from_proto;
mod handlers;
mod server;
mod session;
pub mod settings;
mod tasks;
pub mod to_proto;
mod transport;
mod workspace;

use std::sync::Arc;

use tokio::io::{AsyncRead, AsyncWrite};
use tower_lsp_server::{ClientSocket, LspService};

pub use server::Server;
pub use session::Engines;

use crate::analysis::StaticChecker;
use crate::learning::Learners;

/// The engines of the `typestar` binary.
pub fn production_engines() -> Engines {
    Engines {
        checker: Arc::new(StaticChecker::default()),
        learner: Arc::new(Learners),
    }
}

/// The server as a tower service, for stdio or for in-memory tests.
pub fn service(engines: Engines) -> (LspService<Server>, ClientSocket) {
    LspService::build(|client| Server::new(session::Session::new(client, engines)))
        .custom_method(
            handlers::progress_cancel::METHOD,
            Server::work_done_progress_cancel,
        )
        .custom_method(transport::INVALID_MESSAGE, Server::invalid_message)
        .custom_method(ext::PROTOCOL, Server::protocol)
        .finish()
}

/// Serves LSP on a byte stream pair until the client sends `exit`.
pub async fn serve(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite,
    engines: Engines,
) {
    let (guarded, to_server) = tokio::io::duplex(1 << 16);
    tokio::spawn(transport::guard(input, guarded));
    let (service, socket) = service(engines);
    tower_lsp_server::Server::new(to_server, output, socket)
        .serve(service)
        .await;
}

/// Serves LSP over stdin and stdout until the client sends `exit`.
pub async fn serve_stdio(engines: Engines) {
    serve(tokio::io::stdin(), tokio::io::stdout(), engines).await;
}
