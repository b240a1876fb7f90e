//! `typestar lsp`: the language server over stdio.
//! Logs go to stderr (stdout carries the protocol); set `RUST_LOG=debug` (or
//! `typestar=debug,tower_lsp_server=trace`) for more.

use std::process::ExitCode;

use clap::Args;
use tracing_subscriber::EnvFilter;

/// Arguments of `typestar lsp`.
#[derive(Args, Debug)]
pub struct LspArgs {
    /// Accepted for editors that always pass it; stdio is the only transport.
    #[arg(long)]
    stdio: bool,
}

/// Runs the server until the client exits: status 0 after `shutdown`, else 1.
pub fn run(_args: LspArgs) -> anyhow::Result<ExitCode> {
    tracing_subscriber::fmt()
        .with_writer(std::io::stderr)
        .with_ansi(false)
        .with_env_filter(
            EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new("info")),
        )
        .init();
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()?;
    let exit = runtime.block_on(server::lsp::serve_stdio(server::lsp::production_engines()));
    // The stdin reader may still block on a read; don't wait for it after `exit`.
    runtime.shutdown_background();
    Ok(match exit {
        server::lsp::Exit::AfterShutdown => ExitCode::SUCCESS,
        server::lsp::Exit::WithoutShutdown => ExitCode::from(1),
    })
}
