//! Learns JDBC's `Connection`, `Statement` and `ResultSet` on the host JVM against H2 2.2.224,
//! an embedded database (fetched from Maven Central by `tests/fetch-h2.sh`), and checks that the
//! library's `java/sql/` protocols are what was learned.
//! Slow tier `jvm` (`test-tiers`).

mod jvm_support;

use jvm_support::{
    assert_learned, config, experiment, learn, library, maven_classpath, statistics_line,
};
use test_tiers::Tier;
use typestates::abstraction::{check_abstraction, Abstraction, AbstractionError};
use typestates::Step;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
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

/// A result set is made by its queries, of no, one and two rows: each reaches its end, so the
/// last row's `next()` false is learned. The library forgets the row count: it abstracts the
/// run (`typestates::abstraction`), one state standing for the rows of both queries, where the
/// data decides `next()`'s answer.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
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
    eprintln!("{}", statistics_line(learned, &run));
    let library = library("java.sql.ResultSet");
    let abstraction = Abstraction {
        creators: &[
            ("queryEmpty", "queryEmpty"),
            ("queryOne", "queryRows"),
            ("queryTwo", "queryRows"),
        ],
        data_decides: &[("OnRow", "nextTrue"), ("OnRow", "nextFalse")],
    };
    let map = check_abstraction(learned, &library, &abstraction).unwrap_or_else(|error| {
        panic!(
            "the library's java.sql.ResultSet does not abstract the run: {error}\n--- learned ---\n{}",
            typestates::format::print(learned)
        )
    });
    let mut stood_for: Vec<&str> = map.values().map(String::as_str).collect();
    stood_for.sort();
    stood_for.dedup();
    assert_eq!(stood_for, ["Closed", "Empty", "OnRow", "Rows"], "{map:?}");
    // Past the last row the run answered as on an empty result: a library whose rows never end
    // (the run of a million rows before) does not abstract it.
    let mut endless = library.clone();
    let (on_row, next_false) = (
        endless.state_by_name("OnRow").expect("a state"),
        endless.callin_by_name("nextFalse").expect("a callin"),
    );
    endless.states[on_row.index()].on_callin[next_false.index()] = Step::unknown_error();
    assert!(matches!(
        check_abstraction(learned, &endless, &abstraction),
        Err(AbstractionError::Rejects { .. })
    ));
}
