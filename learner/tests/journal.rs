//! Resuming from the journal: a run killed mid-way resumes without executing any finished
//! query again; a journal cut off mid-write is recovered; another experiment's journal is
//! refused.

mod common;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use common::reference;
use learner::backend::model::{ModelConfig, ModelSul, SimClock};
use learner::equivalence::CacheConsistency;
use learner::oracle::filter::QueryFilter;
use learner::oracle::{JournalError, Sul, SulError};
use learner::simulation::{learn_simulated, EquivalenceChoice};
use learner::{
    learn, Algorithm, Alphabet, Chain, DistinguisherBound, End, Input, LearnConfig, NoProgress,
    Output, Pipeline, PipelineConfig, Word,
};
use learner::{Choices, Session};

/// A model instance that records every run and fails at the reset after `fail_after` runs.
struct Recorded {
    model: ModelSul,
    runs: Arc<Mutex<Vec<Word>>>,
    fail_after: Option<usize>,
}

impl Sul for Recorded {
    async fn reset(&mut self) -> Result<(), SulError> {
        {
            let mut runs = self.runs.lock().unwrap();
            if self.fail_after.is_some_and(|limit| runs.len() >= limit) {
                return Err(SulError::new("the device went away"));
            }
            runs.push(Word::new());
        }
        self.model.reset().await
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        let output = self.model.step(input).await;
        self.runs.lock().unwrap().last_mut().unwrap().push(input);
        output
    }
}

