//! L* for Mealy machines (paper 002, Algorithm 1) with Rivest–Schapire counterexample
//! processing: a binary search over the counterexample finds one distinguishing suffix, which
//! becomes a new column. Rows of short prefixes therefore stay pairwise distinct, and no
//! consistency check is needed.
//!
//! The table is filled in batches (one per closing step), so the query engine can run a
//! table's queries in parallel and skip extensions of `err` prefixes.

mod table;

use std::sync::Arc;

use crate::closure::{Alphabet, Word};
use crate::equivalence::Counterexample;
use crate::hypothesis::Hypothesis;
use crate::oracle::{answer_one, MembershipOracle, QueryError};
use table::Table;

/// The state of an L* run.
pub struct LStar {
    alphabet: Arc<Alphabet>,
    table: Table,
}

impl LStar {
    /// A learner over `alphabet`, with `S = {ε}` and `E` the single inputs.
    pub fn new(alphabet: Arc<Alphabet>) -> LStar {
        let table = Table::new(&alphabet.inputs);
        LStar { alphabet, table }
    }

    /// Fills and closes the initial table.
    pub async fn start<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        self.close(mq).await
    }

    /// The hypothesis of the closed table.
    pub fn hypothesis(&self) -> Hypothesis {
        self.table.hypothesis(&self.alphabet.inputs)
    }

    /// Adds the suffix the counterexample reveals and closes the table again.
    pub async fn refine<M: MembershipOracle>(
        &mut self,
        mq: &M,
        counterexample: &Counterexample,
    ) -> Result<(), QueryError> {
        let hypothesis = self.hypothesis();
        let suffix = self
            .distinguishing_suffix(mq, &hypothesis, counterexample)
            .await?;
        self.table.add_suffix(suffix);
        self.close(mq).await
    }

    async fn close<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        loop {
            let missing = self.table.missing_queries(&self.alphabet.inputs);
            let answers = mq.answer(&missing).await?;
            self.table.record(&self.alphabet.inputs, &missing, &answers);
            match self.table.unclosed_row(&self.alphabet.inputs) {
                Some(prefix) => self.table.add_prefix(prefix),
                None => return Ok(()),
            }
        }
    }

    /// Rivest–Schapire: the suffix `v` of `w = u·a·v` such that the access words of the
    /// hypothesis states after `u` and `u·a` disagree on `v`.
    async fn distinguishing_suffix<M: MembershipOracle>(
        &self,
        mq: &M,
        hypothesis: &Hypothesis,
        counterexample: &Counterexample,
    ) -> Result<Word, QueryError> {
        let word = &counterexample.word;
        // agrees(i): hypothesis outputs on w[..i], then the system from access(δ(w[..i]))
        // on w[i..], equal the system's outputs on w. True at 0, false at |w|.
        let hypothesis_outputs = hypothesis.outputs(word);
        let (mut low, mut high) = (0, word.len());
        while high - low > 1 {
            let middle = (low + high) / 2;
            let access = &hypothesis.access
                [hypothesis.state_after(&self.alphabet, &word[..middle]) as usize];
            let mut query = access.clone();
            query.extend_from_slice(&word[middle..]);
            let outputs = answer_one(mq, query).await?;
            let agrees = hypothesis_outputs[..middle] == counterexample.outputs[..middle]
                && outputs[access.len()..] == counterexample.outputs[middle..];
            if agrees {
                low = middle;
            } else {
                high = middle;
            }
        }
        Ok(word[high..].to_vec())
    }
}
