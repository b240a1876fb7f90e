//! Learns OkHttp's `Call` (4.12, fetched from Maven Central by `tests/fetch-okhttp.sh`)
//! against an HTTP server on 127.0.0.1 (the agent's `LocalHttpServer` harness):
//! - `okhttp3.Call.toml`: DroidStar's OkHttpCall row of Table 1 (6 states, distinguisher
//!   bound 2) on real code, with its alphabet and its error callback;
//! - `okhttp3.Call-onFailed.toml`: the same with onFailure as an ordinary callback and the
//!   builds as creators, which is the library's `okhttp3/Call.typestate`: the test checks
//!   the library file says what was learned;
//! - `okhttp3.ResponseBody.toml` and `okhttp3.Response.toml`: the library's protocols of a
//!   response and its body.
//!
//! Slow tier `jvm` (`test-tiers`): callbacks come from a real HTTP exchange, so waits run on the wall clock.

mod jvm_support;

use std::path::PathBuf;

use jvm_support::{
    assert_learned, assert_same_from_every_creator, config, expected, experiment, learn, library,
    maven_classpath,
};
use test_tiers::Tier;
use typestates::Typestate;

/// One learning run at a time: each runs two agents whose timing (a 200 ms server delay, a
/// quiescence timeout of 500 or 1000 ms) should not compete with another run's for two cores.
static ONE_AT_A_TIME: tokio::sync::Mutex<()> = tokio::sync::Mutex::const_new(());

/// The OkHttp jars, fetched once into `<target>/okhttp`.
fn okhttp_classpath() -> Vec<PathBuf> {
    maven_classpath("fetch-okhttp.sh", "okhttp", "OkHttp 4.12")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn okhttp_call_against_a_local_server() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let _alone = ONE_AT_A_TIME.lock().await;
    let run = learn(experiment("okhttp3.Call.toml"), &config(okhttp_classpath())).await;
    assert_learned(&run, &expected("okhttp3.Call.typestate"));
    assert_eq!(run.statistics.states, 6, "DroidStar's Table 1: 6 states");
    let learned = run.typestate.as_ref().expect("learned");
    println!("{}", typestates::format::print(learned));
}

/// The learned typestate with onFailure an ordinary callback and the builds as creators is
/// the library's okhttp3.Call: equivalent from the initial state and from every creator.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn okhttp_call_with_on_failed_is_the_library_protocol() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let _alone = ONE_AT_A_TIME.lock().await;
    let run = learn(
        experiment("okhttp3.Call-onFailed.toml"),
        &config(okhttp_classpath()),
    )
    .await;
    let learned = run.typestate.as_ref().expect("learned");
    println!("{}", typestates::format::print(learned));
    let expected = expected("okhttp3.Call-onFailed.typestate");
    assert_learned(&run, &expected);
    assert_same_from_every_creator(learned, &expected, "the expected typestate");
    assert_eq!(
        run.statistics.states, 7,
        "Table 1's 6, less the no-call state, plus the canceled-call states"
    );
    assert_eq!(learned.provenance.stats.as_ref().map(|s| s.states), Some(7));
    let library = library_call();
    assert_same_from_every_creator(learned, &library, "the library's okhttp3/Call.typestate");
    // The library file is the learned one, with its statistics.
    assert_eq!(library.provenance.kind, typestates::ProvenanceKind::Learned);
    let stats = library
        .provenance
        .stats
        .as_ref()
        .expect("the library file has stats");
    assert_eq!(stats.states, 7);
    assert_eq!(stats.distinguisher_bound, Some(2));
}

/// The library's okhttp3/Call.typestate.
fn library_call() -> Typestate {
    let library_file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../typestates/library/okhttp3/Call.typestate");
    let text = std::fs::read_to_string(&library_file).expect("the library has okhttp3.Call");
    typestates::format::parse("okhttp3/Call.typestate", &text).expect("it parses")
}

/// The library's okhttp3/ResponseBody.typestate is what its experiment learns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn response_body_is_the_library_protocol() {
    learns_the_library_protocol("okhttp3.ResponseBody").await;
}

/// The library's okhttp3/Response.typestate is what its experiment learns.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn response_is_the_library_protocol() {
    learns_the_library_protocol("okhttp3.Response").await;
}

/// Learns `experiments/<class>.toml` with OkHttp's jars and compares it with the library.
async fn learns_the_library_protocol(class: &str) {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let _alone = ONE_AT_A_TIME.lock().await;
    let file = format!("{class}.toml");
    let run = learn(experiment(&file), &config(okhttp_classpath())).await;
    assert_learned(&run, &library(class));
}
