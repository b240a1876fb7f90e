//! The check beyond a state bound: is the learned model right for every system of a few states
//! more than the bound?
//!
//! It asks what the H-method of Dorofeeva, El-Fakih and Yevtushenko requires for systems of at most `m` states.
//! That is `k = m − n` states more than the hypothesis's `n`.
//! It asks only what the observations do not already show.
//! With the access words `A` of the hypothesis's states, every word `t` of `A·I^{≤k+1}` is
//! asked.
//! It must be apart in the prefix tree from every access word of a state other than the one
//! the hypothesis reaches with it.
//! So must any two prefixes `a·u` and `a·v` of one such word (`a ∈ A`, `u` a prefix of `v`)
//! that the hypothesis takes to different states.
//! Apart means different outputs after both on a common suffix.
//! For pairs not yet apart it asks, after both words, the hypothesis's shortest
//! distinguishing word of the two states.
//! It is chosen greedily so that one word after `t` tells it from as many of the others as it
//! can.
//! The system then either shows them apart or contradicts the model.
//! Words through an `err` cost nothing (the closure answers them), and the hypothesis's error
//! sink needs no identification.
//!
//! When no test contradicts the model, every system of at most `m` states that differs from it
//! would have (the H-method's completeness).
//! A larger one may not.

use std::collections::HashMap;
use std::sync::Arc;

use typestates::mealy::Mealy;

use crate::closure::{Alphabet, Output, Word};
use crate::equivalence::distinguisher_bound::concat;
use crate::equivalence::{first_disagreement, Counterexample, EquivalenceOracle, WMethod};
use crate::hypothesis::Hypothesis;
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// The check for systems of at most `states` states (error sink included).
pub struct Beyond {
    states: usize,
    tree: Arc<PrefixTree>,
    alphabet: Arc<Alphabet>,
}

impl Beyond {
    /// The check for at most `states` states, reading observations from `tree`.
    pub fn new(states: usize, tree: Arc<PrefixTree>, alphabet: Arc<Alphabet>) -> Beyond {
        Beyond {
            states,
            tree,
            alphabet,
        }
    }

    /// Every word of `A·I^{≤k+1}`, grouped by access word: each group the access word and
    /// then its extensions, shorter before longer. Extensions of a word the hypothesis
    /// answers with `err` are left out: the closure answers them.
    fn paths(&self, hypothesis: &Hypothesis) -> Vec<Vec<Word>> {
        let extra = self.states.saturating_sub(hypothesis.n_states());
        hypothesis
            .access
            .iter()
            .map(|access| {
                let mut words = vec![access.clone()];
                let mut layer = vec![access.clone()];
                for _ in 0..=extra {
                    layer = layer
                        .iter()
                        .filter(|word| live(hypothesis, word))
                        .flat_map(|word| {
                            self.alphabet
                                .inputs
                                .iter()
                                .map(move |input| concat(word, &[*input]))
                        })
                        .collect();
                    words.extend(layer.iter().cloned());
                }
                words
            })
            .collect()
    }

    /// The tests still needed, every word of `A·I^{≤k+1}` among them; `None` if two
    /// hypothesis states are equivalent.
    fn open_tests(&self, hypothesis: &Hypothesis) -> Option<Vec<Word>> {
        let mealy = &hypothesis.mealy;
        let from = |state: u32| Mealy {
            initial: state,
            ..mealy.clone()
        };
        let mut separating: HashMap<(u32, u32), Option<Word>> = HashMap::new();
        let mut separate = |p: u32, q: u32| -> Option<Word> {
            separating
                .entry((p.min(q), p.max(q)))
                .or_insert_with(|| {
                    let columns = from(p).distinguishing_word(&from(q))?;
                    Some(self.alphabet.word(&columns))
                })
                .clone()
        };
        let state = |word: &Word| hypothesis.state_after(&self.alphabet, word);
        let splits = |suffix: &Word, p: u32, q: u32| {
            let columns = self
                .alphabet
                .columns(suffix)
                .expect("the alphabet's inputs");
            mealy.run_columns(p, &columns).0 != mealy.run_columns(q, &columns).0
        };
        let paths = self.paths(hypothesis);
        let states: Vec<&Word> = hypothesis
            .access
            .iter()
            .filter(|it| live(hypothesis, it))
            .collect();
        let mut tests = Vec::new();
        for path in &paths {
            for (index, word) in path.iter().enumerate() {
                if !live(hypothesis, word) {
                    continue;
                }
                let p = state(word);
                let earlier = path[1..index.max(1)].iter();
                let mut open: Vec<(&Word, u32)> = states
                    .iter()
                    .copied()
                    .chain(earlier.filter(|it| word.starts_with(it)))
                    .map(|other| (other, state(other)))
                    .filter(|&(other, q)| {
                        q != p
                            && self
                                .tree
                                .witness(word, other, &self.alphabet.inputs)
                                .is_none()
                    })
                    .collect();
                // Greedily, the separating word of one open pair that splits the most.
                while !open.is_empty() {
                    let mut best: Option<(Word, usize)> = None;
                    for &(_, q) in &open {
                        let suffix = separate(p, q)?;
                        let split = open.iter().filter(|it| splits(&suffix, p, it.1)).count();
                        if best.as_ref().is_none_or(|it| split > it.1) {
                            best = Some((suffix, split));
                        }
                    }
                    let (suffix, _) = best.expect("open is not empty");
                    tests.push(concat(word, &suffix));
                    open.retain(|&(other, q)| {
                        let split = splits(&suffix, p, q);
                        if split {
                            tests.push(concat(other, &suffix));
                        }
                        !split
                    });
                }
            }
        }
        let mut words: Vec<Word> = paths.into_iter().flatten().collect();
        words.extend(tests);
        words.sort();
        words.dedup();
        Some(words)
    }
}

/// Whether the hypothesis answers `word` without `err`: it reaches a state other than the
/// error sink.
fn live(hypothesis: &Hypothesis, word: &Word) -> bool {
    !hypothesis.outputs(word).contains(&Output::Err)
}

impl EquivalenceOracle for Beyond {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        match self.open_tests(hypothesis) {
            Some(tests) => first_disagreement(hypothesis, mq, tests).await,
            // Not a minimal hypothesis: the H-method's conditions do not apply.
            None => {
                WMethod::new(self.states)
                    .find_counterexample(hypothesis, mq)
                    .await
            }
        }
    }
}
