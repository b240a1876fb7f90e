//! `textDocument/didChange`: applies the edits to the stored document and schedules a check.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeTextDocumentParams;

use crate::lsp::documents::Edited;
use crate::lsp::session::Session;
use crate::lsp::{diagnostics, from_proto};

/// Handles `didChange`; synchronous, so successive changes apply in order.
pub fn handle(session: &Arc<Session>, params: DidChangeTextDocumentParams) {
    let uri = params.text_document.uri;
    let version = params.text_document.version;
    let encoding = session.encoding();
    let changes = params.content_changes;
    let edited = session.documents.edit(&uri, version, |text| {
        from_proto::apply_changes(text, encoding, changes)
    });
    match edited {
        Edited::Applied { previous } => diagnostics::schedule(session, &uri, Some(previous)),
        Edited::NotOpen => tracing::warn!("didChange for a document not open: {}", uri.as_str()),
        Edited::Stale { current } => tracing::warn!(
            "didChange of {} to version {version} ignored: version {current} is newer",
            uri.as_str()
        ),
    }
}
