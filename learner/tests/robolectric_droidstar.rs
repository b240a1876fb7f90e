//! Learns `android.os.CountDownTimer`, `android.os.AsyncTask` and
//! `android.database.sqlite.SQLiteOpenHelper` inside Robolectric with DroidStar's alphabets
//! (`learner/experiments/`) and compares each with the automaton DroidStar learned on a device
//! in 2016 (`tests/robolectric/*.gv`, transcribed from
//! example-results/ in the history of github.com/cuplv/droidstar (commits 3a2ec41 to 10ae7e3^)), by
//! `typestates::diff`; learns `android.media.MediaPlayer` with DroidStar's alphabet on its shadow. Learns the library's protocols learned
//! on Robolectric and checks each is equivalent to its library file (SQLiteDatabase also on a file; HandlerThread also quit through its Looper) and pins where Cursor's moveToNext() answers by data. Learns Universal Image
//! Loader's `ImageLoader` and Volley's `RequestQueue` (their jars fetched from Maven Central) with
//! DroidStar's alphabets and compares each with Table 1's state count and with the library's file.
//! Learns `android.util.JsonReader` on two documents and pins why it stays out of the library.
//! Also: a class Robolectric only simulates
//! is labelled so, a hung main thread ends the JVM and the run, fixtures are served on the host,
//! and missing artifacts name the script that fetches them.
//!
//! Slow tier `robolectric` (`test-tiers`): a Robolectric sandbox per JVM, 10-30 s, and about
//! 460 MB of Maven artifacts, fetched by `learner/robolectric/fetch.sh` on first use.
//! Waits run on Robolectric's simulated clock, so no answer depends on wall-clock timing, except
//! for ImageLoader and RequestQueue, which work on threads of their own (`clock = "real"`).
//! HandlerThread's thread ends on its own after a quit: its experiments join it (bounded; a
//! thread still alive fails the run) rather than wait.

mod jvm_support;
mod robolectric_support;

use std::collections::HashMap;
use std::path::Path;
use std::sync::Arc;

use jvm_support::{
    assert_fixtures_served_on_the_host, experiment, maven_classpath, statistics_line, target_dir,
};
use learner::backend::jvm::sul::{JvmSul, Launcher};
use learner::backend::jvm::Experiment;
use learner::backend::robolectric::{learn_class, RobolectricConfig, DEFAULT_SDK};
use learner::backend::BackendKind;
use learner::oracle::Sul;
use learner::{End, NoProgress};
use robolectric_support::{assert_machine, config, config_on};
use test_tiers::Tier;
use typestates::diff::{diff, Diff};
use typestates::{ProvenanceKind, Typestate};

/// The library's steps that hold on some API levels only are what those levels learn:
/// ContentProviderClient's second `release()` throws on SDK 23 (where `close()` does not exist
/// yet) and not on SDK 29.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn library_levels_are_learned_on_their_sdk() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    let class = "android.content.ContentProviderClient";
    let bundled = &library.get(class).expect("in the library").typestate;
    let runs: [(&str, u32, &[&str]); 2] = [
        (
            "android.content.ContentProviderClient-api23.toml",
            23,
            &["close"],
        ),
        ("android.content.ContentProviderClient.toml", 29, &[]),
    ];
    for (file, sdk, missing) in runs {
        let learned = learn_on(experiment(file), "simulated", sdk).await;
        let diff = diff(&learned, &bundled.at_level(sdk), 10);
        assert!(
            diff.witnesses.is_empty()
                && diff.callins_only_left.is_empty()
                && diff.callins_only_right == *missing,
            "{class} on SDK {sdk}: {diff:#?}\n--- learned ---\n{}",
            typestates::format::print(&learned)
        );
    }
}

/// One learning run at a time: each starts a JVM with its own sandbox.
static ONE_RUN_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Learns `experiment` under Robolectric, failing on any end but `Learned`, and checks that the
/// provenance names the backend and the SDK level, and says what ran: `code` is the label
/// (`calls-through: ` for AOSP code behind call-through shadows, `simulated: ` for a shadow).
async fn learn(experiment: Arc<Experiment>, code: &str) -> Typestate {
    learn_on(experiment, code, DEFAULT_SDK).await
}

/// [`learn`] on SDK level `sdk`.
async fn learn_on(experiment: Arc<Experiment>, code: &str, sdk: u32) -> Typestate {
    learn_with(experiment, code, &config_on(sdk)).await
}

/// [`learn`] with `config` (its SDK level, and the jars of a library under study).
async fn learn_with(
    experiment: Arc<Experiment>,
    code: &str,
    config: &RobolectricConfig,
) -> Typestate {
    let sdk = config.sdk;
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let run = learn_class(experiment, config, &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        matches!(run.outcome.end, End::Learned),
        "learning did not finish: {:?}",
        run.outcome.end
    );
    let learned = run
        .typestate
        .clone()
        .expect("a learned run has a typestate");
    let platform = learned.provenance.platform.clone().unwrap_or_default();
    assert!(
        platform.starts_with(&format!(
            "backend robolectric: Robolectric 4.16.1, Android SDK {sdk} "
        )),
        "{platform}"
    );
    assert!(
        learned
            .provenance
            .sources
            .iter()
            .any(|it| it.starts_with(&format!("code {code}"))),
        "the provenance should say `code {code}`: {:?}",
        learned.provenance.sources
    );
    eprintln!("{}", statistics_line(&learned, &run));
    learned
}

/// DroidStar's device automaton `tests/robolectric/<file>`.
fn droidstar(file: &str, class: &str) -> Typestate {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/robolectric")
        .join(file);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    typestates::format::from_droidstar_dot(&path.display().to_string(), &text, class)
        .unwrap_or_else(|errors| panic!("{} does not parse: {errors:?}", path.display()))
}

