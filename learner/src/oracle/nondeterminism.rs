//! The non-determinism check: a trace that contradicts an earlier one is settled by a vote.
//!
//! The disagreeing prefix is run again until one trace has the [`Majority`] of runs (3 by default).
//! The count includes the earlier and the later observation, and there are at most `2 × majority − 1` runs in all.
//! Every vote is listed ([`Disagreement`]).
//! When the earlier trace wins, the later answer was a one-off (a callback late past the quiescence timeout on a loaded machine).
//! The query is then run again and learning goes on.
//! When another trace wins, learning has built on a one-off.
//! The prefix tree takes the majority's trace and learning starts again from the tree
//! ([`QueryError::Relearn`]).
//! When no trace wins, the system is not deterministic: learning stops with a report of every
//! trace and its votes.
//!
//! The report is an error of the query, so learning stops cleanly with it (and with the hypothesis so far).
//! DroidStar crashed there instead and lost its results.

use std::fmt;
use std::sync::{Arc, Mutex};

use crate::closure::{Alphabet, Input, Output, OutputWord, Word};
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// How many runs of a disagreeing query must give the same trace to settle it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Majority(pub u32);

impl Default for Majority {
    fn default() -> Majority {
        Majority(3)
    }
}

impl Majority {
    /// The most runs a vote takes: any more could not make a majority.
    fn max_runs(self) -> u32 {
        2 * self.0.max(1) - 1
    }
}

/// The runs of one disagreeing query: each trace seen on its inputs, with how many runs gave
/// it, the trace the learner had already used first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Disagreement {
    /// The inputs up to and including the first one answered differently.
    pub prefix: Word,
    /// Every trace seen, with its number of runs; the first is the trace the learner used.
    pub votes: Vec<(OutputWord, u32)>,
    /// Runs executed to settle it, beyond the two that disagreed.
    pub reruns: u32,
}

impl Disagreement {
    /// The trace that has `majority` runs, if one has.
    pub fn winner(&self, majority: Majority) -> Option<&OutputWord> {
        self.votes
            .iter()
            .find(|(_, count)| *count >= majority.0)
            .map(|(trace, _)| trace)
    }

    /// The traces with their votes, in words.
    pub fn describe(&self, alphabet: &Alphabet) -> String {
        let traces = self
            .votes
            .iter()
            .map(|(trace, count)| {
                format!("`{}` ×{count}", alphabet.render_trace(&self.prefix, trace))
            })
            .collect::<Vec<_>>()
            .join(", ");
        format!("after `{}`: {traces}", alphabet.render_word(&self.prefix))
    }

    fn add(&mut self, trace: OutputWord) {
        match self.votes.iter_mut().find(|(seen, _)| *seen == trace) {
            Some((_, count)) => *count += 1,
            None => self.votes.push((trace, 1)),
        }
    }
}

/// A disagreement no trace won.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonDeterminism {
    /// The runs and their traces.
    pub disagreement: Disagreement,
    /// The report in words, with the alphabet's names.
    pub description: String,
}

impl fmt::Display for NonDeterminism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// Compares every answer of `inner` with the traces seen before and with the rest of its
/// batch, settling disagreements by a vote.
pub struct NdCheck<M> {
    inner: M,
    tree: Arc<PrefixTree>,
    alphabet: Arc<Alphabet>,
    majority: Majority,
    settled: Arc<Mutex<Vec<Disagreement>>>,
}

impl<M: MembershipOracle> NdCheck<M> {
    /// The layer below.
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// Checks the answers of `inner` against `tree`, recording settled disagreements in
    /// `settled`.
    pub fn new(
        inner: M,
        tree: Arc<PrefixTree>,
        alphabet: Arc<Alphabet>,
        majority: Majority,
        settled: Arc<Mutex<Vec<Disagreement>>>,
    ) -> NdCheck<M> {
        NdCheck {
            inner,
            tree,
            alphabet,
            majority,
            settled,
        }
    }

    /// The first place `outputs` contradicts the traces seen before or earlier answers of the
    /// same batch.
    fn conflict(
        &self,
        batch: &PrefixTree,
        word: &[Input],
        outputs: &[Output],
    ) -> Option<(usize, OutputWord)> {
        self.tree
            .first_conflict(word, outputs)
            .or_else(|| batch.first_conflict(word, outputs))
    }

    async fn run(&self, word: &[Input]) -> Result<OutputWord, QueryError> {
        let mut answers = self.inner.answer(&[word.to_vec()]).await?;
        Ok(answers.pop().expect("one answer per query"))
    }

    /// Runs `word` again until no answer contradicts what was seen, each contradiction
    /// settled by a vote that the earlier trace must win.
    async fn settle(
        &self,
        batch: &PrefixTree,
        word: &[Input],
        mut outputs: OutputWord,
    ) -> Result<OutputWord, QueryError> {
        while let Some((position, earlier)) = self.conflict(batch, word, &outputs) {
            let mut disagreement = Disagreement {
                prefix: word[..=position].to_vec(),
                votes: vec![(earlier.clone(), 1), (outputs[..=position].to_vec(), 1)],
                reruns: 0,
            };
            while disagreement.winner(self.majority).is_none()
                && disagreement.reruns + 2 < self.majority.max_runs()
            {
                disagreement.add(self.run(&disagreement.prefix).await?);
                disagreement.reruns += 1;
            }
            let winner = disagreement.winner(self.majority).cloned();
            self.settled
                .lock()
                .expect("no panic while holding the lock")
                .push(disagreement.clone());
            match winner {
                None => return Err(self.report(disagreement)),
                Some(winner) if winner != earlier => {
                    self.tree.correct(&disagreement.prefix, &winner);
                    return Err(QueryError::Relearn(Box::new(disagreement)));
                }
                Some(_) => outputs = self.run(word).await?,
            }
        }
        Ok(outputs)
    }

    fn report(&self, disagreement: Disagreement) -> QueryError {
        let description = format!(
            "non-deterministic behaviour {}; no trace has a majority of {} runs",
            disagreement.describe(&self.alphabet),
            self.majority.0
        );
        QueryError::NonDeterminism(Box::new(NonDeterminism {
            disagreement,
            description,
        }))
    }
}

impl<M: MembershipOracle> MembershipOracle for NdCheck<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        let answers = self.inner.answer(queries).await?;
        let batch = PrefixTree::default();
        let mut settled = Vec::with_capacity(answers.len());
        for (word, outputs) in queries.iter().zip(answers) {
            let outputs = self.settle(&batch, word, outputs).await?;
            batch.insert(word, &outputs);
            settled.push(outputs);
        }
        Ok(settled)
    }
}
