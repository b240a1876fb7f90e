//! L* for Mealy machines (the Starling paper, Algorithm 1) with Rivest–Schapire counterexample processing.
//! A binary search over the counterexample finds one distinguishing suffix, which becomes a new column.
//! Rows of short prefixes therefore stay pairwise distinct, and no
//! consistency check is needed.
//!
//! The table is filled in batches, one per closing step.
//! So the query engine can run a table's queries in parallel and skip extensions of `err` prefixes.
//!
//! [`LStar::k_tails`] starts with every word up to a distinguisher bound `k` as columns: the
//! k-tails of Biermann and Feldman (1972), asked actively.
//! A row is then a node's whole future up to `k` inputs.
//! The bound assumes that any two states are told apart within `k` inputs.
//! Under that assumption two rows are equal exactly when their nodes reach the same state, and the first closed table is the system.
//! Its queries are then Algorithm 2's test words for that hypothesis.
//! The rows `S·Σ` and `S` over the columns of `k` inputs are the words `R(q)·i·s` and `R(q')·s` that `DistinguisherBound` asks.
//! So the check finds them all in the cache and runs nothing.
//! Learning and checking together execute the check's maximal words, no more.
//! [`crate::equivalence::DistinguisherBound::runs_floor`] counts them: no learner whose result
//! Algorithm 2 accepts can go below.

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
    lookahead: Lookahead,
}

/// Whether each query runs one input beyond the table's need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Lookahead {
    /// Each query as the table needs it (L*).
    None,
    /// Each query extended by the alphabet's first input (k-tails): a row that becomes a
    /// state then has one word of each of its extensions' rows answered by the same runs,
    /// instead of runs those rows' longer words repeat.
    OneInput,
}

impl LStar {
    /// A learner over `alphabet`, with `S = {ε}` and `E` the single inputs.
    pub fn new(alphabet: Arc<Alphabet>) -> LStar {
        let table = Table::new(&alphabet.inputs, 1);
        LStar {
            alphabet,
            table,
            lookahead: Lookahead::None,
        }
    }

    /// A learner over `alphabet`, with `S = {ε}` and `E` every word of 1 to `k` inputs.
    /// Each query runs one input further, so a row that becomes a state needs no run again
    /// for the words its own rows' runs answer.
    pub fn k_tails(alphabet: Arc<Alphabet>, k: usize) -> LStar {
        let table = Table::new(&alphabet.inputs, k);
        LStar {
            alphabet,
            table,
            lookahead: Lookahead::OneInput,
        }
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
            let mut missing = self.table.missing_queries(&self.alphabet.inputs);
            if let (Lookahead::OneInput, Some(first)) =
                (self.lookahead, self.alphabet.inputs.first())
            {
                missing.iter_mut().for_each(|query| query.push(*first));
            }
            let answers = mq.answer(&missing).await?;
            self.table.record(&missing, &answers);
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
