//! `typestar draft` with harness classes: a drafted experiment, edited only where the draft
//! cannot know (argument values, which callins matter), learns a class whose callbacks are
//! received by overriding, with no hand-written Java.
//! The tests that learn are in the slow tier `jvm` (`test-tiers`).

mod jvm_support;

use std::path::{Path, PathBuf};
use std::sync::Arc;

use learner::backend::jvm::{draft_experiment, learn_class, Draft, Experiment, JvmError};
use learner::NoProgress;

use jvm_support::{assert_learned, config, expected, learn};
use test_tiers::Tier;

/// A fresh folder under the target directory.
fn folder(name: &str) -> PathBuf {
    let dir = jvm_support::target_dir().join("jvm-draft-tests").join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("the target directory is writable");
    dir
}

/// Writes the experiment (as `experiment.toml`) and its harness sources into `dir`.
fn write(dir: &Path, experiment: &str, draft: &Draft) -> PathBuf {
    for harness in &draft.harnesses {
        std::fs::write(dir.join(&harness.file_name), &harness.source).unwrap();
    }
    let path = dir.join("experiment.toml");
    std::fs::write(&path, experiment).unwrap();
    path
}

async fn draft(class: &str) -> Draft {
    config(Vec::new());
    draft_experiment(class, &[])
        .await
        .unwrap_or_else(|error| panic!("{error}"))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn a_drafted_timer_experiment_learns_with_its_generated_task_harness() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let draft = draft("java.util.Timer").await;
    let [harness] = draft.harnesses.as_slice() else {
        panic!("one harness, for TimerTask: {draft:#?}");
    };
    assert_eq!(harness.file_name, "ReportingTimerTask.java");
    assert_eq!(harness.class, "typestar.harness.ReportingTimerTask");
    assert!(
        harness
            .source
            .contains("public class ReportingTimerTask extends java.util.TimerTask"),
        "{}",
        harness.source
    );

    // The review, as a user does it: keep `schedule(TimerTask, long)` and `cancel`, give the
    // delay, schedule once per query, and time the waits for a 20 ms delay.
    let mut experiment: toml::Table = toml::from_str(&draft.experiment).unwrap();
    assert_eq!(
        experiment["harness"],
        toml::Value::Array(vec!["ReportingTimerTask.java".into()])
    );
    assert_eq!(
        experiment["callbacks"]["run"]["harness"].as_str(),
        Some("run")
    );
    let callins = experiment["callins"].as_table().unwrap();
    let mut schedule = callins
        .values()
        .find(|it| {
            it["call"].as_str() == Some("schedule")
                && it["params"].as_array().unwrap()
                    == &vec![toml::Value::from("java.util.TimerTask"), "long".into()]
        })
        .expect("the draft has schedule(TimerTask, long)")
        .clone();
    assert_eq!(
        schedule["args"][0]["ref"].as_str(),
        Some("timerTask"),
        "the task argument is the harness built for each query"
    );
    schedule["args"].as_array_mut().unwrap()[1] = 20.into();
    let cancel = callins["cancel"].clone();
    let callins = toml::Table::from_iter([
        ("schedule".to_owned(), schedule),
        ("cancel".to_owned(), cancel),
    ]);
    experiment.insert("callins".into(), callins.into());
    let edits: toml::Table = toml::from_str(
        r#"
        [learn]
        distinguisher_bound = 2
        filters = [{ at_most_once = ["schedule"] }]
        [timeouts]
        quiescence_ms = 250
        callin_ms = 2000
        "#,
    )
    .unwrap();
    experiment.extend(edits);
    let path = write(
        &folder("timer"),
        &toml::to_string(&experiment).unwrap(),
        &draft,
    );

    let experiment = Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")));
    let run = learn(experiment, &config(Vec::new())).await;
    assert_learned(&run, &expected("java.util.Timer.typestate"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
async fn an_abstract_class_is_built_as_its_harness_and_its_hooks_are_callbacks() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let draft = draft("java.util.TimerTask").await;
    assert!(
        draft
            .experiment
            .contains("[[build]]\nnew = \"typestar.harness.ReportingTimerTask\"\nparams = []\nas = \"subject\""),
        "{}",
        draft.experiment
    );
    assert!(draft
        .experiment
        .contains("[callbacks.run]\nharness = \"run\""));
    assert!(
        !draft.experiment.contains("[callins.run]"),
        "a callback method is not a callin:\n{}",
        draft.experiment
    );
    // The harness compiles against the agent.
    let dir = folder("timer-task");
    let path = write(&dir, &draft.experiment, &draft);
    let experiment = Experiment::load(&path).unwrap_or_else(|error| panic!("{error}"));
    config(Vec::new())
        .agent_command(&experiment.harness_sources())
        .unwrap_or_else(|error| panic!("{error}"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_harness_that_does_not_compile_is_reported_with_javac_s_location() {
    let dir = folder("broken-harness");
    let broken = "package typestar.harness;\npublic class Broken extends java.util.TimerTask {\n    public void run() { undefined(); }\n}\n";
    std::fs::write(dir.join("Broken.java"), broken).unwrap();
    let experiment = r#"class = "java.util.Timer"
harness = ["Broken.java"]

[[build]]
new = "java.util.Timer"
as = "subject"

[callins.cancel]
call = "cancel"
"#;
    let path = dir.join("experiment.toml");
    std::fs::write(&path, experiment).unwrap();
    let experiment = Arc::new(Experiment::load(&path).unwrap_or_else(|error| panic!("{error}")));
    let error = learn_class(experiment, &config(Vec::new()), &mut NoProgress)
        .await
        .expect_err("the harness does not compile");
    assert!(matches!(error, JvmError::HarnessBuild { .. }), "{error:?}");
    let message = error.to_string();
    assert!(message.contains("Broken.java:3: error"), "{message}");
    assert!(message.contains("undefined()"), "{message}");
}

#[test]
fn a_missing_harness_source_is_an_error_at_its_line() {
    let dir = folder("missing-harness");
    let path = dir.join("experiment.toml");
    let text = "class = \"java.util.Timer\"\nharness = [\"Gone.java\"]\n\n[[build]]\nnew = \"java.util.Timer\"\nas = \"subject\"\n";
    std::fs::write(&path, text).unwrap();
    let message = Experiment::load(&path)
        .expect_err("the harness file is missing")
        .to_string();
    let expected = format!(
        "{}:2:12: `harness[0]`: no such file: {}",
        path.display(),
        dir.join("Gone.java").display()
    );
    assert_eq!(message, expected);
}