/// The comparison, printed: agreement, or every witness trace.
fn report(class: &str, diff: &Diff) -> String {
    let trace = |witness: &typestates::diff::Witness| {
        witness
            .steps
            .iter()
            .map(|step| {
                if step.left == step.right {
                    format!("{} / {}", step.input, step.left)
                } else {
                    format!(
                        "{} / Robolectric {} vs DroidStar {}",
                        step.input, step.left, step.right
                    )
                }
            })
            .collect::<Vec<_>>()
            .join(", ")
    };
    let mut lines = vec![format!(
        "{class} under Robolectric against DroidStar's device automaton: {}",
        if diff.is_identical() {
            "identical"
        } else if diff.is_equivalent() {
            "same behaviour, but restrictions of the experiment where DroidStar says err"
        } else {
            "different"
        }
    )];
    lines.extend(
        diff.witnesses
            .iter()
            .map(|it| format!("  differs: {}", trace(it))),
    );
    lines.extend(
        diff.restrictions
            .iter()
            .map(|it| format!("  restricted: {}", trace(it))),
    );
    lines.join("\n")
}

/// Learns `experiment_file`'s class, which runs as `code` ([`learn`]), and diffs it with
/// DroidStar's automaton `gv`, printing the comparison; `None` when the slow tests are off.
async fn compare_with_droidstar(
    experiment_file: &str,
    code: &str,
    gv: &str,
) -> Option<(Diff, String)> {
    compare_learned_with_droidstar(experiment_file, code, gv)
        .await
        .map(|(_, diff, report)| (diff, report))
}

/// [`compare_with_droidstar`], also giving the learned typestate.
async fn compare_learned_with_droidstar(
    experiment_file: &str,
    code: &str,
    gv: &str,
) -> Option<(Typestate, Diff, String)> {
    if !test_tiers::runs(Tier::Robolectric) {
        return None;
    }
    let learned = learn(experiment(experiment_file), code).await;
    let device = droidstar(gv, &learned.class);
    let diff = diff(&learned, &device, 10);
    let simple = learned.class.rsplit('.').next().unwrap_or_default();
    let report = format!(
        "{}\n--- learned ---\n{}",
        report(simple, &diff),
        typestates::format::print(&learned)
    );
    eprintln!("{report}");
    Some((learned, diff, report))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn count_down_timer_agrees_with_droidstar() {
    let Some((diff, report)) = compare_with_droidstar(
        "android.os.CountDownTimer.toml",
        "calls-through: ",
        "CountDownTimer.gv",
    )
    .await
    else {
        return;
    };
    assert!(diff.is_equivalent(), "{report}");
    // The one known difference is not one of behaviour: DroidStar's LP made `start` a single
    // input (singleInputs, as our experiment's at_most_once filter does), and DroidStar's
    // result cannot tell a forbidden query from an error, so it says `err` for a second `start`
    // where the learned typestate says the experiment never tried it. The AOSP code accepts a
    // second start (a second timer chain; two onFinish), which is why the filter is there.
    assert!(
        !diff.restrictions.is_empty(),
        "DroidStar's singleInputs restriction should show: {report}"
    );
    for witness in &diff.restrictions {
        let last = witness.steps.last().expect("a witness has steps");
        let starts = witness
            .steps
            .iter()
            .filter(|it| it.input == "start")
            .count();
        assert!(
            last.input == "start"
                && starts == 2
                && last.left == "restricted"
                && last.right == "err",
            "unexpected restriction witness {witness:?}: {report}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn async_task_agrees_with_droidstar() {
    let Some((diff, report)) = compare_with_droidstar(
        "android.os.AsyncTask.toml",
        "calls-through: ",
        "AsyncTask-NoGet.gv",
    )
    .await
    else {
        return;
    };
    assert!(diff.is_identical(), "{report}");
}

/// SQLiteOpenHelper runs AOSP code on Robolectric's native SQLite, with DroidStar's alphabet and
/// a harness for its hooks.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn sqlite_open_helper_agrees_with_droidstar() {
    let Some((diff, report)) = compare_with_droidstar(
        "android.database.sqlite.SQLiteOpenHelper.toml",
        // ShadowSQLiteOpenHelper shadows setIdleConnectionTimeout() and setOpenParams(), which
        // the experiment never calls; the provenance labels the whole class.
        "simulated",
        "SQLiteOpenHelper.gv",
    )
    .await
    else {
        return;
    };
    // DroidStar's validQuery never ran a query starting with close or a wait, and its 2016
    // transducer flushed the callbacks queued before each block of callins: those the open
    // caused and no wait consumed before `close` were lost, so it saw quiet where they arrive.
    let differs = [
        "close",
        "wait",
        "openLV wait close wait",
        "openNew wait close wait",
        "openSV wait close wait",
    ];
    let inputs = |witness: &typestates::diff::Witness| {
        let inputs: Vec<&str> = witness.steps.iter().map(|it| it.input.as_str()).collect();
        inputs.join(" ")
    };
    let witnesses: Vec<String> = diff.witnesses.iter().map(inputs).collect();
    assert_eq!(witnesses, differs, "{report}");
    // Its second open was a restriction too, which the learned typestate says.
    for witness in &diff.restrictions {
        let last = witness.steps.last().expect("a witness has steps");
        assert!(
            witness.steps.len() == 2
                && last.input.starts_with("open")
                && last.left == "restricted"
                && last.right == "err",
            "unexpected restriction witness {witness:?}: {report}"
        );
    }
}

/// Table 1 classes whose native code cannot run on the host JVM run on Robolectric's shadows,
/// simulations: each is learned with its Table 1 alphabet, labelled simulated, and its machine
/// kept in `tests/robolectric/<Class>-shadow.typestate-body` (`UPDATE_EXPECT=1` rewrites them).
/// None is the device's protocol. MediaPlayer's shadow delivers an `onPrepared` after
/// `prepare()` as a device does, but also after `reset()` and `release()`, and queues one per
/// prepare, which multiplies the states (a device has 10 in Table 1). MediaRecorder's shadow
/// checks no state at all: one state, where a device throws IllegalStateException for `start()`
/// before `prepare()`. SpeechRecognizer's shadow accepts every call and calls back nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn table1_classes_learn_the_shadow_simulations() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    for (file, code, golden) in [
        (
            "android.media.MediaPlayer.toml",
            "simulated",
            "MediaPlayer-shadow.typestate-body",
        ),
        (
            "android.media.MediaRecorder.toml",
            "simulated: android.media.MediaRecorder is simulated by Robolectric; this protocol is \
             that of its shadow methods ShadowMediaRecorder (",
            "MediaRecorder-shadow.typestate-body",
        ),
        (
            "android.speech.SpeechRecognizer.toml",
            "simulated",
            "SpeechRecognizer-shadow.typestate-body",
        ),
    ] {
        let learned = learn(experiment(file), code).await;
        assert_machine(&learned, golden);
    }
}

