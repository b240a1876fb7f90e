//! LSP conventions: pull diagnostics, code action kinds and fix-all, workspace-folder changes,
//! and the exit status of the real binary.

use std::io::{Read, Write};
use std::process::{Command, Stdio};

use serde_json::{json, Value};

use crate::harness::TestServer;

const TWO_STARTS: &str =
    "class A {\n    void run() {\n        timer.start();\n        timer.start();\n    }\n}\n";

fn full_capabilities_with(extra: Value) -> Value {
    let mut capabilities = json!({
        "workspace": { "configuration": true, "diagnostics": { "refreshSupport": true } },
        "window": { "workDoneProgress": true }
    });
    for (key, value) in extra.as_object().unwrap() {
        capabilities[key] = value.clone();
    }
    capabilities
}

/// The workspace check pushes findings of closed files; once the client opens one and pulls,
/// the pushed copy is cleared, or the client would show each finding twice and keep the pushed
/// one after an edit removed it (seen in VS Code by `vscode-extension/e2e`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn opening_a_file_clears_what_the_workspace_check_pushed_for_it() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .file("A.java", TWO_STARTS)
        .capabilities(full_capabilities_with(
            json!({ "textDocument": { "diagnostic": { "dynamicRegistration": false } } }),
        ))
        .build()
        .await;
    let uri = server.uri("A.java");
    assert_eq!(server.await_diagnostics(&uri, None).await.len(), 1);
    server.open("A.java", TWO_STARTS).await;
    assert_eq!(
        server.await_diagnostics(&uri, None).await,
        Vec::<Value>::new()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_pulls_diagnostics_gets_them_pulled_and_not_pushed() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .capabilities(full_capabilities_with(
            json!({ "textDocument": { "diagnostic": { "dynamicRegistration": false } } }),
        ))
        .build()
        .await;
    let uri = server.open("A.java", TWO_STARTS).await;
    let reply = server
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    let report = &reply["result"];
    assert_eq!(report["kind"], "full", "{reply}");
    assert_eq!(report["items"].as_array().unwrap().len(), 1, "{reply}");
    assert_eq!(report["items"][0]["range"]["start"]["line"], 3);
    server.change(&uri, 2, "class A {}\n").await;
    let reply = server
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(reply["result"]["items"], json!([]), "{reply}");
    let pushed: Vec<Value> = server
        .drain()
        .await
        .into_iter()
        .filter(|m| m["method"] == "textDocument/publishDiagnostics" && m["params"]["uri"] == uri)
        .collect();
    assert!(pushed.is_empty(), "{pushed:?}");
    // A changed protocol folder asks the client to pull again.
    server.write(
        ".typestar/Extra.typestate",
        "typestate a.Extra\nstate S initial\n",
    );
    server
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": server.uri(".typestar/Extra.typestate"), "type": 1 }] }),
        )
        .await;
    server.await_progress_end("typestar/workspaceCheck/").await;
    while !server
        .server_requests()
        .await
        .iter()
        .any(|r| r["method"] == "workspace/diagnostic/refresh")
    {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_without_pull_still_gets_pushed_diagnostics() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&uri, Some(1)).await.len(), 1);
    let capabilities = server
        .request(
            "textDocument/diagnostic",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    assert_eq!(capabilities["result"]["items"].as_array().unwrap().len(), 1);
}

async fn code_actions(server: &mut TestServer, uri: &str, context: Value, line: u32) -> Value {
    let reply = server
        .request(
            "textDocument/codeAction",
            json!({
                "textDocument": { "uri": uri },
                "range": { "start": { "line": line, "character": 0 }, "end": { "line": line, "character": 0 } },
                "context": context
            }),
        )
        .await;
    reply["result"].clone()
}

fn kinds(actions: &Value) -> Vec<String> {
    actions
        .as_array()
        .map(|a| {
            a.iter()
                .map(|a| a["kind"].as_str().unwrap().to_string())
                .collect()
        })
        .unwrap_or_default()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn code_actions_follow_the_diagnostic_range_and_the_requested_kinds() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    // The cursor at the start of the line, off the call: no actions, unless the client sends
    // the diagnostic the line shows.
    assert_eq!(
        code_actions(&mut server, &uri, json!({ "diagnostics": [] }), 3).await,
        Value::Null
    );
    let with_diagnostic =
        code_actions(&mut server, &uri, json!({ "diagnostics": diagnostics }), 3).await;
    assert_eq!(
        kinds(&with_diagnostic),
        ["quickfix", "quickfix", "quickfix"]
    );
    let only_fix_all = code_actions(
        &mut server,
        &uri,
        json!({ "diagnostics": [], "only": ["source.fixAll"] }),
        0,
    )
    .await;
    assert_eq!(kinds(&only_fix_all), ["source.fixAll.typestar"]);
    let edits = &only_fix_all[0]["edit"]["changes"][&uri];
    assert_eq!(edits.as_array().unwrap().len(), 1, "{only_fix_all}");
    let refactor = code_actions(
        &mut server,
        &uri,
        json!({ "diagnostics": diagnostics, "only": ["refactor"] }),
        3,
    )
    .await;
    assert_eq!(refactor, Value::Null);
    let quickfix_only = code_actions(
        &mut server,
        &uri,
        json!({ "diagnostics": diagnostics, "only": ["quickfix"] }),
        3,
    )
    .await;
    assert_eq!(kinds(&quickfix_only).len(), 3);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_added_workspace_folder_brings_its_protocols() {
    let mut server = TestServer::builder().build().await;
    let other = server.root.join("other");
    let widget =
        crate::harness::COUNTDOWN.replace("android.os.CountDownTimer", "com.example.Widget");
    server.write("other/.typestar/com/example/Widget.typestate", &widget);
    let uri = server
        .open(
            "A.java",
            "import com.example.Widget;\nclass A {\n    Widget widget;\n}\n",
        )
        .await;
    assert_eq!(server.hover(&uri, 2, 6).await, Value::Null);
    let folder = tower_lsp_server::ls_types::Uri::from_file_path(&other).unwrap();
    server
        .notify(
            "workspace/didChangeWorkspaceFolders",
            json!({ "event": { "added": [{ "uri": folder.as_str(), "name": "other" }], "removed": [] } }),
        )
        .await;
    server.await_progress_end("typestar/workspaceCheck/").await;
    let hover = server.hover(&uri, 2, 6).await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|t| t.contains("com.example.Widget")),
        "{hover}"
    );
    server
        .notify(
            "workspace/didChangeWorkspaceFolders",
            json!({ "event": { "added": [], "removed": [{ "uri": folder.as_str(), "name": "other" }] } }),
        )
        .await;
    server.await_progress_end("typestar/workspaceCheck/").await;
    assert_eq!(server.hover(&uri, 2, 6).await, Value::Null);
}

