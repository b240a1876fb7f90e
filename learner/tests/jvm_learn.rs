//! Learns JDK classes on the host JVM and checks each result against a typestate written by
//! hand from the Javadoc (`tests/jvm_expected/`).

mod jvm_support;

use jvm_support::{assert_learned, config, expected, experiment, learn};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timer_with_a_timer_task() {
    let run = learn(experiment("java.util.Timer.toml"), &config(Vec::new())).await;
    assert_learned(&run, &expected("java.util.Timer.typestate"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn submission_publisher_with_a_subscriber() {
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
async fn completable_future_with_a_consumer() {
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
async fn array_list_iterator() {
    let run = learn(
        experiment("java.util.ArrayList-iterator.toml"),
        &config(Vec::new()),
    )
    .await;
    assert_learned(&run, &expected("java.util.ArrayList-iterator.typestate"));
}
