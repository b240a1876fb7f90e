//! A membership-oracle decorator that only counts the queries and symbols passing through.
//!
//! One sits on top of the pipeline and counts the queries the learner asked.
//! One sits above the system adaptor and counts the queries executed.
//! So the "MQ asked (executed)" column is honest by construction.

use std::sync::Arc;

use crate::closure::{OutputWord, Word};
use crate::oracle::sul::Counts;
use crate::oracle::{MembershipOracle, QueryError};

/// Counts queries and their symbols into shared [`Counts`], then asks `inner`.
pub struct Counter<M> {
    inner: M,
    counts: Arc<Counts>,
}

impl<M: MembershipOracle> Counter<M> {
    /// Wraps `inner`, counting into `counts`.
    pub fn new(inner: M, counts: Arc<Counts>) -> Counter<M> {
        Counter { inner, counts }
    }

    /// The layer below, which this one counts.
    pub fn inner(&self) -> &M {
        &self.inner
    }
}

impl<M: MembershipOracle> MembershipOracle for Counter<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        for query in queries {
            self.counts.add_query(query.len());
        }
        self.inner.answer(queries).await
    }
}
