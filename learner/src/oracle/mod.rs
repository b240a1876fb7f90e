//! The query engine between a learner and the system under learning.
//!
//! Everything here is a [`MembershipOracle`]: a batched, asynchronous, fallible function from input
//! words to output words.
//! The pipeline is a stack of decorators, each doing one job, innermost first (see [`pipeline`]):
//!
//! | layer | job |
//! | --- | --- |
//! | [`sul::CountingSul`] | counts resets, callin steps and waits at the device |
//! | [`sul_oracle::SulOracle`] | runs queries on N system instances in parallel, extending the current run instead of resetting when it can, stopping at the first `err` |
//! | [`counter::Counter`] | counts executed queries |
//! | [`journal::Journal`] | appends every executed query to a synced JSON-lines file |
//! | [`nondeterminism::NdCheck`] | settles a trace that contradicts an earlier one by a majority of runs, or reports it |
//! | [`err_closure::ErrClosure`] | answers extensions of known `err` prefixes without executing them |
//! | [`filter::Filter`] | answers queries the experiment forbids, recording them as restrictions |
//! | [`cache::Cache`] | a prefix tree: one executed query answers all its prefixes |
//! | [`counter::Counter`] | counts queries asked |

pub mod cache;
pub mod counter;
pub mod err_closure;
pub mod filter;
pub mod journal;
pub mod nondeterminism;
pub mod pipeline;
pub mod sul;
pub mod sul_oracle;
pub mod tree;

use std::future::Future;

use thiserror::Error;

use crate::closure::{OutputWord, Word};
pub use journal::JournalError;
pub use nondeterminism::{Disagreement, Majority, NonDeterminism};
pub use sul::{Sul, SulError};

/// Answers membership queries of the synchronous closure, several at a time.
///
/// The answer to every query has one output per input and is closed after `err`. A batch
/// lets a backend run queries in parallel or pipeline them; callers should ask everything they
/// can in one batch.
pub trait MembershipOracle: Send + Sync {
    /// The outputs of each query, in the order asked.
    fn answer(
        &self,
        queries: &[Word],
    ) -> impl Future<Output = Result<Vec<OutputWord>, QueryError>> + Send;
}

impl<M: MembershipOracle> MembershipOracle for &M {
    fn answer(
        &self,
        queries: &[Word],
    ) -> impl Future<Output = Result<Vec<OutputWord>, QueryError>> + Send {
        (**self).answer(queries)
    }
}

/// Why a membership query could not be answered.
#[derive(Debug, Error)]
pub enum QueryError {
    /// The system failed while running a query (a crash, a lost device, a protocol error).
    #[error("the backend failed on query `{query}` after {executed} inputs: {source}")]
    Backend {
        /// The query, as input names.
        query: String,
        /// How many of its inputs had been executed.
        executed: usize,
        /// What the backend reported.
        #[source]
        source: SulError,
    },
    /// The system answered the same inputs differently; learning cannot go on.
    #[error("{0}")]
    NonDeterminism(Box<NonDeterminism>),
    /// A majority of runs contradicted an observation learning had already used; the
    /// observation is corrected, and learning must start again from what is known.
    #[error("learning used a trace that a majority of runs contradicts")]
    Relearn(Box<Disagreement>),
    /// The journal could not be written.
    #[error(transparent)]
    Journal(#[from] JournalError),
}

/// Asks one query.
pub async fn answer_one<M: MembershipOracle>(
    oracle: &M,
    query: Word,
) -> Result<OutputWord, QueryError> {
    let mut answers = oracle.answer(std::slice::from_ref(&query)).await?;
    Ok(answers.pop().expect("one answer per query"))
}
