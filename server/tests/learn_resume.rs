//! A learning run killed mid-way and resumed from its journal, with the real binary: the
//! resumed run learns what an uninterrupted run learns, and its report sums both sessions'
//! statistics, phase by phase (learner/JOURNAL.md says what a resume guarantees).

use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use learner::oracle::journal::{Totals, TOTALS_EVERY};
use learner::oracle::sul::CountSnapshot;

/// MediaPlayer with L# under distinguisher bound 2: a run of about 3,300 journal lines, with
/// a checking phase from about line 560 to 1,960.
const ARGS: [&str; 6] = [
    "--model",
    "MediaPlayer",
    "--algorithm",
    "lsharp",
    "--bound",
    "2",
];

/// The kill comes once the journal holds this many lines: inside the run, well before its end.
const KILL_AT_LINES: usize = 700;

/// How long the killed run may take to reach [`KILL_AT_LINES`] before the test gives up.
const KILL_DEADLINE: Duration = Duration::from_secs(300);

fn scratch() -> PathBuf {
    let dir = std::env::temp_dir().join(format!("typestar-learn-resume-{}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("a temporary folder");
    dir
}

fn learn(journal: &Path, output: &Path) -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_typestar"));
    command
        .arg("learn")
        .arg("--no-progress")
        .args(ARGS)
        .arg("--journal")
        .arg(journal)
        .arg("-o")
        .arg(output);
    command
}

fn finished(output: Output) -> String {
    let report = String::from_utf8(output.stdout).expect("the report is UTF-8");
    assert!(
        output.status.success(),
        "{}\n{report}\n{}",
        output.status,
        String::from_utf8_lossy(&output.stderr)
    );
    report
}

fn lines(path: &Path) -> usize {
    std::fs::read_to_string(path).map_or(0, |text| text.matches('\n').count())
}

/// The numbers of the report line starting with `prefix`, in order.
fn numbers(report: &str, prefix: &str) -> Vec<u64> {
    let line = report
        .lines()
        .find(|line| line.starts_with(prefix))
        .unwrap_or_else(|| panic!("no line `{prefix}` in\n{report}"));
    line.split(|it: char| !it.is_ascii_digit())
        .filter(|it| !it.is_empty())
        .map(|it| it.parse().expect("digits"))
        .collect()
}

/// Runs, symbols and waits, as the report's phase line gives them.
fn phase(counts: &CountSnapshot) -> [u64; 3] {
    [counts.resets, counts.steps(), counts.waits()]
}

/// What a journal holds: its last totals line, its entries (executed queries), and the
/// entries after its last totals line, whose counts a kill lost.
struct JournalState {
    totals: Totals,
    entries: usize,
    uncounted: usize,
}

fn journal_state(path: &Path) -> JournalState {
    let text = std::fs::read_to_string(path).expect("the journal");
    let mut state = JournalState {
        totals: Totals::default(),
        entries: 0,
        uncounted: 0,
    };
    for line in text.lines().skip(1) {
        let value: serde_json::Value = serde_json::from_str(line).expect("a complete JSON line");
        match value.get("totals") {
            Some(recorded) => {
                state.totals = serde_json::from_value(recorded.clone()).expect("totals parse");
                state.uncounted = 0;
            }
            None => {
                state.entries += 1;
                state.uncounted += 1;
            }
        }
    }
    state
}

fn typestate(path: &Path) -> typestates::Typestate {
    let text = std::fs::read_to_string(path).expect("the learned typestate");
    typestates::format::parse(&path.display().to_string(), &text).expect("it parses")
}

#[test]
fn a_killed_run_resumes_to_the_uninterrupted_model_and_sums_its_statistics() {
    let dir = scratch();
    let whole = dir.join("whole.typestate");
    let uninterrupted = finished(
        learn(&dir.join("whole.jsonl"), &whole)
            .output()
            .expect("typestar runs"),
    );
    assert!(
        lines(&dir.join("whole.jsonl")) > 3 * KILL_AT_LINES,
        "the run is too short to be killed in the middle"
    );

    // Kill a second run once its journal holds KILL_AT_LINES lines.
    let journal = dir.join("killed.jsonl");
    let resumed_output = dir.join("resumed.typestate");
    let mut child = learn(&journal, &resumed_output)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("typestar starts");
    let start = Instant::now();
    while lines(&journal) < KILL_AT_LINES {
        assert!(
            child.try_wait().expect("the child's status").is_none(),
            "the run ended before its journal held {KILL_AT_LINES} lines"
        );
        assert!(
            start.elapsed() < KILL_DEADLINE,
            "the journal did not reach {KILL_AT_LINES} lines in {KILL_DEADLINE:?}"
        );
        std::thread::sleep(Duration::from_millis(2));
    }
    child.kill().expect("SIGKILL");
    let status = child.wait().expect("the killed child's status");
    assert!(status.code().is_none(), "killed by a signal, not {status}");
    assert!(
        !resumed_output.exists(),
        "the killed run wrote its model: it had finished"
    );
    let killed = journal_state(&journal);
    let (before, entries) = (killed.totals, killed.entries);
    assert_eq!(before.sessions, 1);
    // The journal writes the totals every TOTALS_EVERY entries: the kill lost the counts of
    // fewer, the run has one instance.
    assert!(
        killed.uncounted < TOTALS_EVERY,
        "{} entries after the last totals line",
        killed.uncounted
    );

    let resumed = finished(
        learn(&journal, &resumed_output)
            .output()
            .expect("typestar runs"),
    );

    // The resumed run learns what the uninterrupted one learned.
    let diff = typestates::diff::diff(&typestate(&whole), &typestate(&resumed_output), 1);
    assert!(diff.is_equivalent(), "{diff:?}\n{resumed}");
    assert!(
        uninterrupted.contains("over 1 session(s)"),
        "{uninterrupted}"
    );

    // Every finished query of the killed run is replayed, none executed again unasked.
    assert!(
        resumed.contains(&format!(
            "Journal: {} ({entries} queries resumed,",
            journal.display()
        )),
        "{entries} entries\n{resumed}"
    );

    // The statistics: both sessions, each phase the killed run's recorded totals plus what
    // this session added, and the phases adding up to the executed total.
    let executed = numbers(&resumed, "Executed:");
    let [runs, symbols, callins, callback_waits, quiet_waits, sessions] = executed[..] else {
        panic!("{executed:?}")
    };
    assert_eq!(sessions, 2, "{resumed}");
    assert_eq!(symbols, callins + callback_waits + quiet_waits);
    let split = numbers(&resumed, "Learning:");
    let [learning, checking, session] = [&split[0..3], &split[3..6], &split[6..9]];
    for (index, name) in ["runs", "symbols", "waits"].into_iter().enumerate() {
        let total = [runs, symbols, callback_waits + quiet_waits][index];
        assert_eq!(
            learning[index] + checking[index],
            total,
            "{name}: the phases add up\n{resumed}"
        );
        assert_eq!(
            phase(&before.executed())[index] + session[index],
            total,
            "{name}: the killed run's totals plus this session's\n{resumed}"
        );
        assert!(
            learning[index] >= phase(&before.learning)[index]
                && checking[index] >= phase(&before.checking)[index],
            "{name}: each phase keeps the killed run's count\n{resumed}"
        );
    }
    assert!(
        before.checking.resets > 0 && session[0] > 0,
        "both sessions executed runs, the first some checking\n{resumed}"
    );

    // The journal's last totals line is what the report says.
    let after = journal_state(&journal).totals;
    assert_eq!(after.sessions, 2);
    assert_eq!(phase(&after.learning)[..], *learning);
    assert_eq!(phase(&after.checking)[..], *checking);
    let _ = std::fs::remove_dir_all(&dir);
}