/// BluetoothAdapter with DroidStar's alphabet on Robolectric's simulation, against DroidStar's
/// device automaton (12 states, Table 1). ShadowBluetoothAdapter's enable() and disable() set a
/// field and broadcast nothing, and a fresh socket's connect() succeeds (the shadow connects
/// nothing), so the shadow's machine has 8 states: which of enable, disable and connect ran,
/// each at most once. The traces that differ do so at the first wait after an enable (no u_on)
/// or at a connect before any u_on (which DroidStar's device fails); the restrictions are
/// DroidStar's singleInputs, which its automaton says are errors.
/// The machine is kept in `tests/robolectric/BluetoothAdapter-shadow.typestate-body`.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn bluetooth_adapter_simulated_against_droidstar() {
    let Some((learned, diff, report)) = compare_learned_with_droidstar(
        "android.bluetooth.BluetoothAdapter.toml",
        "simulated",
        "BluetoothAdapter.gv",
    )
    .await
    else {
        return;
    };
    assert_machine(&learned, "BluetoothAdapter-shadow.typestate-body");
    assert_eq!(witness_lines(&diff), BLUETOOTH_WITNESSES, "{report}");
}

/// Where Robolectric's BluetoothAdapter and DroidStar's device differ: inputs, then the last
/// answers, Robolectric's then DroidStar's.
const BLUETOOTH_WITNESSES: &[&str] = &[
    "connect: eps vs err",
    "disable connect: eps vs err",
    "enable connect: eps vs err",
    "enable wait: quiet vs u_on",
    "disable enable connect: eps vs err",
    "disable enable wait: quiet vs u_on",
    "enable disable connect: eps vs err",
    "enable disable wait: quiet vs u_on",
    "disable disable: restricted vs err",
    "enable enable: restricted vs err",
    "disable enable disable: restricted vs err",
    "disable enable enable: restricted vs err",
];

/// DownloadManager with DroidStar's alphabet on Robolectric's simulation. Table 1 has 4 states;
/// DroidStar's automaton is not in its repository. ShadowDownloadManager keeps the requests and
/// never downloads, so no onCompleted arrives: 3 states (nothing enqueued, enqueued, removed),
/// and `enque_valid wait` is quiet where a device's download completes. Removing with nothing
/// enqueued is an error in both (DroidStar's learning purpose throws).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn download_manager_simulated_against_table1() {
    learn_simulated_and_run_traces(
        "android.app.DownloadManager.toml",
        ("DownloadManager-shadow", 3),
        &[
            ("enque_valid quiet quiet remove quiet", true),
            ("enque_valid onCompleted", false),
            ("remove", false),
            ("enque_unavailable remove remove", false),
        ],
    )
    .await;
}

/// MediaScannerConnection with the alphabet of DroidStar's paper. Since Android 10, connect()
/// takes a client of the media provider and calls back inside the call, which Robolectric runs
/// as AOSP code (its shadow replaces only the static scanFile()). 5 states where Table 1 has 4;
/// the fifth is the experiment's: after connect and disconnect, a second connect is restricted.
/// The paper's point of note holds: onMediaScannerConnected() arrives even when disconnect()
/// follows connect() at once, and the connection is closed then (scanFile() throws).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn media_scanner_connection_against_table1() {
    learn_simulated_and_run_traces(
        "android.media.MediaScannerConnection.toml",
        ("MediaScannerConnection-shadow", 5),
        &[
            ("connect connected scanFile scanFile disconnect", true),
            ("connect disconnect connected", true),
            ("connect disconnect connected scanFile", false),
            ("scanFile", false),
        ],
    )
    .await;
}

/// FileObserver with DroidStar's alphabet and its `validQuery` on Robolectric's simulation:
/// ShadowFileObserver watches the folder with a JDK WatchService on a thread of its own
/// (real-time waits). 6 states, as Table 1. DroidStar's device automaton (example-results/ in
/// the history of github.com/cuplv/droidstar) watched from the reset, so here each of its traces
/// starts with `start`. Where they agree: a write calls back `modified`, a deletion `deleted`,
/// nothing after `stop`. Where they differ: one write calls back once here (the harness writes without
/// truncating; DroidStar's overwrite saw two), and Robolectric keeps watching a file deleted
/// and made again, where the paper says a device calls back nothing more.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn file_observer_simulated_against_droidstar() {
    learn_simulated_and_run_traces(
        "android.os.FileObserver.toml",
        ("FileObserver-shadow", 6),
        &[
            // Agreements with DroidStar's device run.
            ("start modify modified", true),
            ("start delete deleted", true),
            ("start stop modify quiet", true),
            ("start modify modified stop delete quiet", true),
            // DroidStar: `modify modified modified`.
            ("start modify modified quiet", true),
            // The paper: no callback once the watched file is deleted, even if it is made again.
            ("start delete deleted modify modified", true),
            // Not watched yet.
            ("modify quiet", true),
        ],
    )
    .await;
}

/// Learns `experiment_file`, a class Robolectric simulates, and checks the machine against
/// `tests/robolectric/<golden>.typestate-body`, its number of states, and whether it allows
/// each trace ([`accepts`]).
async fn learn_simulated_and_run_traces(
    experiment_file: &str,
    (golden, states): (&str, usize),
    traces: &[(&str, bool)],
) {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let learned = learn(experiment(experiment_file), "simulated").await;
    assert_machine(&learned, &format!("{golden}.typestate-body"));
    assert_eq!(learned.states.len(), states, "{experiment_file}");
    assert_traces(&learned, traces);
}

