//! Hovers on protocol class names and on calls.

use serde_json::Value;

use crate::harness::TestServer;

const TIMER: &str = "import android.os.CountDownTimer;\nclass A {\n    void run() {\n        CountDownTimer timer = make();\n        timer.start();\n        timer.cancel();\n    }\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_name_shows_the_protocol_table_diagram_and_provenance() {
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
        "| state             | start      | cancel    | when time passes   |",
        "| Running           | ✗          | → Done    | on finished → Done |",
        "```mermaid\nstateDiagram-v2\n",
        "    s1 --> s2 : on finished\n    s2 --> s2 : cancel\n```\n",
        "**Provenance:** droidstar on Android 23 (LG Nexus 5), from `",
        ".typestar/CountDownTimer.typestate`, overriding bundled with typestar (`android/os/CountDownTimer.typestate`)",
    ] {
        assert!(markdown.contains(expected), "{expected:?} not in\n{markdown}");
    }
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
