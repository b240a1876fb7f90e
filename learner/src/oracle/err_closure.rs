//! The error-closure layer: no extension of a known `err` prefix is ever executed.
//!
//! After `err` every output is `err` (the Starling paper, §4.1).
//! So a query whose known prefix in the prefix tree ends in `err` is answered at once.

use std::sync::Arc;

use crate::closure::{extend_err, first_err, OutputWord, Word};
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// Answers extensions of `err` prefixes found in the tree; asks `inner` for the rest.
pub struct ErrClosure<M> {
    inner: M,
    tree: Arc<PrefixTree>,
}

impl<M: MembershipOracle> ErrClosure<M> {
    /// The layer below.
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// Closes `inner` under the `err` prefixes of `tree`.
    pub fn new(inner: M, tree: Arc<PrefixTree>) -> ErrClosure<M> {
        ErrClosure { inner, tree }
    }

    fn closed_answer(&self, query: &[crate::closure::Input]) -> Option<OutputWord> {
        let known = self.tree.known_prefix(query);
        let position = first_err(&known)?;
        Some(extend_err(&known[..=position], query.len()))
    }
}

impl<M: MembershipOracle> MembershipOracle for ErrClosure<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        let mut answers: Vec<Option<OutputWord>> = queries
            .iter()
            .map(|query| self.closed_answer(query))
            .collect();
        let open: Vec<Word> = queries
            .iter()
            .zip(&answers)
            .filter(|(_, answer)| answer.is_none())
            .map(|(query, _)| query.clone())
            .collect();
        if !open.is_empty() {
            let mut executed = self.inner.answer(&open).await?.into_iter();
            for answer in answers.iter_mut().filter(|it| it.is_none()) {
                *answer = executed.next();
            }
        }
        Ok(answers
            .into_iter()
            .map(|it| it.expect("every open query was answered"))
            .collect())
    }
}
