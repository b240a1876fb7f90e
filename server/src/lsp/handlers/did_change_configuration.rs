//! `workspace/didChangeConfiguration`: reads the settings again.

use std::sync::Arc;

use tower_lsp_server::ls_types::{DidChangeConfigurationParams, MessageType};

use crate::lsp::diagnostics;
use crate::lsp::handlers::initialized;
use crate::lsp::session::Session;
use crate::lsp::settings::{self, Settings};

/// Handles `didChangeConfiguration`: pulls the section when the client answers
/// `workspace/configuration`, else takes the pushed `typestar` value. When the leak reports or
/// the time limit change, every open document is checked again.
pub async fn handle(session: &Arc<Session>, params: DidChangeConfigurationParams) {
    let options = session.settings().check;
    read(session, params).await;
    if session.settings().check != options {
        diagnostics::schedule_all(session);
    }
}

async fn read(session: &Arc<Session>, params: DidChangeConfigurationParams) {
    if session.capabilities().configuration {
        initialized::fetch_settings(session).await;
        return;
    }
    let pushed = params
        .settings
        .get(settings::SECTION)
        .cloned()
        .unwrap_or_default();
    let (settings, error) = Settings::from_json(pushed);
    session.set_settings(settings);
    if let Some(error) = error {
        session.log(MessageType::WARNING, error).await;
    }
}
