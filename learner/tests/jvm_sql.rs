//! Learns JDBC's `Connection`, `Statement` and `ResultSet` on the host JVM against H2 2.2.224,
//! an embedded database (fetched from Maven Central by `tests/fetch-h2.sh`), and checks that the
//! library's `java/sql/` protocols are what was learned.

mod jvm_support;

use jvm_support::{assert_same_from_every_creator, config, experiment, learn, maven_classpath};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn jdbc_protocols_are_learned_on_h2() {
    let classpath = maven_classpath("fetch-h2.sh", "h2", "H2 2.2.224");
    for class in [
        "java.sql.Connection",
        "java.sql.Statement",
        "java.sql.ResultSet",
    ] {
        let run = learn(
            experiment(&format!("{class}.toml")),
            &config(classpath.clone()),
        )
        .await;
        let library = typestates::library::Library::bundled();
        let bundled = &library
            .get(class)
            .unwrap_or_else(|| panic!("{class} is not in the library"))
            .typestate;
        let learned = run
            .typestate
            .as_ref()
            .expect("a learned run has a typestate");
        assert_same_from_every_creator(learned, bundled, &format!("the library's {class}"));
    }
}
