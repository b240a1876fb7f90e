//! `workspace/didChangeWatchedFiles`: a `.typestate` file changed, so the library is reloaded
//! and everything rechecked.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWatchedFilesParams;

use crate::lsp::session::Session;
use crate::lsp::workspace;

/// Handles `didChangeWatchedFiles` by starting a refresh in the background.
pub fn handle(session: &Arc<Session>, params: DidChangeWatchedFilesParams) {
    let typestates = params
        .changes
        .iter()
        .any(|change| change.uri.as_str().ends_with(".typestate"));
    if typestates {
        let session = session.clone();
        tokio::spawn(async move { workspace::refresh(&session).await });
    }
}
