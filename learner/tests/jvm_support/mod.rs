//! Shared setup of the JVM backend's tests: the agent cache under the target directory, the
//! experiment files of `learner/experiments/`, and a check of a learned typestate against a
//! hand-written expected one.

#![allow(
    dead_code,
    reason = "each test binary uses a different part of the support"
)]

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use learner::backend::jvm::java::Jdk;
use learner::backend::jvm::{learn_class, Experiment, JvmConfig};
use learner::backend::{BackendKind, Request};
use learner::oracle::pipeline::Confirmation;
use learner::{Choices, Learned};
use learner::{End, NoProgress};
use typestates::diff::{diff, Diff};
use typestates::Typestate;

/// The cargo target directory this test runs from.
pub fn target_dir() -> PathBuf {
    let exe = std::env::current_exe().expect("the test binary has a path");
    // target/<profile>/deps/<test binary>
    exe.ancestors()
        .nth(3)
        .expect("tests run from target/<profile>/deps")
        .to_owned()
}

/// A configuration whose agent is built under the target directory. Fails loudly when no
/// JDK is available: these tests are part of `cargo test`, never silently skipped.
pub fn config(classpath: Vec<PathBuf>) -> JvmConfig {
    if let Err(error) = Jdk::from_env() {
        panic!("the JVM backend's tests need a JDK (11 or later): {error}");
    }
    JvmConfig {
        classpath,
        jobs: 2,
        cache_dir: target_dir().join("typestar-agent-cache"),
        choices: one_run_a_trace(),
        ..JvmConfig::default()
    }
}

/// Each trace run once, not the agent backends' default of three.
/// These tests check what is learned from real code, which answers alike run after run; three
/// runs a trace would triple the slow tier's time.
/// The default's confirming and voting are tested in `noise.rs`, and the server's JVM tests
/// (`typestar learn` installed, the LSP learn command) learn with the default itself.
pub fn one_run_a_trace() -> Choices {
    Choices {
        confirmation: Some(Confirmation::ONCE),
        ..Choices::default()
    }
}

/// The class path a `tests/fetch-*.sh` script prints after fetching `what` from Maven Central
/// into `<target>/<dir>` once. Fails loudly when Maven Central (or `mvn`) is unavailable: the
/// tests that need it are part of `cargo test`, never silently skipped.
pub fn maven_classpath(script: &str, dir: &str, what: &str) -> Vec<PathBuf> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests")
        .join(script);
    let dest = target_dir().join(dir);
    let output = Command::new("bash")
        .arg(&script)
        .arg(&dest)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", script.display()));
    assert!(
        output.status.success(),
        "{} could not fetch {what} from Maven Central (is it reachable, is mvn installed?):\n{}",
        script.display(),
        String::from_utf8_lossy(&output.stderr)
    );
    String::from_utf8(output.stdout)
        .expect("the class path is UTF-8")
        .trim()
        .split(':')
        .map(PathBuf::from)
        .collect()
}

/// The bundled library's protocol of `class`.
pub fn library(class: &str) -> typestates::Typestate {
    typestates::library::Library::bundled()
        .get(class)
        .unwrap_or_else(|| panic!("{class} is not in the library"))
        .typestate
        .clone()
}

/// An experiment of `learner/experiments/`.
pub fn experiment(name: &str) -> Arc<Experiment> {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("experiments")
        .join(name);
    Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")))
}

/// The expected typestate `learner/tests/jvm_expected/<name>`.
pub fn expected(name: &str) -> Typestate {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/jvm_expected")
        .join(name);
    let text = std::fs::read_to_string(&path)
        .unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    typestates::format::parse(&path.display().to_string(), &text)
        .unwrap_or_else(|errors| panic!("{} does not parse: {errors:?}", path.display()))
}