/// Checks that `typestate` allows each trace that says `true` and no other ([`accepts`]).
fn assert_traces(typestate: &Typestate, traces: &[(&str, bool)]) {
    for &(trace, allowed) in traces {
        assert_eq!(
            accepts(typestate, trace),
            allowed,
            "{}: {trace}\n{}",
            typestate.class,
            typestates::format::print(typestate)
        );
    }
}

/// Whether `typestate` allows `trace`: callins, callbacks and `quiet`, by name.
fn accepts(typestate: &Typestate, trace: &str) -> bool {
    let events: Vec<typestates::Event> = trace
        .split_whitespace()
        .map(|name| {
            if name == "quiet" {
                return typestates::Event::Quiet;
            }
            if let Some(index) = typestate.callins.iter().position(|it| it.name == name) {
                return typestates::Event::Callin(typestates::CallinId(index as u32));
            }
            let index = typestate
                .callbacks
                .iter()
                .position(|it| it.name == name)
                .unwrap_or_else(|| panic!("`{name}` is no symbol of {}", typestate.class));
            typestates::Event::Callback(typestates::CallbackId(index as u32))
        })
        .collect();
    typestate.accepts(&events)
}

/// MediaPlayer's observer isPlaying(), run under Robolectric's simulation
/// (`android.media.MediaPlayer-isPlaying.toml`, the shadow told to emulate a device's invalid
/// states): after every sequence of up to five lifecycle calls that both the learned machine and
/// the library allow, isPlaying() answers as the library's `playingTrue`/`playingFalse` say,
/// which were written from the reference. The library's own `accept:` line holds in the run too.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn media_player_is_playing_is_observed_under_the_shadow() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let learned = learn(
        experiment("android.media.MediaPlayer-isPlaying.toml"),
        "simulated",
    )
    .await;
    let library = jvm_support::library("android.media.MediaPlayer");
    let calls = [
        "setDataSource",
        "prepare",
        "prepareAsync",
        "start",
        "stop",
        "pause",
        "reset",
        "release",
    ];
    let mut traces = vec![String::new()];
    let mut compared = 0;
    let mut differences = Vec::new();
    while let Some(trace) = traces.pop() {
        if !(accepts(&learned, &trace) && accepts(&library, &trace)) {
            continue;
        }
        compared += 1;
        for answer in ["playingTrue", "playingFalse"] {
            let asked = format!("{trace} {answer}");
            if accepts(&learned, &asked) != accepts(&library, &asked) {
                differences.push(asked.trim().to_owned());
            }
        }
        if trace.split_whitespace().count() < 5 {
            traces.extend(calls.iter().map(|call| format!("{trace} {call}")));
        }
    }
    eprintln!("isPlaying() asked after {compared} traces both machines allow");
    assert!(
        compared > calls.len(),
        "only {compared} traces in both machines"
    );
    assert!(
        differences.is_empty(),
        "isPlaying() answers otherwise after {differences:#?}\n--- learned ---\n{}",
        typestates::format::print(&learned)
    );
    assert!(accepts(
        &learned,
        "setDataSource prepare playingFalse start playingTrue pause playingFalse"
    ));
}

/// SpellCheckerSession cannot run inside Robolectric 4.16.1: it has no `textservices` system
/// service (no shadow, no binder in ShadowServiceManager), so `getSystemService` gives null and
/// no session can be made. If this starts to pass the build, write its experiment.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn spell_checker_session_has_no_service_inside_robolectric() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let run = learn_class(
        test_experiment("spell-checker-session.toml"),
        &config(),
        &mut NoProgress,
    )
    .await
    .unwrap_or_else(|error| panic!("{error}"));
    let End::Failed(error) = &run.outcome.end else {
        panic!("a session was made: {:?}", run.outcome.end);
    };
    let message = error.to_string();
    assert!(
        message.contains("newSpellCheckerSession")
            && message.contains("receiver \"textServices\" is null"),
        "{message}"
    );
}

/// The Robolectric backend serves an experiment's fixtures on the host too, where the class
/// inside the sandbox fetches them (`tests/android_fixtures/url-stream.toml`); a fixture that is
/// not there is named in the error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn fixtures_are_served_on_the_host() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    // Fetches the artifacts if missing; the backend then finds them where this put them.
    config();
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    assert_fixtures_served_on_the_host(BackendKind::Robolectric).await;
}

/// A query's answer inside Robolectric does not depend on the queries one agent ran before it:
/// each file `tests/robolectric/queries/CLASS.queries` runs in order on one agent, with the
/// shipped experiment `CLASS.toml`; every repeated query answers as it did the first time, and
/// the answers are pinned in `CLASS.answers`.
/// Robolectric's shadows keep state in static fields (ShadowBluetoothDevice keeps one socket for
/// the whole JVM, closed by the first query's connect) that its runner resets between tests only.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn answers_do_not_depend_on_earlier_queries() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/robolectric/queries");
    let mut files: Vec<_> = std::fs::read_dir(&dir)
        .unwrap_or_else(|error| panic!("{}: {error}", dir.display()))
        .map(|entry| entry.expect("a directory entry").path())
        .filter(|path| path.extension().is_some_and(|it| it == "queries"))
        .collect();
    files.sort();
    assert!(!files.is_empty(), "no .queries file in {}", dir.display());
    for file in files {
        let class = file.file_stem().and_then(|it| it.to_str()).expect("a name");
        let experiment = experiment(&format!("{class}.toml"));
        let alphabet = Arc::new(experiment.alphabet());
        let launcher = Launcher {
            command: config()
                .agent_command(&experiment.harness_sources())
                .unwrap_or_else(|error| panic!("{error}")),
            experiment: Arc::clone(&experiment),
        };
        let mut sul = JvmSul::new(launcher, Arc::clone(&alphabet));
        let mut first: HashMap<String, String> = HashMap::new();
        let mut changed = Vec::new();
        let mut answers = String::new();
        let text = std::fs::read_to_string(&file).expect("readable");
        for query in text
            .lines()
            .filter(|it| !it.is_empty() && !it.starts_with('#'))
        {
            let word: Vec<_> = query
                .split_whitespace()
                .map(|name| {
                    alphabet
                        .input_named(name)
                        .unwrap_or_else(|| panic!("{class}: no input {name}"))
                })
                .collect();
            sul.reset().await.unwrap_or_else(|error| panic!("{error}"));
            let outputs = sul
                .steps(&word)
                .await
                .unwrap_or_else(|error| panic!("{error}"));
            let answer = alphabet.output_names(&outputs).join(" ");
            answers.push_str(&format!("{query}: {answer}\n"));
            let earlier = first
                .entry(query.to_owned())
                .or_insert_with(|| answer.clone());
            if *earlier != answer {
                changed.push(format!("{query}: {earlier}, later {answer}"));
            }
        }
        sul.shutdown().await;
        assert!(
            changed.is_empty(),
            "{class}: answers changed with the queries run before:\n{}\nall answers:\n{answers}",
            changed.join("\n")
        );
        expect_test::expect_file![file.with_extension("answers")].assert_eq(&answers);
    }
}

