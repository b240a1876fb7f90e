//! The `LanguageServer` implementation: a thin dispatch from tower-lsp-server's methods to one
//! handler module each.

use std::sync::Arc;

use tower_lsp_server::jsonrpc::Result;
use tower_lsp_server::ls_types::{
    CodeActionParams, CodeActionResponse, DidChangeConfigurationParams,
    DidChangeTextDocumentParams, DidChangeWatchedFilesParams, DidChangeWorkspaceFoldersParams,
    DidCloseTextDocumentParams, DidOpenTextDocumentParams, DocumentDiagnosticParams,
    DocumentDiagnosticReportResult, ExecuteCommandParams, Hover, HoverParams, InitializeParams,
    InitializeResult, InitializedParams, InlayHint, InlayHintParams, LSPAny,
    WorkDoneProgressCancelParams,
};
use tower_lsp_server::LanguageServer;

use super::handlers;
use super::session::Session;
use super::transport::InvalidMessage;

/// The typestar language server.
pub struct Server {
    session: Arc<Session>,
}

impl Server {
    /// A server over a session.
    pub fn new(session: Session) -> Server {
        Server {
            session: Arc::new(session),
        }
    }

    /// The stand-in for an undecodable message (see `transport`): answers with its error.
    pub async fn invalid_message(&self, params: InvalidMessage) -> Result<()> {
        Err(params.into_error())
    }

    /// `typestar/protocol`, registered as a custom method.
    pub async fn protocol(
        &self,
        params: super::ext::ProtocolParams,
    ) -> Result<Option<crate::analysis::protocol::ProtocolView>> {
        handlers::protocol::handle(&self.session, params).await
    }

    /// `window/workDoneProgress/cancel`, registered as a custom method.
    pub async fn work_done_progress_cancel(&self, params: WorkDoneProgressCancelParams) {
        handlers::progress_cancel::handle(&self.session, params);
    }
}

impl LanguageServer for Server {
    async fn initialize(&self, params: InitializeParams) -> Result<InitializeResult> {
        Ok(handlers::initialize::handle(&self.session, params))
    }

    async fn initialized(&self, _: InitializedParams) {
        handlers::initialized::handle(&self.session).await;
    }

    async fn shutdown(&self) -> Result<()> {
        self.session.shut_down();
        Ok(())
    }

    async fn inlay_hint(&self, params: InlayHintParams) -> Result<Option<Vec<InlayHint>>> {
        handlers::inlay_hint::handle(&self.session, params).await
    }

    async fn diagnostic(
        &self,
        params: DocumentDiagnosticParams,
    ) -> Result<DocumentDiagnosticReportResult> {
        handlers::diagnostic::handle(&self.session, params).await
    }

    async fn did_change_workspace_folders(&self, params: DidChangeWorkspaceFoldersParams) {
        handlers::did_change_workspace_folders::handle(&self.session, params);
    }

    async fn did_open(&self, params: DidOpenTextDocumentParams) {
        handlers::did_open::handle(&self.session, params);
    }

    async fn did_change(&self, params: DidChangeTextDocumentParams) {
        handlers::did_change::handle(&self.session, params);
    }

    async fn did_close(&self, params: DidCloseTextDocumentParams) {
        handlers::did_close::handle(&self.session, params).await;
    }

    async fn did_change_configuration(&self, params: DidChangeConfigurationParams) {
        handlers::did_change_configuration::handle(&self.session, params).await;
    }

    async fn did_change_watched_files(&self, params: DidChangeWatchedFilesParams) {
        handlers::did_change_watched_files::handle(&self.session, params);
    }

    async fn hover(&self, params: HoverParams) -> Result<Option<Hover>> {
        handlers::hover::handle(&self.session, params).await
    }

    async fn code_action(&self, params: CodeActionParams) -> Result<Option<CodeActionResponse>> {
        handlers::code_action::handle(&self.session, params).await
    }

    async fn execute_command(&self, params: ExecuteCommandParams) -> Result<Option<LSPAny>> {
        handlers::execute_command::handle(&self.session, params).await
    }
}