fn journal_path(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("learner-journal-tests-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let path = dir.join(name);
    let _ = std::fs::remove_file(&path);
    path
}

/// Learns AsyncTask with L# and Algorithm 2 through a recorded model.
async fn learn_recorded(journal: &Path, fail_after: Option<usize>) -> (End, u64, usize, Vec<Word>) {
    let typestate = reference("AsyncTask");
    let alphabet = Arc::new(Alphabet::of(typestate.signature()));
    let runs = Arc::new(Mutex::new(Vec::new()));
    let sul = Recorded {
        model: ModelSul::new(
            &typestate,
            ModelConfig::default(),
            0,
            Arc::new(SimClock::default()),
        ),
        runs: Arc::clone(&runs),
        fail_after,
    };
    let config = PipelineConfig {
        journal: Some(journal.to_path_buf()),
        ..PipelineConfig::default()
    };
    let pipeline = Pipeline::new(Arc::clone(&alphabet), vec![sul], &config).unwrap();
    let outcome = learn(
        &LearnConfig::new(Arc::clone(&alphabet)),
        pipeline.oracle(),
        &mut Chain(
            CacheConsistency::new(Arc::clone(pipeline.tree()), Arc::clone(&alphabet)),
            DistinguisherBound::new(2),
        ),
        &mut NoProgress,
    )
    .await;
    let runs = runs.lock().unwrap().clone();
    (
        outcome.end,
        pipeline.executed().queries,
        pipeline.resumed_queries(),
        runs,
    )
}

#[tokio::test]
async fn a_killed_run_resumes_without_repeating_a_backend_query() {
    let (end, baseline, _, _) = learn_recorded(&journal_path("baseline.jsonl"), None).await;
    assert!(matches!(end, End::Learned));

    let journal = journal_path("killed.jsonl");
    let (end, _, _, first_runs) = learn_recorded(&journal, Some(25)).await;
    let End::Failed(error) = end else {
        panic!("the failing device should stop the run, not {end:?}")
    };
    assert!(
        error.to_string().contains("the device went away"),
        "{error}"
    );

    let (end, resumed_executed, resumed, second_runs) = learn_recorded(&journal, None).await;
    assert!(matches!(end, End::Learned), "{end:?}");
    assert_eq!(
        resumed,
        first_runs.len(),
        "every finished query was journaled"
    );
    // The replayed traces can only help (the cache-consistency check sees them early).
    assert!(resumed as u64 + resumed_executed <= baseline);
    for run in &second_runs {
        assert!(
            !first_runs.iter().any(|earlier| earlier.starts_with(run)),
            "{run:?} was executed before the kill"
        );
    }
}

#[tokio::test]
async fn a_journal_cut_off_mid_write_keeps_its_complete_entries() {
    let journal = journal_path("truncated.jsonl");
    let (_, executed, _, _) = learn_recorded(&journal, None).await;
    let text = std::fs::read_to_string(&journal).unwrap();
    // Cut the last entry in the middle, as a kill during the write would.
    std::fs::write(&journal, &text[..text.len() - 7]).unwrap();

    let alphabet = Arc::new(Alphabet::of(reference("AsyncTask").signature()));
    let config = PipelineConfig {
        journal: Some(journal.to_path_buf()),
        ..PipelineConfig::default()
    };
    let pipeline = Pipeline::new(alphabet, one_instance(), &config).unwrap();
    assert!(pipeline.recovered_truncation());
    assert_eq!(pipeline.resumed_queries() as u64, executed - 1);
    drop(pipeline);
    let repaired = std::fs::read_to_string(&journal).unwrap();
    assert!(repaired.ends_with('\n') && text.starts_with(&repaired));

    let (end, executed_again, _, _) = learn_recorded(&journal, None).await;
    assert!(matches!(end, End::Learned));
    // The lost entry runs again, and whatever its absence changes in the run's course; the
    // rest comes from the journal.
    assert!(
        (1..=executed / 10).contains(&executed_again),
        "{executed_again} of {executed} executed again"
    );
}

#[tokio::test]
async fn a_journal_of_another_experiment_is_refused() {
    let journal = journal_path("other.jsonl");
    learn_recorded(&journal, None).await;
    let open = |typestate_name: &str, filters: Vec<QueryFilter>| {
        let typestate = reference(typestate_name);
        let alphabet = Arc::new(Alphabet::of(typestate.signature()));
        let config = PipelineConfig {
            journal: Some(journal.to_path_buf()),
            filters,
            ..PipelineConfig::default()
        };
        Pipeline::new(alphabet, one_instance(), &config).map(|_| ())
    };
    let Err(error) = open("CountDownTimer", Vec::new()) else {
        panic!("another class's journal was accepted")
    };
    assert!(matches!(error, JournalError::OtherExperiment { .. }));
    let message = error.to_string();
    assert!(
        message.contains("belongs to another experiment"),
        "{message}"
    );
    assert!(message.contains("android.os.AsyncTask"), "{message}");

    let cancel = Alphabet::of(reference("AsyncTask").signature())
        .input_named("cancel")
        .unwrap();
    let Err(error) = open("AsyncTask", vec![QueryFilter::AtMostOnce(cancel)]) else {
        panic!("a journal made without the filter was accepted")
    };
    assert!(matches!(error, JournalError::OtherExperiment { .. }));
    assert!(open("AsyncTask", Vec::new()).is_ok());
}

#[tokio::test]
async fn learning_without_journal_and_with_journal_executes_the_same() {
    let typestate = reference("AsyncTask");
    let run = learn_simulated(
        &typestate,
        &Session::new(Choices::of(
            Algorithm::default(),
            EquivalenceChoice::DistinguisherBound(2),
        )),
        ModelConfig::default(),
    )
    .await
    .unwrap();
    let (_, executed, _, _) = learn_recorded(&journal_path("same.jsonl"), None).await;
    assert_eq!(run.executed.queries, executed);
}

/// One AsyncTask instance, for pipelines built only to open a journal.
fn one_instance() -> Vec<ModelSul> {
    ModelSul::pool(
        &reference("AsyncTask"),
        ModelConfig::default(),
        1,
        &Arc::new(SimClock::default()),
    )
}

/// Learns AsyncTask on the model backend with the journal at `path`.
async fn learn_journaled(path: &Path) -> Result<learner::simulation::SimulatedRun, JournalError> {
    learn_simulated(
        &reference("AsyncTask"),
        &Session {
            choices: Choices::of(
                Algorithm::default(),
                EquivalenceChoice::DistinguisherBound(2),
            ),
            journal: Some(path.to_owned()),
            ..Session::default()
        },
        ModelConfig::default(),
    )
    .await
}

#[tokio::test]
async fn statistics_are_summed_across_sessions_and_split_by_phase() {
    let path = journal_path("totals.jsonl");
    let first = learn_journaled(&path).await.unwrap();
    assert_eq!(first.totals.sessions, 1);
    assert_eq!(first.totals.executed(), first.executed);
    assert!(first.totals.learning.resets > 0 && first.totals.checking.resets > 0);
    let second = learn_journaled(&path).await.unwrap();
    assert_eq!(second.totals.sessions, 2);
    // The second session executes only the journal's sample, counted as checking.
    assert!(second.journal_sample > 0);
    assert_eq!(second.executed.queries, second.journal_sample as u64);
    assert_eq!(second.totals.learning, first.totals.learning);
    assert_eq!(
        second.totals.checking,
        first.totals.checking + second.executed
    );
}

#[tokio::test]
async fn a_valid_but_wrong_entry_is_reported_as_the_journals() {
    let path = journal_path("wrong.jsonl");
    learn_journaled(&path).await.unwrap();
    // The last entry is always in the sample: make its first `eps` and every output after
    // it `err`, a valid answer (closed after the error) that the system never gives there.
    let text = std::fs::read_to_string(&path).unwrap();
    let mut lines: Vec<String> = text.lines().map(str::to_owned).collect();
    let last = lines
        .iter()
        .rposition(|it| it.contains("\"inputs\"") && it.contains("\"eps\""))
        .expect("an entry with an eps");
    let mut entry: serde_json::Value = serde_json::from_str(&lines[last]).unwrap();
    let outputs = entry["outputs"].as_array_mut().unwrap();
    let first_eps = outputs.iter().position(|it| it == "eps").unwrap();
    outputs[first_eps..].fill(serde_json::Value::from("err"));
    lines[last] = entry.to_string();
    std::fs::write(&path, lines.join("\n") + "\n").unwrap();
    let error = learn_journaled(&path)
        .await
        .expect_err("the wrong entry is found");
    let JournalError::WrongEntry { line, .. } = &error else {
        panic!("expected a wrong entry, got {error}")
    };
    assert_eq!(*line, last + 1);
    let message = error.to_string();
    assert!(
        message.contains(&format!("wrong.jsonl:{}: the journal says", last + 1)),
        "{message}"
    );
    assert!(
        message.contains("3 runs of the system now answer"),
        "{message}"
    );
}

/// A complete line that no run of the system could have written is refused with its line
/// number and what is wrong, never replayed into the cache.
#[test]
fn a_line_no_run_could_write_is_refused() {
    use learner::oracle::journal::{header_line, read};
    let alphabet = Alphabet::of(reference("AsyncTask").signature());
    let path = Path::new("bad.jsonl");
    for (entry, expected) in [
        (
            r#"{"inputs":["execute","cancel"],"outputs":["err","eps"]}"#,
            "journal bad.jsonl:2: output 2 is `eps` after `err` (output 1)",
        ),
        (
            r#"{"inputs":["execute"],"outputs":["eps","eps"]}"#,
            "journal bad.jsonl:2: 1 inputs but 2 outputs",
        ),
        (
            r#"{"inputs":["start"],"outputs":["eps"]}"#,
            "journal bad.jsonl:2: unknown input `start`",
        ),
    ] {
        let text = format!("{}\n{entry}\n", header_line(&alphabet, "0"));
        let error = read(path, &text, &alphabet, "0").expect_err(entry);
        assert!(error.to_string().starts_with(expected), "{error}");
    }
    let good = r#"{"inputs":["execute","cancel"],"outputs":["eps","err"]}"#;
    let text = format!("{}\n{good}\n", header_line(&alphabet, "0"));
    let contents = read(path, &text, &alphabet, "0").unwrap().unwrap();
    assert_eq!(contents.entries.len(), 1);
}
