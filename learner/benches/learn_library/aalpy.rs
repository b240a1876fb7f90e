//! The AALpy column: every library model exported in the DOT contract of
//! `bench/aalpy/README.md` (plus its JSON sidecar), then learned by `bench/aalpy/compare.sh`
//! with the same two filters our query engine has (a prefix tree with lazy reset, the err
//! sink), in the same run.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use serde::Deserialize;
use typestates::mealy::{to_mealy, Mealy, Output, Signature};
use typestates::Typestate;

/// One AALpy run, as `compare.py` prints it (the fields the benchmark uses).
#[derive(Clone, Debug, Deserialize)]
pub struct Run {
    /// The DOT file stem (the typestate's simple name).
    pub model: String,
    /// `lstar`, `lstar-rs`, `kv-rs`, `lsharp`, `lsharp-sepseq`.
    pub algorithm: String,
    /// `wmethod` or `dist`.
    pub oracle: String,
    /// Resets actually performed (= executed MQ).
    pub executed_queries: u64,
    /// Symbols actually executed.
    pub steps: u64,
    /// Whether the learned machine is equivalent to the model.
    pub equivalent: bool,
    /// CPU time the learner and its oracle took, in seconds.
    #[allow(dead_code, reason = "only the scale benchmark reads it")]
    pub cpu_seconds: f64,
}

/// The contract's identifier form of a symbol: anything outside `[A-Za-z0-9_]` becomes `_`,
/// and a leading digit gets a `_` in front.
fn identifier(name: &str) -> String {
    let mut id: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '_' {
                c
            } else {
                '_'
            }
        })
        .collect();
    if !id.starts_with(|c: char| c.is_ascii_alphabetic() || c == '_') {
        id.insert(0, '_');
    }
    id
}

/// The state of a minimal machine that answers `err` to everything and stays: the sink.
fn sink(mealy: &Mealy) -> Option<u32> {
    (0..mealy.n_states() as u32).find(|&state| {
        (0..mealy.inputs.len())
            .all(|column| mealy.transition(state, column) == (state, Output::Err))
    })
}

/// The length of the longest shortest word that tells two states of `mealy` apart: the
/// smallest distinguisher bound under which the `dist` oracle is exact.
fn distinguisher_bound(mealy: &Mealy) -> usize {
    let from = |state: u32| Mealy {
        initial: state,
        ..mealy.clone()
    };
    let n = mealy.n_states() as u32;
    (0..n)
        .flat_map(|p| (p + 1..n).map(move |q| (p, q)))
        .filter_map(|(p, q)| from(p).distinguishing_word(&from(q)))
        .map(|word| word.len())
        .max()
        .unwrap_or(1)
}

/// The DOT text of a typestate's minimal Mealy machine, in the contract's form.
pub fn dot(name: &str, mealy: &Mealy, signature: &Signature) -> String {
    let sink = sink(mealy);
    let id = |state: u32| {
        if Some(state) == sink {
            "serr".to_owned()
        } else {
            format!("s{state}")
        }
    };
    let mut out = format!("digraph {} {{\n", identifier(name));
    for state in 0..mealy.n_states() as u32 {
        let _ = writeln!(out, "{} [label=\"{}\"];", id(state), id(state));
    }
    for state in 0..mealy.n_states() as u32 {
        for (column, input) in mealy.inputs.iter().enumerate() {
            let (target, output) = mealy.transition(state, column);
            let _ = writeln!(
                out,
                "{} -> {} [label=\"{}/{}\"];",
                id(state),
                id(target),
                identifier(signature.input_name(*input)),
                identifier(signature.output_name(output)),
            );
        }
    }
    let _ = writeln!(out, "__start0 [label=\"\", shape=none];");
    let _ = writeln!(out, "__start0 -> {} [label=\"\"];", id(mealy.initial));
    out.push_str("}\n");
    out
}

/// Writes `NAME.dot` and `NAME.json` for `typestate` into `dir`; `class` is the name Table 1
/// uses, so that `compare.py` fills its DroidStar column.
pub fn export(dir: &Path, typestate: &Typestate, name: &str, class: &str) -> std::io::Result<()> {
    let mealy = to_mealy(typestate).minimize();
    let live_states = mealy.n_states() - usize::from(sink(&mealy).is_some());
    std::fs::write(
        dir.join(format!("{name}.dot")),
        dot(name, &mealy, &typestate.signature()),
    )?;
    let sidecar = serde_json::json!({
        "class": class,
        "distinguisher_bound": distinguisher_bound(&mealy),
        "state_bound": live_states,
    });
    std::fs::write(dir.join(format!("{name}.json")), format!("{sidecar}\n"))
}

/// Runs `bench/aalpy/compare.sh` on `dir` (W-method and distinguisher-bound oracles, every
/// algorithm, and the `extra` arguments) and parses its JSON lines.
pub fn compare(root: &Path, dir: &Path, extra: &[&str]) -> Result<Vec<Run>, String> {
    let script = root.join("bench/aalpy/compare.sh");
    let output = Command::new(&script)
        .arg(dir)
        .args(["--format", "jsonl", "--oracles", "wmethod,dist"])
        .args(extra)
        .output()
        .map_err(|error| format!("cannot run {}: {error}", script.display()))?;
    // Exit status 1 means some run was not exact: those rows are kept (and never "best").
    if !output.status.success() && output.status.code() != Some(1) {
        return Err(format!(
            "{} failed ({}): {}",
            script.display(),
            output.status,
            String::from_utf8_lossy(&output.stderr)
        ));
    }
    String::from_utf8_lossy(&output.stdout)
        .lines()
        .filter(|line| !line.trim().is_empty())
        .map(|line| serde_json::from_str(line).map_err(|error| format!("{error}: {line}")))
        .collect()
}

/// The best run for a model: fewest resets, then fewest symbols, then the first printed.
pub fn best<'a>(runs: &'a [Run], model: &str) -> Option<&'a Run> {
    runs.iter()
        .filter(|run| run.model == model && run.equivalent)
        .min_by_key(|run| (run.executed_queries, run.steps))
}
