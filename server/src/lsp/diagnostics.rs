//! Diagnostics of open documents: scheduling a check after an edit, debouncing bursts,
//! discarding superseded work, and publishing only results for the document's current version.
//!
//! Edits closer together than one check of the document are a burst and are checked once.
//! An edit waits until that long has passed since the previous edit ([`burst_delay`]).
//! It is dropped if another edit came meanwhile.
//! The window is the document's last check time, kept between [`BURST_FLOOR`] (edits an editor
//! sends together) and `typestar.diagnostics.debounceMs`.
//! Coalescing saves at most one check, so a longer window only adds latency.
//! An edit that comes after the previous one's check is checked at once.
//! Every check runs on a [`Snapshot`].
//! Its result is published only while the snapshot is still the document's latest state, decided
//! under the publish lock.
//! Edit times, check costs and waits read tokio's clock (`tokio::time::Instant`, `sleep`).
//! So a test pauses and advances it (`tokio::time::pause`) instead of depending on the wall clock.

use std::sync::Arc;
use std::time::Duration;

use tokio::time::Instant;

use tower_lsp_server::ls_types::{Diagnostic, Uri};

use super::documents::Snapshot;
use super::session::Session;
use super::settings::Settings;
use super::{tasks, to_proto};
use crate::analysis::text::LineIndex;
use crate::analysis::{CallFact, Checker, DocumentCache, FileAnalysis, SourceFile};
use crate::sdk::{level_bands, merge_finding, LevelLibraries, SdkReader};
use typestates::{ApiLevels, LevelSet};

/// Schedules a check of the document's current state. Call it synchronously, right after the
/// store update, with the time of the previous edit (`None` for an open or a library change).
/// A client that pulls diagnostics gets none pushed for open documents.
pub fn schedule(session: &Arc<Session>, uri: &Uri, previous_edit: Option<Instant>) {
    if session.capabilities().pull_diagnostics {
        return;
    }
    let Some(snapshot) = session.documents.snapshot(uri) else {
        return;
    };
    let delay = burst_delay(
        previous_edit.map(|previous| previous.elapsed()),
        session.settings().debounce,
        session.documents.check_cost(uri),
    );
    let session = session.clone();
    tokio::spawn(async move {
        if !delay.is_zero() {
            tokio::time::sleep(delay).await;
        }
        check(&session, snapshot).await;
    });
}

/// The shortest wait of an edit within a burst: edits an editor sends together (a paste and
/// its formatting, a multi-cursor change) arrive closer than this.
pub const BURST_FLOOR: Duration = Duration::from_millis(20);

/// How long an edit `since_previous` after the previous edit waits before its check: until the
/// window has passed since the previous edit. The window is the document's last check time
/// (`check_cost`; `debounce` before the first check), kept between [`BURST_FLOOR`] and `debounce`.
pub fn burst_delay(
    since_previous: Option<Duration>,
    debounce: Duration,
    check_cost: Option<Duration>,
) -> Duration {
    let window = check_cost
        .unwrap_or(debounce)
        .max(BURST_FLOOR)
        .min(debounce);
    match since_previous {
        Some(since) if since < window => window - since,
        _ => Duration::ZERO,
    }
}

/// Schedules a check of every open document (after the library changed); a client that pulls
/// diagnostics is asked to pull again.
pub fn schedule_all(session: &Arc<Session>) {
    let capabilities = session.capabilities();
    if capabilities.pull_diagnostics {
        if capabilities.diagnostic_refresh {
            let session = session.clone();
            tokio::spawn(async move {
                if let Err(err) = session.client.workspace_diagnostic_refresh().await {
                    tracing::warn!("workspace/diagnostic/refresh failed: {err}");
                }
            });
        }
        return;
    }
    for uri in session.documents.uris() {
        schedule(session, &uri, None);
    }
}

async fn check(session: &Session, snapshot: Snapshot) {
    if !session.documents.is_current(&snapshot) {
        return;
    }
    let started = Instant::now();
    let Some(analysis) = analyze(session, &snapshot).await else {
        return;
    };
    session
        .documents
        .record_check_cost(&snapshot.uri, started.elapsed());
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
    let library = session.levels();
    let settings = session.settings();
    let file = snapshot.file.clone();
    let cache = snapshot.cache.clone();
    let what = format!("checking {}", snapshot.uri.as_str());
    tasks::blocking(session, &what, move || {
        check_on_levels(checker.as_ref(), &library, &settings, &file, &cache)
    })
    .await
}

