//! The Android backend end to end against fake adb servers (`adb_support/fake_adb.rs`) whose
//! fake devices run the host JVM agent behind `app_process`: discovery across servers, the
//! agent pushed, started with its token on stdin, forwarded and handshaken, one worker per
//! device, and the failures of real devices: unplugged mid-query, agent killed, forward
//! refused, `FAIL` replies, a slow device. No adb daemon and no device is involved.
//! Slow tier `device-fake` (`test-tiers`): each fake device runs a host JVM agent.

mod adb_support;

use std::path::Path;
use std::sync::Arc;
use std::time::Duration;

use adb_support::fake_adb::{FakeAdb, FakeDevice, Refusal};
use adb_support::jvm_support::{
    assert_missing_fixture_named, assert_read_the_fixture, url_stream, Fixture,
};
use adb_support::{config, experiment, host_agent, host_agent_with, scratch, server, variant_jar};
use learner::backend::android::{
    learn_on_devices, list_devices, AndroidConfig, AndroidError, DeviceDisagreement, DeviceUse,
    Recheck,
};
use learner::backend::jvm::Experiment;
use learner::{Details, Learned};
use learner::{End, NoProgress};
use test_tiers::Tier;
use typestates::Typestate;

/// One learning run at a time: each device is a JVM, and two cores are shared.
static ONE_RUN_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

const ITERATOR: &str = "java.util.ArrayList-iterator";

fn expected(name: &str) -> Typestate {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/jvm_expected")
        .join(format!("{name}.typestate"));
    let text = std::fs::read_to_string(&path).expect("expected typestate");
    typestates::format::parse(&path.display().to_string(), &text).expect("it parses")
}

/// What each device served in `run`.
fn devices(run: &Learned) -> &[DeviceUse] {
    match &run.details {
        Details::Devices { uses, .. } => uses,
        other => panic!("not a run on devices: {other:?}"),
    }
}

/// Where devices disagreed in `run`.
fn device_disagreements(run: &Learned) -> &[DeviceDisagreement] {
    match &run.details {
        Details::Devices { disagreements, .. } => disagreements,
        other => panic!("not a run on devices: {other:?}"),
    }
}

