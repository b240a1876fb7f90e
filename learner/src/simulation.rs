//! Learning a typestate through the model backend: the whole pipeline on a simulated
//! device, as the test matrix, the benchmark and demos use it.

use std::sync::Arc;

use typestates::mealy::to_mealy;
use typestates::Typestate;

use crate::backend::model::{ModelConfig, ModelSul, SimClock};
use crate::closure::Alphabet;
use crate::equivalence::{CacheConsistency, Chain, DistinguisherBound, EquivalenceOracle, WMethod};
use crate::learn::{learn, Algorithm, LearnConfig, NoProgress, Outcome};
use crate::oracle::journal::JournalError;
use crate::oracle::pipeline::{Pipeline, PipelineConfig};
use crate::oracle::sul::{CountSnapshot, Sul};

/// Which equivalence oracle checks hypotheses; each runs after the free cache-consistency
/// check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquivalenceChoice {
    /// Paper 002's Algorithm 2 with this distinguisher bound.
    DistinguisherBound(usize),
    /// The W-method for at most this many states (error sink included).
    WMethod(usize),
    /// Algorithm 2 with bound 1 (cheap counterexamples while hypotheses are small), then the
    /// W-method for at most this many states.
    BoundOneThenWMethod(usize),
}

/// What a simulated run produced.
#[derive(Debug)]
pub struct SimulatedRun {
    /// How learning ended, with the last hypothesis.
    pub outcome: Outcome,
    /// Queries asked.
    pub asked: CountSnapshot,
    /// Queries, resets and steps executed on the simulated device.
    pub executed: CountSnapshot,
    /// The simulated device's clock at the end, in milliseconds.
    pub simulated_ms: u64,
}

impl SimulatedRun {
    /// Whether the learned machine has exactly the traces of `reference`.
    pub fn is_equivalent_to(&self, reference: &Typestate) -> bool {
        self.outcome.hypothesis.as_ref().is_some_and(|hypothesis| {
            hypothesis
                .mealy
                .minimize()
                .distinguishing_word(&to_mealy(reference).minimize())
                .is_none()
        })
    }
}

/// The number of states of `typestate`'s minimal Mealy machine, error sink included: the
/// tight state bound.
pub fn state_bound(typestate: &Typestate) -> usize {
    to_mealy(typestate).minimize().n_states()
}

/// Learns `typestate` as a black box on `n_instances` simulated instances.
pub async fn learn_simulated(
    typestate: &Typestate,
    algorithm: Algorithm,
    equivalence: EquivalenceChoice,
    pipeline_config: &PipelineConfig,
    model_config: ModelConfig,
    n_instances: usize,
) -> Result<SimulatedRun, JournalError> {
    let alphabet = Arc::new(Alphabet::of(typestate.signature()));
    let clock = Arc::new(SimClock::default());
    let suls = ModelSul::pool(typestate, model_config, n_instances, &clock);
    let pipeline = Pipeline::new(Arc::clone(&alphabet), suls, pipeline_config)?;
    let config = LearnConfig {
        algorithm,
        ..LearnConfig::new(Arc::clone(&alphabet))
    };
    let cache = CacheConsistency::new(Arc::clone(pipeline.tree()), alphabet);
    let outcome = match equivalence {
        EquivalenceChoice::DistinguisherBound(bound) => {
            run(
                &config,
                &pipeline,
                Chain(cache, DistinguisherBound::new(bound)),
            )
            .await
        }
        EquivalenceChoice::WMethod(states) => {
            run(&config, &pipeline, Chain(cache, WMethod::new(states))).await
        }
        EquivalenceChoice::BoundOneThenWMethod(states) => {
            let then = Chain(DistinguisherBound::new(1), WMethod::new(states));
            run(&config, &pipeline, Chain(cache, then)).await
        }
    };
    Ok(SimulatedRun {
        outcome,
        asked: pipeline.asked(),
        executed: pipeline.executed(),
        simulated_ms: clock.now_ms(),
    })
}

async fn run<S: Sul, E: EquivalenceOracle>(
    config: &LearnConfig,
    pipeline: &Pipeline<S>,
    mut eq: E,
) -> Outcome {
    learn(config, pipeline.oracle(), &mut eq, &mut NoProgress).await
}
