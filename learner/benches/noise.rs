//! The noise benchmark (issue 17, point 3): learns every bundled protocol on the model backend
//! with a callback late or missing in a fraction of waits, under many seeds, and counts how
//! each run ends: the exact model, a stop with a report (non-zero exit), or a wrong model
//! that claims success (exit 0, the outcome that must not happen).
//! It also prints what the repetitions cost: runs repeated to vote on disagreements, and
//! runs beside a noise-free run of the same configuration.
//!
//! Run: `bench/learner/noise.sh` (or `cargo bench -p learner --bench noise`); it writes
//! `bench/results/learner-noise.md`. `TYPESTAR_NOISE_SEEDS=N` sets the seeds per class
//! (default 50); `TYPESTAR_BENCH_ONLY=A,B` measures only those classes (printed, not written).

use std::fmt::Write as _;
use std::path::Path;

use learner::backend::model::ModelConfig;
use learner::oracle::pipeline::Confirmation;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice, SimulatedRun};
use learner::{Algorithm, End, PipelineConfig};
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
    /// Learned, and equal to the model.
    Exact,
    /// Stopped with a report: non-zero exit.
    Stopped,
    /// Learned, exit 0, but not the model.
    Wrong,
}

fn verdict(run: &SimulatedRun, model: &Typestate) -> Verdict {
    match (&run.outcome.end, run.is_equivalent_to(model)) {
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
    repeated: u64,
    restarts: u64,
}

async fn learn(
    model: &Typestate,
    equivalence: EquivalenceChoice,
    confirmation: Confirmation,
    noise: f64,
    seed: u64,
) -> SimulatedRun {
    learn_simulated(
        model,
        Algorithm::default(),
        equivalence,
        &PipelineConfig {
            confirmation,
            ..PipelineConfig::default()
        },
        ModelConfig {
            noise,
            seed,
            ..ModelConfig::default()
        },
        1,
    )
    .await
    .expect("no journal, so no journal error")
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
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
         Written by `bench/learner/noise.sh`: every bundled protocol learned on the model backend (L#, one instance) with a callback late or missing in a fraction of waits, {seeds} seeds per class and noise level, under the model's own state bound (`--states model`) and under distinguisher bound 2 alone.\n\
         Under a distinguisher bound alone only the growth limit ({limit} states with the error sink, `LearnConfig::growth_limit`) stops a hypothesis that glitches grow: such a run is *stopped*.\n\
         A disagreement between runs is voted on until 3 runs agree (`--majority 3`).\n\
         *exact*: learned and equal to the model; *stopped*: a report and a non-zero exit; *wrong*: exit 0 with another model (must be 0).\n\
         *runs*: mean runs (resets) per seed, and beside it the noise-free run's; *repeated*: mean runs repeated for votes; *restarts*: learning started again from a corrected trace (total).\n",
        limit = learner::learn::DEFAULT_GROWTH_LIMIT,
    );
    let once = (Confirmation(1), "each trace run once (`--confirm 1`)");
    let twice = (
        Confirmation(2),
        "every trace run twice before the result is accepted (`--confirm 2`)",
    );
    let thrice = (
        Confirmation(3),
        "every trace run three times before the result is accepted (`--confirm 3`)",
    );
    let sections = [
        (Guarantee::ModelStates, once),
        (Guarantee::ModelStates, twice),
        (Guarantee::ModelStates, thrice),
        (Guarantee::DistinguisherBound2, once),
        (Guarantee::DistinguisherBound2, thrice),
    ];
    for ((guarantee, (confirmation, label)), noise) in sections
        .into_iter()
        .flat_map(|it| NOISE.map(|noise| (it, noise)))
    {
        let label = format!("{}, {label}", guarantee.label());
        let mut total = Row::default();
        let _ = write!(
            text,
            "\n## Noise {noise}, {label}\n\n\
             | class | exact | stopped | wrong | runs (noise-free) | repeated | restarts |\n\
             | --- | --- | --- | --- | --- | --- | --- |\n"
        );
        for model in &models {
            let equivalence = guarantee.choice(model);
            let clean = learn(model, equivalence, confirmation, 0.0, 0)
                .await
                .executed
                .resets;
            let mut row = Row::default();
            for seed in 0..seeds {
                let run = learn(model, equivalence, confirmation, noise, seed).await;
                match verdict(&run, model) {
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
            }
            let mean = |sum: u64| sum as f64 / seeds as f64;
            let _ = writeln!(
                text,
                "| {} | {} | {} | {} | {:.1} ({clean}) | {:.1} | {} |",
                model.simple_name(),
                row.exact,
                row.stopped,
                row.wrong,
                mean(row.runs),
                mean(row.repeated),
                row.restarts,
            );
            eprintln!("noise {noise}, {label}: {}", model.simple_name());
            total.exact += row.exact;
            total.stopped += row.stopped;
            total.wrong += row.wrong;
            total.repeated += row.repeated;
            total.restarts += row.restarts;
        }
        let _ = writeln!(
            text,
            "| **all** | {} | {} | {} | | {:.1} | {} |",
            total.exact,
            total.stopped,
            total.wrong,
            total.repeated as f64 / (seeds as f64 * models.len() as f64),
            total.restarts,
        );
    }
    print!("{text}");
    if only.is_none() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
        std::fs::write(root.join("bench/results/learner-noise.md"), text)
            .expect("bench/results is writable");
    }
}
