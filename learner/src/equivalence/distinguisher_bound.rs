//! The equivalence oracle of paper 002, Algorithm 2: for every transition `q -i-> q'`, the
//! words `R(q)·i` and `R(q')` must agree on every suffix of length at most the distinguisher
//! bound. Representatives are the learner's access words (Remark 1). The optimisations of
//! §4.3: `err` transitions are never checked (every extension of `err` is `err`), and
//! `wait`/`quiet` self-loops are skipped when the experiment assumes quiescence changes
//! nothing ([`DistinguisherBound::assuming_quiet_is_noop`]). That assumption is off by
//! default because it is false for some classes: MediaRecorder needs a quiet moment after
//! `start()` before `stop()` is allowed, and a hypothesis that misses it has a quiet self-loop
//! there that only this check refutes.
//!
//! Correct under the assumption that any two states of the system are told apart by a word
//! no longer than the bound.

use crate::closure::{Input, Output, Word};
use crate::equivalence::{first_disagreement, Counterexample, EquivalenceOracle};
use crate::hypothesis::Hypothesis;
use crate::oracle::{MembershipOracle, QueryError};

/// Algorithm 2 with distinguisher bound `bound`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DistinguisherBound {
    bound: usize,
    quiet_is_noop: bool,
}

impl DistinguisherBound {
    /// The oracle for distinguisher bound `bound` (DroidStar used 2).
    pub fn new(bound: usize) -> DistinguisherBound {
        DistinguisherBound {
            bound,
            quiet_is_noop: false,
        }
    }

    /// The same oracle, skipping `wait`/`quiet` self-loops (§4.3, optimisation (a)): sound
    /// only for classes where time passing quietly never changes the state.
    pub fn assuming_quiet_is_noop(self) -> DistinguisherBound {
        DistinguisherBound {
            quiet_is_noop: true,
            ..self
        }
    }
}

/// Every word of exactly `length` inputs; shorter suffixes are their prefixes, which the cache
/// answers from these.
fn words_of_length(inputs: &[Input], length: usize) -> Vec<Word> {
    (0..length).fold(vec![Word::new()], |words, _| {
        words
            .iter()
            .flat_map(|word| {
                inputs.iter().map(move |input| {
                    let mut next = word.clone();
                    next.push(*input);
                    next
                })
            })
            .collect()
    })
}

impl EquivalenceOracle for DistinguisherBound {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let mealy = &hypothesis.mealy;
        let inputs = &mealy.inputs;
        // Line 4: the output of every transition.
        let transitions: Vec<(u32, usize)> = (0..mealy.n_states() as u32)
            .flat_map(|state| (0..inputs.len()).map(move |column| (state, column)))
            .collect();
        let words: Vec<Word> = transitions
            .iter()
            .map(|&(state, column)| concat(&hypothesis.access[state as usize], &[inputs[column]]))
            .collect();
        if let Some(counterexample) = first_disagreement(hypothesis, mq, words).await? {
            return Ok(Some(counterexample));
        }
        // Lines 5 to 10: the fidelity of every transition, up to the bound.
        let suffixes = words_of_length(inputs, self.bound);
        for (state, column) in transitions {
            let (target, output) = mealy.transition(state, column);
            let quiet_loop = self.quiet_is_noop
                && inputs[column] == Input::Wait
                && output == Output::Quiet
                && target == state;
            if output == Output::Err || quiet_loop {
                continue;
            }
            let source = concat(&hypothesis.access[state as usize], &[inputs[column]]);
            let representative = &hypothesis.access[target as usize];
            if source == *representative {
                continue;
            }
            let words: Vec<Word> = suffixes
                .iter()
                .flat_map(|suffix| [concat(&source, suffix), concat(representative, suffix)])
                .collect();
            if let Some(counterexample) = first_disagreement(hypothesis, mq, words).await? {
                return Ok(Some(counterexample));
            }
        }
        Ok(None)
    }

    fn distinguisher_bound(&self) -> Option<u32> {
        Some(self.bound as u32)
    }
}

/// `prefix` followed by `suffix`.
pub(crate) fn concat(prefix: &[Input], suffix: &[Input]) -> Word {
    let mut word = prefix.to_vec();
    word.extend_from_slice(suffix);
    word
}
