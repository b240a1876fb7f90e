//! Learning a typestate through the model backend: the whole pipeline on a simulated device.
//! The test matrix, the benchmarks and demos use it; it goes through the one entry point,
//! `backend::learn`.

use typestates::mealy::{to_mealy, Mealy};
use typestates::Typestate;

use crate::backend::model::{ModelConfig, SplitMix64};
use crate::backend::{learn, BackendKind, LearnError, Request};
use crate::closure::Output;
use crate::learn::{NoProgress, Outcome};
use crate::oracle::journal::{JournalError, Totals};
use crate::oracle::nondeterminism::Disagreement;
use crate::oracle::pipeline::Confirmation;
use crate::oracle::sul::CountSnapshot;
pub use crate::session::EquivalenceChoice;
use crate::session::{Choices, Details, Session};

/// What a simulated run produced.
#[derive(Debug)]
pub struct SimulatedRun {
    /// How learning ended, with the last hypothesis.
    pub outcome: Outcome,
    /// Queries asked.
    pub asked: CountSnapshot,
    /// Queries, resets and steps executed on the simulated device in this session.
    pub executed: CountSnapshot,
    /// What was executed, split into learning and checking, summed with the sessions before
    /// that wrote to the journal.
    pub totals: Totals,
    /// Journaled queries run again to check the journal.
    pub journal_sample: usize,
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
        self.learned_equals(&to_mealy(reference))
    }

    /// Whether both runs learned machines with the same traces.
    pub fn learned_the_same_as(&self, other: &SimulatedRun) -> bool {
        other
            .outcome
            .hypothesis
            .as_ref()
            .is_some_and(|hypothesis| self.learned_equals(&hypothesis.mealy))
    }

    fn learned_equals(&self, machine: &Mealy) -> bool {
        self.outcome.hypothesis.as_ref().is_some_and(|hypothesis| {
            hypothesis
                .mealy
                .minimize()
                .distinguishing_word(&machine.minimize())
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

/// Learns `typestate` as a black box on `session.jobs` simulated instances through the one
/// entry point ([`crate::backend::learn`]).
pub async fn learn_simulated(
    typestate: &Typestate,
    session: &Session,
    model_config: ModelConfig,
) -> Result<SimulatedRun, JournalError> {
    let request = Request {
        session: session.clone(),
        model: Some(typestate.clone()),
        device: model_config,
        ..Request::new(BackendKind::Model)
    };
    let run = match learn(request, &mut NoProgress).await {
        Ok(run) => run,
        Err(LearnError::Journal(error)) => return Err(error),
        Err(error) => unreachable!("the model backend fails only on its journal: {error}"),
    };
    let Details::Simulated { clock_ms } = run.details else {
        unreachable!("the model backend reports its simulated clock")
    };
    Ok(SimulatedRun {
        outcome: run.outcome,
        asked: run.asked,
        executed: run.executed,
        totals: run.totals,
        journal_sample: run.journal_sample,
        simulated_ms: clock_ms,
        restricted: run.restrictions.len(),
        disagreements: run.disagreements,
    })
}

/// Learns `typestate` with the guarantee's default algorithm
/// ([`EquivalenceChoice::default_algorithm`]) on one simulated instance whose callbacks are
/// late or missing in a fraction `noise` of waits (seeded), every trace run until
/// `confirmation`'s number of runs gave it (`None`: the backend's default, which
/// [`ModelConfig::confirmation`] picks by the noise): the noise benchmark's and tests' run.
pub async fn learn_noisy(
    typestate: &Typestate,
    equivalence: EquivalenceChoice,
    confirmation: Option<Confirmation>,
    noise: f64,
    seed: u64,
) -> SimulatedRun {
    let choices = Choices {
        confirmation,
        equivalence: Some(equivalence),
        ..Choices::default()
    };
    learn_simulated(
        typestate,
        &Session::new(choices),
        ModelConfig {
            noise,
            seed,
            ..ModelConfig::default()
        },
    )
    .await
    .expect("no journal, so no journal error")
}

/// A random typestate with `states` states, all reachable, seeded: three callins (each
/// enabled in a state with probability 3/4, to a uniformly chosen state) and two callbacks
/// (a state waits for one of them with probability 1/4 each, else for `quiet` to a chosen
/// state with probability 1/4, else time passes quietly in place). State `i > 0` is first
/// reached from a lower state, so every state is reachable; the minimal machine may be
/// smaller than `states` (compare with [`state_bound`]).
pub fn random_typestate(seed: u64, states: usize) -> Typestate {
    const CALLINS: [&str; 3] = ["a", "b", "c"];
    let mut rng = SplitMix64(seed);
    let states = states.max(1);
    let mut callins: Vec<[Option<usize>; CALLINS.len()]> = vec![[None; CALLINS.len()]; states];
    for state in 1..states {
        loop {
            let from = rng.below(state as u64) as usize;
            let callin = rng.below(CALLINS.len() as u64) as usize;
            if callins[from][callin].is_none() {
                callins[from][callin] = Some(state);
                break;
            }
        }
    }
    let mut text = format!(
        "typestate random.Machine{seed}x{states}\ncallin create: new() creates S0\n\
         callin a: a()\ncallin b: b()\ncallin c: c()\n\
         callback x: override onX()\ncallback y: override onY()\n\n"
    );
    for (state, transitions) in callins.iter_mut().enumerate() {
        text.push_str(&format!(
            "state S{state}{}\n",
            if state == 0 { " initial" } else { "" }
        ));
        for (callin, target) in transitions.iter_mut().enumerate() {
            if target.is_none() && rng.unit() < 0.75 {
                *target = Some(rng.below(states as u64) as usize);
            }
            if let Some(target) = target {
                text.push_str(&format!("  {} -> S{target}\n", CALLINS[callin]));
            }
        }
        let target = rng.below(states as u64);
        match rng.below(4) {
            0 => text.push_str(&format!("  on x -> S{target}\n")),
            1 => text.push_str(&format!("  on y -> S{target}\n")),
            2 => text.push_str(&format!("  quiet -> S{target}\n")),
            _ => {}
        }
    }
    typestates::format::parse("random.typestate", &text)
        .unwrap_or_else(|errors| panic!("a random typestate parses: {errors:?}\n{text}"))
}
