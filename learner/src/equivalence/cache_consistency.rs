//! The free equivalence check: the hypothesis against every trace already in the cache.

use std::sync::Arc;

use crate::closure::Alphabet;
use crate::equivalence::{Counterexample, EquivalenceOracle};
use crate::hypothesis::Hypothesis;
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// Checks the hypothesis against the prefix tree; asks no query.
pub struct CacheConsistency {
    tree: Arc<PrefixTree>,
    alphabet: Arc<Alphabet>,
}

impl CacheConsistency {
    /// Checks against `tree`, whose words are over `alphabet`.
    pub fn new(tree: Arc<PrefixTree>, alphabet: Arc<Alphabet>) -> CacheConsistency {
        CacheConsistency { tree, alphabet }
    }
}

impl EquivalenceOracle for CacheConsistency {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        _mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        Ok(self
            .tree
            .maximal_traces(&self.alphabet.inputs)
            .into_iter()
            .find(|(word, outputs)| hypothesis.outputs(word) != *outputs)
            .map(|(word, outputs)| Counterexample { word, outputs }))
    }
}
