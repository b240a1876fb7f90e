//! `textDocument/didClose`: forgets the document and clears its diagnostics.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidCloseTextDocumentParams;

use crate::lsp::diagnostics;
use crate::lsp::session::Session;

/// Handles `didClose`: the store forgets the document first, so no running check publishes
/// after the clear.
pub async fn handle(session: &Arc<Session>, params: DidCloseTextDocumentParams) {
    let uri = params.text_document.uri;
    if session.documents.close(&uri) {
        diagnostics::clear(session, uri).await;
    }
}
