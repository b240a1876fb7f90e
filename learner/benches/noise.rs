//! The noise benchmark (issue 17, point 3): learns every bundled protocol on the model backend
//! with a callback late or missing in a fraction of waits, under many seeds, and counts how
//! each run ends: the model the same configuration learns without noise, a stop with a report
//! (non-zero exit), or another model that claims success (exit 0, the outcome that must not
//! happen).
//! It measures the default beside `--confirm 1`.
//! By default a noisy model confirms every trace until three runs gave it ([`Confirmation::NOISY`]).
//! It prints what the repetitions cost.
//! That is the runs repeated to vote on disagreements, and the runs beyond the noise-free run.
//! The noise-free run is the default without noise: each trace once.
//!
//! Run: `bench/learner/noise.sh` (or `cargo bench -p learner --bench noise`); it writes
//! `bench/results/learner-noise.md`. `TYPESTAR_NOISE_SEEDS=N` sets the seeds per class
//! (default 50); `TYPESTAR_BENCH_ONLY=A,B` measures only those classes (printed, not written);
//! `TYPESTAR_NOISE_RESUME=1` keeps the finished sections of the results file and measures
//! the rest.

use std::fmt::Write as _;
use std::path::Path;

use learner::oracle::pipeline::Confirmation;
use learner::simulation::{learn_noisy, state_bound, EquivalenceChoice, SimulatedRun};
use learner::End;
use typestates::library::Library;
use typestates::Typestate;

/// The noise levels of the issue.
const NOISE: [f64; 2] = [0.01, 0.05];

/// The guarantee a section learns under.
#[derive(Clone, Copy)]
enum Guarantee {
    /// The model's own state bound (`--states model`).
    ModelStates,
    /// Distinguisher bound 2 alone (`--bound 2`, the default): only the growth limit stops
    /// a hypothesis that noise grows.
    DistinguisherBound2,
}

impl Guarantee {
    fn choice(self, model: &Typestate) -> EquivalenceChoice {
        match self {
            Guarantee::ModelStates => EquivalenceChoice::StateBound(state_bound(model)),
            Guarantee::DistinguisherBound2 => EquivalenceChoice::DistinguisherBound(2),
        }
    }

    fn label(self) -> &'static str {
        match self {
            Guarantee::ModelStates => "the model's state bound (`--states model`)",
            Guarantee::DistinguisherBound2 => "distinguisher bound 2 alone (`--bound 2`)",
        }
    }
}

/// How one run ended, as a user would see it.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Verdict {
    /// Learned the model the same configuration learns without noise.
    Exact,
    /// Stopped with a report: non-zero exit.
    Stopped,
    /// Learned, exit 0, but another model.
    Wrong,
}

/// A noisy run against the noise-free run of the same configuration: what the guarantee
/// gives (under distinguisher bound 2 that is not always the model: FileObserver needs
/// longer words).
fn verdict(run: &SimulatedRun, clean: &SimulatedRun) -> Verdict {
    match (&run.outcome.end, run.learned_the_same_as(clean)) {
        (End::Learned, true) => Verdict::Exact,
        (End::Learned, false) => Verdict::Wrong,
        _ => Verdict::Stopped,
    }
}

/// One class at one noise level, summed over the seeds.
#[derive(Default)]
struct Row {
    exact: u32,
    stopped: u32,
    wrong: u32,
    runs: u64,
    clean: u64,
    clean_is_model: bool,
    repeated: u64,
    restarts: u64,
    dropped: u64,
}

/// One class under one guarantee, confirmation (`None`: the default) and noise level, over
/// `seeds` seeds, beside the default run without noise.
fn measure(
    model: &Typestate,
    guarantee: Guarantee,
    confirmation: Option<Confirmation>,
    noise: f64,
    seeds: u64,
) -> Row {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a runtime starts");
    runtime.block_on(async {
        let equivalence = guarantee.choice(model);
        let clean = learn_noisy(model, equivalence, None, 0.0, 0).await;
        assert!(
            matches!(clean.outcome.end, End::Learned),
            "{}: the noise-free run learns",
            model.simple_name()
        );
        let mut row = Row {
            clean: clean.executed.resets,
            clean_is_model: clean.is_equivalent_to(model),
            ..Row::default()
        };
        for seed in 0..seeds {
            let run = learn_noisy(model, equivalence, confirmation, noise, seed).await;
            match verdict(&run, &clean) {
                Verdict::Exact => row.exact += 1,
                Verdict::Stopped => row.stopped += 1,
                Verdict::Wrong => row.wrong += 1,
            }
            row.runs += run.executed.resets;
            row.repeated += run
                .disagreements
                .iter()
                .map(|it| u64::from(it.reruns))
                .sum::<u64>();
            row.restarts += u64::from(run.outcome.restarts);
            row.dropped += u64::from(run.outcome.dropped);
        }
        row
    })
}

