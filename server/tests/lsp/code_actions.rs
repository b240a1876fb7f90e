//! Code actions: the checker's fix, line and method suppressions.

use serde_json::{json, Value};

use crate::harness::TestServer;

const TWO_STARTS: &str =
    "class A {\n    void run() {\n        timer.start();\n        timer.start();\n    }\n}\n";

/// The actions for an empty range at `line` and `character`, sent without diagnostics.
async fn actions_at(server: &mut TestServer, uri: &str, line: u32, character: u32) -> Value {
    let reply = server
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": { "start": { "line": line, "character": character }, "end": { "line": line, "character": character } },
                "context": { "diagnostics": [] }
            }),
        )
        .await;
    reply["result"].clone()
}

async fn actions(server: &mut TestServer, uri: &str, line: u32) -> Value {
    actions_at(server, uri, line, 10).await
}

/// The cursor anywhere on the finding's range, ends included, is offered its fix, without the
/// client sending the diagnostic; just outside the range, nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_fix_is_offered_anywhere_on_the_findings_range() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    let range = &diagnostics[0]["range"];
    let line = range["start"]["line"].as_u64().unwrap() as u32;
    let start = range["start"]["character"].as_u64().unwrap() as u32;
    let end = range["end"]["character"].as_u64().unwrap() as u32;
    assert_eq!(range["end"]["line"], line, "{range}");
    assert!(start + 1 < end, "{range}");
    for character in start..=end {
        let offered = actions_at(&mut server, &uri, line, character).await;
        assert_eq!(
            offered[0]["title"], "Remove the repeated `start()`",
            "at {line}:{character}: {offered}"
        );
    }
    for character in [start - 1, end + 1] {
        let offered = actions_at(&mut server, &uri, line, character).await;
        assert_eq!(offered, Value::Null, "at {line}:{character}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_violation_offers_its_fix_then_line_and_method_suppressions() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    let actions = actions(&mut server, &uri, 3).await;
    let titles: Vec<&str> = actions
        .as_array()
        .unwrap()
        .iter()
        .map(|a| a["title"].as_str().unwrap())
        .collect();
    assert_eq!(
        titles,
        [
            "Remove the repeated `start()`",
            "Ignore `typestate-violation` on this line",
            "Suppress typestate checks in this method"
        ]
    );
    assert_eq!(actions[0]["isPreferred"], true);
    assert_eq!(actions[1]["isPreferred"], false);
    assert_eq!(actions[0]["kind"], "quickfix");
    assert_eq!(actions[0]["diagnostics"][0]["code"], "typestate-violation");
    let ignore = &actions[1]["edit"]["changes"][uri.as_str()][0];
    assert_eq!(ignore["newText"], " // typestar:ignore");
    assert_eq!(
        ignore["range"]["start"],
        json!({ "line": 3, "character": 22 })
    );
    let method = &actions[2]["edit"]["changes"][uri.as_str()][0];
    assert_eq!(method["newText"], "    @SuppressWarnings(\"typestate\")\n");
    assert_eq!(
        method["range"]["start"],
        json!({ "line": 1, "character": 0 })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn clean_lines_and_unopened_files_have_no_actions() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    assert_eq!(actions(&mut server, &uri, 0).await, Value::Null);
    let never_opened = server.uri("Other.java");
    assert_eq!(actions(&mut server, &never_opened, 0).await, Value::Null);
}
