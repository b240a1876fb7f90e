//! The cache layer: answers from the prefix tree, executes only the longest of the missing
//! queries of a batch, and stores every answer.

use std::sync::Arc;

use crate::closure::{OutputWord, Word};
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// Answers queries from a shared [`PrefixTree`], asking `inner` only for what it lacks.
pub struct Cache<M> {
    inner: M,
    tree: Arc<PrefixTree>,
}

impl<M: MembershipOracle> Cache<M> {
    /// Caches `inner` in `tree`.
    pub fn new(inner: M, tree: Arc<PrefixTree>) -> Cache<M> {
        Cache { inner, tree }
    }

    /// The layer below, which answers what the tree does not hold.
    pub fn inner(&self) -> &M {
        &self.inner
    }
}

impl<M: MembershipOracle> MembershipOracle for Cache<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        // Execute in rounds, one query per unexplored branch: an `err` found in one round
        // closes the other queries of its branch, which the err closure below then answers.
        loop {
            let mut missing: Vec<Word> = queries
                .iter()
                .filter(|query| self.tree.lookup(query).is_none())
                .cloned()
                .collect();
            if missing.is_empty() {
                break;
            }
            let round = one_per_branch(&self.tree, maximal_words(&mut missing));
            let answers = self.inner.answer(&round).await?;
            for (word, outputs) in round.iter().zip(&answers) {
                self.tree.insert(word, outputs);
            }
        }
        Ok(queries
            .iter()
            .map(|query| {
                self.tree
                    .lookup(query)
                    .expect("every query is a prefix of a stored word")
            })
            .collect())
    }
}

/// One word for each first unknown node of `words`: words that leave the tree at the same
/// node share an unexplored prefix, and running one of them first may close the others.
fn one_per_branch(tree: &PrefixTree, words: Vec<Word>) -> Vec<Word> {
    let mut branches = std::collections::HashSet::new();
    words
        .into_iter()
        .filter(|word| {
            let known = tree.known_prefix(word).len();
            branches.insert(word[..=known.min(word.len() - 1)].to_vec())
        })
        .collect()
}

/// The words of `words` that are no proper prefix of another, each once, in sorted order.
fn maximal_words(words: &mut [Word]) -> Vec<Word> {
    words.sort();
    let mut maximal: Vec<Word> = Vec::new();
    for (index, word) in words.iter().enumerate() {
        let extended = words[index + 1..]
            .first()
            .is_some_and(|next| next.starts_with(word));
        if !extended && maximal.last() != Some(word) {
            maximal.push(word.clone());
        }
    }
    maximal
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::closure::Input;

    #[test]
    fn only_maximal_words_are_executed() {
        let a = Input::Wait;
        let b = Input::Callin(typestates::CallinId(0));
        let mut words = vec![vec![a, b], vec![a], vec![b], vec![a, b], vec![a, a]];
        assert_eq!(
            maximal_words(&mut words),
            vec![vec![b], vec![a, b], vec![a, a]]
        );
    }
}