/// [`measure`] for every model, on as many threads as the machine has cores, in the models'
/// order.
fn measure_all(
    models: &[Typestate],
    guarantee: Guarantee,
    confirmation: Option<Confirmation>,
    noise: f64,
    seeds: u64,
) -> Vec<Row> {
    let threads = std::thread::available_parallelism().map_or(1, |it| it.get());
    let next = std::sync::atomic::AtomicUsize::new(0);
    let rows: Vec<std::sync::Mutex<Option<Row>>> =
        models.iter().map(|_| std::sync::Mutex::new(None)).collect();
    std::thread::scope(|scope| {
        for _ in 0..threads {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                let Some(model) = models.get(index) else {
                    break;
                };
                let row = measure(model, guarantee, confirmation, noise, seeds);
                eprintln!("noise {noise}: {}", model.simple_name());
                *rows[index].lock().expect("no panic holding it") = Some(row);
            });
        }
    });
    rows.into_iter()
        .map(|it| {
            it.into_inner()
                .expect("no panic holding it")
                .expect("every model measured")
        })
        .collect()
}

/// The finished sections of an earlier results file, kept by `TYPESTAR_NOISE_RESUME=1` when
/// its introduction (seeds, growth limit, wording) is the one this run writes.
#[derive(Default)]
struct Kept(Vec<(String, String)>);

impl Kept {
    /// Every section of `previous` that ends with its **all** row and has a row for each of
    /// `models` in their order, if `previous` begins with `introduction`; nothing otherwise
    /// (another configuration or library measured it).
    fn parse(previous: &str, introduction: &str, models: &[Typestate]) -> Kept {
        if !previous.starts_with(introduction) {
            eprintln!("resume: the results file has another introduction; measuring every section");
            return Kept::default();
        }
        let mut sections = Vec::new();
        let mut lines = previous.lines();
        while let Some(line) = lines.next() {
            if !line.starts_with("## ") {
                continue;
            }
            let mut section = format!("{line}\n");
            for row in lines.by_ref() {
                section.push_str(row);
                section.push('\n');
                if row.starts_with("| **all**") {
                    if Kept::classes(&section).eq(models.iter().map(Typestate::simple_name)) {
                        sections.push((line.to_owned(), section));
                    } else {
                        eprintln!("resume: {line} has other classes; measuring it again");
                    }
                    break;
                }
            }
        }
        Kept(sections)
    }

    /// The classes of a section's rows, in order.
    fn classes(section: &str) -> impl Iterator<Item = &str> {
        section
            .lines()
            .filter_map(|row| row.strip_prefix("| "))
            .filter_map(|row| row.split(" |").next())
            .filter(|class| !["class", "---", "**all** (mean per class)"].contains(class))
    }

    fn count(&self) -> usize {
        self.0.len()
    }

    /// The section under `heading`, no longer kept for later.
    fn take(&mut self, heading: &str) -> Option<String> {
        let index = self.0.iter().position(|(it, _)| it == heading)?;
        Some(self.0.remove(index).1)
    }
}

/// Writes the sections so far and the kept ones not reached yet (so a run stopped now loses
/// none of them), saying how many of `all` sections are left to measure: `left` after the
/// ones so far, the kept ones among them.
fn write_results(results: &Path, text: &str, kept: &Kept, left: usize, all: usize) {
    let mut file = text.to_owned();
    for (_, section) in &kept.0 {
        let _ = write!(file, "\n{section}");
    }
    let unmeasured = left - kept.count();
    if unmeasured > 0 {
        let _ = write!(
            file,
            "\n{unmeasured} of the {all} sections are not measured yet: the run stopped or still runs (`TYPESTAR_NOISE_RESUME=1 bench/learner/noise.sh` measures only them).\n"
        );
    }
    std::fs::write(results, file).expect("bench/results is writable");
}

