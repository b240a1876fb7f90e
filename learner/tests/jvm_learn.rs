//! Learns JDK classes on the host JVM and checks each result against a typestate written by
//! hand from the Javadoc (`tests/jvm_expected/`).
//! Slow tier `jvm` (`test-tiers`): real callbacks on real threads wait on the wall clock; the plain JVM has no simulated clock.

mod jvm_support;

use jvm_support::{
    assert_fixtures_served_on_the_host, assert_learned, config, expected, experiment, learn,
    library,
};
use learner::backend::BackendKind;
use test_tiers::Tier;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn timer_with_a_timer_task() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let run = learn(experiment("java.util.Timer.toml"), &config(Vec::new())).await;
    assert_learned(&run, &expected("java.util.Timer.typestate"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn submission_publisher_with_a_subscriber() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let run = learn(
        experiment("java.util.concurrent.SubmissionPublisher.toml"),
        &config(Vec::new()),
    )
    .await;
    assert_learned(
        &run,
        &expected("java.util.concurrent.SubmissionPublisher.typestate"),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn completable_future_with_a_consumer() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let run = learn(
        experiment("java.util.concurrent.CompletableFuture.toml"),
        &config(Vec::new()),
    )
    .await;
    assert_learned(
        &run,
        &expected("java.util.concurrent.CompletableFuture.typestate"),
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn array_list_iterator() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let run = learn(
        experiment("java.util.ArrayList-iterator.toml"),
        &config(Vec::new()),
    )
    .await;
    assert_learned(&run, &expected("java.util.ArrayList-iterator.typestate"));
}

/// The runs the library's documented Scanner and ListIterator generalise: a Scanner over one
/// line, the list iterator of a one-element list.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn runs_behind_generalised_protocols() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    for class in ["java.util.Scanner", "java.util.ListIterator"] {
        let run = learn(experiment(&format!("{class}.toml")), &config(Vec::new())).await;
        assert_learned(&run, &expected(&format!("{class}.typestate")));
    }
}

/// The library's protocols learned on the host JVM are what their experiments learn.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn learned_library_protocols() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    for (file, class) in [
        (
            "java.util.concurrent.ExecutorService.toml",
            "java.util.concurrent.ExecutorService",
        ),
        (
            "java.util.zip.ZipOutputStream.toml",
            "java.util.zip.ZipOutputStream",
        ),
        (
            "java.nio.channels.FileChannel.toml",
            "java.nio.channels.FileChannel",
        ),
        ("java.util.zip.Deflater.toml", "java.util.zip.Deflater"),
        (
            "java.util.zip.GZIPOutputStream.toml",
            "java.util.zip.GZIPOutputStream",
        ),
        (
            "java.util.zip.ZipInputStream.toml",
            "java.util.zip.ZipInputStream",
        ),
        ("java.security.Signature.toml", "java.security.Signature"),
        (
            "java.util.concurrent.locks.ReentrantLock.toml",
            "java.util.concurrent.locks.ReentrantLock",
        ),
        ("java.util.zip.Inflater.toml", "java.util.zip.Inflater"),
        (
            "java.util.zip.GZIPInputStream.toml",
            "java.util.zip.GZIPInputStream",
        ),
        ("java.io.RandomAccessFile.toml", "java.io.RandomAccessFile"),
        (
            "java.nio.channels.Selector.toml",
            "java.nio.channels.Selector",
        ),
        ("javax.crypto.Mac.toml", "javax.crypto.Mac"),
        ("java.net.Socket.toml", "java.net.Socket"),
        ("java.util.zip.ZipFile.toml", "java.util.zip.ZipFile"),
        (
            "java.io.PipedOutputStream.toml",
            "java.io.PipedOutputStream",
        ),
    ] {
        let run = learn(experiment(file), &config(Vec::new())).await;
        assert_learned(&run, &library(class));
    }
}

/// The library's documented protocols of abstract JDK types hold on one real subclass each:
/// learned on it, each is equivalent to the documented contract.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn documented_library_protocols_hold_on_real_classes() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    for (file, class) in [
        ("javax.crypto.Cipher.toml", "javax.crypto.Cipher"),
        ("java.io.BufferedReader.toml", "java.io.Reader"),
        ("java.io.BufferedInputStream.toml", "java.io.InputStream"),
        ("java.io.BufferedWriter.toml", "java.io.Writer"),
    ] {
        let run = learn(experiment(file), &config(Vec::new())).await;
        assert_learned(&run, &library(class));
    }
}

/// FileOutputStream keeps the documented OutputStream contract but one step: its flush() does
/// nothing, so it does not throw after close() (the library's file says so in a note); the
/// library's FileOutputStream protocol is the one learned.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn file_output_stream_flushes_after_close() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let run = learn(
        experiment("java.io.FileOutputStream.toml"),
        &config(Vec::new()),
    )
    .await;
    let learned = run
        .typestate
        .as_ref()
        .expect("a learned run has a typestate");
    let diff = typestates::diff::diff(learned, &library("java.io.OutputStream"), 10);
    let witnesses: Vec<String> = diff
        .witnesses
        .iter()
        .map(|witness| {
            witness
                .steps
                .iter()
                .map(|step| format!("{} {}/{}", step.input, step.left, step.right))
                .collect::<Vec<_>>()
                .join(", ")
        })
        .collect();
    assert_eq!(witnesses, ["close eps/eps, flush eps/err"], "{diff:#?}");
    assert_learned(&run, &library("java.io.FileOutputStream"));
}

/// `expect = { null = true }` and `expect_not = { null = true }` split an observer into the
/// answers `null` and `nonnull`, each where the state gives it.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn null_and_non_null_observers() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let path = jvm_support::target_dir().join("atomic-reference-observers.toml");
    std::fs::write(
        &path,
        r#"class = "java.util.concurrent.atomic.AtomicReference"

[timeouts]
quiescence_ms = 5

[[build]]
new = "java.util.concurrent.atomic.AtomicReference"
as = "subject"

[callins.set]
call = "set"
args = ["a"]

[callins.clear]
call = "set"
args = [{ null = true }]

[callins.getNull]
call = "get"
expect = { null = true }

[callins.getNonNull]
call = "get"
expect_not = { null = true }
"#,
    )
    .expect("the target directory is writable");
    let experiment = std::sync::Arc::new(
        learner::backend::jvm::Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")),
    );
    let run = learn(experiment, &config(Vec::new())).await;
    let learned = run
        .typestate
        .as_ref()
        .expect("a learned run has a typestate");
    let text = typestates::format::print(learned);
    assert_eq!(learned.states.len(), 2, "{text}");
    assert!(
        text.contains("callin getNonNull: get(..) returns nonnull")
            && text.contains("callin getNull: get(..) returns null"),
        "{text}"
    );
}

/// An experiment's fixtures are served on the host at the port it names, where the class
/// fetches them (`tests/android_fixtures/url-stream.toml`, which devices reach over
/// `adb reverse`); a fixture that is not there is named in the error.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn fixtures_are_served_on_the_host() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    assert_fixtures_served_on_the_host(BackendKind::Jvm).await;
}
