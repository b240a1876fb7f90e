//! `textDocument/codeAction`: the checker's safe fixes, and suppressions for the line or method.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse,
    WorkspaceEdit,
};

use crate::analysis::text::LineIndex;
use crate::analysis::{actions, Span};
use crate::lsp::session::Session;
use crate::lsp::{from_proto, tasks, to_proto};

/// Handles `codeAction` on a snapshot; `None` for documents that are not open.
pub async fn handle(
    session: &Session,
    params: CodeActionParams,
) -> jsonrpc::Result<Option<CodeActionResponse>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = session.documents.snapshot(&uri) else {
        return Ok(None);
    };
    let checker = session.engines.checker.clone();
    let library = session.library();
    let encoding = session.encoding();
    tasks::request(session, "code actions", move || {
        let file = &snapshot.file;
        let index = LineIndex::new(&file.text);
        let range = Span::new(
            from_proto::pos(&index, encoding, params.range.start),
            from_proto::pos(&index, encoding, params.range.end),
        );
        let analysis = checker.check(&library, file, &snapshot.cache);
        let method_at = |pos| checker.method_at(file, pos);
        let response: CodeActionResponse = actions::actions(file, &analysis, range, method_at)
            .into_iter()
            .map(|action| {
                let finding = &analysis.findings[action.finding];
                let edits = action
                    .edits
                    .iter()
                    .map(|edit| to_proto::text_edit(&index, encoding, edit))
                    .collect();
                CodeActionOrCommand::CodeAction(CodeAction {
                    title: action.title,
                    kind: Some(CodeActionKind::QUICKFIX),
                    diagnostics: Some(vec![to_proto::diagnostic(&index, encoding, &uri, finding)]),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(uri.clone(), edits)])),
                        ..WorkspaceEdit::default()
                    }),
                    is_preferred: Some(action.is_fix),
                    ..CodeAction::default()
                })
            })
            .collect();
        Some(response).filter(|response| !response.is_empty())
    })
    .await
}
