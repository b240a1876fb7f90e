//! The non-determinism check: a trace that contradicts an earlier one is rerun once to
//! confirm. When the rerun agrees with what was seen before, the contradiction was a one-off
//! (a callback late past the quiescence timeout on a loaded machine) and the rerun's answer
//! stands; when the rerun contradicts it too, the behaviour is reported with both traces, the
//! rerun and the input prefix where they part, and learning stops.
//!
//! The report is an error of the query, so learning stops cleanly with it (and with the
//! hypothesis so far) instead of crashing and losing results, which is what DroidStar did.

use std::fmt;
use std::sync::Arc;

use crate::closure::{Alphabet, Input, Output, OutputWord, Word};
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// Two observations of the same inputs with different outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NonDeterminism {
    /// The inputs up to and including the first one answered differently.
    pub prefix: Word,
    /// The outputs observed first.
    pub earlier: OutputWord,
    /// The outputs observed later.
    pub later: OutputWord,
    /// The outputs of the confirming rerun.
    pub rerun: OutputWord,
    /// The report in words, with the alphabet's names.
    pub description: String,
}

impl fmt::Display for NonDeterminism {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.description)
    }
}

/// Compares every answer of `inner` with the traces seen before and with the rest of its batch.
pub struct NdCheck<M> {
    inner: M,
    tree: Arc<PrefixTree>,
    alphabet: Arc<Alphabet>,
}

impl<M: MembershipOracle> NdCheck<M> {
    /// Checks the answers of `inner` against `tree`.
    pub fn new(inner: M, tree: Arc<PrefixTree>, alphabet: Arc<Alphabet>) -> NdCheck<M> {
        NdCheck {
            inner,
            tree,
            alphabet,
        }
    }

    async fn report(
        &self,
        word: &[Input],
        position: usize,
        earlier: OutputWord,
        later: &[Output],
    ) -> QueryError {
        let prefix = word[..=position].to_vec();
        let rerun = match self.inner.answer(std::slice::from_ref(&prefix)).await {
            Ok(mut answers) => answers.pop().expect("one answer per query"),
            Err(error) => return error,
        };
        let later = later[..=position].to_vec();
        let confirmed = if rerun == later {
            "the rerun repeats the later trace"
        } else if rerun == earlier {
            "the rerun repeats the earlier trace"
        } else {
            "the rerun gives a third trace"
        };
        let description = format!(
            "non-deterministic behaviour after `{}`: first `{}`, then `{}`; {}: `{}`",
            self.alphabet.render_word(&prefix),
            self.alphabet.render_trace(&prefix, &earlier),
            self.alphabet.render_trace(&prefix, &later),
            confirmed,
            self.alphabet.render_trace(&prefix, &rerun),
        );
        QueryError::NonDeterminism(Box::new(NonDeterminism {
            prefix,
            earlier,
            later,
            rerun,
            description,
        }))
    }
}

impl<M: MembershipOracle> NdCheck<M> {
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
}

impl<M: MembershipOracle> MembershipOracle for NdCheck<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        let mut answers = self.inner.answer(queries).await?;
        let batch = PrefixTree::default();
        for (word, outputs) in queries.iter().zip(answers.iter_mut()) {
            if self.conflict(&batch, word, outputs).is_some() {
                let rerun = self
                    .inner
                    .answer(std::slice::from_ref(word))
                    .await?
                    .pop()
                    .expect("one answer per query");
                if let Some((position, earlier)) = self.conflict(&batch, word, &rerun) {
                    return Err(self.report(word, position, earlier, &rerun).await);
                }
                *outputs = rerun;
            }
            batch.insert(word, outputs);
        }
        Ok(answers)
    }
}
