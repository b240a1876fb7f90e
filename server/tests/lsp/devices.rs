//! `typestar.learnClass` on the Android backend, against a fake adb server (the learner's
//! `tests/adb_support`) whose devices run the host JVM agent behind `app_process`: the run
//! reports progress, ends it, and writes the learned protocol; cancelling it either way ends the
//! agents on the devices.
//! Slow tier `device-fake` (`test-tiers`): each fake device runs a host JVM agent.

use std::sync::Arc;

use serde_json::{json, Value};
use server::learning::Learners;
use test_tiers::Tier;

use crate::adb_support::fake_adb::{FakeAdb, FakeDevice};
use crate::adb_support::{config, scratch, server};
use crate::harness::TestServer;
use crate::learn::{eventually, learn_args, Cancel};

/// One learning run at a time: each device is a JVM, and two cores are shared.
static ONE_RUN_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const CLASS: &str = "java.util.Iterator";
const ITERATOR: &str = "import java.util.Iterator;\nclass A {\n    Iterator<String> it;\n}\n";

/// A server learning on `adb`'s devices, with the shipped experiment of an ArrayList's iterator
/// written as the hand-written experiment the Android backend asks for, `A.java` open, and its
/// `learnClass` request sent: the id of that request.
async fn learning_on(adb: &FakeAdb) -> (TestServer, i64) {
    let experiment = learner::shipped::experiment_text("java.util.ArrayList-iterator")
        .expect("the iterator experiment is shipped");
    let mut server = TestServer::builder()
        .learner(Learners {
            android: config(&[adb]),
        })
        .file(&format!(".typestar/experiments/{CLASS}.toml"), experiment)
        .settings(json!({ "backend": "android", "diagnostics": { "debounceMs": 0 } }))
        .build()
        .await;
    let uri = server.open("A.java", ITERATOR).await;
    let id = server
        .send_request("workspace/executeCommand", learn_args(&uri))
        .await;
    (server, id)
}

/// The progress reports of the run, once one came.
async fn reported(server: &mut TestServer) -> Value {
    server
        .await_notification("$/progress", |p| {
            p["token"] == format!("typestar/learn/{CLASS}") && p["value"]["kind"] == "report"
        })
        .await
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_class_is_learned_on_a_fake_device_beside_the_bundled_protocol() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let adb = server(&scratch("lsp_learn"), &["emulator-5554"], 34);
    let (mut server, id) = learning_on(&adb).await;
    reported(&mut server).await;
    let learned = server.await_response(id).await;
    assert_eq!(learned["result"]["status"], "learned", "{learned}");
    server.await_progress_end("typestar/learn/").await;
    // The library has Iterator: the result goes beside it, with `typestar diff`'s report.
    let written = server
        .root
        .join(".typestar/learned/java/util/Iterator.typestate");
    let text = std::fs::read_to_string(&written).unwrap();
    assert!(text.contains("provenance learned"), "{text}");
    assert!(
        text.contains("on device emulator-5554"),
        "the platform names the device:\n{text}"
    );
    assert!(server
        .root
        .join(format!(".typestar/learned/{CLASS}.diff.md"))
        .is_file());
    assert!(
        adb.requests().iter().any(|it| it.contains("app_process")),
        "the agent ran on the device: {:?}",
        adb.requests()
    );
}

/// Cancelling a run on a device, either way, ends the progress and the agent on the device
/// (the exec stream closing ends it, as adbd does).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn cancelling_a_run_on_a_fake_device_ends_its_agent() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    for cancel in Cancel::ALL {
        let adb = server(&scratch(&format!("lsp_cancel_{cancel:?}")), &["slow"], 34);
        // Slow answers keep the run going until it is cancelled.
        let device: Arc<FakeDevice> = Arc::clone(adb.device("slow"));
        device.set_latency(200);
        let (mut server, id) = learning_on(&adb).await;
        reported(&mut server).await;
        assert!(
            eventually(|| device.agents_running() > 0).await,
            "{cancel:?}: no agent started on the device"
        );
        cancel.send(&server, id, CLASS).await;
        cancel.check(&server.await_response(id).await);
        let end = server.await_progress_end("typestar/learn/").await;
        assert_eq!(end["value"]["message"], "cancelled", "{cancel:?}");
        assert!(
            eventually(|| device.agents_running() == 0).await,
            "{cancel:?}: {} agents still run on the device",
            device.agents_running()
        );
        assert!(!server
            .root
            .join(".typestar/learned/java/util/Iterator.typestate")
            .exists());
    }
}
