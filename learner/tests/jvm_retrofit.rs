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