/// Runs `typestar lsp`: sends `initialize`, then, when `shutdown_first`, `shutdown` and waits
/// for its reply, then `exit` when `then_exit`, and closes stdin; the exit code.
fn exit_code(shutdown_first: bool, then_exit: bool) -> Option<i32> {
    let mut child = Command::new(env!("CARGO_BIN_EXE_typestar"))
        .arg("lsp")
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut stdout = child.stdout.take().unwrap();
    let mut send = |message: Value| {
        let body = message.to_string();
        write!(stdin, "Content-Length: {}\r\n\r\n{body}", body.len()).unwrap();
        stdin.flush().unwrap();
    };
    let mut seen = Vec::new();
    let mut await_reply = |id: u32| {
        let mut buffer = [0; 4096];
        while !String::from_utf8_lossy(&seen).contains(&format!("\"id\":{id}")) {
            let n = stdout.read(&mut buffer).unwrap();
            assert!(
                n > 0,
                "the server closed stdout before answering request {id}"
            );
            seen.extend_from_slice(&buffer[..n]);
        }
    };
    send(
        json!({ "jsonrpc": "2.0", "id": 1, "method": "initialize", "params": { "capabilities": {} } }),
    );
    await_reply(1);
    if shutdown_first {
        send(json!({ "jsonrpc": "2.0", "id": 2, "method": "shutdown" }));
        await_reply(2);
    }
    if then_exit {
        send(json!({ "jsonrpc": "2.0", "method": "exit" }));
    }
    drop(stdin);
    child.wait().unwrap().code()
}

#[test]
fn exit_without_shutdown_is_status_1() {
    assert_eq!(exit_code(true, true), Some(0));
    assert_eq!(exit_code(false, true), Some(1));
    assert_eq!(exit_code(false, false), Some(1));
}

/// Hovers and views are answered from the per-call results of the document's last check, not
/// from another analysis: they add no check of a text the diagnostics checked, and a hover on a
/// text not checked yet checks it once, for the diagnostics too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn hovers_and_views_are_answered_from_the_last_check() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    server.await_diagnostics(&uri, Some(1)).await;
    let checked = server.checker.checks();
    for (line, states) in [(2, "Created"), (3, "Running"), (2, "Created")] {
        let hover = server.hover(&uri, line, 16).await;
        let text = hover["contents"]["value"].as_str().unwrap();
        assert!(
            text.contains(&format!("before the call: {states}")),
            "{text}"
        );
    }
    let view = server
        .request(
            "typestar/protocol",
            json!({ "textDocument": { "uri": uri }, "position": { "line": 3, "character": 16 } }),
        )
        .await;
    assert_eq!(view["result"]["possible"], json!(["s1"]));
    assert_eq!(
        server.checker.checks(),
        checked,
        "no analysis beyond the check"
    );
    // Another text: its check answers the next hover.
    server.change(&uri, 2, &format!("{TWO_STARTS}\n")).await;
    server.await_diagnostics(&uri, Some(2)).await;
    server.hover(&uri, 3, 16).await;
    assert_eq!(server.checker.checks(), checked + 1);
}

async fn inlay_hints(server: &mut TestServer, uri: &str) -> Value {
    let reply = server
        .request(
            "textDocument/inlayHint",
            json!({ "textDocument": { "uri": uri },
                    "range": { "start": { "line": 0, "character": 0 }, "end": { "line": 9, "character": 0 } } }),
        )
        .await;
    reply["result"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn inlay_hints_show_the_possible_states_only_when_asked_for() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TWO_STARTS).await;
    assert_eq!(inlay_hints(&mut server, &uri).await, Value::Null);
    let mut server = TestServer::builder()
        .countdown_protocol()
        .settings(json!({ "inlayHints": { "states": true }, "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let uri = server.open("A.java", TWO_STARTS).await;
    server.await_diagnostics(&uri, Some(1)).await;
    let checked = server.checker.checks();
    let hints = inlay_hints(&mut server, &uri).await;
    let shown: Vec<(u64, u64, &str)> = hints
        .as_array()
        .unwrap()
        .iter()
        .map(|h| {
            (
                h["position"]["line"].as_u64().unwrap(),
                h["position"]["character"].as_u64().unwrap(),
                h["label"].as_str().unwrap(),
            )
        })
        .collect();
    // Before each call (the scripted checker's calls start at the receiver).
    assert_eq!(shown, [(2, 8, "Created:"), (3, 8, "Running:")]);
    assert_eq!(
        server.checker.checks(),
        checked,
        "answered from the last check"
    );
}
