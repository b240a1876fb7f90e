//! Bad input to the JVM backend gets a clear error naming the experiment's line: a missing
//! class or method, a wrong argument type, a draft's placeholder, an unreachable JVM, and a
//! class that hangs while learning.
//! The tests that learn are in the slow tier `jvm` (`test-tiers`).

mod jvm_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use learner::backend::jvm::{draft_experiment, learn_class, Experiment, JvmConfig, JvmError};
use learner::{End, NoProgress, QueryError};
use test_tiers::Tier;

const TIMER: &str = r#"class = "java.util.Timer"

[timeouts]
quiescence_ms = 20
callin_ms = 300

[errors]
exceptions = ["java.lang.IllegalStateException"]

[[build]]
new = "java.util.Timer"
params = ["boolean"]
args = [true]
as = "subject"

[[teardown]]
call = "cancel"

[callins.purge]
call = "purge"

[callins.cancel]
call = "cancel"
"#;

/// Writes `text` as an experiment file in a fresh directory under the target directory.
fn write(name: &str, text: &str) -> PathBuf {
    let dir = jvm_support::target_dir().join("jvm-errors-tests");
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    let path = dir.join(name);
    std::fs::write(&path, text).expect("the target directory is writable");
    path
}

/// The 1-based line of the first occurrence of `needle` in `text`.
fn line_of(text: &str, needle: &str) -> usize {
    let offset = text
        .find(needle)
        .unwrap_or_else(|| panic!("{needle} is in the text"));
    text[..offset].matches('\n').count() + 1
}

