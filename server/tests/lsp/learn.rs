//! `typestar.learnClass`: draft, learn with progress, cancel.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;

use serde_json::{json, Value};

use server::learning::Learners;
use test_tiers::Tier;

use crate::fake::FakeLearner;
use crate::harness::{exists, TestServer};

const WIDGET: &str = "import com.example.Widget;\nclass A {\n    Widget widget;\n}\n";

pub(crate) fn learn_args(uri: &str) -> Value {
    json!({
        "command": "typestar.learnClass",
        "arguments": [{ "textDocument": { "uri": uri }, "position": { "line": 2, "character": 6 } }]
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_first_run_drafts_the_experiment_and_the_second_learns() {
    let mut server = TestServer::builder()
        .countdown_protocol()
        .settings(json!({ "backend": "jvm", "classpath": ["lib/widget.jar"], "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let uri = server.open("A.java", WIDGET).await;
    let drafted = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
    assert_eq!(drafted["result"]["class"], "com.example.Widget");
    let draft = ".typestar/experiments/com.example.Widget.toml";
    assert!(exists(&server.root, draft));
    let text = std::fs::read_to_string(server.root.join(draft)).unwrap();
    assert!(
        text.contains("# classpath = [\"lib/widget.jar\"]"),
        "{text}"
    );
    let requests = server.server_requests().await;
    assert!(requests.iter().any(|r| r["method"] == "window/showDocument"
        && r["params"]["uri"]
            .as_str()
            .unwrap()
            .ends_with("com.example.Widget.toml")));

    let learned = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_eq!(learned["result"]["status"], "learned", "{learned}");
    assert!(exists(
        &server.root,
        ".typestar/com/example/Widget.typestate"
    ));
    let begin = server
        .await_notification("$/progress", |p| {
            p["token"] == "typestar/learn/com.example.Widget" && p["value"]["kind"] == "begin"
        })
        .await;
    assert_eq!(begin["value"]["cancellable"], true);
    let report = server
        .await_notification("$/progress", |p| p["value"]["kind"] == "report")
        .await;
    assert_eq!(report["value"]["message"], "round 1: 12 membership queries");
    server.await_progress_end("typestar/learn/").await;
    server.await_progress_end("typestar/workspaceCheck/").await;
    let hover = server.hover(&uri, 2, 6).await;
    assert!(
        hover["contents"]["value"]
            .as_str()
            .unwrap()
            .contains("com.example.Widget"),
        "the new protocol is loaded"
    );
}

/// A server whose learner runs until cancelled, the id of its running `learnClass` request (once
/// it reported progress), and the flag the learner sets when it stops.
async fn learning_until_cancelled() -> (TestServer, i64, Arc<AtomicBool>) {
    let learner = FakeLearner {
        until_cancelled: true,
        ..FakeLearner::default()
    };
    let stopped = learner.stopped.clone();
    let mut server = TestServer::builder()
        .learner(learner)
        .file(
            ".typestar/experiments/com.example.Widget.toml",
            "class = \"com.example.Widget\"\n",
        )
        .build()
        .await;
    let uri = server.open("A.java", WIDGET).await;
    let id = server
        .send_request("workspace/executeCommand", learn_args(&uri))
        .await;
    server
        .await_notification("$/progress", |p| p["value"]["kind"] == "report")
        .await;
    (server, id, stopped)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn learning_can_be_cancelled() {
    let (mut server, id, stopped) = learning_until_cancelled().await;
    server
        .notify(
            "window/workDoneProgress/cancel",
            json!({ "token": "typestar/learn/com.example.Widget" }),
        )
        .await;
    let reply = server.await_response(id).await;
    assert_eq!(reply["result"]["status"], "cancelled", "{reply}");
    let end = server.await_progress_end("typestar/learn/").await;
    assert_eq!(end["value"]["message"], "cancelled");
    assert!(stopped.load(Ordering::Relaxed));
    assert!(!exists(
        &server.root,
        ".typestar/com/example/Widget.typestate"
    ));
}

const TIMER: &str = "import android.os.CountDownTimer;\nclass A {\n    CountDownTimer timer;\n}\n";

/// A server learning with the real learner on `backend`, and its answer to learning the class
/// of `text` (at line 2, column 6).
async fn learn_with(backend: &str, text: &str) -> (TestServer, Value) {
    let settings = json!({ "backend": backend, "diagnostics": { "debounceMs": 0 } });
    learn_with_settings(settings, text).await
}

/// A server with the real learners and `settings`, its answer to `typestar.learnClass` on
/// the class of `text`.
async fn learn_with_settings(settings: Value, text: &str) -> (TestServer, Value) {
    let mut server = TestServer::builder()
        .learner(Learners::default())
        .settings(settings)
        .build()
        .await;
    let uri = server.open("A.java", text).await;
    let reply = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    (server, reply)
}

/// The reason of an `unavailable` answer.
fn unavailable_reason(reply: &Value) -> &str {
    assert_eq!(reply["result"]["status"], "unavailable", "{reply}");
    reply["result"]["reason"].as_str().unwrap()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_model_backend_relearns_a_library_class_with_the_real_learner() {
    let mut server = TestServer::builder()
        .learner(Learners::default())
        .settings(json!({ "backend": "model", "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let uri = server.open("A.java", TIMER).await;
    let reply = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_learned_beside_the_bundled_timer(
        &mut server,
        &reply,
        "simulated device (model backend)\"",
    )
    .await;
}

/// Checks the answer `reply` to learning CountDownTimer, which the library has, on a platform
/// whose name starts with `platform`: the protocol is written beside the library's, never over
/// it, with `typestar diff`'s report (the same traces), which the client is asked to show, and
/// the bundled protocol stays in use.
async fn assert_learned_beside_the_bundled_timer(
    server: &mut TestServer,
    reply: &Value,
    platform: &str,
) {
    assert_eq!(reply["result"]["status"], "learned", "{reply}");
    assert!(!exists(
        &server.root,
        ".typestar/android/os/CountDownTimer.typestate"
    ));
    let written = ".typestar/learned/android/os/CountDownTimer.typestate";
    let text = std::fs::read_to_string(server.root.join(written)).unwrap();
    assert!(text.contains("provenance learned"), "{text}");
    assert!(text.contains(&format!("platform \"{platform}")), "{text}");
    let diff = ".typestar/learned/android.os.CountDownTimer.diff.md";
    let report = std::fs::read_to_string(server.root.join(diff)).unwrap();
    assert!(
        report.contains("bundled:android/os/CountDownTimer.typestate and")
            && report.contains("have the same traces"),
        "{report}"
    );
    assert_eq!(
        reply["result"]["diff"],
        server.root.join(diff).display().to_string()
    );
    let requests = server.server_requests().await;
    assert!(requests.iter().any(|r| r["method"] == "window/showDocument"
        && r["params"]["uri"].as_str().unwrap().ends_with(".diff.md")));
    let uri = server.uri("A.java");
    let hover = server.hover(&uri, 2, 6).await;
    let markdown = hover["contents"]["value"].as_str().unwrap();
    assert!(markdown.contains("bundled with typestar"), "{markdown}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_request_stops_the_learner_and_ends_the_progress() {
    let (mut server, id, stopped) = learning_until_cancelled().await;
    server.notify("$/cancelRequest", json!({ "id": id })).await;
    let reply = server.await_response(id).await;
    assert_eq!(reply["error"]["code"], -32800, "{reply}");
    let end = server.await_progress_end("typestar/learn/").await;
    assert_eq!(end["value"]["message"], "cancelled");
    while !stopped.load(Ordering::Relaxed) {
        tokio::time::sleep(std::time::Duration::from_millis(5)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_android_class_on_the_host_jvm_says_what_to_set() {
    let (_server, reply) = learn_with("jvm", TIMER).await;
    let reason = unavailable_reason(&reply);
    assert!(
        reason.contains("set `typestar.backend` to `robolectric`")
            && reason.contains("`typestar fetch-robolectric --sdk N`"),
        "{reason}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_robolectric_backend_drafts_from_the_shipped_experiment_or_says_what_to_write() {
    let (mut server, drafted) = learn_with("robolectric", TIMER).await;
    assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
    let draft = ".typestar/experiments/android.os.CountDownTimer.toml";
    assert_eq!(
        std::fs::read_to_string(server.root.join(draft)).unwrap(),
        include_str!("../../../learner/experiments/android.os.CountDownTimer.toml")
    );
    let uri = server.open("B.java", WIDGET).await;
    let reply = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    let reason = unavailable_reason(&reply);
    assert!(
        reason.contains("com.example.Widget.toml") && reason.contains("EXPERIMENTS.md"),
        "{reason}"
    );
}

/// An Android class learned from the editor inside Robolectric, as a user would: the shipped
/// experiment is drafted, then run; the library has the class, so the result goes beside it
/// with `typestar diff`'s report, shown to the user, and the bundled protocol stays in use.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn an_android_class_is_learned_in_robolectric_beside_the_bundled_protocol() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let (mut server, drafted) = learn_with("robolectric", TIMER).await;
    assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
    let uri = server.uri("A.java");
    let learned = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_learned_beside_the_bundled_timer(
        &mut server,
        &learned,
        "backend robolectric: Robolectric",
    )
    .await;
    await_timer_report(&mut server).await;
    server.await_progress_end("typestar/learn/").await;
}

/// Waits for a progress report of a run learning CountDownTimer.
async fn await_timer_report(server: &mut TestServer) {
    server
        .await_notification("$/progress", |p| {
            p["token"] == "typestar/learn/android.os.CountDownTimer"
                && p["value"]["kind"] == "report"
        })
        .await;
}

/// Drafting runs on the host JVM, which has no Android classes: learning on devices asks for
/// a hand-written experiment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn android_learning_asks_for_a_written_experiment() {
    let (mut server, reply) = learn_with("android", TIMER).await;
    let reason = unavailable_reason(&reply);
    assert!(reason.contains("EXPERIMENTS.md"), "{reason}");
    let shown = server
        .await_notification("window/showMessage", |p| p["type"] == 2)
        .await;
    assert!(
        shown["message"]
            .as_str()
            .unwrap()
            .contains("write the experiment by hand"),
        "{shown}"
    );
}

/// The example app's `DownloadTask`, not compiled: learning it says what to configure.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_class_the_agent_cannot_find_says_what_to_set() {
    let mut server = TestServer::builder()
        .learner(Learners::default())
        .settings(json!({ "backend": "jvm", "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let text = include_str!(
        "../../../examples/android-app/app/src/main/java/com/example/typestar/DownloadTask.java"
    );
    let uri = server.open("DownloadTask.java", text).await;
    let reply = server
        .request(
            "workspace/executeCommand",
            json!({ "command": "typestar.learnClass", "arguments": [{ "textDocument": { "uri": uri }, "position": { "line": 5, "character": 15 } }] }),
        )
        .await;
    let reason = unavailable_reason(&reply);
    assert!(
        reason.contains("com.example.typestar.DownloadTask is not on the learning class path")
            && reason.contains("`typestar.classpath`")
            && reason.contains("`robolectric`"),
        "{reason}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn the_jvm_backend_drafts_then_learns_a_jdk_class() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    test_tiers::require_tool("javac", "install a JDK (README.md, \"Prerequisites\")");
    let mut server = TestServer::builder()
        .learner(Learners::default())
        .settings(json!({ "backend": "jvm", "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let uri = server
        .open(
            "A.java",
            "import java.util.Timer;\nclass A {\n    Timer timer;\n}\n",
        )
        .await;
    let drafted = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
    let draft = server
        .root
        .join(".typestar/experiments/java.util.Timer.toml");
    let text = std::fs::read_to_string(&draft).unwrap();
    assert!(
        text.contains("class = \"java.util.Timer\""),
        "the agent described the class:\n{text}"
    );
    // The review: the repository's finished experiment for Timer.
    let reviewed = include_str!("../../../learner/experiments/java.util.Timer.toml");
    std::fs::write(&draft, reviewed).unwrap();
    let learned = server
        .request("workspace/executeCommand", learn_args(&uri))
        .await;
    assert_eq!(learned["result"]["status"], "learned", "{learned}");
    // The library has a learned Timer: the result goes beside it, with the difference.
    let typestate = std::fs::read_to_string(
        server
            .root
            .join(".typestar/learned/java/util/Timer.typestate"),
    )
    .unwrap();
    assert!(
        server
            .root
            .join(".typestar/learned/java.util.Timer.diff.md")
            .exists(),
        "{learned}"
    );
    assert!(typestate.contains("provenance learned"), "{typestate}");
    assert!(typestate.contains("platform \"host JVM"), "{typestate}");
    server
        .await_notification("$/progress", |p| {
            p["token"] == "typestar/learn/java.util.Timer" && p["value"]["kind"] == "report"
        })
        .await;
    server.await_progress_end("typestar/learn/").await;
}

/// The example app's `UploadSession` compiled into `classes`, a server whose `typestar.classpath`
/// is that folder, `NoteSender.java` open there (its text and URI), and the `learnClass` command
/// at its marker, run once: the experiment is drafted and reviewed as the app's README says.
struct UploadSession {
    server: TestServer,
    text: String,
    uri: String,
    learn: Value,
}

impl UploadSession {
    const SOURCES: &str = "app/src/main/java/com/example/typestar";

    async fn drafted(classes: &std::path::Path) -> UploadSession {
        test_tiers::require_tool("javac", "install a JDK (README.md, \"Prerequisites\")");
        let app = example_app();
        let sources = UploadSession::SOURCES;
        let _ = std::fs::remove_dir_all(classes);
        let javac = std::process::Command::new("javac")
            .arg("-d")
            .arg(classes)
            .arg(app.join(sources).join("UploadSession.java"))
            .output()
            .expect("javac runs");
        assert!(javac.status.success(), "{javac:?}");
        let source = |name: &str| std::fs::read_to_string(app.join(sources).join(name)).unwrap();
        let mut server = TestServer::builder()
            .learner(Learners::default())
            .static_checker()
            .file(
                &format!("{sources}/UploadSession.java"),
                &source("UploadSession.java"),
            )
            .settings(
                json!({ "backend": "jvm", "classpath": [classes], "diagnostics": { "debounceMs": 0 } }),
            )
            .build()
            .await;
        let text = source("NoteSender.java");
        let (line, marked) = marked_line(&text, "// learnClass: UploadSession");
        let character = marked.find("UploadSession").unwrap() as u32;
        let uri = server
            .open(&format!("{sources}/NoteSender.java"), &text)
            .await;
        let before = server.await_diagnostics(&uri, Some(1)).await;
        assert_eq!(
            before,
            Vec::<Value>::new(),
            "nothing is known of the class yet"
        );
        let learn = json!({
            "command": "typestar.learnClass",
            "arguments": [{ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }]
        });
        let drafted = server
            .request("workspace/executeCommand", learn.clone())
            .await;
        assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
        assert_eq!(
            drafted["result"]["class"], "com.example.typestar.UploadSession",
            "a class of the file's package, used without an import"
        );
        // The review the README asks for: give `send` an argument.
        let draft = server
            .root
            .join(".typestar/experiments/com.example.typestar.UploadSession.toml");
        let drafted_text = std::fs::read_to_string(&draft).unwrap();
        assert!(
            drafted_text.contains("\"<fill: java.lang.String>\""),
            "{drafted_text}"
        );
        std::fs::write(
            &draft,
            drafted_text.replace("\"<fill: java.lang.String>\"", "\"chunk\""),
        )
        .unwrap();
        UploadSession {
            server,
            text,
            uri,
            learn,
        }
    }
}

fn example_app() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/android-app")
}

/// The number and text of the first line of `text` containing `marker`.
fn marked_line<'a>(text: &'a str, marker: &str) -> (u32, &'a str) {
    let line = text.lines().position(|l| l.contains(marker)).unwrap();
    (line as u32, text.lines().nth(line).unwrap())
}

/// The example app's own `UploadSession`, from `NoteSender.java`, as its README's steps say:
/// compiled with the JDK onto `typestar.classpath`, drafted, reviewed, learned on the host JVM;
/// the learned protocol is the one `learned/` holds, and it reports `NoteSender`'s bug at once.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn the_example_apps_own_class_is_learned_on_the_host_jvm_and_checks_its_clients() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classes = std::env::temp_dir().join(format!("typestar-upload-{}", std::process::id()));
    let UploadSession {
        mut server,
        text,
        uri,
        learn,
    } = UploadSession::drafted(&classes).await;
    let learned = server.request("workspace/executeCommand", learn).await;
    assert_eq!(learned["result"]["status"], "learned", "{learned}");
    let written = std::fs::read_to_string(
        server
            .root
            .join(".typestar/com/example/typestar/UploadSession.typestate"),
    )
    .unwrap();
    assert!(written.contains("platform \"host JVM"), "{written}");
    let expected = "learned/com.example.typestar.UploadSession.typestate";
    let expected = typestates::format::parse(
        expected,
        &std::fs::read_to_string(example_app().join(expected)).unwrap(),
    )
    .unwrap();
    let diff = typestates::diff::diff(
        &expected,
        &typestates::format::parse("learned", &written).unwrap(),
        10,
    );
    assert!(diff.is_equivalent(), "{diff:?}\n{written}");
    let (bug, _) = marked_line(&text, "// once learned(definite): send");
    let found = server
        .await_notification("textDocument/publishDiagnostics", |p| {
            p["uri"] == uri.as_str() && p["diagnostics"].as_array().is_some_and(|d| !d.is_empty())
        })
        .await;
    let found = found["diagnostics"].as_array().unwrap();
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0]["range"]["start"]["line"], bug, "{found:?}");
    let message = found[0]["message"].as_str().unwrap();
    assert!(
        message.contains("`send()` on UploadSession `session` in state s0"),
        "{message}"
    );
    let _ = std::fs::remove_dir_all(&classes);
}

/// How a client cancels a learning run.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Cancel {
    /// `$/cancelRequest` for the `learnClass` request, as VS Code sends when the notification's
    /// Cancel is pressed: the request fails with -32800.
    Request,
    /// `window/workDoneProgress/cancel` for the run's progress token: the answer says cancelled.
    Progress,
}

impl Cancel {
    /// Every way, in the order the tests try them.
    pub(crate) const ALL: [Cancel; 2] = [Cancel::Request, Cancel::Progress];

    /// Cancels the `learnClass` request `id`, which learns `class`.
    pub(crate) async fn send(self, server: &TestServer, id: i64, class: &str) {
        match self {
            Cancel::Request => server.notify("$/cancelRequest", json!({ "id": id })).await,
            Cancel::Progress => {
                server
                    .notify(
                        "window/workDoneProgress/cancel",
                        json!({ "token": format!("typestar/learn/{class}") }),
                    )
                    .await
            }
        }
    }

    /// Checks the answer to the cancelled request.
    pub(crate) fn check(self, reply: &Value) {
        match self {
            Cancel::Request => assert_eq!(reply["error"]["code"], -32800, "{reply}"),
            Cancel::Progress => assert_eq!(reply["result"]["status"], "cancelled", "{reply}"),
        }
    }
}

/// Cancelling a learning run on the host JVM, either way, ends the progress and every JVM of
/// the run: none is left whose class path names the run's classes folder.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn cancelling_a_run_on_the_host_jvm_stops_its_jvms() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classes = std::env::temp_dir().join(format!("typestar-cancel-{}", std::process::id()));
    let marker = classes.display().to_string();
    for cancel in Cancel::ALL {
        let UploadSession {
            mut server, learn, ..
        } = UploadSession::drafted(&classes).await;
        let id = server.send_request("workspace/executeCommand", learn).await;
        server
            .await_notification("$/progress", |p| p["value"]["kind"] == "report")
            .await;
        cancel_stops_the_jvms(
            &mut server,
            cancel,
            id,
            "com.example.typestar.UploadSession",
            &marker,
        )
        .await;
    }
    let _ = std::fs::remove_dir_all(&classes);
}

/// Cancelling a learning run in Robolectric, either way, ends the progress and the run's JVM.
/// The run's JVM is told apart by a folder of its own on `typestar.classpath`, which its class path names.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn cancelling_a_run_in_robolectric_stops_its_jvm() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    for cancel in Cancel::ALL {
        let marker = std::env::temp_dir().join(format!(
            "typestar-cancel-robolectric-{}-{cancel:?}",
            std::process::id()
        ));
        std::fs::create_dir_all(&marker).expect("a folder for the class path");
        let settings = json!({
            "backend": "robolectric",
            "classpath": [marker],
            "diagnostics": { "debounceMs": 0 }
        });
        let (mut server, drafted) = learn_with_settings(settings, TIMER).await;
        assert_eq!(drafted["result"]["status"], "drafted", "{drafted}");
        let uri = server.uri("A.java");
        let id = server
            .send_request("workspace/executeCommand", learn_args(&uri))
            .await;
        await_timer_report(&mut server).await;
        let class = "android.os.CountDownTimer";
        cancel_stops_the_jvms(
            &mut server,
            cancel,
            id,
            class,
            &marker.display().to_string(),
        )
        .await;
        let _ = std::fs::remove_dir_all(&marker);
    }
}

/// Once a JVM of the run learning `class` (request `id`) names `marker`, cancels the run the
/// `cancel` way: the request is answered as cancelled, the progress ends, and no JVM naming
/// `marker` is left.
async fn cancel_stops_the_jvms(
    server: &mut TestServer,
    cancel: Cancel,
    id: i64,
    class: &str,
    marker: &str,
) {
    assert!(
        eventually(|| !jvms_naming(marker).is_empty()).await,
        "{cancel:?}: no JVM of the run names {marker}"
    );
    cancel.send(server, id, class).await;
    cancel.check(&server.await_response(id).await);
    let end = server.await_progress_end("typestar/learn/").await;
    assert_eq!(end["value"]["message"], "cancelled", "{cancel:?}");
    // Killed as the run is dropped; the kernel takes a moment to end them.
    assert!(
        eventually(|| jvms_naming(marker).is_empty()).await,
        "{cancel:?}: JVMs still running: {:?}",
        jvms_naming(marker)
    );
}

/// The command lines of the live processes (zombies excluded) naming `marker`.
fn jvms_naming(marker: &str) -> Vec<String> {
    std::fs::read_dir("/proc")
        .expect("this test reads /proc to see the learner's JVMs")
        .flatten()
        .filter_map(|entry| {
            let dir = entry.path();
            let status = std::fs::read_to_string(dir.join("status")).ok()?;
            if status
                .lines()
                .any(|l| l.starts_with("State:") && l.contains('Z'))
            {
                return None;
            }
            let command = std::fs::read(dir.join("cmdline")).ok()?;
            let command = String::from_utf8_lossy(&command).replace('\0', " ");
            command.contains(marker).then_some(command)
        })
        .collect()
}

/// Whether `done` holds within 10 s, asked every 20 ms.
pub(crate) async fn eventually(done: impl Fn() -> bool) -> bool {
    for _ in 0..500 {
        if done() {
            return true;
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    done()
}
