//! The equivalence oracle for a state bound that asks only what the observations do not already prove.
//!
//! When the hypothesis has as many states as the bound allows (error sink included), it is correct as soon as:
//! - (a) every transition's output is observed;
//! - (b) the access words of its states are pairwise apart in the prefix tree, so they reach that many distinct states, hence all of them;
//! - (c) the word of every non-`err` transition is told from the access word of every state but its target, so it reaches its target.
//!
//! In (c), told from means apart, or excluded by the identification under the bound (`crate::apartness::under_bound`).
//! That identification also follows the states transitions reach.
//! This is the W-method with an exact bound, restricted to the pairs not yet apart.
//! For such a pair it asks the hypothesis's shortest distinguishing word after both words; a disagreement is a counterexample.
//! Learners that identify states by apartness (L#) leave nothing to ask.
//!
//! With fewer hypothesis states than the bound, missing states may hide anywhere.
//! Then the oracle runs the [`WMethod`] with that bound.

use std::sync::Arc;

use typestates::mealy::Mealy;

use crate::apartness::tree::{Node, ObservationTree};
use crate::apartness::under_bound::Identification;
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
    /// it may still be, the word and that state's access word, each followed by the
    /// hypothesis's distinguishing word. `None` if two hypothesis states are equivalent.
    ///
    /// Once the access words are pairwise apart and as many as the bound allows, "may still
    /// be" is decided by the identification under the bound, which tells a node from a state
    /// also by the states their transitions reach; before, by apartness alone.
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
        let apart = |word: &Word, state: u32| {
            let access = &hypothesis.access[state as usize];
            self.tree
                .witness(word, access, &self.alphabet.inputs)
                .is_some()
        };
        let mut tests = Vec::new();
        let mut test = |word: &Word, claimed: u32, other: u32| -> Option<()> {
            let suffix = separating(claimed, other)?;
            tests.push(concat(word, &suffix));
            tests.push(concat(&hypothesis.access[other as usize], &suffix));
            Some(())
        };
        // (b) The access words reach distinct states.
        let mut all_apart = true;
        for state in 0..n {
            for other in state + 1..n {
                if !apart(&hypothesis.access[state as usize], other) {
                    all_apart = false;
                    test(&hypothesis.access[state as usize], state, other)?;
                }
            }
        }
        let identified = (all_apart && n as usize == self.state_bound)
            .then(|| IdentifiedStates::new(&self.tree, &self.alphabet, hypothesis))
            .flatten();
        // (c) Every non-`err` transition reaches its target.
        for state in 0..n {
            for (column, input) in mealy.inputs.iter().enumerate() {
                let (target, output) = mealy.transition(state, column);
                if output == Output::Err {
                    continue;
                }
                let word = concat(&hypothesis.access[state as usize], &[*input]);
                let may_be = identified.as_ref().and_then(|it| it.may_be(&word));
                for other in (0..n).filter(|it| *it != target) {
                    let excluded = may_be.as_ref().is_some_and(|it| !it.contains(&other));
                    if !excluded && !apart(&word, other) {
                        test(&word, target, other)?;
                    }
                }
            }
        }
        tests.sort();
        tests.dedup();
        Some(tests)
    }
}

/// The observations as an observation tree and its identification under the bound, with
/// the hypothesis states as the basis: valid once their access words are pairwise apart and
/// as many as the bound allows.
struct IdentifiedStates<'a> {
    observed: ObservationTree,
    identification: Identification,
    /// The live states' access nodes, with their states.
    basis: Vec<(Node, u32)>,
    alphabet: &'a Alphabet,
}