fn main() {
    let seeds: u64 = std::env::var("TYPESTAR_NOISE_SEEDS").ok().map_or(50, |it| {
        it.parse().expect("TYPESTAR_NOISE_SEEDS is a number")
    });
    let only = std::env::var("TYPESTAR_BENCH_ONLY").ok();
    let selected = |name: &str| {
        only.as_deref()
            .is_none_or(|list| list.split(',').any(|it| it.trim() == name))
    };
    let models: Vec<Typestate> = Library::bundled()
        .iter()
        .map(|entry| entry.typestate.clone())
        .filter(|it| selected(it.simple_name()))
        .collect();
    let mut text = format!(
        "# Learning under noise\n\n\
         Written by `bench/learner/noise.sh`: every bundled protocol learned on the model backend (one instance, the guarantee's default algorithm: L# under a state bound, active k-tails under a distinguisher bound alone) with a callback late or missing in a fraction of waits, {seeds} seeds per class and noise level, under the model's own state bound (`--states model`) and under distinguisher bound 2 alone (the default).\n\
         Under the state bound, a result is also checked against every system of one state more (`End::StateBoundRefuted`).\n\
         Under a distinguisher bound alone only the growth limit ({limit} states with the error sink, `LearnConfig::growth_limit`) stops a hypothesis that glitches grow: such a run is *stopped*.\n\
         A disagreement between runs is voted on until 3 runs agree (`--majority 3`).\n\
         *default*: no `--confirm`, so the noisy model's default, every trace run until three runs gave it (`Confirmation::NOISY`, as on the JVM, Robolectric and Android backends); *`--confirm 1`*: each trace run once, for comparison.\n\
         *exact*: learned, and the model the same guarantee learns without noise (the last column says whether that is the library's model: under distinguisher bound 2 it is not for classes whose states need longer words to be told apart); *stopped*: a report and a non-zero exit; *wrong*: exit 0 with another model (must be 0).\n\
         *runs*: mean runs (resets) per seed; *noise-free*: the runs without noise, where the default runs each trace once; *extra*: what noise and the repetitions cost beyond that, per seed (confirming runs included; negative where stopped runs end early); *repeated*: mean runs repeated for votes on disagreements, part of *extra*; *restarts*: learning started again from a corrected trace (total); *dropped*: counterexamples whose reruns did not give them again, voted down before learning used them (total; `Pipeline::reproduce`).\n",
        limit = learner::learn::DEFAULT_GROWTH_LIMIT,
    );
    let once = (Some(Confirmation(1)), "each trace run once (`--confirm 1`)");
    let default = (
        None,
        "the default: every trace run until three runs gave it (no `--confirm`)",
    );
    // The configurations that must give no wrong model first, the default guarantee first;
    // the file is written after every section, so a long run leaves what it finished (and
    // `TYPESTAR_NOISE_RESUME=1` goes on from there).
    let sections = [
        (Guarantee::DistinguisherBound2, default),
        (Guarantee::ModelStates, default),
        (Guarantee::DistinguisherBound2, once),
        (Guarantee::ModelStates, once),
    ];
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let results = root.join("bench/results/learner-noise.md");
    let mut kept = if std::env::var_os("TYPESTAR_NOISE_RESUME").is_some() {
        let previous = std::fs::read_to_string(&results).unwrap_or_default();
        let kept = Kept::parse(&previous, &text, &models);
        let _ = writeln!(
            text,
            "{} of the sections below were measured by an earlier run with the same seeds and kept (`TYPESTAR_NOISE_RESUME=1`).",
            kept.count()
        );
        kept
    } else {
        Kept::default()
    };
    let count = sections.len() * NOISE.len();
    for (done, ((guarantee, (confirmation, label)), noise)) in sections
        .into_iter()
        .flat_map(|it| NOISE.map(|noise| (it, noise)))
        .enumerate()
    {
        let label = format!("{}, {label}", guarantee.label());
        let heading = format!("## Noise {noise}, {label}");
        if let Some(section) = kept.take(&heading) {
            let _ = write!(text, "\n{section}");
            eprintln!("kept: noise {noise}, {label}");
            if only.is_none() {
                write_results(&results, &text, &kept, count - done - 1, count);
            }
            continue;
        }
        if only.is_none() {
            write_results(&results, &text, &kept, count - done, count);
        }
        let mut total = Row::default();
        let _ = write!(
            text,
            "\n{heading}\n\n\
             | class | exact | stopped | wrong | runs | noise-free | extra | repeated | restarts | dropped | noise-free is the model |\n\
             | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n"
        );
        let rows = measure_all(&models, guarantee, confirmation, noise, seeds);
        let mean = |sum: u64| sum as f64 / seeds as f64;
        for (model, row) in models.iter().zip(&rows) {
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {:.1} | {} | {:+.1} | {:.1} | {} | {} | {} |",
                model.simple_name(),
                row.exact,
                row.stopped,
                row.wrong,
                mean(row.runs),
                row.clean,
                mean(row.runs) - row.clean as f64,
                mean(row.repeated),
                row.restarts,
                row.dropped,
                if row.clean_is_model { "yes" } else { "no" },
            );
            total.exact += row.exact;
            total.stopped += row.stopped;
            total.wrong += row.wrong;
            total.runs += row.runs;
            total.clean += row.clean;
            total.repeated += row.repeated;
            total.restarts += row.restarts;
            total.dropped += row.dropped;
        }
        let all = seeds as f64 * models.len() as f64;
        let _ = writeln!(
            text,
            "| **all** (mean per class) | {} | {} | {} | {:.1} | {:.1} | {:+.1} | {:.1} | {} | {} | |",
            total.exact,
            total.stopped,
            total.wrong,
            total.runs as f64 / all,
            total.clean as f64 / models.len() as f64,
            (total.runs as f64 - total.clean as f64 * seeds as f64) / all,
            total.repeated as f64 / all,
            total.restarts,
            total.dropped,
        );
        eprintln!("done: noise {noise}, {label}");
        if only.is_none() {
            write_results(&results, &text, &kept, count - done - 1, count);
        }
    }
    print!("{text}");
}