/// An experiment of `tests/robolectric/`.
fn test_experiment(name: &str) -> Arc<Experiment> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/robolectric")
        .join(name);
    Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")))
}

/// More witnesses than any listed difference, so that the whole list is compared.
const EVERY_WITNESS: usize = 64;

/// A library class learned on Robolectric: its experiment, the class, the provenance's code
/// label, and the witnesses (inputs) where the library follows AOSP rather than the run.
type LibraryCase = (
    &'static str,
    &'static str,
    &'static str,
    &'static [&'static str],
);

/// The library's classes whose learned protocol is that of AOSP code run by Robolectric (behind
/// call-through shadows for AsyncTask and CountDownTimer).
const AOSP_CODE: &[LibraryCase] = &[
    (
        "android.os.AsyncTask.toml",
        "android.os.AsyncTask",
        "calls-through: ",
        &[],
    ),
    // A second `start` while Running: restricted by the experiment, an error in the library
    // (AOSP's start() runs a second countdown); a restriction, not a witness.
    (
        "android.os.CountDownTimer.toml",
        "android.os.CountDownTimer",
        "calls-through: ",
        &[],
    ),
    // AOSP code; the label says simulated for two shadowed methods the experiment never
    // calls. The file's Unopened and Open come from the source and are not reachable from
    // the run's initial state; its opens inside a callback are restrictions of the run.
    (
        "android.database.sqlite.SQLiteOpenHelper.toml",
        "android.database.sqlite.SQLiteOpenHelper",
        "simulated",
        &[],
    ),
    (
        "android.database.sqlite.SQLiteDatabase.toml",
        "android.database.sqlite.SQLiteDatabase",
        "real",
        &[],
    ),
    // AOSP code on a real thread. The run joins the thread after each quit; the library
    // also allows the answers of a thread still alive right after a quit.
    (
        "android.os.HandlerThread.toml",
        "android.os.HandlerThread",
        "real",
        HANDLER_THREAD_STILL_ALIVE,
    ),
    (
        "android.database.sqlite.SQLiteStatement.toml",
        "android.database.sqlite.SQLiteStatement",
        "real",
        &[],
    ),
    (
        "android.database.Cursor.toml",
        "android.database.Cursor",
        "real",
        &[],
    ),
    (
        "android.content.res.TypedArray.toml",
        "android.content.res.TypedArray",
        "real",
        &[],
    ),
    (
        "android.util.JsonWriter.toml",
        "android.util.JsonWriter",
        "real",
        &[],
    ),
];

/// The library's protocols learned on Robolectric are what their experiments learn, and say
/// what ran: AOSP code, or Robolectric's shadow. Where a shadow differs from AOSP's bytecode the
/// library follows AOSP and marks the transition unverified; those traces are listed, and are
/// the only differences allowed.
/// An experiment runs each method it binds as its own input; the learned inputs whose methods the
/// library binds to one callin are folded into it once they answer alike in every state
/// (`Typestate::grouped_like`).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn learned_library_protocols() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    let simulated: &[LibraryCase] = &[
        (
            "android.os.PowerManager-WakeLock.toml",
            "android.os.PowerManager$WakeLock",
            "simulated",
            &[],
        ),
        (
            "android.graphics.Bitmap.toml",
            "android.graphics.Bitmap",
            "simulated",
            &["recycle read"],
        ),
        (
            "android.media.AudioTrack.toml",
            "android.media.AudioTrack",
            "simulated",
            &[],
        ),
        (
            "android.view.MotionEvent.toml",
            "android.view.MotionEvent",
            "simulated",
            &[],
        ),
        (
            "android.media.AudioRecord.toml",
            "android.media.AudioRecord",
            "simulated",
            &[],
        ),
        (
            "android.media.MediaMuxer.toml",
            "android.media.MediaMuxer",
            "simulated",
            &[],
        ),
        (
            "android.os.ParcelFileDescriptor.toml",
            "android.os.ParcelFileDescriptor",
            "simulated",
            &[],
        ),
        (
            "android.graphics.Canvas.toml",
            "android.graphics.Canvas",
            "simulated",
            &["save setBitmap restore"],
        ),
        (
            "android.view.VelocityTracker.toml",
            "android.view.VelocityTracker",
            "simulated",
            &[],
        ),
        (
            "android.content.ContentProviderClient.toml",
            "android.content.ContentProviderClient",
            "simulated",
            &[],
        ),
        (
            "android.media.MediaExtractor.toml",
            "android.media.MediaExtractor",
            "simulated",
            &[
                "advance",
                "count",
                "release read",
                "release setSource",
                "setSource advance",
                "setSource release count",
                "setSource release format",
                "setSource release read",
                "setSource release select",
                "setSource select select",
                "setSource select release advance",
                "setSource select release count",
                "setSource select release format",
                "setSource select release read",
            ],
        ),
    ];
    for (file, class, code, unverified) in AOSP_CODE.iter().chain(simulated) {
        against_the_library(
            DEFAULT_SDK,
            &library,
            file,
            class,
            code,
            unverified,
            Compared::EveryCallin,
        )
        .await;
    }
}

