//! Learning a typestate through the model backend: the whole pipeline on a simulated
//! device, as the test matrix, the benchmark and demos use it.

use std::sync::Arc;

use typestates::mealy::to_mealy;
use typestates::Typestate;

use crate::backend::model::{ModelConfig, ModelSul, SimClock};
use crate::closure::{Alphabet, Output};
use crate::learn::{Algorithm, NoProgress, Outcome};
use crate::oracle::journal::JournalError;
use crate::oracle::nondeterminism::Disagreement;
use crate::oracle::pipeline::PipelineConfig;
use crate::oracle::sul::CountSnapshot;
use crate::session::learn_system;
pub use crate::session::EquivalenceChoice;

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
    /// Queries the experiment's filters answered without running them (distinct words, each
    /// ending at its first forbidden input).
    pub restricted: usize,
    /// Disagreements between runs and their votes.
    pub disagreements: Vec<Disagreement>,
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

/// A lower bound on the runs (resets) any exact learner needs for `typestate` on a system
/// that answers every `err` of its model: the `err` transitions of the minimal Mealy machine
/// out of the states other than the error sink. A run ends at its first `err` (after `err`
/// only `err`), so it observes at most one of them, and an exact learner must observe each
/// (no other observation implies that state answers `err` on that input). At least 1.
pub fn runs_lower_bound(typestate: &Typestate) -> usize {
    let mealy = to_mealy(typestate).minimize();
    let width = mealy.inputs.len();
    let is_sink = |state: u32| {
        (0..width).all(|column| mealy.transition(state, column) == (state, Output::Err))
    };
    let errors = (0..mealy.n_states() as u32)
        .filter(|&state| !is_sink(state))
        .map(|state| {
            (0..width)
                .filter(|&column| mealy.transition(state, column).1 == Output::Err)
                .count()
        })
        .sum::<usize>();
    errors.max(1)
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
    let run = learn_system(
        alphabet,
        suls,
        algorithm,
        equivalence,
        pipeline_config,
        &mut NoProgress,
    )
    .await?;
    Ok(SimulatedRun {
        outcome: run.outcome,
        asked: run.asked,
        executed: run.executed,
        simulated_ms: clock.now_ms(),
        restricted: run.restrictions.len(),
        disagreements: run.disagreements,
    })
}
