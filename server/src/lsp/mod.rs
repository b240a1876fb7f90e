//! The LSP server (`typestar lsp`), built on tower-lsp-server.
//! This module tree is the only place that knows LSP types; `to_proto` and `from_proto` convert to
//! and from the analysis types.
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

use std::sync::atomic::{AtomicBool, Ordering};
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
        learner: Arc::new(Learners::default()),
    }
}

/// The server as a tower service, for stdio or for in-memory tests.
pub fn service(engines: Engines) -> (LspService<Server>, ClientSocket) {
    service_reporting_shutdown(engines, Arc::new(AtomicBool::new(false)))
}

/// [`service`], setting `shutdown` when the client sends `shutdown`.
fn service_reporting_shutdown(
    engines: Engines,
    shutdown: Arc<AtomicBool>,
) -> (LspService<Server>, ClientSocket) {
    LspService::build(|client| {
        let mut session = session::Session::new(client, engines);
        session.shutdown = shutdown;
        Server::new(session)
    })
    .custom_method(
        handlers::progress_cancel::METHOD,
        Server::work_done_progress_cancel,
    )
    .custom_method(transport::INVALID_MESSAGE, Server::invalid_message)
    .custom_method(ext::PROTOCOL, Server::protocol)
    .finish()
}

/// How the client ended the session.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// `exit` after `shutdown`: exit status 0.
    AfterShutdown,
    /// `exit` without `shutdown`, or the input ended: exit status 1, as LSP asks.
    WithoutShutdown,
}

/// Serves LSP on a byte stream pair until the client sends `exit` or the input ends.
pub async fn serve(
    input: impl AsyncRead + Unpin + Send + 'static,
    output: impl AsyncWrite,
    engines: Engines,
) -> Exit {
    let (guarded, to_server) = tokio::io::duplex(1 << 16);
    tokio::spawn(transport::guard(input, guarded));
    let shutdown = Arc::new(AtomicBool::new(false));
    let (service, socket) = service_reporting_shutdown(engines, shutdown.clone());
    tower_lsp_server::Server::new(to_server, output, socket)
        .serve(service)
        .await;
    if shutdown.load(Ordering::Relaxed) {
        Exit::AfterShutdown
    } else {
        Exit::WithoutShutdown
    }
}

/// Serves LSP over stdin and stdout until the client sends `exit` or stdin ends.
pub async fn serve_stdio(engines: Engines) -> Exit {
    serve(tokio::io::stdin(), tokio::io::stdout(), engines).await
}
