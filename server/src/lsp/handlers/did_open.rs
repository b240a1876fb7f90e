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
    if session.capabilities().pull_diagnostics {
        clear_pushed(session, document.uri.clone());
    }
    diagnostics::schedule(session, &document.uri, None);
}

/// A client that pulls keeps what the workspace check pushed for a file beside what it pulls,
/// and nothing would replace the pushed findings while the file is open: VS Code showed each
/// finding twice, and the pushed copy stayed after a quick fix removed the finding.
/// The workspace check pushes only for closed files, under the publish lock, and records them in
/// `published`; taking the lock after the store marks the document open clears what it pushed.
fn clear_pushed(session: &Arc<Session>, uri: tower_lsp_server::ls_types::Uri) {
    let session = session.clone();
    tokio::spawn(async move {
        let _publishing = session.publish.lock().await;
        let pushed = session
            .published
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .remove(&uri);
        if pushed {
            session
                .client
                .publish_diagnostics(uri, Vec::new(), None)
                .await;
        }
    });
}
