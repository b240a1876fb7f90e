//! `textDocument/codeAction`: the checker's safe fixes, and suppressions for the line or method,
//! for the findings that touch the range or are among the request's diagnostics.
//! It also offers `source.fixAll.typestar`, every safe fix of the file at once.
//! Only the kinds the request's `only` asks for are answered.

use std::collections::HashMap;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    CodeAction, CodeActionKind, CodeActionOrCommand, CodeActionParams, CodeActionResponse, Range,
    TextEdit, WorkspaceEdit,
};

use crate::analysis::text::LineIndex;
use crate::analysis::{actions, Span};
use crate::lsp::session::Session;
use crate::lsp::{diagnostics, from_proto, tasks, to_proto};

/// The kind of the action that applies every safe fix of a file.
pub const FIX_ALL: CodeActionKind = CodeActionKind::new("source.fixAll.typestar");

/// Handles `codeAction` on a snapshot; `None` for documents that are not open.
pub async fn handle(
    session: &Session,
    params: CodeActionParams,
) -> jsonrpc::Result<Option<CodeActionResponse>> {
    let uri = params.text_document.uri;
    let Some(snapshot) = session.documents.snapshot(&uri) else {
        return Ok(None);
    };
    // Without `only`, the quick fixes; fix-all is a source action, offered only when asked for.
    let only = params.context.only.clone();
    let wants = move |kind: &CodeActionKind| match &only {
        None => *kind == CodeActionKind::QUICKFIX,
        Some(only) => only.iter().any(|asked| {
            kind.as_str() == asked.as_str()
                || kind.as_str().starts_with(&format!("{}.", asked.as_str()))
        }),
    };
    if !wants(&CodeActionKind::QUICKFIX) && !wants(&FIX_ALL) {
        return Ok(None);
    }
    let checker = session.engines.checker.clone();
    let library = session.levels();
    let settings = session.settings();
    let encoding = session.encoding();
    tasks::request(session, "code actions", move || {
        let file = &snapshot.file;
        let index = LineIndex::new(&file.text);
        let to_span = |range: Range| {
            Span::new(
                from_proto::pos(&index, encoding, range.start),
                from_proto::pos(&index, encoding, range.end),
            )
        };
        let mut ranges = vec![to_span(params.range)];
        ranges.extend(
            params
                .context
                .diagnostics
                .iter()
                .filter(|d| d.source.as_deref() == Some(to_proto::SOURCE))
                .map(|d| to_span(d.range)),
        );
        let analysis = diagnostics::check_on_levels(
            checker.as_ref(),
            &library,
            &settings,
            file,
            &snapshot.cache,
        );
        let method_at = |pos| checker.method_at(file, pos);
        let mut response: CodeActionResponse = Vec::new();
        if wants(&FIX_ALL) {
            let edits: Vec<TextEdit> = actions::fix_all(&analysis)
                .iter()
                .map(|edit| to_proto::text_edit(&index, encoding, edit))
                .collect();
            if !edits.is_empty() {
                response.push(CodeActionOrCommand::CodeAction(CodeAction {
                    title: "Fix all typestar findings that have a safe fix".to_string(),
                    kind: Some(FIX_ALL),
                    edit: Some(WorkspaceEdit {
                        changes: Some(HashMap::from([(uri.clone(), edits)])),
                        ..WorkspaceEdit::default()
                    }),
                    ..CodeAction::default()
                }));
            }
        }
        if !wants(&CodeActionKind::QUICKFIX) {
            return Some(response).filter(|response| !response.is_empty());
        }
        let quick_fixes = actions::actions(file, &analysis, &ranges, method_at)
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
            });
        response.extend(quick_fixes);
        Some(response).filter(|response| !response.is_empty())
    })
    .await
}