/// Loads `text` into an agent and returns the error, which must name `needle`'s line.
async fn load_error(name: &str, text: &str, needle: &str) -> String {
    let path = write(name, text);
    let experiment = Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")));
    let error = learn_class(
        experiment,
        &jvm_support::config(Vec::new()),
        &mut NoProgress,
    )
    .await
    .expect_err("the agent rejects the experiment");
    let message = error.to_string();
    let at = format!("{}:{}:", path.display(), line_of(text, needle));
    assert!(matches!(error, JvmError::Experiment(_)), "{message}");
    assert!(
        message.starts_with(&at),
        "`{message}` does not start with {at}"
    );
    message
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_class_names_its_line() {
    let text = TIMER.replace(r#"new = "java.util.Timer""#, r#"new = "java.util.Timr""#);
    let message = load_error("missing-class.toml", &text, "java.util.Timr").await;
    assert!(message.contains("`build[0].new`"), "{message}");
    assert!(message.contains("class-not-found"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn missing_method_names_its_line() {
    let text = TIMER.replace(r#"call = "purge""#, r#"call = "purj""#);
    let message = load_error("missing-method.toml", &text, "purj").await;
    assert!(message.contains("`callins.purge"), "{message}");
    assert!(message.contains("method-not-found"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn wrong_argument_type_names_its_line() {
    let text = TIMER.replace("args = [true]", r#"args = ["yes"]"#);
    let message = load_error("wrong-argument.toml", &text, r#"args = ["yes"]"#).await;
    assert!(message.contains("`build[0].args[0]`"), "{message}");
    assert!(message.contains("bad-argument"), "{message}");
}

/// The error of loading `text` as experiment file `name`; it must start with the file and the
/// line of `line_with`, if given.
fn load_refused(name: &str, text: &str, line_with: Option<&str>) -> String {
    let path = write(name, text);
    let message = Experiment::load(&path)
        .expect_err("a refused experiment")
        .to_string();
    if let Some(needle) = line_with {
        let at = format!("{}:{}:", path.display(), line_of(text, needle));
        assert!(
            message.starts_with(&at),
            "`{message}` does not start with {at}"
        );
    }
    message
}

#[test]
fn syntax_and_schema_errors_name_their_line() {
    let text = TIMER.replace("quiescence_ms = 20", "quiescense_ms = 20");
    let message = load_refused("unknown-field.toml", &text, Some("quiescense_ms"));
    assert!(message.contains("quiescense_ms"), "{message}");

    let text = TIMER.replace("[learn]", "").replace(
        "[timeouts]",
        "[learn]\nfilters = [{ at_most_once = [\"schedule\"] }]\n\n[timeouts]",
    );
    let message = load_refused("unknown-filter-symbol.toml", &text, None);
    assert!(message.contains("`learn.filters[0]`"), "{message}");
    assert!(message.contains("`schedule` is not a callin"), "{message}");

    let text = TIMER.replace("[learn]", "").replace(
        "[timeouts]",
        "[learn]\nfilters = [{ then_wait = [\"purge\"], at_most_once = [\"cancel\"] }]\n\n[timeouts]",
    );
    let message = load_refused("two-filter-kinds.toml", &text, None);
    assert!(message.contains("`learn.filters[0]`"), "{message}");
    assert!(
        message.contains("`{ then_wait = [\"callin\", …] }`"),
        "{message}"
    );

    let text = TIMER.replace("[timeouts]", "[learn]\ncreators = [\"make\"]\n\n[timeouts]");
    let message = load_refused("unknown-creator.toml", &text, Some("creators"));
    assert!(message.contains("`learn.creators`"), "{message}");
    assert!(message.contains("`make` is not a callin"), "{message}");

    let text = TIMER.replace(
        "params = [\"boolean\"]",
        "platform = \"robolectrc\"\nparams = [\"boolean\"]",
    );
    let message = load_refused("unknown-platform.toml", &text, Some("robolectrc"));
    assert!(
        message.contains("`jvm`, `robolectric`, `android`"),
        "{message}"
    );

    let text = TIMER.replace("quiescence_ms = 20", "quiescence_ms = 20\nclock = \"wall\"");
    let message = load_refused("unknown-clock.toml", &text, Some("clock"));
    assert!(
        message.contains("unknown variant `wall`, expected `simulated` or `real`"),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn creators_that_do_not_fit_the_learned_machine_are_refused_with_the_result() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    // Purge and cancel are allowed on a Timer at any time (one state): `cancel` creates nothing.
    let text = TIMER.replace(
        "[timeouts]",
        "[learn]\ncreators = [\"cancel\"]\n\n[timeouts]",
    );
    let path = write("creator-not-alone.toml", &text);
    let experiment = Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")));
    let error = learn_class(
        experiment,
        &jvm_support::config(Vec::new()),
        &mut NoProgress,
    )
    .await
    .expect_err("cancel loops on the one state");
    let message = error.to_string();
    assert!(matches!(error, JvmError::Creators { .. }), "{message}");
    let at = format!("{}:{}:", path.display(), line_of(&text, "creators"));
    assert!(
        message.starts_with(&at),
        "`{message}` does not start with {at}"
    );
    assert!(
        message.contains("`cancel` loops on the initial state `s0`"),
        "{message}"
    );
    assert!(message.contains("typestate java.util.Timer"), "{message}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_draft_names_its_placeholders_and_does_not_load() {
    jvm_support::config(Vec::new());
    let draft = draft_experiment("java.util.Timer", &[])
        .await
        .unwrap_or_else(|error| panic!("{error}"))
        .experiment;
    assert!(draft.contains("[callins.schedule]"), "{draft}");
    assert!(draft.contains("[callins.cancel]"), "{draft}");
    assert!(
        draft.contains("new = \"java.util.Timer\"\nparams = []"),
        "{draft}"
    );
    let path = write("java.util.Timer.draft.toml", &draft);
    let message = Experiment::load(&path)
        .expect_err("a draft has placeholders")
        .to_string();
    assert!(message.contains("<fill: "), "{message}");
    assert!(
        message.contains("is a placeholder of the draft"),
        "{message}"
    );
    let line: usize = message
        .split(':')
        .nth(1)
        .and_then(|it| it.parse().ok())
        .expect("a line");
    assert!(
        draft
            .lines()
            .nth(line - 1)
            .is_some_and(|it| it.contains("<fill: ")),
        "{message}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn unreachable_jvm_is_a_clear_error() {
    let missing = JvmConfig {
        java_home: Some(PathBuf::from("/nonexistent/jdk")),
        ..jvm_support::config(Vec::new())
    };
    let error = missing.agent_command(&[]).expect_err("no JDK there");
    assert!(matches!(error, JvmError::BadJavaHome { .. }), "{error}");
    assert!(
        error.to_string().contains("JAVA_HOME is /nonexistent/jdk"),
        "{error}"
    );

    // A JAVA_HOME whose java does not run.
    let home = jvm_support::target_dir().join("jvm-errors-tests/broken-jdk");
    std::fs::create_dir_all(home.join("bin")).expect("writable");
    for program in ["java", "javac"] {
        std::fs::write(home.join("bin").join(program), "not a program").expect("writable");
    }
    let broken = JvmConfig {
        java_home: Some(home),
        ..jvm_support::config(Vec::new())
    };
    let error = broken.agent_command(&[]).expect_err("java does not run");
    assert!(matches!(error, JvmError::JavaNotFound { .. }), "{error}");
    assert!(error.to_string().contains("install a JDK"), "{error}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn a_hanging_callin_ends_learning_with_an_error_naming_the_query() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let text = TIMER.replace(
        "[callins.cancel]\ncall = \"cancel\"",
        "[callins.sleep]\nstatic = \"java.lang.Thread\"\ncall = \"sleep\"\nparams = [\"long\"]\nargs = [60000]",
    );
    let path = write("hang.toml", &text);
    let experiment = Arc::new(Experiment::load(Path::new(&path)).unwrap_or_else(|e| panic!("{e}")));
    let run = learn_class(
        experiment,
        &jvm_support::config(Vec::new()),
        &mut NoProgress,
    )
    .await
    .unwrap_or_else(|error| panic!("{error}"));
    let End::Failed(QueryError::Backend { query, source, .. }) = &run.outcome.end else {
        panic!("expected a backend failure, got {:?}", run.outcome.end);
    };
    assert!(query.contains("sleep"), "{query}");
    assert!(source.message.contains("status hang"), "{source}");
    assert!(
        source.message.contains("java.lang.Thread.sleep(long)"),
        "{source}"
    );
}
