//! The startup workspace check, `.typestar/` errors, watching typestate files, settings.

use std::sync::Arc;

use serde_json::json;
use server::analysis::Library;

use crate::harness::{Builder, TestServer, COUNTDOWN};

const TWO_STARTS: &str =
    "class A {\n    void run() {\n        timer.start();\n        timer.start();\n    }\n}\n";

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn startup_checks_the_workspace_with_progress() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .file("src/A.java", TWO_STARTS)
        .file("src/B.kt", "fun main() {}\n")
        .file(
            "build.gradle",
            "// the Gradle build whose output build/ holds\n",
        )
        .file("build/Generated.java", TWO_STARTS)
        .build()
        .await;
    let begin = server
        .await_notification("$/progress", |p| p["value"]["kind"] == "begin")
        .await;
    assert_eq!(begin["value"]["title"], "typestar: checking the workspace");
    assert_eq!(
        begin["value"]["message"], "2 files",
        "build/ beside build.gradle is skipped"
    );
    let uri = server.uri("src/A.java");
    let diagnostics = server.await_diagnostics(&uri, None).await;
    assert_eq!(diagnostics[0]["code"], "typestate-violation");
    let requests = server.server_requests().await;
    let methods: Vec<&str> = requests
        .iter()
        .map(|r| r["method"].as_str().unwrap())
        .collect();
    assert!(methods.contains(&"workspace/configuration"), "{methods:?}");
    assert!(
        methods.contains(&"window/workDoneProgress/create"),
        "{methods:?}"
    );
    let registration = requests
        .iter()
        .find(|r| r["method"] == "client/registerCapability")
        .expect("the .typestar/ watcher is registered");
    assert_eq!(
        registration["params"]["registrations"][0]["registerOptions"]["watchers"][0]["globPattern"],
        "**/.typestar/**/*.typestate"
    );
}

/// A workspace file the server cannot read is named in the log with its code and next step;
/// the other files are still checked.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreadable_workspace_files_are_logged_by_name() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .file("src/A.java", TWO_STARTS)
        .bytes("src/Latin1.java", b"class L { String s = \"\xe9\"; }\n")
        .build()
        .await;
    let log = server
        .await_notification("window/logMessage", |p| {
            p["type"] == 2
                && p["message"]
                    .as_str()
                    .is_some_and(|m| m.contains("Latin1.java"))
        })
        .await;
    let message = log["message"].as_str().unwrap();
    assert!(
        message.starts_with("typestar: [not-utf8] ")
            && message.ends_with(
                "Latin1.java: not valid UTF-8 (first invalid byte at offset 22); not checked; save the file as UTF-8"
            ),
        "{message}"
    );
    let uri = server.uri("src/A.java");
    let diagnostics = server.await_diagnostics(&uri, None).await;
    assert_eq!(diagnostics[0]["code"], "typestate-violation");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn invalid_typestate_files_get_diagnostics() {
    let widget = COUNTDOWN.replace("android.os.CountDownTimer", "com.example.Widget");
    let mut server = TestServer::builder()
        .file(
            ".typestar/Broken.typestate",
            "typestate a.B\nstate S initial\n  bogus line here\n",
        )
        .file(".typestar/com/example/Widget.typestate", &widget)
        .build()
        .await;
    let uri = server.uri(".typestar/Broken.typestate");
    let diagnostics = server.await_diagnostics(&uri, None).await;
    assert!(!diagnostics.is_empty());
    assert_eq!(diagnostics[0]["code"], "typestate-format");
    assert_eq!(diagnostics[0]["range"]["start"]["line"], 2);
    // The folder's other protocols still load.
    let uri = server
        .open(
            "A.java",
            "import com.example.Widget;\nclass A {\n    Widget widget;\n}\n",
        )
        .await;
    let hover = server.hover(&uri, 2, 6).await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .is_some_and(|text| text.contains("com.example.Widget")),
        "{hover}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_changed_typestate_file_rechecks_open_and_workspace_files() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .file("src/B.java", TWO_STARTS)
        .build()
        .await;
    let on_disk = server.uri("src/B.java");
    assert_eq!(server.await_diagnostics(&on_disk, None).await.len(), 1);
    let uri = server.open("A.java", TWO_STARTS).await;
    assert_eq!(server.await_diagnostics(&uri, Some(1)).await.len(), 1);
    let in_running = "  start error from \"CountDownTimer.start() in frameworks/base: a second MSG beside the pending one, so a second countdown and onFinish() twice (no exception); restricted in the learned run and in DroidStar's (singleInputs)\"";
    assert!(COUNTDOWN.contains(in_running));
    let restartable = COUNTDOWN.replacen(in_running, "  start -> Running", 1);
    server.write(".typestar/CountDownTimer.typestate", &restartable);
    server
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": server.uri(".typestar/CountDownTimer.typestate"), "type": 2 }] }),
        )
        .await;
    assert!(server.await_diagnostics(&uri, Some(1)).await.is_empty());
    assert!(
        server.await_diagnostics(&on_disk, None).await.is_empty(),
        "cleared"
    );
    server.await_progress_end("typestar/workspaceCheck/").await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn other_watched_files_do_not_reload() {
    let mut server = TestServer::builder().countdown_protocol().build().await;
    let checks = server.checker.checks();
    server
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": server.uri("README.md"), "type": 2 }] }),
        )
        .await;
    let uri = server.open("A.java", TWO_STARTS).await;
    server.await_diagnostics(&uri, Some(1)).await;
    assert_eq!(server.checker.checks(), checks + 1);
}

