//! Learns OkHttp's `Call` (4.12, fetched from Maven Central by `tests/fetch-okhttp.sh`)
//! against an HTTP server on 127.0.0.1 (the agent's `LocalHttpServer` harness): DroidStar's
//! OkHttpCall row of Table 1 (6 states, distinguisher bound 2) on real code.

mod jvm_support;

use std::path::PathBuf;
use std::process::Command;

use jvm_support::{assert_learned, config, expected, experiment, learn, target_dir};

/// The OkHttp jars, fetched once into `<target>/okhttp`. Fails loudly when Maven Central (or
/// `mvn`) is unavailable: the test is part of `cargo test`, never silently skipped.
fn okhttp_classpath() -> Vec<PathBuf> {
    let script = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/fetch-okhttp.sh");
    let dest = target_dir().join("okhttp");
    let output = Command::new("bash")
        .arg(&script)
        .arg(&dest)
        .output()
        .unwrap_or_else(|error| panic!("cannot run {}: {error}", script.display()));
    assert!(
        output.status.success(),
        "{} could not fetch OkHttp 4.12 from Maven Central (is it reachable, is mvn installed?):\n{}",
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

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn okhttp_call_against_a_local_server() {
    let run = learn(experiment("okhttp3.Call.toml"), &config(okhttp_classpath())).await;
    assert_learned(&run, &expected("okhttp3.Call.typestate"));
    assert_eq!(run.statistics.states, 6, "DroidStar's Table 1: 6 states");
    let learned = run.typestate.as_ref().expect("learned");
    println!("{}", typestates::format::print(learned));
    // Against the library's documented okhttp3/Call.typestate. Not asserted: the two model
    // different things. The library makes build_valid/build_unavailable creators (no state
    // without a call) and onFailure an ordinary callback (a canceled call fails normally);
    // this experiment keeps DroidStar's alphabet, where onError is an error callback.
    let library_file = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../typestates/library/okhttp3/Call.typestate");
    let text = std::fs::read_to_string(&library_file).expect("the library has okhttp3.Call");
    let library = typestates::format::parse("okhttp3/Call.typestate", &text).expect("it parses");
    let diff = typestates::diff::diff(learned, &library, 10);
    println!("learned vs library okhttp3/Call.typestate: {diff:#?}");
}
