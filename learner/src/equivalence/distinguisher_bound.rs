//! The equivalence oracle of the Starling paper, Algorithm 2.
//! For every transition `q -i-> q'`, the words `R(q)·i` and `R(q')` must agree on every suffix of
//! length at most the distinguisher bound.
//! Representatives are the learner's access words (Remark 1).
//! The optimisations of §4.3: `err` transitions are never checked, since every extension of `err`
//! is `err`.
//! `wait`/`quiet` self-loops are skipped when the experiment assumes quiescence changes nothing
//! ([`DistinguisherBound::assuming_quiet_is_noop`]).
//! That assumption is off by default because it is false for some classes.
//! MediaRecorder needs a quiet moment after `start()` before `stop()` is allowed.
//! A hypothesis that misses it has a quiet self-loop there that only this check refutes.
//!
//! Correct under the assumption that any two states of the system are told apart by a word
//! no longer than the bound.
//!
//! [`Suite`] says how the test words run.
//! They run transition by transition as in the paper, or only the words no other test word of the
//! round extends ([`Suite::MaximalWords`]).
//! A word that is a proper prefix of another test word is answered by the longer word's run.
//! The system is deterministic, and the comparison with the hypothesis covers the prefix.
//! So both check the same words and give the same guarantee.
//! Take the last round, where no counterexample exists.
//! There the paper's order runs a target's words `R(q')·s` as their own runs before the transitions
//! out of `q'` extend them.

use std::collections::HashSet;
use std::sync::Arc;

use crate::closure::{first_err, words_of_length, Input, Output, Word};
use crate::equivalence::chained::chained_runs;
use crate::equivalence::{first_disagreement, Counterexample, EquivalenceOracle};
use crate::hypothesis::Hypothesis;
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// How Algorithm 2's test words are run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Suite {
    /// Transition by transition, as in the paper: each transition's words in one batch, up to
    /// the first counterexample (the baseline).
    #[default]
    PerTransition,
    /// The same batches, less every word that is a proper prefix of another word of the
    /// round's suite, which the longer word's run answers.
    MaximalWords,
    /// Other words with the same guarantee: a transition is checked after any proven word
    /// reaching its source, so one run checks many transitions (`chained`'s module doc).
    Chained,
    /// The chained checks less those the traces already observed answer: the learning's
    /// queries, earlier rounds' runs and the prefixes of each ([`DistinguisherBound::knowing`]).
    ChainedKnown,
}

impl Suite {
    /// Every way, baseline first.
    pub const ALL: [Suite; 4] = [
        Suite::PerTransition,
        Suite::MaximalWords,
        Suite::Chained,
        Suite::ChainedKnown,
    ];

    /// The name on the command line and in reports.
    pub fn name(self) -> &'static str {
        match self {
            Suite::PerTransition => "per-transition",
            Suite::MaximalWords => "maximal-words",
            Suite::Chained => "chained",
            Suite::ChainedKnown => "chained-known",
        }
    }
}

impl std::str::FromStr for Suite {
    type Err = String;

    fn from_str(text: &str) -> Result<Suite, String> {
        Suite::ALL
            .into_iter()
            .find(|it| it.name() == text)
            .ok_or_else(|| {
                let names: Vec<&str> = Suite::ALL.iter().map(|it| it.name()).collect();
                format!("unknown test suite `{text}` (suites: {})", names.join(", "))
            })
    }
}

/// How many chained runs are asked at once: a batch stops at its first counterexample, and
/// a round that finds one early should not have run the whole suite.
const CHAINED_BATCH: usize = 8;

/// Algorithm 2 with distinguisher bound `bound`.
#[derive(Clone, Debug)]
pub struct DistinguisherBound {
    bound: usize,
    quiet_is_noop: bool,
    suite: Suite,
    /// The traces observed so far, which [`Suite::ChainedKnown`] counts as runs made.
    known: Option<Arc<PrefixTree>>,
}

impl DistinguisherBound {
    /// The oracle for distinguisher bound `bound` (DroidStar used 2).
    pub fn new(bound: usize) -> DistinguisherBound {
        DistinguisherBound {
            bound,
            quiet_is_noop: false,
            suite: Suite::PerTransition,
            known: None,
        }
    }