impl<'a> IdentifiedStates<'a> {
    fn new(
        tree: &PrefixTree,
        alphabet: &'a Alphabet,
        hypothesis: &Hypothesis,
    ) -> Option<IdentifiedStates<'a>> {
        let observed = ObservationTree::from_prefix_tree(tree, alphabet);
        let basis = hypothesis
            .access
            .iter()
            .enumerate()
            .map(|(state, access)| Some((observed.node(&alphabet.columns(access)?)?, state as u32)))
            .collect::<Option<Vec<_>>>()?
            .into_iter()
            .filter(|&(node, _)| !observed.is_dead(node))
            .collect::<Vec<_>>();
        let nodes: Vec<Node> = basis.iter().map(|it| it.0).collect();
        let identification = Identification::under_bound(&observed, &nodes)?;
        Some(IdentifiedStates {
            observed,
            identification,
            basis,
            alphabet,
        })
    }

    /// The states the live node `word` reaches may be (never the error sink: a live node is
    /// not); `None` if the word is not in the tree, or nothing is left, which only a wrong
    /// bound does.
    fn may_be(&self, word: &Word) -> Option<Vec<u32>> {
        let node = self.observed.node(&self.alphabet.columns(word)?)?;
        let states: Vec<u32> = self
            .identification
            .candidates(node)
            .into_iter()
            .filter_map(|candidate| {
                self.basis
                    .iter()
                    .find(|it| it.0 == candidate)
                    .map(|it| it.1)
            })
            .collect();
        (!states.is_empty()).then_some(states)
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

#[cfg(test)]
mod tests {
    use super::*;
    use typestates::library::Library;
    use typestates::mealy::to_mealy;

    #[test]
    fn a_transition_is_tested_only_against_the_states_the_identification_leaves() {
        // DownloadManager: Idle, Downloading, Completed, Removed (the typestate's order) and
        // the error sink.
        let typestate = Library::bundled()
            .find("DownloadManager")
            .expect("bundled")
            .typestate
            .project_onto(&["enque_valid", "enque_unavailable", "remove"])
            .expect("DroidStar's inputs");
        let mealy = to_mealy(&typestate);
        let alphabet = Arc::new(Alphabet {
            signature: typestate.signature(),
            inputs: mealy.inputs.clone(),
        });
        let signature = typestate.signature();
        let word = |names: &[&str]| -> Word {
            names
                .iter()
                .map(|name| {
                    *mealy
                        .inputs
                        .iter()
                        .find(|it| signature.input_name(**it) == *name)
                        .expect("an input of the model")
                })
                .collect()
        };
        let access = [
            vec![],
            vec!["enque_valid"],
            vec!["enque_valid", "wait"],
            vec!["enque_valid", "remove"],
            vec!["remove"],
        ];
        let hypothesis = Hypothesis {
            mealy: mealy.clone(),
            access: access.iter().map(|it| word(it)).collect(),
        };
        let tree = Arc::new(PrefixTree::default());
        for names in [
            // Every transition of every state (the basis of an L# run).
            &["enque_unavailable"][..],
            &["remove"],
            &["wait", "enque_valid"],
            &["enque_valid", "enque_valid"],
            &["enque_valid", "enque_unavailable"],
            &["enque_valid", "remove", "enque_valid"],
            &["enque_valid", "remove", "enque_unavailable"],
            &["enque_valid", "remove", "remove"],
            &["enque_valid", "remove", "wait", "wait", "remove"],
            &["enque_valid", "wait", "enque_valid"],
            &["enque_valid", "wait", "enque_unavailable"],
            &["enque_valid", "wait", "remove"],
            // Completed's wait: two more waits, then remove.
            &["enque_valid", "wait", "wait", "wait", "remove"],
        ] {
            let query = word(names);
            tree.insert(&query, &hypothesis.outputs(&query));
        }
        let oracle = StateBound::new(mealy.n_states(), tree, alphabet);
        let tests = oracle
            .open_tests(&hypothesis)
            .expect("no two states equivalent");
        let completed_wait = word(&["enque_valid", "wait", "wait"]);
        let then = |input: &str| concat(&completed_wait, &word(&[input]));
        // Apartness leaves Idle and Removed; the identification excludes Idle (the node
        // Completed's wait reaches answers remove, so it is no state Idle's wait reaches).
        // Removed is still tested, with remove; Idle, told by enque_valid, is not.
        assert!(tests.contains(&then("remove")), "{tests:?}");
        assert!(!tests.contains(&then("enque_valid")), "{tests:?}");
    }
}
