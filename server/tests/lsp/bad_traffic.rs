//! Bad traffic: malformed JSON-RPC, unknown methods, bad params, files never opened, a 10 MB
//! file. Each gets a proper answer and the server keeps serving.

use serde_json::{json, Value};

use crate::harness::TestServer;

async fn still_serving(server: &mut TestServer) {
    let uri = server.open("Alive.java", "class Alive {}\n").await;
    assert!(server.await_diagnostics(&uri, Some(1)).await.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_json_gets_a_parse_error() {
    let mut server = TestServer::builder().build().await;
    let body = "{\"jsonrpc\": \"2.0\", \"id\": 1, \"method\": ";
    server
        .send_raw(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
        .await;
    let error = server
        .await_any(|m| m["id"] == Value::Null && m.get("error").is_some())
        .await;
    assert_eq!(error["error"]["code"], -32700, "{error}");
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_message_that_is_not_json_rpc_gets_an_invalid_request() {
    let mut server = TestServer::builder().build().await;
    server.send(&json!({ "hello": "world" })).await;
    let error = server.await_any(|m| m.get("error").is_some()).await;
    assert_eq!(error["error"]["code"], -32600, "{error}");
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unknown_methods_are_method_not_found() {
    let mut server = TestServer::builder().build().await;
    let reply = server.request("typestar/noSuchThing", json!({})).await;
    assert_eq!(reply["error"]["code"], -32601, "{reply}");
    server
        .notify("typestar/noSuchNotification", json!({}))
        .await;
    let reply = server
        .request(
            "workspace/executeCommand",
            json!({ "command": "typestar.nope", "arguments": [] }),
        )
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bad_params_are_invalid_params() {
    let mut server = TestServer::builder().build().await;
    let reply = server
        .request("textDocument/hover", json!({ "textDocument": 42 }))
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn files_never_opened_get_empty_results_or_an_error() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.uri("Never.java");
    assert_eq!(server.hover(&uri, 0, 0).await, Value::Null);
    let reply = server
        .request(
            "workspace/executeCommand",
            json!({ "command": "typestar.learnClass", "arguments": [{ "textDocument": { "uri": uri }, "position": { "line": 0, "character": 0 } }] }),
        )
        .await;
    assert_eq!(reply["error"]["code"], -32602, "{reply}");
    assert!(reply["error"]["message"]
        .as_str()
        .unwrap()
        .contains("is not open"));
    server.change(&uri, 2, "class Never {}").await;
    server
        .notify(
            "textDocument/didClose",
            json!({ "textDocument": { "uri": uri } }),
        )
        .await;
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_ten_megabyte_file_is_checked() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let line = "        int x = compute(1, 2, 3); // padding padding padding padding padding\n";
    let mut text = String::from(
        "class Big {\n    void run() {\n        timer.start();\n        timer.start();\n",
    );
    while text.len() < 10 * 1024 * 1024 {
        text.push_str(line);
    }
    text.push_str("    }\n}\n");
    let uri = server.open("Big.java", &text).await;
    assert_eq!(server.await_diagnostics(&uri, Some(1)).await.len(), 1);
    let hover = server.hover(&uri, 2, 10).await;
    assert!(hover["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("Created"));
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn framing_errors_skip_to_the_next_header() {
    let mut server = TestServer::builder().build().await;
    let uri = server.open("Alive.java", "class Alive {}\n").await;
    let hover = |id: i64| {
        json!({ "jsonrpc": "2.0", "id": id, "method": "textDocument/hover",
                "params": { "textDocument": { "uri": uri }, "position": { "line": 0, "character": 1 } } })
        .to_string()
    };
    let frame = |body: &str, header: String| format!("{header}\r\n\r\n{body}");
    let length = |body: &str, extra: usize| format!("Content-Length: {}", body.len() + extra);
    // Too short, good, missing, too long, good: each bad frame costs one parse error (the rest
    // of a truncated message is skipped with it), and a body longer than the bytes before the
    // next header is recovered.
    let traffic = [
        frame(&hover(101), "Content-Length: 12".into()),
        frame(&hover(102), length(&hover(102), 0)),
        frame(&hover(103), "Content-Type: application/json".into()),
        frame(&hover(104), length(&hover(104), 40)),
        frame(&hover(105), length(&hover(105), 0)),
    ]
    .concat();
    server.send_raw(traffic.as_bytes()).await;
    for id in [102, 104, 105] {
        let reply = server.await_response(id).await;
        assert!(reply.get("result").is_some(), "{reply}");
    }
    // Both stand-ins carry id null; tower-lsp-server answers a second request with an id still
    // pending with -32600 instead of running it, so either code is an answer to a bad frame.
    for _ in 0..2 {
        let error = server
            .await_any(|m| m["id"] == Value::Null && m.get("error").is_some())
            .await;
        let code = error["error"]["code"].as_i64();
        assert!(matches!(code, Some(-32700 | -32600)), "{error}");
    }
    let more: Vec<Value> = server
        .drain()
        .await
        .into_iter()
        .filter(|m| m.get("error").is_some() || m.get("result").is_some())
        .collect();
    assert!(more.is_empty(), "{more:?}");
    still_serving(&mut server).await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn utf8_edits_inside_a_character_do_not_stop_the_server() {
    let mut server = TestServer::builder()
        .capabilities(json!({
            "general": { "positionEncodings": ["utf-8"] },
            "window": { "workDoneProgress": true }
        }))
        .build()
        .await;
    let uri = server
        .open("Wide.java", "class Wide { String s = \"é😀\"; }\n")
        .await;
    server.await_diagnostics(&uri, Some(1)).await;
    for (version, (start, end)) in [(2, (26, 27)), (3, (27, 26)), (4, (29, 999))].into_iter() {
        server
            .notify(
                "textDocument/didChange",
                json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{
                    "range": { "start": { "line": 0, "character": start }, "end": { "line": 0, "character": end } },
                    "text": "x" }] }),
            )
            .await;
        server.await_diagnostics(&uri, Some(version)).await;
        let hover = server.request("textDocument/hover", json!({ "textDocument": { "uri": uri }, "position": { "line": 0, "character": start } })).await;
        assert!(hover.get("result").is_some(), "{hover}");
    }
    still_serving(&mut server).await;
}