    /// The same oracle, reading the traces observed so far from `tree`.
    /// Only [`Suite::ChainedKnown`] uses them; without a tree it plans as [`Suite::Chained`].
    pub fn knowing(self, tree: Arc<PrefixTree>) -> DistinguisherBound {
        DistinguisherBound {
            known: Some(tree),
            ..self
        }
    }

    /// The same oracle, running its test words as `suite` says.
    pub fn with_suite(self, suite: Suite) -> DistinguisherBound {
        DistinguisherBound { suite, ..self }
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

impl DistinguisherBound {
    /// The round's batches: line 4's words (the output of every transition), then, for every
    /// transition checked, its words and its target's up to the bound (lines 5 to 10).
    fn batches(&self, hypothesis: &Hypothesis) -> Vec<Vec<Word>> {
        let mealy = &hypothesis.mealy;
        let inputs = &mealy.inputs;
        let transitions: Vec<(u32, usize)> = (0..mealy.n_states() as u32)
            .flat_map(|state| (0..inputs.len()).map(move |column| (state, column)))
            .collect();
        let mut batches = vec![transitions
            .iter()
            .map(|&(state, column)| concat(&hypothesis.access[state as usize], &[inputs[column]]))
            .collect::<Vec<Word>>()];
        // Shorter suffixes are prefixes of these, which the cache answers from them.
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
            batches.push(
                suffixes
                    .iter()
                    .flat_map(|suffix| [concat(&source, suffix), concat(representative, suffix)])
                    .collect(),
            );
        }
        batches
    }
}

impl DistinguisherBound {
    /// The fewest runs any learner executes whose result `hypothesis` this oracle accepts:
    /// the round's words, each cut after its first `err` (the system answers as the
    /// hypothesis on them, and after `err` only `err`), that are no proper prefix of another.
    /// Each must be a prefix of a run, and no run holds two of them.
    /// This counts every run, learning's included, however the runs are ordered or extended.
    pub fn runs_floor(&self, hypothesis: &Hypothesis) -> usize {
        let mut words: Vec<Word> = self
            .batches(hypothesis)
            .into_iter()
            .flatten()
            .map(|word| match first_err(&hypothesis.outputs(&word)) {
                Some(err) => word[..=err].to_vec(),
                None => word,
            })
            .collect();
        words.sort();
        words.dedup();
        let prefixes: HashSet<&[Input]> = words
            .iter()
            .flat_map(|word| (0..word.len()).map(move |length| &word[..length]))
            .collect();
        words
            .iter()
            .filter(|word| !prefixes.contains(word.as_slice()))
            .count()
    }
}

/// `batches` less every word that is a proper prefix of a word of any batch.
fn maximal_words(batches: Vec<Vec<Word>>) -> Vec<Vec<Word>> {
    let prefixes: HashSet<&[Input]> = batches
        .iter()
        .flatten()
        .flat_map(|word| (0..word.len()).map(move |length| &word[..length]))
        .collect();
    let kept: Vec<Vec<Word>> = batches
        .iter()
        .map(|batch| {
            batch
                .iter()
                .filter(|word| !prefixes.contains(word.as_slice()))
                .cloned()
                .collect()
        })
        .collect();
    kept
}

impl EquivalenceOracle for DistinguisherBound {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let known = match (self.suite, &self.known) {
            (Suite::ChainedKnown, Some(tree)) => {
                let traces = tree.maximal_traces(&hypothesis.mealy.inputs);
                // A trace that answers otherwise is a counterexample already.
                if let Some((word, outputs)) = traces
                    .iter()
                    .find(|(word, outputs)| hypothesis.outputs(word) != *outputs)
                {
                    return Ok(Some(Counterexample {
                        word: word.clone(),
                        outputs: outputs.clone(),
                    }));
                }
                traces.into_iter().map(|(word, _)| word).collect()
            }
            _ => Vec::new(),
        };
        let batches = match self.suite {
            Suite::PerTransition => self.batches(hypothesis),
            Suite::MaximalWords => maximal_words(self.batches(hypothesis)),
            Suite::Chained | Suite::ChainedKnown => {
                chained_runs(hypothesis, self.bound, self.quiet_is_noop, &known)
                    .chunks(CHAINED_BATCH)
                    .map(<[Word]>::to_vec)
                    .collect()
            }
        };
        for words in batches {
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
