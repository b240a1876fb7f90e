//! Equivalence oracles built from membership queries.
//!
//! An [`EquivalenceOracle`] looks for a word on which the hypothesis and the system answer
//! differently.
//! Finding none is **not** a proof of equivalence.
//! It is one only under the oracle's assumption.
//! That is a distinguisher bound for [`DistinguisherBound`], a state bound for [`StateBound`] and
//! [`WMethod`].
//! [`CacheConsistency`] checks everything already observed, for free, and [`Chain`] tries oracles
//! in order.

mod beyond;
mod cache_consistency;
mod chained;
mod distinguisher_bound;
mod state_bound;
mod w_method;

use std::future::Future;

pub use beyond::Beyond;
pub use cache_consistency::CacheConsistency;
pub use distinguisher_bound::{DistinguisherBound, Suite};
pub use state_bound::StateBound;
pub use w_method::WMethod;

use crate::closure::{OutputWord, Word};
use crate::hypothesis::Hypothesis;
use crate::oracle::{MembershipOracle, QueryError};

/// A word on which hypothesis and system differ, with the system's outputs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Counterexample {
    /// The inputs.
    pub word: Word,
    /// What the system answered.
    pub outputs: OutputWord,
}

/// Looks for counterexamples to a hypothesis by asking membership queries.
pub trait EquivalenceOracle: Send {
    /// A counterexample, or `None` if the oracle found none (not a proof of equivalence).
    fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> impl Future<Output = Result<Option<Counterexample>, QueryError>> + Send;

    /// The distinguisher bound this oracle's verdict rests on, for the statistics.
    fn distinguisher_bound(&self) -> Option<u32> {
        None
    }
}

/// Asks `first`, then `second` if `first` finds nothing.
pub struct Chain<A, B>(pub A, pub B);

impl<A: EquivalenceOracle, B: EquivalenceOracle> EquivalenceOracle for Chain<A, B> {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        match self.0.find_counterexample(hypothesis, mq).await? {
            Some(counterexample) => Ok(Some(counterexample)),
            None => self.1.find_counterexample(hypothesis, mq).await,
        }
    }

    fn distinguisher_bound(&self) -> Option<u32> {
        self.0
            .distinguisher_bound()
            .or(self.1.distinguisher_bound())
    }
}

/// The first of `words` whose system outputs differ from the hypothesis's, asked in one batch.
pub(crate) async fn first_disagreement<M: MembershipOracle>(
    hypothesis: &Hypothesis,
    mq: &M,
    words: Vec<Word>,
) -> Result<Option<Counterexample>, QueryError> {
    let answers = mq.answer(&words).await?;
    Ok(words
        .into_iter()
        .zip(answers)
        .find(|(word, outputs)| hypothesis.outputs(word) != *outputs)
        .map(|(word, outputs)| Counterexample { word, outputs }))
}
