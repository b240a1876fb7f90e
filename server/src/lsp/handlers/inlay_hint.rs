//! `textDocument/inlayHint`: when `typestar.inlayHints.states` is on, the states the object may be
//! in before each protocol call in the range.
//! They come from the per-call results kept for the text.

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{InlayHint, InlayHintKind, InlayHintLabel, InlayHintParams};

use crate::analysis::text::LineIndex;
use crate::analysis::Span;
use crate::lsp::session::Session;
use crate::lsp::settings::StateHints;
use crate::lsp::{diagnostics, from_proto, tasks, to_proto};

/// Handles `inlayHint`; none unless opted in, and none for documents that are not open.
pub async fn handle(
    session: &Session,
    params: InlayHintParams,
) -> jsonrpc::Result<Option<Vec<InlayHint>>> {
    if session.settings().state_hints == StateHints::Hidden {
        return Ok(None);
    }
    let Some(snapshot) = session.documents.snapshot(&params.text_document.uri) else {
        return Ok(None);
    };
    let checker = session.engines.checker.clone();
    let settings = session.settings();
    let library = session.levels();
    let encoding = session.encoding();
    tasks::request(session, "inlay hints", move || {
        let file = &snapshot.file;
        let index = LineIndex::new(&file.text);
        let range = Span::new(
            from_proto::pos(&index, encoding, params.range.start),
            from_proto::pos(&index, encoding, params.range.end),
        );
        let calls =
            diagnostics::calls(checker.as_ref(), &library, &settings, file, &snapshot.cache);
        let hints = calls
            .iter()
            .filter(|call| call.span.touches(&range))
            .map(|call| {
                let states = if call.unknown {
                    "any state".to_string()
                } else {
                    call.states.join(" | ")
                };
                InlayHint {
                    position: to_proto::position(&index, encoding, call.span.start),
                    label: InlayHintLabel::String(format!("{states}:")),
                    kind: Some(InlayHintKind::TYPE),
                    text_edits: None,
                    tooltip: None,
                    padding_left: None,
                    padding_right: Some(true),
                    data: None,
                }
            })
            .collect();
        Some(hints)
    })
    .await
}
