//! Hovers on protocol class names and on calls.

use serde_json::Value;

use crate::harness::TestServer;

const TIMER: &str = "import android.os.CountDownTimer;\nclass A {\n    void run() {\n        CountDownTimer timer = make();\n        timer.start();\n        timer.cancel();\n    }\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_name_shows_a_short_protocol_summary_and_provenance() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TIMER).await;
    let hover = server.hover(&uri, 3, 12).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(hover["contents"]["kind"], "markdown");
    assert!(
        markdown.starts_with("### `android.os.CountDownTimer` protocol"),
        "{markdown}"
    );
    for expected in [
        "A countdown that calls onFinish() when the time is up; cancel() stops it.\n\n**States:**\n\n",
        "- `Created` (initial): DroidStar state 0. Not started.\n",
        "- `Running`: DroidStar state 1. Counting down; onFinish() is pending.\n",
        "**Provenance:** learned on backend robolectric: Robolectric 4.16.1, Android SDK 34 (Android 14), Java 17.0.15, from `",
        ".typestar/CountDownTimer.typestate`, overriding bundled with typestar (`android/os/CountDownTimer.typestate`)",
    ] {
        assert!(markdown.contains(expected), "{expected:?} not in\n{markdown}");
    }
    // Short: no table, no diagram source, no citations of files, no link the client cannot run.
    for absent in ["| state", "```mermaid", "droidstar-lessons.md", "command:"] {
        assert!(!markdown.contains(absent), "{absent:?} in\n{markdown}");
    }
    assert!(markdown.lines().count() < 15, "{markdown}");
    assert_eq!(hover["range"]["start"]["character"], 8);
    assert_eq!(hover["range"]["end"]["character"], 22);
    let qualified = server.hover(&uri, 0, 20).await;
    assert!(
        qualified["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("protocol"),
        "import lines hover too"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bundled_protocols_hover_without_a_typestar_folder() {
    let mut server = TestServer::builder().build().await;
    let uri = server
        .open(
            "P.java",
            "class P {\n    android.media.MediaPlayer player;\n}\n",
        )
        .await;
    let hover = server.hover(&uri, 1, 20).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.starts_with("### `android.media.MediaPlayer` protocol"),
        "{markdown}"
    );
    assert!(
        markdown.contains("bundled with typestar (`android/media/MediaPlayer.typestate`)"),
        "{markdown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_shows_states_what_is_allowed_next_and_callbacks() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TIMER).await;
    let hover = server.hover(&uri, 4, 15).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert_eq!(
        markdown,
        "**`timer.start()`** on `CountDownTimer`\n\nPossible states before the call: Created\n\n\
         After it: Running\n\nAllowed next: `cancel()`\n\nCallbacks that may arrive: `onFinish()`\n"
    );
    let cancel = server.hover(&uri, 5, 10).await;
    assert!(cancel["contents"]["value"]
        .as_str()
        .unwrap()
        .contains("before the call: Running"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_words_and_unopened_files_have_no_hover() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TIMER).await;
    assert_eq!(server.hover(&uri, 1, 2).await, Value::Null);
    assert_eq!(server.hover(&uri, 99, 0).await, Value::Null);
    let never_opened = server.uri("Other.java");
    assert_eq!(server.hover(&never_opened, 0, 0).await, Value::Null);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_client_that_runs_the_view_command_gets_a_link_to_it() {
    let mut server = TestServer::builder()
        .capabilities(serde_json::json!({
            "window": { "workDoneProgress": true },
            "experimental": { "typestar": { "showProtocol": true } }
        }))
        .build()
        .await;
    let uri = server.open("A.java", TIMER).await;
    let hover = server.hover(&uri, 3, 12).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(
        markdown.ends_with(
            "\n[Show the protocol diagram](command:typestar.showProtocol?%5B%22android.os.CountDownTimer%22%5D)\n"
        ),
        "{markdown}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_protocol_view_has_the_diagram_provenance_and_the_states_at_the_cursor() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let uri = server.open("A.java", TIMER).await;
    let at_cancel = server
        .request(
            "typestar/protocol",
            serde_json::json!({ "textDocument": { "uri": uri }, "position": { "line": 5, "character": 15 } }),
        )
        .await;
    let view = &at_cancel["result"];
    assert_eq!(view["class"], "android.os.CountDownTimer", "{at_cancel}");
    assert_eq!(view["possible"], serde_json::json!(["s1"]));
    assert_eq!(view["states"][1]["name"], "Running");
    assert!(view["dot"]
        .as_str()
        .unwrap()
        .starts_with("digraph \"android.os.CountDownTimer\""));
    let finish = view["transitions"]
        .as_array()
        .unwrap()
        .iter()
        .find(|t| t["from"] == "s1" && t["label"] == "on finished")
        .expect("the callback transition");
    assert_eq!(finish["to"], "s2");
    assert!(finish["source"].as_str().is_some());
    let by_name = server
        .request(
            "typestar/protocol",
            serde_json::json!({ "class": "MediaPlayer" }),
        )
        .await;
    assert_eq!(by_name["result"]["class"], "android.media.MediaPlayer");
    assert_eq!(by_name["result"]["possible"], serde_json::json!([]));
    let nothing = server
        .request(
            "typestar/protocol",
            serde_json::json!({ "class": "NoSuchClass" }),
        )
        .await;
    assert_eq!(nothing["result"], Value::Null, "{nothing}");
}