/// The traces where the library's HandlerThread also allows the answers of a thread still alive
/// right after a quit, which the run, joining the thread, does not see.
const HANDLER_THREAD_STILL_ALIVE: &[&str] = &[
    "start quitSafelyTrue looperSome",
    "start quitSafelyTrue quitSafelyTrue",
    "start quitSafelyTrue quitTrue",
];

/// The library's classes of AOSP code learned on SDK 23 and 29 answer like the library's files at
/// those levels, with the same allowed differences as on SDK 34 (`learned_library_protocols`):
/// three levels, and any difference between them is kept in the library as steps by level.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn aosp_code_is_learned_alike_on_three_sdk_levels() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    for sdk in [23, 29] {
        for (file, class, code, unverified) in AOSP_CODE {
            let code = LABELS_BY_LEVEL
                .iter()
                .find(|it| it.0 == *class && it.1 == sdk)
                .map_or(*code, |it| it.2);
            against_the_library(
                sdk,
                &library,
                file,
                class,
                code,
                unverified,
                Compared::EveryCallin,
            )
            .await;
        }
    }
}

/// The classes of [`AOSP_CODE`] whose code label differs on a level: on SDK 23 no shadow method
/// intercepts SQLiteOpenHelper (the run's provenance), where SDK 34 has two.
const LABELS_BY_LEVEL: &[(&str, u32, &str)] =
    &[("android.database.sqlite.SQLiteOpenHelper", 23, "real")];

/// Which callins of the library's file [`against_the_library`] compares.
enum Compared {
    /// All: the experiment must run each of them.
    EveryCallin,
    /// Those the experiment runs, once its inputs are grouped as the library groups them.
    ExperimentInputs,
}

/// Learns `file` (an experiment on the framework class `class`) on SDK level `sdk` and compares
/// it, its inputs grouped as the library groups them, with the library's file at that level: the
/// only differences allowed are the witnesses `unverified` (inputs), where the library follows
/// AOSP.
async fn against_the_library(
    sdk: u32,
    library: &typestates::library::Library,
    file: &str,
    class: &str,
    code: &str,
    unverified: &[&str],
    compared: Compared,
) {
    let learned = learn_on(experiment(file), code, sdk).await;
    // Every class here is framework code: the provenance says so, naming the sandbox's jar.
    let framework = "AOSP framework code (Robolectric's android-all-instrumented-";
    assert!(
        learned
            .provenance
            .sources
            .iter()
            .any(|it| it.contains(framework)),
        "{class}: {:?}",
        learned.provenance.sources
    );
    let bundled = library
        .get(class)
        .unwrap_or_else(|| panic!("{class} is not in the library"))
        .typestate
        .at_level(sdk);
    let learned = learned
        .grouped_like(&bundled)
        .unwrap_or_else(|error| panic!("{error}"));
    let bundled = match compared {
        Compared::EveryCallin => bundled,
        Compared::ExperimentInputs => {
            let inputs: Vec<&str> = learned.callins.iter().map(|it| it.name.as_str()).collect();
            bundled
                .project_onto(&inputs)
                .unwrap_or_else(|error| panic!("{error}"))
        }
    };
    let diff = diff(&learned, &bundled, EVERY_WITNESS);
    let witnesses: Vec<String> = diff
        .witnesses
        .iter()
        .map(|witness| {
            let inputs: Vec<&str> = witness.steps.iter().map(|s| s.input.as_str()).collect();
            inputs.join(" ")
        })
        .collect();
    assert!(
        diff.callins_only_left.is_empty()
            && diff.callins_only_right.is_empty()
            && witnesses == unverified,
        "{class} on SDK {sdk}: {diff:#?}\n--- learned ---\n{}",
        typestates::format::print(&learned)
    );
}

/// Canvas's heavy draws (drawBitmap() to drawPaint(), each its own input) answer like
/// drawColor() in every state, so the library's `draw` binds them from a run. Their experiment
/// names a longer budget per call (`[timeouts] callin_ms`; the agent's default is 5 s).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn canvas_heavy_draws_answer_like_draw() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    against_the_library(
        DEFAULT_SDK,
        &library,
        "android.graphics.Canvas-draws.toml",
        "android.graphics.Canvas",
        "simulated",
        &["save setBitmap restore"],
        Compared::ExperimentInputs,
    )
    .await;
}

/// A database opened from a file by the static openOrCreateDatabase() answers as the library's
/// SQLiteDatabase, learned on an in-memory one: the creators the file binds beyond `create`
/// open the same kind of object.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn sqlite_database_from_a_file_answers_like_the_library() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    against_the_library(
        DEFAULT_SDK,
        &library,
        "android.database.sqlite.SQLiteDatabase-file.toml",
        "android.database.sqlite.SQLiteDatabase",
        "real",
        &[],
        Compared::EveryCallin,
    )
    .await;
}

/// HandlerThread quit through its Looper (`android.os.HandlerThread-looper.toml`, where
/// `looperQuit` is `thread.getLooper().quit()`): on a running thread it takes quit()'s step, to
/// the state where start() throws; before start() and once the thread has ended, getLooper() is
/// null and the call throws.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn handler_thread_quits_through_its_looper() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let learned = learn(experiment("android.os.HandlerThread-looper.toml"), "real").await;
    assert_eq!(
        learned.states.len(),
        3,
        "{}",
        typestates::format::print(&learned)
    );
    let traces = [
        ("start looperSome looperQuit looperNull quitFalse", true),
        ("start looperQuitSafely looperNull quitFalse", true),
        ("start quitTrue looperNull", true),
        ("start looperQuit start", false),
        ("start looperQuitSafely start", false),
        ("looperQuit", false),
        ("looperQuitSafely", false),
        ("start looperQuit looperQuit", false),
        ("start quitTrue looperQuitSafely", false),
    ];
    assert_traces(&learned, &traces);
}