/// The made-up protocol of `typestar check`'s level fixture: `close()` without `open()` is
/// ignored up to level 22, throws on 23..28 and is allowed from 29; a second `open()` throws
/// from 31.
const GATE: &str = include_str!("../cli/levels/.typestar/com/example/Gate.typestate");
const GATE_USER: &str = include_str!("../cli/levels/plain/GateUser.java");

/// The messages of the diagnostics of `path`, sorted.
async fn messages(server: &mut TestServer, path: &str) -> Vec<String> {
    let uri = server.uri(path);
    let mut messages: Vec<String> = server
        .await_diagnostics(&uri, None)
        .await
        .iter()
        .map(|d| d["message"].as_str().expect("a message").to_owned())
        .collect();
    messages.sort();
    messages
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn findings_name_the_api_levels_of_the_gradle_module() {
    let mut server = TestServer::builder()
        .static_checker()
        .file(".typestar/com/example/Gate.typestate", GATE)
        .file(
            "app/build.gradle",
            "android { defaultConfig { minSdk 21\n targetSdk 30 } }\n",
        )
        .file("app/src/com/example/GateUser.java", GATE_USER)
        .build()
        .await;
    let messages = messages(&mut server, "app/src/com/example/GateUser.java").await;
    expect_test::expect![[r#"
        [
            "`close()` on Gate `gate` in state Closed (after `new Gate()` in closeUnopened) is ignored (on API levels 21..22)",
            "`close()` on Gate `gate` in state Closed (after `new Gate()` in closeUnopened) throws IllegalStateException; allowed here: open (on API levels 23..28)",
        ]
    "#]]
    .assert_debug_eq(&messages);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_settings_give_the_levels_of_a_module_that_does_not_say() {
    let mut server = TestServer::builder()
        .static_checker()
        .settings(json!({ "minSdk": 29, "targetSdk": 33 }))
        .file(".typestar/com/example/Gate.typestate", GATE)
        .file("src/com/example/GateUser.java", GATE_USER)
        .build()
        .await;
    let messages = messages(&mut server, "src/com/example/GateUser.java").await;
    expect_test::expect![[r#"
        [
            "`open()` on Gate `gate` in state Open (after `open()` in openTwice) throws IllegalStateException; allowed here: close (on API levels 31..33)",
        ]
    "#]]
    .assert_debug_eq(&messages);
}

/// The distinct libraries among `libraries`, by pointer.
fn distinct(libraries: &[Arc<Library>]) -> Vec<*const Library> {
    let mut pointers: Vec<*const Library> = libraries.iter().map(Arc::as_ptr).collect();
    pointers.sort();
    pointers.dedup();
    pointers
}

/// A server of `builder` with the Gate protocol in its workspace, and the URI of the
/// document it opened, which uses Gate.
async fn gate_user_open(builder: Builder) -> (TestServer, String) {
    let server = builder
        .file(".typestar/com/example/Gate.typestate", GATE)
        .build()
        .await;
    let uri = server
        .open("src/com/example/GateUser.java", GATE_USER)
        .await;
    (server, uri)
}

/// Changes the workspace's Gate protocol so that a second `open()` throws from level 32, not
/// 31, and tells the server.
async fn second_open_throws_from_32(server: &TestServer) {
    server.write(
        ".typestar/com/example/Gate.typestate",
        &GATE.replace("levels 31..", "levels 32.."),
    );
    server
        .notify(
            "workspace/didChangeWatchedFiles",
            json!({ "changes": [{ "uri": server.uri(".typestar/com/example/Gate.typestate"), "type": 2 }] }),
        )
        .await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn checks_share_each_level_library_until_a_protocol_file_changes() {
    let (mut server, uri) = gate_user_open(TestServer::builder()).await;
    server.await_diagnostics(&uri, Some(1)).await;
    let first = distinct(&server.checker.libraries());
    assert!(
        first.len() > 1,
        "one library per range of levels: {first:?}"
    );
    let edited = GATE_USER.replace("openTwice", "openAgain");
    server.change(&uri, 2, &edited).await;
    server.await_diagnostics(&uri, Some(2)).await;
    let checked = server.checker.libraries().len();
    assert_eq!(
        distinct(&server.checker.libraries()),
        first,
        "none made again"
    );

    second_open_throws_from_32(&server).await;
    server.await_diagnostics(&uri, Some(2)).await;
    let after = server.checker.libraries();
    assert!(after.len() > checked, "the open document was checked again");
    let new = distinct(&after[checked..]);
    assert!(
        new.iter().all(|library| !first.contains(library)),
        "{new:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_open_document_gets_the_changed_protocol_s_findings() {
    let builder = TestServer::builder()
        .static_checker()
        .settings(json!({ "minSdk": 29, "targetSdk": 33 }));
    let (mut server, uri) = gate_user_open(builder).await;
    let message = |diagnostics: Vec<serde_json::Value>| -> Vec<String> {
        diagnostics
            .iter()
            .map(|d| d["message"].as_str().expect("a message").to_owned())
            .collect()
    };
    expect_test::expect![[r#"
        [
            "`open()` on Gate `gate` in state Open (after `open()` in openTwice) throws IllegalStateException; allowed here: close (on API levels 31..33)",
        ]
    "#]]
    .assert_debug_eq(&message(server.await_diagnostics(&uri, Some(1)).await));

    second_open_throws_from_32(&server).await;
    expect_test::expect![[r#"
        [
            "`open()` on Gate `gate` in state Open (after `open()` in openTwice) throws IllegalStateException; allowed here: close (on API levels 32..33)",
        ]
    "#]]
    .assert_debug_eq(&message(server.await_diagnostics(&uri, Some(1)).await));
}
