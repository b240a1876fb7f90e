//! The equivalence oracle for a state bound that asks only what the observations do not
//! already prove.
//!
//! When the hypothesis has as many states as the bound allows (error sink included), it is
//! correct as soon as (a) every transition's output is observed, (b) the access words of its
//! states are pairwise apart in the prefix tree (they reach that many distinct states, so all
//! of them), and (c) the word of every non-`err` transition is apart from the access word of
//! every state but its target (so it reaches its target). This is the W-method with an exact
//! bound restricted to the pairs not yet apart: for such a pair it asks the hypothesis's
//! shortest distinguishing word after both words, and a disagreement is a counterexample.
//! Learners that identify states by apartness (L#) leave nothing to ask.
//!
//! With fewer hypothesis states than the bound, missing states may hide anywhere, and the
//! oracle runs the [`WMethod`] with that bound.

use std::sync::Arc;

use typestates::mealy::Mealy;

use crate::closure::{Alphabet, Output, Word};
use crate::equivalence::distinguisher_bound::concat;
use crate::equivalence::{first_disagreement, Counterexample, EquivalenceOracle, WMethod};
use crate::hypothesis::Hypothesis;
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// The oracle for systems with at most `state_bound` states (error sink included).
pub struct StateBound {
    state_bound: usize,
    tree: Arc<PrefixTree>,
    alphabet: Arc<Alphabet>,
}

impl StateBound {
    /// The oracle for at most `state_bound` states, reading observations from `tree`.
    pub fn new(state_bound: usize, tree: Arc<PrefixTree>, alphabet: Arc<Alphabet>) -> StateBound {
        StateBound {
            state_bound,
            tree,
            alphabet,
        }
    }

    /// The tests still needed: for each word claimed to reach a state and each other state
    /// it is not yet apart from, the word and that state's access word, each followed by the
    /// hypothesis's distinguishing word. `None` if two hypothesis states are equivalent.
    fn open_tests(&self, hypothesis: &Hypothesis) -> Option<Vec<Word>> {
        let mealy = &hypothesis.mealy;
        let n = mealy.n_states() as u32;
        let from = |state: u32| Mealy {
            initial: state,
            ..mealy.clone()
        };
        let separating = |p: u32, q: u32| -> Option<Word> {
            let columns = from(p).distinguishing_word(&from(q))?;
            Some(self.alphabet.word(&columns))
        };
        // (word, state it must reach, the states it must be told from)
        let mut claims: Vec<(Word, u32, std::ops::Range<u32>)> = (0..n)
            .map(|state| {
                (
                    hypothesis.access[state as usize].clone(),
                    state,
                    state + 1..n,
                )
            })
            .collect();
        for state in 0..n {
            for (column, input) in mealy.inputs.iter().enumerate() {
                let (target, output) = mealy.transition(state, column);
                if output != Output::Err {
                    let word = concat(&hypothesis.access[state as usize], &[*input]);
                    claims.push((word, target, 0..n));
                }
            }
        }
        let mut tests = Vec::new();
        for (word, claimed, others) in claims {
            for other in others.filter(|it| *it != claimed) {
                let access = &hypothesis.access[other as usize];
                if self
                    .tree
                    .witness(&word, access, &self.alphabet.inputs)
                    .is_some()
                {
                    continue;
                }
                let suffix = separating(claimed, other)?;
                tests.push(concat(&word, &suffix));
                tests.push(concat(access, &suffix));
            }
        }
        tests.sort();
        tests.dedup();
        Some(tests)
    }
}

impl EquivalenceOracle for StateBound {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let mealy = &hypothesis.mealy;
        if mealy.n_states() < self.state_bound {
            return WMethod::new(self.state_bound)
                .find_counterexample(hypothesis, mq)
                .await;
        }
        // (a) The output of every transition.
        let transitions: Vec<Word> = hypothesis
            .access
            .iter()
            .flat_map(|access| mealy.inputs.iter().map(|input| concat(access, &[*input])))
            .collect();
        if let Some(counterexample) = first_disagreement(hypothesis, mq, transitions).await? {
            return Ok(Some(counterexample));
        }
        // (b) and (c): whatever is not apart yet.
        let Some(tests) = self.open_tests(hypothesis) else {
            return WMethod::new(self.state_bound)
                .find_counterexample(hypothesis, mq)
                .await;
        };
        first_disagreement(hypothesis, mq, tests).await
    }
}