/// Cursor's moveToNext() on results of no, one and two rows
/// (`android.database.Cursor-moveToNext.toml`): before the first row the state decides its
/// answer, on a row the data does, and after close() a move to another row throws. So the
/// library keeps moveToNext() out of its Cursor (its notes say why).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn cursor_move_to_next_answers_by_state_only_before_the_first_row() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let learned = learn(
        experiment("android.database.Cursor-moveToNext.toml"),
        "real",
    )
    .await;
    let traces = [
        // The state decides: no next row on an empty result, the first row on one with rows.
        ("queryEmpty moveToNextFalse moveToNextFalse", true),
        ("queryEmpty moveToNextTrue", false),
        ("queryOne moveToNextTrue getInt", true),
        ("queryTwo moveToNextTrue getInt", true),
        ("queryOne moveToNextFalse", false),
        ("queryTwo moveToNextFalse", false),
        // On a row the data decides: the same moves answer apart on one row and on two.
        ("queryOne moveToFirstTrue moveToNextFalse", true),
        ("queryOne moveToFirstTrue moveToNextTrue", false),
        ("queryTwo moveToFirstTrue moveToNextTrue getInt", true),
        ("queryTwo moveToFirstTrue moveToNextFalse", false),
        // Past the last row reads throw, and moveToFirst() moves back.
        ("queryOne moveToNextTrue moveToNextFalse getInt", false),
        (
            "queryOne moveToNextTrue moveToNextFalse moveToFirstTrue getInt",
            true,
        ),
        (
            "queryTwo moveToNextTrue moveToNextTrue moveToNextFalse moveToFirstTrue getInt",
            true,
        ),
        // After close() reads throw, and so does a move to another row.
        ("queryOne moveToNextTrue close getInt", false),
        ("queryTwo moveToNextTrue close moveToNextTrue", false),
        ("queryTwo moveToNextTrue close moveToNextFalse", false),
        ("queryTwo moveToNextTrue close moveToFirstTrue", true),
        ("queryOne moveToNextTrue close moveToNextFalse", true),
        (
            "queryTwo moveToNextTrue moveToNextTrue close moveToFirstTrue",
            false,
        ),
    ];
    assert_traces(&learned, &traces);
}

/// Shadows that check nothing learn one state: Camera, MediaMetadataRetriever and SoundPool (the
/// library writes their protocols from AOSP's JNI code, unverified, and stays documented) and
/// AccessibilityNodeInfo (not in the library: AOSP's pool rejects a second recycle() before
/// Android 13, the shadow does not).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn shadows_that_check_nothing_stay_out_of_the_learned_library() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let library = typestates::library::Library::bundled();
    for (file, class) in [
        ("android.hardware.Camera.toml", "android.hardware.Camera"),
        (
            "android.media.MediaMetadataRetriever.toml",
            "android.media.MediaMetadataRetriever",
        ),
        ("android.media.SoundPool.toml", "android.media.SoundPool"),
        (
            "android.view.accessibility.AccessibilityNodeInfo.toml",
            "android.view.accessibility.AccessibilityNodeInfo",
        ),
    ] {
        let learned = learn(experiment(file), "simulated").await;
        assert_eq!(
            learned.states.len(),
            1,
            "{}",
            typestates::format::print(&learned)
        );
        let learned_in_library = library
            .get(class)
            .is_some_and(|entry| entry.provenance().kind == ProvenanceKind::Learned);
        assert!(!learned_in_library, "{class} is in the library as learned");
    }
}

/// A callin that hangs the main thread cannot be preempted: the agent's watchdog ends the JVM
/// after `callin_ms`, and learning stops with an error naming the call and the query.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn a_hung_main_thread_ends_the_jvm_and_the_run() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let run = learn_class(test_experiment("hang.toml"), &config(), &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    let End::Failed(error) = &run.outcome.end else {
        panic!(
            "learning should fail on the hang, but ended {:?}",
            run.outcome.end
        );
    };
    let message = error.to_string();
    eprintln!("{message}");
    assert!(
        message.contains("on Robolectric (SDK 34), after `reset hang")
            && message.contains("did not return within 500 ms")
            && message.contains("status 4"),
        "{message}"
    );
}

/// Not slow: without the artifacts, or without the SDK level asked for, the backend refuses
/// to start and says which command to run with which folder and level.
#[test]
fn missing_artifacts_name_the_fetch_command() {
    let dir = target_dir().join("robolectric-missing-artifacts-test");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a scratch folder under target/");
    let config = |sdk| RobolectricConfig {
        sdk,
        artifacts: dir.clone(),
        ..RobolectricConfig::default()
    };
    let error = config(34).agent_command(&[]).unwrap_err().to_string();
    assert!(
        error.contains("robolectric.properties")
            && error.contains(&format!(
                "`typestar fetch-robolectric --dest {} --sdk 34`",
                dir.display()
            )),
        "{error}"
    );
    std::fs::write(
        dir.join("robolectric.properties"),
        "robolectric=4.16.1\nandroid_all=android-all/android-all-14-robolectric-10818077.jar\nsdks=34\n",
    )
    .expect("writable");
    let error = config(29).agent_command(&[]).unwrap_err().to_string();
    assert!(
        error.contains("SDK 29 is not cached (cached: 34)") && error.contains("--sdk 29"),
        "{error}"
    );
}

