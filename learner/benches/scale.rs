//! The scaling benchmark (issue 17, point 7): seeded random machines of 10, 20, 40 and 80
//! states (`learner::simulation::random_typestate`), learned by our L# and, in the same run,
//! by AALpy (`bench/aalpy`, every algorithm, its best kept), under distinguisher bound 2
//! and under the machine's state bound. It prints runs (resets), runs per state, symbols,
//! CPU time and exactness, and writes `bench/results/learner-scale.md`.
//!
//! Run: `bench/learner/scale.sh` (or `cargo bench -p learner --bench scale`).
//! `TYPESTAR_SCALE_SEEDS=N` sets the machines per size (default 2);
//! `TYPESTAR_BENCH_NO_AALPY=1` skips AALpy.

#[path = "learn_library/aalpy.rs"]
#[allow(
    dead_code,
    reason = "the library benchmark uses the rest of the module"
)]
mod aalpy;

use std::fmt::Write as _;
use std::path::Path;

use cpu_time::ThreadTime;
use learner::backend::model::ModelConfig;
use learner::simulation::{learn_simulated, random_typestate, state_bound, EquivalenceChoice};
use learner::{Algorithm, End};
use learner::{Choices, Session};
use typestates::Typestate;

/// The sizes of the issue.
const SIZES: [usize; 4] = [10, 20, 40, 80];

/// One guarantee, ours and AALpy's name for its oracle.
#[derive(Clone, Copy)]
enum Guarantee {
    DistinguisherBound2,
    StateBound,
}

impl Guarantee {
    fn choice(self, model: &Typestate) -> EquivalenceChoice {
        match self {
            Guarantee::DistinguisherBound2 => EquivalenceChoice::DistinguisherBound(2),
            Guarantee::StateBound => EquivalenceChoice::StateBound(state_bound(model)),
        }
    }

    /// AALpy's oracle for the same guarantee: Algorithm 2 with bound 2, or the W-method.
    fn aalpy_oracle(self) -> &'static str {
        match self {
            Guarantee::DistinguisherBound2 => "dist",
            Guarantee::StateBound => "wmethod",
        }
    }

    fn label(self) -> &'static str {
        match self {
            Guarantee::DistinguisherBound2 => "distinguisher bound 2",
            Guarantee::StateBound => "state bound",
        }
    }
}

/// Our run on one machine under one guarantee.
struct Ours {
    runs: u64,
    symbols: u64,
    cpu_seconds: f64,
    exact: bool,
}

async fn learn(model: &Typestate, guarantee: Guarantee) -> Ours {
    let start = ThreadTime::now();
    let run = learn_simulated(
        model,
        &Session::new(Choices::of(Algorithm::default(), guarantee.choice(model))),
        ModelConfig::default(),
    )
    .await
    .expect("no journal, so no journal error");
    Ours {
        runs: run.executed.resets,
        symbols: run.executed.steps(),
        cpu_seconds: start.elapsed().as_secs_f64(),
        exact: matches!(run.outcome.end, End::Learned) && run.is_equivalent_to(model),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the learner crate sits in the workspace");
    let seeds: u64 = std::env::var("TYPESTAR_SCALE_SEEDS").ok().map_or(2, |it| {
        it.parse().expect("TYPESTAR_SCALE_SEEDS is a number")
    });
    let dir = root.join("bench/work/learner-scale");
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("bench/work/learner-scale is writable");
    let mut machines = Vec::new();
    for size in SIZES {
        for seed in 0..seeds {
            let model = random_typestate(seed, size);
            let name = model.simple_name();
            aalpy::export(&dir, &model, name, name).expect("the export is writable");
            machines.push((size, seed, model));
        }
    }
    let guarantees = [Guarantee::DistinguisherBound2, Guarantee::StateBound];
    let mut ours = Vec::new();
    for (size, seed, model) in &machines {
        for guarantee in guarantees {
            ours.push(learn(model, guarantee).await);
            eprintln!("learned {size} states, seed {seed}, {}", guarantee.label());
        }
    }
    let aalpy = if std::env::var_os("TYPESTAR_BENCH_NO_AALPY").is_some() {
        Err("skipped (TYPESTAR_BENCH_NO_AALPY)".to_owned())
    } else {
        eprintln!("running AALpy on {}", dir.display());
        aalpy::compare(root, &dir, &["--distinguisher-bound", "2"])
    };
    let mut text = format!(
        "# Scaling: random machines\n\n\
         Written by `bench/learner/scale.sh`: {seeds} seeded random machines per size (`random_typestate`: three callins, two callbacks, every state reachable), learned on the model backend by our L# (every heuristic) and by AALpy in the same run (every algorithm of `bench/aalpy/compare.py` behind the same filters; the best exact run kept: fewest runs, then symbols).\n\
         Guarantees: distinguisher bound 2 (ours: Algorithm 2; AALpy: its `dist` oracle with bound 2) and the machine's state bound (ours: the state-bound oracle; AALpy: the W-method).\n\
         *states*: of the minimal machine, error sink included; *runs*: resets executed; *per state*: runs per state; *CPU*: seconds of CPU the learner and its oracle took (ours: the learning thread; AALpy: the Python process); *exact*: the learned machine is the model (a distinguisher bound does not promise it).\n\
         AALpy: {}.\n\n\
         | machine | states | guarantee | runs | per state | symbols | CPU (s) | exact | AALpy best | runs | per state | symbols | CPU (s) |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
        match &aalpy {
            Ok(_) => "run".to_owned(),
            Err(why) => why.clone(),
        }
    );
    let mut results = ours.iter();
    for (size, seed, model) in &machines {
        let states = state_bound(model);
        for guarantee in guarantees {
            let ours = results
                .next()
                .expect("one result per machine and guarantee");
            let theirs = aalpy.as_ref().ok().and_then(|runs| {
                runs.iter()
                    .filter(|run| {
                        run.model == model.simple_name()
                            && run.oracle == guarantee.aalpy_oracle()
                            && run.equivalent
                    })
                    .min_by_key(|run| (run.executed_queries, run.steps))
            });
            let theirs = theirs.map_or("none exact | | | |".to_owned(), |run| {
                format!(
                    "{} | {} | {:.1} | {} | {:.2}",
                    run.algorithm,
                    run.executed_queries,
                    run.executed_queries as f64 / states as f64,
                    run.steps,
                    run.cpu_seconds,
                )
            });
            let _ = writeln!(
                text,
                "| {size} states, seed {seed} | {states} | {} | {} | {:.1} | {} | {:.2} | {} | {theirs} |",
                guarantee.label(),
                ours.runs,
                ours.runs as f64 / states as f64,
                ours.symbols,
                ours.cpu_seconds,
                if ours.exact { "yes" } else { "no" },
            );
        }
    }
    print!("{text}");
    std::fs::write(root.join("bench/results/learner-scale.md"), text)
        .expect("bench/results is writable");
}
