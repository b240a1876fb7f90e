//! `initialized`: fetches the settings, registers the `.typestar/` file watcher and starts the
//! workspace-wide check in the background.

use std::sync::Arc;

use tower_lsp_server::ls_types::{
    DidChangeWatchedFilesRegistrationOptions, FileSystemWatcher, GlobPattern, MessageType,
    Registration,
};

use crate::lsp::session::Session;
use crate::lsp::settings::{self, Settings};
use crate::lsp::workspace;

/// The files whose changes reload the library.
pub const WATCHED_GLOB: &str = "**/.typestar/**/*.typestate";

/// Handles `initialized`.
pub async fn handle(session: &Arc<Session>) {
    fetch_settings(session).await;
    if session.capabilities().watch_files {
        register_watcher(session).await;
    }
    let session = session.clone();
    tokio::spawn(async move { workspace::refresh(&session).await });
}

/// Asks the client for the `typestar` section, if it answers `workspace/configuration`.
pub async fn fetch_settings(session: &Session) {
    if !session.capabilities().configuration {
        return;
    }
    let item = tower_lsp_server::ls_types::ConfigurationItem {
        scope_uri: None,
        section: Some(settings::SECTION.to_string()),
    };
    match session.client.configuration(vec![item]).await {
        Ok(mut values) if !values.is_empty() => {
            let (settings, error) = Settings::from_json(values.swap_remove(0));
            if let Some(error) = error {
                session.log(MessageType::WARNING, error).await;
            }
            session.set_settings(settings);
        }
        Ok(_) => {}
        Err(err) => {
            session
                .log(
                    MessageType::WARNING,
                    format!("workspace/configuration failed: {err}"),
                )
                .await;
        }
    }
}

async fn register_watcher(session: &Session) {
    let options = DidChangeWatchedFilesRegistrationOptions {
        watchers: vec![FileSystemWatcher {
            glob_pattern: GlobPattern::String(WATCHED_GLOB.to_string()),
            kind: None,
        }],
    };
    let registration = Registration {
        id: "typestar/watch-typestates".to_string(),
        method: "workspace/didChangeWatchedFiles".to_string(),
        register_options: serde_json::to_value(options).ok(),
    };
    if let Err(err) = session.client.register_capability(vec![registration]).await {
        session
            .log(
                MessageType::WARNING,
                format!("cannot watch .typestar/ files: {err}"),
            )
            .await;
    }
}