/// Learns the Table 1 class of `experiment_file` with the jars `tests/<script>` fetches from
/// Maven Central into `<target>/<dir>` on the class path, and diffs it with the library's file
/// projected onto the experiment's inputs (the library adds callins read from the class's
/// source); prints both. The provenance must say that the class ran as the bytecode of the
/// artifact `maven` (its coordinates, read from the POM beside its jar), not as AOSP code.
/// `None` when the slow tests are off.
async fn table1_library_against_its_file(
    experiment_file: &str,
    (script, dir): (&str, &str),
    maven: &str,
) -> Option<(Typestate, Diff)> {
    if !test_tiers::runs(Tier::Robolectric) {
        return None;
    }
    let mut config = config();
    config.jvm.classpath = maven_classpath(script, dir, experiment_file);
    let class = experiment_file.trim_end_matches(".toml");
    let code = format!("real: {class} ran as the bytecode of {maven} (");
    let learned = learn_with(experiment(experiment_file), &code, &config).await;
    let inputs: Vec<&str> = learned.callins.iter().map(|it| it.name.as_str()).collect();
    let projected = jvm_support::library(&learned.class)
        .project_onto(&inputs)
        .unwrap_or_else(|error| panic!("{error}"));
    let diff = diff(&learned, &projected, EVERY_WITNESS);
    eprintln!(
        "{diff:#?}\n--- learned ---\n{}",
        typestates::format::print(&learned)
    );
    Some((learned, diff))
}

/// Each witness of `diff` as its inputs and the two last answers, learned then library.
fn witness_lines(diff: &Diff) -> Vec<String> {
    diff.witnesses
        .iter()
        .chain(&diff.restrictions)
        .map(|witness| {
            let inputs: Vec<&str> = witness.steps.iter().map(|s| s.input.as_str()).collect();
            let last = witness.steps.last().expect("a witness has steps");
            format!("{}: {} vs {}", inputs.join(" "), last.left, last.right)
        })
        .collect()
}

/// Universal Image Loader 1.9.5's ImageLoader with DroidStar's alphabet: its own code on its own
/// threads (waits in real time), with Robolectric's BitmapFactory and main looper.
/// 7 states where Table 1 has 5: the initial state, the three states after a load or a stop()
/// whose onLoadingStarted() (called inside loadImage()) is still to be taken by a wait, a good
/// and a bad load running, and the end. DroidStar's automaton is not in its repository, so
/// which of them its device run merged is not known.
/// The library's file is this run (`provenance learned`), plus init() and destroy() from UIL's
/// source, which the projection onto the experiment's inputs leaves out; so the learned machine
/// and the projected file differ on one trace only, on purpose: `loadBad wait wait`, where
/// onLoadingFailed() is an error of DroidStar's experiment (`[errors] callbacks`) and an
/// ordinary callback of the file (its notes say why). Any other difference is a drift.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn image_loader_against_table1_and_the_library() {
    let Some((learned, diff)) = table1_library_against_its_file(
        "com.nostra13.universalimageloader.core.ImageLoader.toml",
        ("fetch-uil.sh", "uil"),
        "com.nostra13.universalimageloader:universal-image-loader:1.9.5",
    )
    .await
    else {
        return;
    };
    assert_eq!(learned.states.len(), 7, "see the comment above");
    assert!(
        diff.callins_only_left.is_empty()
            && diff.callins_only_right.is_empty()
            && diff.callbacks_only_left.is_empty()
            && diff.callbacks_only_right.is_empty(),
        "{diff:#?}"
    );
    assert_eq!(witness_lines(&diff), ["loadBad wait wait: err vs onError"]);
}

/// Volley's RequestQueue (AOSP's Volley of 2015) with DroidStar's alphabet: its own code on its
/// own threads (waits in real time), with Robolectric's main looper. 4 states, as in Table 1,
/// and the library's file projected onto the same inputs answers alike on every trace; only
/// DroidStar's error callback onError (an error response other than an error status), which the
/// file leaves out, is extra.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn request_queue_against_table1_and_the_library() {
    let Some((learned, diff)) = table1_library_against_its_file(
        "com.android.volley.RequestQueue.toml",
        ("fetch-volley.sh", "volley"),
        "com.mcxiaoke.volley:library:1.0.19",
    )
    .await
    else {
        return;
    };
    assert_eq!(learned.states.len(), 4, "DroidStar's Table 1: 4 states");
    assert_eq!(
        diff,
        Diff {
            callbacks_only_left: vec!["onError".to_owned()],
            ..Diff::default()
        }
    );
}

/// android.util.JsonReader stays out of the library: what it learns is one document's path.
/// Two documents, an object holding an array and an array of two objects, learn 11 and 6
/// states; `hasNext()` is an observer, split by its answer.
/// What both documents agree on is written in `learner/ANDROID.md`; this pins the reasons.
/// The array's machine at distinguisher bound 2 loops back after each object, so it allows a
/// third `beginObject()`, which throws on this document: the two objects differ only by words of
/// length 5. And `hasNext()` is true at the end of the document (AOSP compares with the end
/// tokens of objects and arrays only).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier robolectric: TYPESTAR_SLOW=robolectric cargo test -- --include-ignored"]
async fn json_reader_learns_one_documents_path() {
    if !test_tiers::runs(Tier::Robolectric) {
        return;
    }
    let object = learn(experiment("android.util.JsonReader-object.toml"), "real").await;
    assert_machine(&object, "JsonReader-object.typestate-body");
    let array = learn(experiment("android.util.JsonReader-array.toml"), "real").await;
    assert_machine(&array, "JsonReader-array.typestate-body");
    let one = "beginObject nextName nextInt endObject";
    let traces: [(&Typestate, String, bool); 6] = [
        (&array, format!("beginArray {one} {one} beginObject"), true),
        (
            &array,
            format!("beginArray {one} {one} hasNextFalse"),
            false,
        ),
        (
            &object,
            "beginObject nextName beginArray nextInt nextInt hasNextTrue".to_string(),
            false,
        ),
        (
            &object,
            "beginObject nextName beginArray nextInt nextInt endArray nextName nextInt \
             endObject hasNextTrue close"
                .to_string(),
            true,
        ),
        (&object, "close beginObject".to_string(), false),
        (&array, "beginArray close close".to_string(), true),
    ];
    for (learned, trace, allowed) in traces {
        assert_eq!(accepts(learned, &trace), allowed, "{trace}");
    }
}
