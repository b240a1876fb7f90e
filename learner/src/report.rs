//! What a learning run produced, in DroidStar's columns, and the learned typestate with its
//! provenance (the Starling paper, §4.4).
//!
//! Inputs the experiment forbade (query filters) answer `err` to the learner, like errors of the
//! API.
//! The report makes them restrictions ([`Step::Restricted`], [`WaitOutcome::Restricted`]).
//! Their origin names the rule, "restricted by the experiment: …".
//! So nobody mistakes them for errors of the API, and the checker never reports them.

use typestates::mealy::to_typestate;
use typestates::{LearningStats, Origin, Provenance, ProvenanceKind, Step, Typestate, WaitOutcome};

use crate::closure::{Alphabet, Input};
use crate::cost::CostModel;
use crate::hypothesis::Hypothesis;
use crate::learn::Outcome;
use crate::oracle::filter::{QueryFilter, Restrictions};
use crate::oracle::sul::CountSnapshot;

/// The statistics of one run: DroidStar's Table 1 columns plus what the device executed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Statistics {
    /// States of the learned typestate (error sink excluded).
    pub states: u32,
    /// Device time the run cost, in milliseconds.
    pub time_ms: u64,
    /// Membership queries asked by the learner and the equivalence oracle.
    pub mq_asked: u64,
    /// Membership queries executed on the system: runs, each starting with a reset, as
    /// DroidStar counted them (a query that extends the current run is not a new run).
    pub mq_executed: u64,
    /// Equivalence queries.
    pub eq: u32,
    /// The distinguisher bound the verdict rests on.
    pub distinguisher_bound: Option<u32>,
    /// Resets of the system.
    pub resets: u64,
    /// Inputs executed on the system.
    pub steps: u64,
}

impl Statistics {
    /// The statistics of `outcome` given the pipeline's counters; device time is what `cost`
    /// predicts for the executed counts.
    pub fn collect(
        outcome: &Outcome,
        asked: CountSnapshot,
        executed: CountSnapshot,
        cost: &CostModel,
    ) -> Statistics {
        let states = outcome.hypothesis.as_ref().map_or(0, |hypothesis| {
            hypothesis.mealy.minimize().live_states().len() as u32
        });
        Statistics {
            states,
            time_ms: cost.predict(&executed),
            mq_asked: asked.queries,
            mq_executed: executed.resets,
            eq: outcome.rounds,
            distinguisher_bound: outcome.distinguisher_bound,
            resets: executed.resets,
            steps: executed.steps(),
        }
    }

    /// Executed queries per equivalence query.
    pub fn mq_per_eq(&self) -> f64 {
        self.mq_executed as f64 / f64::from(self.eq.max(1))
    }

    /// The statistics as the typestate format stores them.
    pub fn to_learning_stats(&self) -> LearningStats {
        LearningStats {
            states: self.states,
            time_ms: self.time_ms,
            mq_asked: self.mq_asked,
            mq_executed: self.mq_executed,
            eq: self.eq,
            distinguisher_bound: self.distinguisher_bound,
        }
    }
}

/// The typestate of a hypothesis, with learned provenance, the statistics, and restricted
/// errors marked as such.
pub fn learned_typestate(
    hypothesis: &Hypothesis,
    alphabet: &Alphabet,
    statistics: &Statistics,
    filters: &[QueryFilter],
    restrictions: &Restrictions,
) -> Typestate {
    let mut typestate = to_typestate(&hypothesis.mealy, &alphabet.signature);
    typestate.provenance = Provenance {
        kind: ProvenanceKind::Learned,
        sources: vec!["typestar learner".to_owned()],
        platform: None,
        stats: Some(statistics.to_learning_stats()),
        run: None,
    };
    mark_restrictions(&mut typestate, alphabet, filters, restrictions);
    typestate
}

/// Turns every error whose query some filter forbade into a restriction naming the filter's
/// rule.
fn mark_restrictions(
    typestate: &mut Typestate,
    alphabet: &Alphabet,
    filters: &[QueryFilter],
    restrictions: &Restrictions,
) {
    if restrictions.is_empty() {
        return;
    }
    let access = typestate.access_words();
    let name = |input: Input| alphabet.signature.input_name(input).to_owned();
    let inputs = typestate.signature().inputs();
    for (state, word) in access.into_iter().enumerate() {
        let Some(word) = word else { continue };
        for &input in &inputs {
            let mut query = word.clone();
            query.push(input);
            let Some(rule) = restrictions.rule_for(&query) else {
                continue;
            };
            let origin = Origin {
                source: Some(format!(
                    "restricted by the experiment: {}",
                    filters[rule].describe(name)
                )),
                unverified: false,
            };
            let state = &mut typestate.states[state];
            match input {
                Input::Callin(callin) => {
                    let step = &mut state.on_callin[callin.index()];
                    if let Step::Error { .. } = step {
                        *step = Step::Restricted { origin };
                    }
                }
                Input::Wait => {
                    if let WaitOutcome::Error { .. } = state.on_wait {
                        state.on_wait = WaitOutcome::Restricted { origin };
                    }
                }
            }
        }
    }
}
