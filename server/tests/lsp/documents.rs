//! Open, change and close; versions; stale results; debouncing; panics in analysis.

use std::str::FromStr;
use std::time::Duration;

use tokio::time::Instant;

use serde_json::json;

use crate::harness::TestServer;

const TWO_STARTS: &str =
    "class A {\n    void run() {\n        timer.start();\n        timer.start();\n    }\n}\n";
const ONE_START: &str = "class A {\n    void run() {\n        timer.start();\n    }\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn open_publishes_versioned_diagnostics_with_code_and_related_information() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    assert_eq!(diagnostics.len(), 1, "{diagnostics:#?}");
    let d = &diagnostics[0];
    assert_eq!(d["code"], "typestate-violation");
    // The link resolves: the page the server wrote, at the code's section.
    let href = d["codeDescription"]["href"].as_str().unwrap();
    let (page, section) = href.split_once('#').unwrap();
    assert_eq!(section, "typestate-violation");
    let path = tower_lsp_server::ls_types::Uri::from_str(page)
        .unwrap()
        .to_file_path()
        .unwrap()
        .into_owned();
    let text = std::fs::read_to_string(&path).unwrap();
    assert!(text.contains("\n## typestate-violation\n"), "{text}");
    assert_eq!(d["severity"], 1, "definite findings are errors");
    assert_eq!(d["source"], "typestar");
    assert_eq!(d["message"], "`start()` called on `timer` in state Running");
    assert_eq!(d["range"]["start"], json!({ "line": 3, "character": 8 }));
    let related = &d["relatedInformation"][0];
    assert_eq!(related["location"]["uri"], uri.as_str());
    assert_eq!(related["location"]["range"]["start"]["line"], 2);
    assert_eq!(related["message"], "`timer` enters state Running here");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn possible_findings_are_warnings() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let text = TWO_STARTS.replace("start();\n    }", "start(); // maybe\n    }");
    let uri = server.open("A.java", &text).await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    assert_eq!(diagnostics[0]["severity"], 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn changes_recheck_and_close_clears() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&uri, Some(1)).await.len(), 1);
    server.change(&uri, 2, ONE_START).await;
    assert!(server.await_diagnostics(&uri, Some(2)).await.is_empty());
    server
        .notify(
            "textDocument/didChange",
            json!({
                "textDocument": { "uri": uri, "version": 3 },
                "contentChanges": [{
                    "range": { "start": { "line": 3, "character": 0 }, "end": { "line": 3, "character": 0 } },
                    "text": "        timer.start();\n"
                }]
            }),
        )
        .await;
    assert_eq!(
        server.await_diagnostics(&uri, Some(3)).await.len(),
        1,
        "ranged edits apply"
    );
    server
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert!(server.await_diagnostics(&uri, None).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_for_outdated_versions_are_never_published() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server
        .open("A.java", &format!("// SLOW\n{TWO_STARTS}"))
        .await;
    server.checker.slow_started.notified().await;
    server.change(&uri, 2, ONE_START).await;
    assert!(server.await_diagnostics(&uri, Some(2)).await.is_empty());
    server.checker.release();
    server.checker.slow_finished.notified().await;
    server.change(&uri, 3, TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&uri, Some(3)).await.len(), 1);
    let stale: Vec<_> = server
        .drain()
        .await
        .into_iter()
        .filter(|m| m["params"]["version"] == 1)
        .collect();
    assert!(stale.is_empty(), "published for version 1: {stale:#?}");
}

/// Edits closer together than one check are checked once: on a document that checks at once
/// (the paused clock does not move during a check) the window is the burst floor, so of five
/// edits 5 ms apart the first is checked (the open was long before), the next three are
/// superseded before their wait ends, and the last is checked and alone published.
#[tokio::test(start_paused = true)]
async fn bursts_of_edits_are_checked_once() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .settings(json!({ "diagnostics": { "debounceMs": 2000 } }))
        .build()
        .await;
    let uri = server.open("A.java", ONE_START).await;
    server.await_diagnostics(&uri, Some(1)).await;
    tokio::time::sleep(Duration::from_secs(1)).await;
    for version in 2..=6 {
        server.change(&uri, version, TWO_STARTS).await;
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    assert_eq!(server.await_diagnostics(&uri, Some(6)).await.len(), 1);
    let superseded: Vec<_> = server
        .drain()
        .await
        .into_iter()
        .filter(|m| (3..6).contains(&m["params"]["version"].as_i64().unwrap_or(0)))
        .collect();
    assert!(superseded.is_empty(), "{superseded:#?}");
    assert_eq!(
        server.checker.checks(),
        3,
        "the open, the burst's first edit and its last"
    );
    server.close().await;
}

/// An edit soon after the previous one, on a document that checks fast, does not wait out the
/// debounce window (measured on the paused clock, which moves only by the server's waits).
#[tokio::test(start_paused = true)]
async fn a_burst_on_a_cheap_document_does_not_wait_out_the_window() {
    let window = Duration::from_secs(5);
    let mut server = TestServer::builder()
        .countdown_protocol()
        .settings(json!({ "diagnostics": { "debounceMs": window.as_millis() as u64 } }))
        .build()
        .await;
    let uri = server.open("A.java", ONE_START).await;
    server.await_diagnostics(&uri, Some(1)).await;
    let sent = Instant::now();
    server.change(&uri, 2, TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&uri, Some(2)).await.len(), 1);
    let waited = sent.elapsed();
    assert!(waited < window / 2, "published after {waited:?}");
    server.close().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_panicking_analysis_is_logged_and_the_server_keeps_serving() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let bad = server.open("Bad.java", "// PANIC\n").await;
    let log = server
        .await_notification("window/logMessage", |p| p["type"] == 1)
        .await;
    let message = log["message"].as_str().unwrap();
    assert!(
        message.contains(&bad) && message.contains("scripted panic"),
        "{message}"
    );
    let reply = server
        .request(
            "textDocument/hover",
            json!({ "textDocument": { "uri": bad }, "position": { "line": 0, "character": 0 } }),
        )
        .await;
    assert_eq!(reply["error"]["code"], -32603, "{reply}");
    server
        .await_notification("window/logMessage", |p| p["type"] == 1)
        .await;
    let good = server.open("A.java", TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&good, Some(1)).await.len(), 1);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn non_java_documents_are_ignored() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.uri("notes.txt");
    server
        .notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": "plaintext", "version": 1, "text": "timer.start();" } }),
        )
        .await;
    assert_eq!(server.hover(&uri, 0, 0).await, serde_json::Value::Null);
}
