//! L#'s heuristics, one at a time and together, against plain L#: every variant
//! ([`Heuristics::variants`]) learns every library model and seeded random machines of 10
//! to 80 states, and must give a machine equivalent to the model. The counts are
//! snapshotted in `tests/heuristics/` (rewrite with `UPDATE_EXPECT=1`), with each variant's
//! totals last, so a change in any heuristic shows up as a diff.
//!
//! Guarantees: library models under distinguisher bound 2 (DroidStar's; a wrong model
//! there is recorded as `wrong`, since the bound promises no more) and under a
//! reference oracle; random machines under the reference oracle, the research setting
//! (LearnLib's simulator oracle, AALpy's perfect-knowledge oracle): a counterexample is a
//! shortest word on which hypothesis and model differ, asked as one run, so the counts are
//! what the learning rules cost. Variants with the missing-state search also learn under the
//! model's state bound; without it, the state-bound oracle is the W-method over every state
//! still missing, exponential in their number (plain L# does not finish a 10-state machine).
//!
//! Outside the slow tier `random-machines` (`test-tiers`) the random machines are the five
//! smallest (10 to 15 states), with every variant.
//! In it, every variant learns all fifty (10 to 80 states); the state bound only up to 30
//! states.
//! Each variant runs on its own thread.
//! Measured by `time TYPESTAR_SLOW=random-machines cargo test -p learner --test heuristics`
//! on a loaded 2-core machine, built in debug: 5.0 minutes of CPU, 5.0 minutes of wall time.

use std::sync::Arc;

use learner::backend::model::{ModelConfig, ModelSul, SimClock};
use learner::equivalence::CacheConsistency;
use learner::lsharp::{Heuristic, Heuristics};
use learner::simulation::{random_typestate, state_bound};
use learner::{
    learn, Algorithm, Alphabet, Chain, Counterexample, End, EquivalenceOracle, Hypothesis,
    LearnConfig, MembershipOracle, NoProgress, Pipeline, PipelineConfig, QueryError, StateBound,
};
use test_tiers::Tier;
use typestates::mealy::{to_mealy, Mealy};
use typestates::Typestate;

/// The guarantee a run is checked under.
#[derive(Clone, Copy)]
enum Guarantee {
    /// The Starling paper's Algorithm 2 with bound 2.
    DistinguisherBound2,
    /// The model's own state bound.
    ModelStateBound,
    /// A shortest difference from the model, as one run.
    Reference,
}

impl Guarantee {
    fn name(self) -> &'static str {
        match self {
            Guarantee::DistinguisherBound2 => "bound 2",
            Guarantee::ModelStateBound => "state bound",
            Guarantee::Reference => "reference",
        }
    }
}

/// The oracle that knows the model: a shortest word on which the hypothesis differs from it,
/// asked of the system.
struct Reference {
    model: Mealy,
    alphabet: Arc<Alphabet>,
}

impl EquivalenceOracle for Reference {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let Some(columns) = hypothesis.mealy.minimize().distinguishing_word(&self.model) else {
            return Ok(None);
        };
        let word = self.alphabet.word(&columns);
        let outputs = mq.answer(std::slice::from_ref(&word)).await?.remove(0);
        Ok(Some(Counterexample { word, outputs }))
    }
}

/// The counts of one learning run, checked to be exact: its line of the table, its runs
/// and its symbols.
async fn learn_exactly(
    name: &str,
    model: &Typestate,
    heuristics: Heuristics,
    guarantee: Guarantee,
) -> (String, u64, u64) {
    let alphabet = Arc::new(Alphabet::of(model.signature()));
    let suls = ModelSul::pool(
        model,
        ModelConfig::default(),
        1,
        &Arc::new(SimClock::default()),
    );
    let pipeline = Pipeline::new(Arc::clone(&alphabet), suls, &PipelineConfig::default())
        .expect("no journal, no journal error");
    let reference = to_mealy(model).minimize();
    let config = LearnConfig {
        algorithm: Algorithm::LSharp(heuristics),
        // L#'s basis nodes are pairwise apart: no hypothesis outgrows the minimal machine.
        growth_limit: reference.n_states(),
        state_bound: matches!(guarantee, Guarantee::ModelStateBound).then(|| reference.n_states()),
        ..LearnConfig::new(Arc::clone(&alphabet))
    };
    let cache = CacheConsistency::new(Arc::clone(pipeline.tree()), Arc::clone(&alphabet));
    let mq = pipeline.oracle();
    let outcome = match guarantee {
        Guarantee::DistinguisherBound2 => {
            let mut eq = Chain(cache, learner::DistinguisherBound::new(2));
            learn(&config, mq, &mut eq, &mut NoProgress).await
        }
        Guarantee::ModelStateBound => {
            let bound = StateBound::new(
                reference.n_states(),
                Arc::clone(pipeline.tree()),
                Arc::clone(&alphabet),
            );
            learn(&config, mq, &mut Chain(cache, bound), &mut NoProgress).await
        }
        Guarantee::Reference => {
            let mut eq = Chain(
                cache,
                Reference {
                    model: reference.clone(),
                    alphabet,
                },
            );
            learn(&config, mq, &mut eq, &mut NoProgress).await
        }
    };
    let label = format!("{name} {heuristics} {}", guarantee.name());
    assert!(
        matches!(outcome.end, End::Learned),
        "{label}: {:?}",
        outcome.end
    );
    let learned = outcome
        .hypothesis
        .as_ref()
        .expect("learned")
        .mealy
        .minimize();
    let exact = learned.distinguishing_word(&reference).is_none();
    // A distinguisher bound promises no counterexample up to that length, not the model:
    // a wrong model under it is recorded, under the other guarantees it fails the test.
    assert!(
        exact || matches!(guarantee, Guarantee::DistinguisherBound2),
        "{label}: not equivalent"
    );
    let executed = pipeline.executed();
    let line = format!(
        "{label}: {} | eq {} | runs {} | symbols {}\n",
        if exact { "exact" } else { "wrong" },
        outcome.rounds,
        executed.resets,
        executed.steps(),
    );
    (line, executed.resets, executed.steps())
}

