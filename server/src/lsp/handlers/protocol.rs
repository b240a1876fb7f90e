//! `typestar/protocol`: the protocol view of a class by name or at the cursor.

use tower_lsp_server::jsonrpc;

use crate::analysis::protocol::{self, ProtocolView};
use crate::analysis::text::LineIndex;
use crate::lsp::ext::ProtocolParams;
use crate::lsp::session::Session;
use crate::lsp::{diagnostics, from_proto, tasks};

/// Handles `typestar/protocol`; `None` when there is no protocol class there.
pub async fn handle(
    session: &Session,
    params: ProtocolParams,
) -> jsonrpc::Result<Option<ProtocolView>> {
    let library = session.levels();
    match params {
        ProtocolParams::Class { class } => Ok(library
            .whole()
            .find(&class)
            .ok()
            .map(|entry| protocol::view(entry, &[]))),
        ProtocolParams::Cursor {
            text_document,
            position,
        } => {
            let Some(snapshot) = session.documents.snapshot(&text_document.uri) else {
                return Ok(None);
            };
            let checker = session.engines.checker.clone();
            let settings = session.settings();
            let encoding = session.encoding();
            tasks::request(session, "protocol view", move || {
                let file = &snapshot.file;
                let pos = from_proto::pos(&LineIndex::new(&file.text), encoding, position);
                let calls = diagnostics::calls(
                    checker.as_ref(),
                    &library,
                    &settings,
                    file,
                    &snapshot.cache,
                );
                protocol::at(&calls, library.whole(), file, pos)
            })
            .await
        }
    }
}
