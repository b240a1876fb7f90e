//! Learns Retrofit's `retrofit2.Call` (2.11, fetched from Maven Central by
//! `tests/fetch-retrofit.sh`) against an HTTP server on 127.0.0.1 (the agent's
//! `LocalHttpServer` harness): `retrofit2.Call.toml` calls a one-method service compiled from
//! `experiments/harness/PageService.java`, and the learned typestate is the library's
//! `retrofit2/Call.typestate`.
//!
//! Slow tier `jvm` (`test-tiers`): callbacks come from a real HTTP exchange, so waits run on the wall clock.

mod jvm_support;

use jvm_support::{assert_learned, config, experiment, learn, library, maven_classpath};
use test_tiers::Tier;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn retrofit_call_is_the_library_protocol() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classpath = maven_classpath("fetch-retrofit.sh", "retrofit", "Retrofit 2.11");
    let run = learn(experiment("retrofit2.Call.toml"), &config(classpath)).await;
    assert_learned(&run, &library("retrofit2.Call"));
}

/// A `cancel` any number of callins after `enqueue` comes before the server's answer: the
/// answer is delayed on the agent's step clock (`LocalHttpServer(200, true)`), which stands
/// still while the agent settles after each callin.
/// On the wall clock, 60 ms of settle time after each callin let the 200 ms answer arrive
/// before a `cancel` three observer callins later: `onResponse` where the library (and a
/// `cancel` one callin later) says `onFailure`, and how many callins it took depended on
/// the machine's load.
/// Each query runs twice, on a fresh call each time.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn a_cancel_after_any_number_of_callins_comes_before_the_response() {
    use learner::backend::jvm::sul::{JvmSul, Launcher};
    use learner::oracle::sul::Sul;
    use std::sync::Arc;
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classpath = maven_classpath("fetch-retrofit.sh", "retrofit", "Retrofit 2.11");
    let experiment = experiment("retrofit2.Call.toml");
    let alphabet = Arc::new(experiment.alphabet());
    let launcher = Launcher {
        command: config(classpath)
            .agent_command(&experiment.harness_sources())
            .unwrap_or_else(|error| panic!("{error}")),
        experiment: Arc::clone(&experiment),
    };
    let mut sul = JvmSul::new(launcher, Arc::clone(&alphabet));
    let mut wrong = Vec::new();
    for observers in 0..=6 {
        let between = vec!["canceledFalse"; observers].join(" ");
        for (query, last) in [
            (format!("enqueue {between} cancel wait"), "onFailure"),
            (format!("enqueue {between} wait"), "onResponse"),
        ] {
            let word: Vec<_> = query
                .split_whitespace()
                .map(|name| alphabet.input_named(name).expect("an input"))
                .collect();
            for _ in 0..2 {
                sul.reset().await.unwrap_or_else(|error| panic!("{error}"));
                let outputs = sul
                    .steps(&word)
                    .await
                    .unwrap_or_else(|error| panic!("{error}"));
                let answer = alphabet.output_names(&outputs);
                if answer.last().map(String::as_str) != Some(last) {
                    wrong.push(format!("{query}: {}", answer.join(" ")));
                }
            }
        }
    }
    sul.shutdown().await;
    assert!(wrong.is_empty(), "answers that raced: {wrong:#?}");
}
