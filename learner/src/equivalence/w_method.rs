//! The W-method with a state bound, for experiments that give no distinguisher bound.
//!
//! Test words are `P · Σ^{≤k} · W`.
//! `P` is the access words and their one-input extensions.
//! `k` is the number of states the system may have beyond the hypothesis's.
//! `W` is a characterising set of the hypothesis.
//! Correct when the system has at most `state_bound` states (error sink included).
//! Extensions of `err` prefixes cost nothing: the query engine answers them.

use typestates::mealy::Mealy;

use crate::closure::{Input, Word};
use crate::equivalence::distinguisher_bound::concat;
use crate::equivalence::{first_disagreement, Counterexample, EquivalenceOracle};
use crate::hypothesis::Hypothesis;
use crate::oracle::{MembershipOracle, QueryError};

/// The W-method for systems with at most `state_bound` states.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WMethod {
    state_bound: usize,
}

impl WMethod {
    /// The oracle for at most `state_bound` states.
    pub fn new(state_bound: usize) -> WMethod {
        WMethod { state_bound }
    }
}

impl EquivalenceOracle for WMethod {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let mealy = &hypothesis.mealy;
        let extra = self.state_bound.saturating_sub(mealy.n_states());
        let middles = words_up_to(&mealy.inputs, extra);
        let characterising = characterising_set(mealy);
        for access in &hypothesis.access {
            let prefixes = std::iter::once(access.clone())
                .chain(mealy.inputs.iter().map(|input| concat(access, &[*input])));
            let words: Vec<Word> = prefixes
                .flat_map(|prefix| {
                    middles.iter().flat_map({
                        let characterising = &characterising;
                        move |middle| {
                            let stem = concat(&prefix, middle);
                            characterising
                                .iter()
                                .map(move |suffix| concat(&stem, suffix))
                        }
                    })
                })
                .collect();
            if let Some(counterexample) = first_disagreement(hypothesis, mq, words).await? {
                return Ok(Some(counterexample));
            }
        }
        Ok(None)
    }
}

/// Every word of at most `length` inputs, the empty word first.
fn words_up_to(inputs: &[Input], length: usize) -> Vec<Word> {
    let mut words = vec![Word::new()];
    let mut layer = vec![Word::new()];
    for _ in 0..length {
        layer = layer
            .iter()
            .flat_map(|word| inputs.iter().map(move |input| concat(word, &[*input])))
            .collect();
        words.extend(layer.iter().cloned());
    }
    words
}

/// A characterising set: one shortest distinguishing word for each pair of states, plus
/// every single input, so that every transition's output is checked.
fn characterising_set(mealy: &Mealy) -> Vec<Word> {
    let from = |state: u32| Mealy {
        initial: state,
        ..mealy.clone()
    };
    let mut set: Vec<Word> = mealy.inputs.iter().map(|input| vec![*input]).collect();
    for p in 0..mealy.n_states() as u32 {
        for q in p + 1..mealy.n_states() as u32 {
            if let Some(columns) = from(p).distinguishing_word(&from(q)) {
                let word: Word = columns.iter().map(|&c| mealy.inputs[c]).collect();
                if !set.contains(&word) {
                    set.push(word);
                }
            }
        }
    }
    set
}