/// Checks `file` with `checker`. Where a protocol the file may use changes with the API level
/// (a subclass declared in another file is not seen here), the file is checked once per range
/// of levels of its module ([`crate::sdk`], with the settings' levels for a module that
/// does not say); a finding on only some of them names its levels, and one on none is dropped.
/// The settings say which leaks are reported.
pub fn check_on_levels(
    checker: &dyn Checker,
    library: &LevelLibraries,
    settings: &Settings,
    file: &SourceFile,
    cache: &DocumentCache,
) -> FileAnalysis {
    let analysis = check_bands(checker, library, settings, file, cache);
    cache.keep_calls(file, Arc::new(analysis.calls.clone()));
    analysis
}

/// What the last check of `file` knew at each call, checking it now if its text was not
/// checked last ([`check_on_levels`]).
pub fn calls(
    checker: &dyn Checker,
    library: &LevelLibraries,
    settings: &Settings,
    file: &SourceFile,
    cache: &DocumentCache,
) -> Arc<Vec<CallFact>> {
    cache
        .calls_of(file)
        .unwrap_or_else(|| Arc::new(check_on_levels(checker, library, settings, file, cache).calls))
}

fn check_bands(
    checker: &dyn Checker,
    library: &LevelLibraries,
    settings: &Settings,
    file: &SourceFile,
    cache: &DocumentCache,
) -> FileAnalysis {
    let (sdk, options) = (settings.sdk, settings.check);
    let bands = level_bands(library.whole(), [&*file.text]);
    if bands == [ApiLevels::ALL] {
        return checker.check(library.whole(), file, cache, options);
    }
    let app = match &file.path {
        Some(path) => SdkReader::new(sdk).levels_of(path).range(),
        None => ApiLevels {
            min: sdk.min_sdk,
            max: sdk.target_sdk,
        },
    };
    let mut findings = Vec::new();
    let mut levels = Vec::new();
    let mut calls: Vec<CallFact> = Vec::new();
    for band in bands {
        let on = band.intersect(app);
        if on.is_empty() {
            continue;
        }
        let analysis = checker.check(&library.on(band), file, cache, options);
        for finding in analysis.findings {
            merge_finding(&mut findings, &mut levels, finding, on);
        }
        for call in analysis.calls {
            join_call(&mut calls, call);
        }
    }
    let whole = LevelSet::of(app);
    let findings = findings
        .into_iter()
        .zip(levels)
        .map(|(mut finding, levels)| {
            if levels != whole {
                finding.message = format!("{} (on API levels {levels})", finding.message);
            }
            finding
        })
        .collect();
    FileAnalysis { findings, calls }
}

/// Adds what a check on another range of API levels knew at a call: the states either may be
/// in.
fn join_call(calls: &mut Vec<CallFact>, call: CallFact) {
    match calls
        .iter_mut()
        .find(|c| c.span == call.span && c.class == call.class)
    {
        Some(known) => {
            for state in call.states {
                if !known.states.contains(&state) {
                    known.states.push(state);
                }
            }
            known.maybe_null |= call.maybe_null;
            known.unknown |= call.unknown;
        }
        None => {
            let at = calls.partition_point(|c| c.span.start <= call.span.start);
            calls.insert(at, call);
        }
    }
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

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Duration {
        Duration::from_millis(n)
    }

    #[test]
    fn an_edit_waits_until_one_check_has_passed_since_the_previous_edit() {
        let debounce = ms(150);
        let cases = [
            // (since the previous edit, last check cost, expected wait)
            (None, Some(ms(30)), ms(0)),
            (Some(ms(30)), Some(ms(30)), ms(0)),
            (Some(ms(100)), Some(ms(30)), ms(0)),
            (Some(ms(400)), None, ms(0)),
            (Some(ms(10)), Some(ms(30)), ms(20)),
            (Some(ms(0)), Some(ms(30)), ms(30)),
            (Some(ms(5)), Some(ms(1)), BURST_FLOOR - ms(5)),
            (Some(ms(10)), Some(ms(900)), debounce - ms(10)),
            (Some(ms(10)), None, debounce - ms(10)),
        ];
        for (since, cost, expected) in cases {
            assert_eq!(
                burst_delay(since, debounce, cost),
                expected,
                "since {since:?}, cost {cost:?}"
            );
        }
    }

    #[test]
    fn no_debounce_never_waits() {
        for cost in [None, Some(ms(0)), Some(ms(500))] {
            assert_eq!(burst_delay(Some(ms(0)), ms(0), cost), ms(0));
        }
    }

    #[test]
    fn a_setting_below_the_floor_caps_the_window() {
        assert_eq!(burst_delay(Some(ms(1)), ms(5), Some(ms(1))), ms(4));
    }
}
