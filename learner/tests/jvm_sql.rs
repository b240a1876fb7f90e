//! Learns JDBC's `Connection`, `Statement` and `ResultSet` on the host JVM against H2 2.2.224,
//! an embedded database (fetched from Maven Central by `tests/fetch-h2.sh`), and checks that the
//! library's `java/sql/` protocols are what was learned.
//! Slow tier `jvm` (`test-tiers`).

mod jvm_support;

use jvm_support::{
    assert_learned, assert_same_from_every_creator, config, experiment, learn, library,
    maven_classpath,
};
use test_tiers::Tier;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn connection_and_statement_are_learned_on_h2() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classpath = maven_classpath("fetch-h2.sh", "h2", "H2 2.2.224");
    for class in ["java.sql.Connection", "java.sql.Statement"] {
        let run = learn(
            experiment(&format!("{class}.toml")),
            &config(classpath.clone()),
        )
        .await;
        assert_learned(&run, &library(class));
    }
}

/// A result set is made by its queries (the run's creators): empty, or with rows.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn result_set_is_learned_on_h2_from_each_query() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let classpath = maven_classpath("fetch-h2.sh", "h2", "H2 2.2.224");
    let run = learn(experiment("java.sql.ResultSet.toml"), &config(classpath)).await;
    let learned = run
        .typestate
        .as_ref()
        .expect("a learned run has a typestate");
    let class = "java.sql.ResultSet";
    assert_same_from_every_creator(learned, &library(class), "the library's java.sql.ResultSet");
}
