//! `textDocument/hover`: the protocol of a class name, or the object's state at a call, from
//! the last check's per-call results for the document's text (`diagnostics::calls`).

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{Hover, HoverParams};

use crate::analysis::hover;
use crate::analysis::text::LineIndex;
use crate::lsp::session::Session;
use crate::lsp::{diagnostics, from_proto, tasks, to_proto};

/// Handles `hover` on a snapshot; `None` for documents that are not open.
pub async fn handle(session: &Session, params: HoverParams) -> jsonrpc::Result<Option<Hover>> {
    let at = params.text_document_position_params;
    let Some(snapshot) = session.documents.snapshot(&at.text_document.uri) else {
        return Ok(None);
    };
    let checker = session.engines.checker.clone();
    let settings = session.settings();
    let library = session.levels();
    let encoding = session.encoding();
    let link = session.capabilities().view_link;
    tasks::request(session, "hover", move || {
        let file = &snapshot.file;
        let index = LineIndex::new(&file.text);
        let pos = from_proto::pos(&index, encoding, at.position);
        let calls =
            diagnostics::calls(checker.as_ref(), &library, &settings, file, &snapshot.cache);
        hover::hover(&calls, library.whole(), file, pos, link)
            .map(|text| to_proto::hover(&index, encoding, text))
    })
    .await
}
