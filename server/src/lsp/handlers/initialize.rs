//! `initialize`: records the client's capabilities, workspace roots and initial settings, and
//! announces what the server provides.

use tower_lsp_server::ls_types::{
    CodeActionKind, CodeActionOptions, CodeActionProviderCapability, DiagnosticOptions,
    DiagnosticServerCapabilities, ExecuteCommandOptions, HoverProviderCapability, InitializeParams,
    InitializeResult, OneOf, ServerCapabilities, ServerInfo, TextDocumentSyncCapability,
    TextDocumentSyncKind, TextDocumentSyncOptions, WorkspaceFoldersServerCapabilities,
    WorkspaceServerCapabilities,
};

use crate::lsp::to_proto::SOURCE;

use crate::lsp::capabilities::Capabilities;
use crate::lsp::session::Session;
use crate::lsp::settings::Settings;
use crate::lsp::{ext, from_proto, workspace};

/// Handles `initialize`; synchronous, so nothing else runs before the state is set.
pub fn handle(session: &Session, params: InitializeParams) -> InitializeResult {
    let capabilities = Capabilities::new(&params.capabilities);
    session.set_capabilities(capabilities);
    let mut roots: Vec<_> = params
        .workspace_folders
        .unwrap_or_default()
        .iter()
        .filter_map(|folder| from_proto::path(&folder.uri))
        .collect();
    #[allow(
        deprecated,
        reason = "older clients (Neovim 0.7) may send only rootUri"
    )]
    if roots.is_empty() {
        roots.extend(params.root_uri.as_ref().and_then(from_proto::path));
    }
    // Loaded here, not only in the background refresh, so that no document the client opens
    // after this reply is checked or hovered without the library. Errors are reported by the
    // refresh that `initialized` starts.
    session.set_library(workspace::load_library(&roots).0);
    // The pages diagnostics link to (`codeDescription`); without them, diagnostics link nowhere.
    let docs = crate::docs::cache_dir();
    if let Err(err) = crate::docs::write(&docs, &typestates::library::Library::bundled()) {
        tracing::warn!(
            "cannot write the documentation to {}: {err}",
            docs.display()
        );
    }
    session.set_roots(roots);
    if let Some(options) = params.initialization_options {
        let (settings, error) = Settings::from_json(options);
        if let Some(error) = error {
            tracing::warn!("{error}");
        }
        session.set_settings(settings);
    }
    InitializeResult {
        capabilities: ServerCapabilities {
            position_encoding: Some(capabilities.encoding.kind()),
            text_document_sync: Some(TextDocumentSyncCapability::Options(
                TextDocumentSyncOptions {
                    open_close: Some(true),
                    change: Some(TextDocumentSyncKind::INCREMENTAL),
                    ..TextDocumentSyncOptions::default()
                },
            )),
            hover_provider: Some(HoverProviderCapability::Simple(true)),
            code_action_provider: Some(CodeActionProviderCapability::Options(CodeActionOptions {
                code_action_kinds: Some(vec![
                    CodeActionKind::QUICKFIX,
                    super::code_action::FIX_ALL,
                ]),
                ..CodeActionOptions::default()
            })),
            inlay_hint_provider: Some(OneOf::Left(true)),
            diagnostic_provider: Some(DiagnosticServerCapabilities::Options(DiagnosticOptions {
                identifier: Some(SOURCE.to_string()),
                // A protocol in `.typestar/` or a class in another file changes a file's findings.
                inter_file_dependencies: true,
                workspace_diagnostics: false,
                ..DiagnosticOptions::default()
            })),
            workspace: Some(WorkspaceServerCapabilities {
                workspace_folders: Some(WorkspaceFoldersServerCapabilities {
                    supported: Some(true),
                    change_notifications: Some(OneOf::Left(true)),
                }),
                file_operations: None,
            }),
            execute_command_provider: Some(ExecuteCommandOptions {
                commands: ext::COMMANDS.iter().map(|c| c.to_string()).collect(),
                ..ExecuteCommandOptions::default()
            }),
            ..ServerCapabilities::default()
        },
        server_info: Some(ServerInfo {
            name: "typestar".to_string(),
            version: Some(env!("CARGO_PKG_VERSION").to_string()),
        }),
        offset_encoding: None,
    }
}
