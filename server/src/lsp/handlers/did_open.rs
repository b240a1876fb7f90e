//! `textDocument/didOpen`: stores the document and checks it.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidOpenTextDocumentParams;

use crate::analysis::SourceFile;
use crate::lsp::session::Session;
use crate::lsp::{diagnostics, from_proto};

/// Handles `didOpen`; synchronous: the store is updated before anything else can run.
pub fn handle(session: &Arc<Session>, params: DidOpenTextDocumentParams) {
    let document = params.text_document;
    let Some(language) = from_proto::language(&document.language_id, &document.uri) else {
        tracing::debug!("not a Java or Kotlin file: {}", document.uri.as_str());
        return;
    };
    let file = SourceFile {
        path: from_proto::path(&document.uri),
        language,
        text: document.text.into(),
    };
    session
        .documents
        .open(document.uri.clone(), document.version, file);
    diagnostics::schedule(session, &document.uri, None);
}