/// Learns every model with each of `variants` under each of `guarantees` (the state bound
/// only for models of at most `state_bound_up_to` states), and returns the table: one line
/// per run, then each variant's totals under each guarantee.
/// Each variant learns on its own thread, so a machine with more cores finishes sooner; the
/// table's order does not depend on which finishes first.
fn table(
    models: &[(String, Typestate)],
    variants: &[Heuristics],
    guarantees: &[Guarantee],
    state_bound_up_to: usize,
) -> String {
    let parts: Vec<(String, String)> = std::thread::scope(|scope| {
        let threads: Vec<_> = variants
            .iter()
            .map(|&heuristics| {
                scope.spawn(move || {
                    tokio::runtime::Builder::new_current_thread()
                        .enable_all()
                        .build()
                        .expect("a runtime for one variant")
                        .block_on(variant_table(
                            models,
                            heuristics,
                            guarantees,
                            state_bound_up_to,
                        ))
                })
            })
            .collect();
        threads
            .into_iter()
            .map(|thread| thread.join().expect("a variant's thread panicked"))
            .collect()
    });
    let (text, totals): (String, String) = parts.into_iter().unzip();
    format!("{text}\n{totals}")
}

/// One variant's lines of [`table`], and its totals under each guarantee.
async fn variant_table(
    models: &[(String, Typestate)],
    heuristics: Heuristics,
    guarantees: &[Guarantee],
    state_bound_up_to: usize,
) -> (String, String) {
    let mut text = String::new();
    let mut totals = String::new();
    for &guarantee in guarantees {
        if matches!(guarantee, Guarantee::ModelStateBound)
            && !heuristics.contains(Heuristic::MissingStateSearch)
        {
            continue;
        }
        let (mut runs, mut symbols) = (0, 0);
        for (name, model) in models {
            if matches!(guarantee, Guarantee::ModelStateBound)
                && state_bound(model) > state_bound_up_to
            {
                continue;
            }
            let (line, resets, steps) = learn_exactly(name, model, heuristics, guarantee).await;
            text.push_str(&line);
            runs += resets;
            symbols += steps;
        }
        totals.push_str(&format!(
            "total {heuristics} {}: runs {runs} | symbols {symbols}\n",
            guarantee.name()
        ));
    }
    (text, totals)
}

#[test]
fn every_variant_learns_every_library_model_exactly() {
    let models: Vec<(String, Typestate)> = typestates::library::bundled_files()
        .iter()
        .map(|file| {
            let model =
                typestates::format::parse(file.path, file.text).expect("bundled files parse");
            (model.simple_name().to_owned(), model)
        })
        .collect();
    let guarantees = [
        Guarantee::DistinguisherBound2,
        Guarantee::ModelStateBound,
        Guarantee::Reference,
    ];
    let text = table(&models, &Heuristics::variants(), &guarantees, usize::MAX);
    expect_test::expect_file!["heuristics/library.txt"].assert_eq(&text);
}

/// Random machines are learned under their state bound up to this many states: beyond, the
/// state-bound oracle's identification costs minutes of CPU per run in a debug build.
const STATE_BOUND_UP_TO: usize = 30;

/// Seed `seed`'s machine has `10 + seed * 70 / 49` states: 10 to 80 over fifty seeds.
fn random_models(seeds: std::ops::Range<u64>) -> Vec<(String, Typestate)> {
    seeds
        .map(|seed| {
            let states = 10 + (seed as usize * 70) / 49;
            let model = random_typestate(seed, states);
            let minimal = state_bound(&model);
            (
                format!("seed {seed} ({states} states, {minimal} minimal with the sink)"),
                model,
            )
        })
        .collect()
}

#[test]
fn every_variant_learns_random_machines_exactly() {
    let guarantees = [Guarantee::ModelStateBound, Guarantee::Reference];
    let every = Heuristics::variants();
    if test_tiers::asked(Tier::RandomMachines) {
        let all = table(
            &random_models(0..50),
            &every,
            &guarantees,
            STATE_BOUND_UP_TO,
        );
        let text = format!("# Every variant, fifty machines (10 to 80 states)\n\n{all}");
        expect_test::expect_file!["heuristics/random.txt"].assert_eq(&text);
    } else {
        let text = table(&random_models(0..5), &every, &guarantees, STATE_BOUND_UP_TO);
        expect_test::expect_file!["heuristics/random-small.txt"].assert_eq(&text);
    }
}