/// One learning run at a time within a test binary: each run starts `jobs` JVMs, and several
/// runs at once on a small machine delay callbacks past the quiescence timeouts.
static ONE_RUN_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// Learns `experiment` and returns the run, failing on any end but `Learned`.
pub async fn learn(experiment: Arc<Experiment>, config: &JvmConfig) -> Learned {
    let _turn = ONE_RUN_AT_A_TIME.lock().await;
    let run = learn_class(experiment, config, &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    match &run.outcome.end {
        End::Learned => run,
        other => panic!("learning did not finish: {other:?}"),
    }
}

/// Asserts the learned typestate has exactly the traces of `expected`, printing both and a
/// witness otherwise.
pub fn assert_learned(run: &Learned, expected: &Typestate) {
    let learned = run
        .typestate
        .as_ref()
        .expect("a learned run has a typestate");
    let diff = diff(learned, expected, 3);
    assert!(
        diff.is_equivalent(),
        "the learned typestate differs from the expected one: {diff:#?}\n--- learned ---\n{}\n--- expected ---\n{}",
        typestates::format::print(learned),
        typestates::format::print(expected),
    );
    eprintln!("{}", statistics_line(learned, run));
}

/// One line of a run's statistics, for the test's output.
pub fn statistics_line(learned: &Typestate, run: &Learned) -> String {
    format!(
        "{}: {} states, {} ms, MQ {} asked / {} executed, EQ {}, resets {}, steps {}",
        learned.class,
        run.statistics.states,
        run.statistics.time_ms,
        run.statistics.mq_asked,
        run.statistics.mq_executed,
        run.statistics.eq,
        run.statistics.resets,
        run.statistics.steps
    )
}

/// Asserts `learned` and `other` have the same symbols, the same creators, and the same
/// behaviour from the initial state and from the state each creator starts in (`diff` alone
/// only looks from the initial state).
pub fn assert_same_from_every_creator(learned: &Typestate, other: &Typestate, what: &str) {
    let creators = |t: &Typestate| -> Vec<String> {
        let mut names: Vec<String> = t.creators().map(|c| t.callin(c).name.clone()).collect();
        names.sort();
        names
    };
    assert_eq!(creators(learned), creators(other), "creators of {what}");
    let mut diffs: Vec<(String, Diff)> =
        vec![("the initial state".to_owned(), diff(learned, other, 3))];
    for creator in learned.creators() {
        let name = &learned.callin(creator).name;
        let other_creator = other.callin_by_name(name).expect("the same creators");
        let started = |t: &Typestate, id| {
            let mut copy = t.clone();
            copy.initial = t.callin(id).creates.expect("a creator");
            copy
        };
        diffs.push((
            format!("the state {name} creates"),
            diff(
                &started(learned, creator),
                &started(other, other_creator),
                3,
            ),
        ));
    }
    for (from, diff) in diffs {
        assert!(
            diff.is_equivalent(),
            "from {from}, the learned typestate differs from {what}: {diff:#?}\n--- learned ---\n{}",
            typestates::format::print(learned)
        );
    }
}

/// The fixture experiment `tests/android_fixtures/url-stream.toml` (an `InputStream` opened on
/// a fixture's URL): its path, and the experiment with its fixture or with one that is not
/// there.
pub fn url_stream(fixture: Fixture) -> (PathBuf, Arc<Experiment>) {
    let file = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/android_fixtures/url-stream.toml");
    let text = std::fs::read_to_string(&file).expect("readable");
    let text = match fixture {
        Fixture::Served => text,
        Fixture::Missing => text.replace("hello.txt", "missing.txt"),
    };
    let experiment = Experiment::parse(&file, &text).unwrap_or_else(|error| panic!("{error}"));
    (file, Arc::new(experiment))
}

/// Which fixture [`url_stream`] fetches.
#[derive(Clone, Copy)]
pub enum Fixture {
    /// `hello.txt`, in the fixture folder.
    Served,
    /// `missing.txt`, which is not.
    Missing,
}

/// Checks that a run of [`url_stream`] with its fixture learned the stream the fixture's
/// server gave: an HTTP stream refuses reads once closed.
pub fn assert_read_the_fixture(run: &Learned) {
    assert!(
        matches!(run.outcome.end, End::Learned),
        "{:?}",
        run.outcome.end
    );
    let served = typestates::format::print(run.typestate.as_ref().expect("a typestate"));
    assert!(
        served.contains("read error java.io.IOException"),
        "{served}"
    );
}

/// Checks that a run of [`url_stream`] with the missing fixture failed naming it: the build
/// fails (404), so no stream is ever read.
pub fn assert_missing_fixture_named<E: std::fmt::Display>(result: Result<Learned, E>) {
    let unserved = match result {
        Ok(run) => {
            assert!(
                !matches!(run.outcome.end, End::Learned),
                "learned without its fixture"
            );
            format!("{:?}", run.outcome.end)
        }
        Err(error) => error.to_string(),
    };
    assert!(unserved.contains("/missing.txt"), "{unserved}");
}

/// Learns [`url_stream`] through `backend` (`learner::backend::learn`, which serves the
/// fixtures on the host at the port the experiment names) with its fixture, which it reads, and
/// with a missing one, which the error names.
pub async fn assert_fixtures_served_on_the_host(backend: BackendKind) {
    let request = |fixture| {
        let mut request = Request::new(backend);
        request.experiment = Some(url_stream(fixture).1);
        request
    };
    let run = learner::backend::learn(request(Fixture::Served), &mut NoProgress)
        .await
        .unwrap_or_else(|error| panic!("{error}"));
    assert_read_the_fixture(&run);
    assert_missing_fixture_named(
        learner::backend::learn(request(Fixture::Missing), &mut NoProgress).await,
    );
}
