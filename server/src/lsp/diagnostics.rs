//! Diagnostics of open documents: scheduling a check after an edit, debouncing bursts,
//! discarding superseded work, and publishing only results for the document's current version.
//!
//! An edit that follows a quiet period is checked at once; an edit less than
//! `typestar.diagnostics.debounceMs` after the previous one waits that long, and is dropped if
//! another edit came meanwhile. Every check runs on a [`Snapshot`]; its result is published only
//! while the snapshot is still the document's latest state, decided under the publish lock.

use std::sync::Arc;
use std::time::{Duration, Instant};

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use super::documents::Snapshot;
use super::session::Session;
use super::{tasks, to_proto};
use crate::analysis::text::LineIndex;
use crate::analysis::FileAnalysis;

/// Schedules a check of the document's current state. Call it synchronously, right after the
/// store update, with the time of the previous edit (`None` for an open or a library change).
pub fn schedule(session: &Arc<Session>, uri: &Uri, previous_edit: Option<Instant>) {
    let Some(snapshot) = session.documents.snapshot(uri) else {
        return;
    };
    let debounce = session.settings().debounce;
    let delay = match previous_edit {
        Some(previous) if previous.elapsed() < debounce => debounce,
        _ => Duration::ZERO,
    };
    let session = session.clone();
    tokio::spawn(async move {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        check(&session, snapshot).await;
    });
}

/// Schedules a check of every open document (after the library changed).
pub fn schedule_all(session: &Arc<Session>) {
    for uri in session.documents.uris() {
        schedule(session, &uri, None);
    }
}

async fn check(session: &Session, snapshot: Snapshot) {
    if !session.documents.is_current(&snapshot) {
        return;
    }
    let Some(analysis) = analyze(session, &snapshot).await else {
        return;
    };
    let diagnostics = to_diagnostics(session, &snapshot.uri, &snapshot.file.text, &analysis);
    let _publishing = session.publish.lock().await;
    if session.documents.is_current(&snapshot) {
        session
            .client
            .publish_diagnostics(snapshot.uri, diagnostics, Some(snapshot.version))
            .await;
    }
}

/// Runs the checker on a snapshot on a blocking thread; `None` if it panicked (logged).
pub async fn analyze(session: &Session, snapshot: &Snapshot) -> Option<FileAnalysis> {
    let checker = session.engines.checker.clone();
    let library = session.library();
    let file = snapshot.file.clone();
    let cache = snapshot.cache.clone();
    let what = format!("checking {}", snapshot.uri.as_str());
    tasks::blocking(session, &what, move || {
        checker.check(&library, &file, &cache)
    })
    .await
}

/// The LSP diagnostics of an analysis of `text`, the contents of `uri`.
pub fn to_diagnostics(
    session: &Session,
    uri: &Uri,
    text: &str,
    analysis: &FileAnalysis,
) -> Vec<Diagnostic> {
    let index = LineIndex::new(text);
    let encoding = session.encoding();
    analysis
        .findings
        .iter()
        .map(|finding| to_proto::diagnostic(&index, encoding, uri, finding))
        .collect()
}

/// Publishes an empty list for a closed document (which the store no longer has, so no
/// in-flight check of it can publish after this).
pub async fn clear(session: &Session, uri: Uri) {
    let _publishing = session.publish.lock().await;
    session
        .client
        .publish_diagnostics(uri, Vec::new(), None)
        .await;
}