async fn learn(name: &str, config: &AndroidConfig) -> Learned {
    learn_on_devices(experiment(&format!("{name}.toml")), config, &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"))
}

fn assert_learned(run: &Learned, name: &str) {
    assert!(
        matches!(run.outcome.end, End::Learned),
        "learning did not finish: {:?}",
        run.outcome.end
    );
    let learned = run.typestate.as_ref().expect("a typestate");
    let diff = typestates::diff::diff(learned, &expected(name), 3);
    assert!(
        diff.is_equivalent(),
        "learned on devices differs from the expected typestate: {diff:#?}\n{}",
        typestates::format::print(learned)
    );
    assert!(
        device_disagreements(run).is_empty(),
        "{:?}",
        device_disagreements(run)
    );
    eprintln!("devices: {:?}", devices(run));
}

fn runs_of(run: &Learned, serial: &str) -> u64 {
    devices(run)
        .iter()
        .find(|it| it.serial == serial)
        .unwrap_or_else(|| panic!("{serial} is not in {:?}", devices(run)))
        .runs
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn two_servers_with_two_devices_each_share_the_queries() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("two_servers");
    let first = server(&dir, &["emulator-5554", "R58M11"], 34);
    let second = server(&dir, &["farm-1", "farm-2"], 29);
    let config = config(&[&first, &second]);

    let listed = list_devices(&config).await.expect("both servers answer");
    let summary: Vec<String> = listed
        .iter()
        .map(|it| {
            format!(
                "{} {} {} api={:?} agent={}",
                it.serial, it.state, it.model, it.api, it.agent_running
            )
        })
        .collect();
    assert_eq!(
        summary,
        [
            "emulator-5554 device Fake_emulator_5554 api=Some(34) agent=false",
            "R58M11 device Fake_R58M11 api=Some(34) agent=false",
            "farm-1 device Fake_farm_1 api=Some(29) agent=false",
            "farm-2 device Fake_farm_2 api=Some(29) agent=false",
        ]
    );

    let run = learn(ITERATOR, &config).await;
    assert_learned(&run, ITERATOR);
    for serial in ["emulator-5554", "R58M11", "farm-1", "farm-2"] {
        assert!(
            runs_of(&run, serial) > 0,
            "{serial} ran nothing: {:?}",
            devices(&run)
        );
    }
    // The token never appears on a command line: it goes to the agent's stdin.
    let starts: Vec<String> = first
        .requests()
        .into_iter()
        .chain(second.requests())
        .filter(|it| it.contains("app_process"))
        .collect();
    assert!(!starts.is_empty());
    for start in &starts {
        assert!(!start.contains("TOKEN"), "{start}");
        assert!(
            start.contains("exec:CLASSPATH=/data/local/tmp/typestar/0-"),
            "{start}"
        );
    }
    let devices = run.typestate.as_ref().unwrap().provenance.platform.clone();
    assert!(devices.is_some_and(|it| it.contains("emulator-5554")));
}

/// Answers a device gives before a test disturbs it: the run is under way, far from its end.
const ANSWERS_BEFORE_A_DISTURBANCE: u64 = 10;

/// Waits, polling, until `done` holds; a generous bound turns a hang into a failure naming `what`.
fn wait_until(what: &str, done: impl Fn() -> bool) {
    let bound = std::time::Instant::now() + Duration::from_secs(120);
    while !done() {
        assert!(std::time::Instant::now() < bound, "never happened: {what}");
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// Runs `disturb` on the device once its agent has served a few queries, while learning.
async fn learn_while(
    config: &AndroidConfig,
    device: Arc<FakeDevice>,
    disturb: impl FnOnce(&FakeDevice) + Send + 'static,
) -> Learned {
    try_learn_while(config, device, disturb)
        .await
        .unwrap_or_else(|error| panic!("{error}"))
}

/// [`learn_while`], its failure returned.
async fn try_learn_while(
    config: &AndroidConfig,
    device: Arc<FakeDevice>,
    disturb: impl FnOnce(&FakeDevice) + Send + 'static,
) -> Result<Learned, AndroidError> {
    let watcher = tokio::task::spawn_blocking(move || {
        wait_until("the agent answered a few queries", || {
            device.answers() >= ANSWERS_BEFORE_A_DISTURBANCE
        });
        disturb(&device);
    });
    let run = learn_on_devices(
        experiment(&format!("{ITERATOR}.toml")),
        config,
        &mut NoProgress,
    )
    .await;
    watcher.await.expect("the disturbance ran");
    run
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_device_unplugged_mid_query_is_waited_for_and_the_run_resumes() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("unplugged");
    let adb = server(&dir, &["only-one"], 34);
    let device = Arc::clone(adb.device("only-one"));
    let run = learn_while(&config(&[&adb]), device, |device| {
        device.unplug();
        wait_until("two device lists without the device", || {
            device.lists_while_away() >= 2
        });
        device.plug();
    })
    .await;
    assert_learned(&run, ITERATOR);
    // The one device had to come back for the run to finish: the servers were polled while
    // it was away, and its agent started again once it returned.
    let requests = adb.requests();
    let starts: Vec<usize> = (0..requests.len())
        .filter(|&at| requests[at].contains("app_process"))
        .collect();
    assert!(starts.len() >= 2, "{requests:?}");
    let polls = requests[starts[0]..starts[1]]
        .iter()
        .filter(|it| it.as_str() == "-|host:devices-l")
        .count();
    assert!(polls >= 2, "{requests:?}");
}

/// The only device leaves for longer than the run waits: the run fails naming it, and its
/// journal keeps what finished, so the rerun once the device is back resumes from it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_run_failed_by_a_lost_device_resumes_from_its_journal() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("journal");
    let adb = server(&dir, &["away"], 34);
    let device = Arc::clone(adb.device("away"));
    let mut config = config(&[&adb]);
    config.patience.wait_ms = 1_000;
    config.jvm.journal = Some(dir.join("run.journal"));
    let stopped = try_learn_while(&config, Arc::clone(&device), FakeDevice::unplug)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let End::Failed(error) = &stopped.outcome.end else {
        panic!("the run did not fail: {:?}", stopped.outcome.end);
    };
    let message = error.to_string();
    assert!(message.contains("away"), "{message}");

    device.plug();
    let run = learn(ITERATOR, &config).await;
    assert_learned(&run, ITERATOR);
    assert!(
        run.resumed_queries > 0,
        "nothing resumed from the journal: {:?}",
        run.statistics
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn an_unplugged_device_leaves_its_queries_to_the_others() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("unplugged_for_good");
    let adb = server(&dir, &["stays", "leaves"], 34);
    let device = Arc::clone(adb.device("leaves"));
    let run = learn_while(&config(&[&adb]), device, FakeDevice::unplug).await;
    assert_learned(&run, ITERATOR);
    let gone = devices(&run)
        .iter()
        .find(|it| it.serial == "leaves")
        .unwrap();
    assert!(gone.gone, "{:?}", devices(&run));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_killed_agent_is_started_again() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("killed");
    let adb = server(&dir, &["victim"], 34);
    let device = Arc::clone(adb.device("victim"));
    let run = learn_while(&config(&[&adb]), device, FakeDevice::kill_agents).await;
    assert_learned(&run, ITERATOR);
    let starts = adb
        .requests()
        .iter()
        .filter(|it| it.contains("app_process"))
        .count();
    assert!(
        starts >= 2,
        "the agent was not started again: {:?}",
        adb.requests()
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_device_refusing_forwards_is_set_aside() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("forward_refused");
    let adb = server(&dir, &["good", "no-forward"], 34);
    adb.device("no-forward").refuse_forwards(Refusal::Refuse);
    let run = learn(ITERATOR, &config(&[&adb])).await;
    assert_learned(&run, ITERATOR);
    assert_eq!(runs_of(&run, "no-forward"), 0);
    assert!(runs_of(&run, "good") > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn fail_replies_end_the_run_with_adbs_message() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("fail_replies");
    let adb = server(&dir, &["read-only"], 34);
    adb.device("read-only").refuse_pushes(Refusal::Refuse);
    let mut config = config(&[&adb]);
    config.patience.wait_ms = 1_000;
    let error = learn_on_devices(
        experiment(&format!("{ITERATOR}.toml")),
        &config,
        &mut NoProgress,
    )
    .await
    .expect_err("no device can take the agent");
    let message = error.to_string();
    assert!(message.contains("device read-only"), "{message}");
    assert!(message.contains("Read-only file system"), "{message}");

    let mut unknown = config.clone();
    unknown.serials = vec!["nowhere".to_owned()];
    let error = learn_on_devices(
        experiment(&format!("{ITERATOR}.toml")),
        &unknown,
        &mut NoProgress,
    )
    .await
    .expect_err("no such device");
    assert_eq!(
        error.to_string(),
        format!(
            "no usable device nowhere on the adb servers {}; they see: read-only ({}, device)",
            adb.address(),
            adb.address()
        )
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn a_slow_device_gives_the_same_answers() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("slow");
    let adb = server(&dir, &["fast", "slow"], 34);
    adb.device("slow").set_latency(40);
    let config = config(&[&adb]);
    // While it learns, `typestar devices` sees the agent running on the slow device.
    let slow = Arc::clone(adb.device("slow"));
    let listing = config.clone();
    let seen = tokio::spawn(async move {
        while slow.agents_running() == 0 {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
        list_devices(&listing).await.expect("the server answers")
    });
    let run = learn(ITERATOR, &config).await;
    assert_learned(&run, ITERATOR);
    let seen = seen.await.expect("listed");
    let slow = seen.iter().find(|it| it.serial == "slow").expect("listed");
    assert!(slow.agent_running, "{seen:?}");
    assert!(runs_of(&run, "slow") > 0);
    assert!(runs_of(&run, "fast") > 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn an_unreachable_server_is_named() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let dir = scratch("unreachable");
    let adb = FakeAdb::start(vec![FakeDevice::new(&dir, "x", 34, host_agent())]);
    let closed = std::net::TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap();
    let mut config = config(&[&adb]);
    config.servers.push(closed.to_string());
    let error = list_devices(&config)
        .await
        .expect_err("nothing listens there");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("adb server {closed}: cannot list devices:")),
        "{message}"
    );
}

/// The experiment's fixtures are served from the host: its setup fetches
/// `http://127.0.0.1:18095/hello.txt` on the device, which `adb reverse` takes to the host's
/// fixture server; the reverse is removed with the agent.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn fixtures_are_served_from_the_host_over_adb_reverse() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("fixtures");
    let adb = server(&dir, &["phone"], 34);
    let (_, experiment) = url_stream(Fixture::Served);
    let run = learn_on_devices(experiment, &config(&[&adb]), &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_read_the_fixture(&run);
    let requests = adb.requests();
    let reverses: Vec<&String> = requests
        .iter()
        .filter(|it| it.contains("reverse:"))
        .collect();
    assert!(
        reverses
            .iter()
            .any(|it| it.contains("reverse:forward:tcp:18095;tcp:")),
        "{reverses:?}"
    );
    assert!(
        reverses
            .iter()
            .any(|it| it.contains("reverse:killforward:tcp:18095")),
        "{reverses:?}"
    );

    // The same experiment with a fixture that is not there: the fetch above reached the
    // host's file.
    let (_, missing) = url_stream(Fixture::Missing);
    assert_missing_fixture_named(
        learn_on_devices(missing, &config(&[&adb]), &mut NoProgress).await,
    );
}

/// Two devices with different builds of one class (`android_fixtures/variants/`): closing a
/// closed valve throws on one and does nothing on the other. The run notices, runs the
/// disagreeing inputs once more on each device, and stops, naming both devices and what each
/// answered: a model learned on both would be neither device's.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
async fn devices_that_answer_differently_stop_the_run_naming_both() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = scratch("disagreeing");
    let devices = [("strict-phone", "strict"), ("lenient-phone", "lenient")]
        .map(|(serial, variant)| {
            FakeDevice::new(
                &dir,
                serial,
                34,
                host_agent_with(vec![variant_jar(variant)]),
            )
        })
        .to_vec();
    let adb = FakeAdb::start(devices);
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/android_fixtures/valve.toml");
    let valve = Arc::new(Experiment::load(&file).unwrap_or_else(|error| panic!("{error}")));
    let run = learn_on_devices(valve, &config(&[&adb]), &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let End::NonDeterministic(report) = &run.outcome.end else {
        panic!(
            "the run did not stop: {:?}; device disagreements: {:?}",
            run.outcome.end,
            device_disagreements(&run)
        );
    };
    let stop = report.to_string();
    assert!(
        stop.contains("strict-phone") && stop.contains("lenient-phone"),
        "{stop}"
    );
    let reproduced: Vec<&DeviceDisagreement> = device_disagreements(&run)
        .iter()
        .filter(|it| it.again == Recheck::Reproduced)
        .collect();
    assert!(!reproduced.is_empty(), "{:?}", device_disagreements(&run));
    for disagreement in reproduced {
        let answered = |serial: &str| {
            [&disagreement.first, &disagreement.second]
                .into_iter()
                .find(|(by, _)| by == serial)
                .map(|(_, outputs)| outputs.clone())
                .unwrap_or_else(|| panic!("{serial} is not named: {disagreement:?}"))
        };
        let (strict, lenient) = (answered("strict-phone"), answered("lenient-phone"));
        assert_eq!(
            disagreement.inputs.last().map(String::as_str),
            Some("close"),
            "{disagreement:?}"
        );
        assert_eq!(
            strict.last().map(String::as_str),
            Some("err"),
            "{disagreement:?}"
        );
        assert_eq!(
            lenient.last().map(String::as_str),
            Some("eps"),
            "{disagreement:?}"
        );
        assert_eq!(
            strict[..strict.len() - 1],
            lenient[..lenient.len() - 1],
            "only the last answer differs: {disagreement:?}"
        );
    }
}
