//! `workspace/didChangeWorkspaceFolders`: the roots change synchronously, then the library
//! (their `.typestar/` folders) is reloaded and the workspace checked again.

use std::sync::Arc;

use tower_lsp_server::ls_types::DidChangeWorkspaceFoldersParams;

use crate::lsp::session::Session;
use crate::lsp::{from_proto, workspace};

/// Handles `didChangeWorkspaceFolders`.
pub fn handle(session: &Arc<Session>, params: DidChangeWorkspaceFoldersParams) {
    let removed: Vec<_> = params
        .event
        .removed
        .iter()
        .filter_map(|folder| from_proto::path(&folder.uri))
        .collect();
    let mut roots: Vec<_> = session
        .roots()
        .iter()
        .filter(|root| !removed.contains(root))
        .cloned()
        .collect();
    for added in params
        .event
        .added
        .iter()
        .filter_map(|folder| from_proto::path(&folder.uri))
    {
        if !roots.contains(&added) {
            roots.push(added);
        }
    }
    session.set_roots(roots);
    let session = session.clone();
    tokio::spawn(async move { workspace::refresh(&session).await });
}
