//! A prefix tree of observed traces, shared by the cache, the error closure and the
//! non-determinism check, and safe to use from parallel tasks.
//!
//! Every node is a word of inputs; an edge carries the output of its input.
//! A query stored here answers all its prefixes.

use std::sync::atomic::{AtomicU32, Ordering};

use dashmap::DashMap;

use crate::closure::{Input, Output, OutputWord, Word};

/// The observed traces as a tree of (node, input) → (child, output) edges.
#[derive(Debug)]
pub struct PrefixTree {
    edges: DashMap<(u32, Input), (u32, Output)>,
    n_nodes: AtomicU32,
}

impl Default for PrefixTree {
    fn default() -> PrefixTree {
        PrefixTree {
            edges: DashMap::new(),
            n_nodes: AtomicU32::new(1),
        }
    }
}

const ROOT: u32 = 0;

/// A node and whether it lies below an `err`.
type Position = (u32, bool);

impl PrefixTree {
    /// The outputs along the longest prefix of `word` in the tree.
    pub fn known_prefix(&self, word: &[Input]) -> OutputWord {
        let mut node = ROOT;
        let mut outputs = Vec::new();
        for input in word {
            match self.edges.get(&(node, *input)) {
                Some(edge) => {
                    node = edge.0;
                    outputs.push(edge.1);
                }
                None => break,
            }
        }
        outputs
    }

    /// The outputs of `word` if the whole word is in the tree.
    pub fn lookup(&self, word: &[Input]) -> Option<OutputWord> {
        let outputs = self.known_prefix(word);
        (outputs.len() == word.len()).then_some(outputs)
    }

    /// The first position where `outputs` disagrees with the tree, with the tree's outputs up
    /// to and including that position.
    pub fn first_conflict(
        &self,
        word: &[Input],
        outputs: &[Output],
    ) -> Option<(usize, OutputWord)> {
        let known = self.known_prefix(word);
        let position = known.iter().zip(outputs).position(|(a, b)| a != b)?;
        Some((position, known[..=position].to_vec()))
    }

    /// Stores a trace. Outputs already in the tree are kept: check [`Self::first_conflict`]
    /// first when the trace may disagree.
    pub fn insert(&self, word: &[Input], outputs: &[Output]) {
        let mut node = ROOT;
        for (input, output) in word.iter().zip(outputs) {
            let edge = *self
                .edges
                .entry((node, *input))
                .or_insert_with(|| (self.n_nodes.fetch_add(1, Ordering::Relaxed), *output));
            node = edge.0;
        }
    }

    /// Replaces what the tree holds for `word` by `outputs`: the first edge that disagrees is
    /// cut, with every trace below it, and the trace stored in its place.
    pub fn correct(&self, word: &[Input], outputs: &[Output]) {
        if let Some((position, _)) = self.first_conflict(word, outputs) {
            let node = word[..position].iter().fold(ROOT, |node, input| {
                self.edges.get(&(node, *input)).expect("a stored prefix").0
            });
            self.edges.remove(&(node, word[position]));
        }
        self.insert(word, outputs);
    }

    /// A shortest word on which the tree shows different outputs after `a` and after `b`.
    ///
    /// The closure is applied: below an `err` every input answers `err`, stored or not, so a
    /// word that reaches `err` is apart from every word that answers anything else.
    pub fn witness(&self, a: &[Input], b: &[Input], inputs: &[Input]) -> Option<Word> {
        let (a, b) = (self.position(a)?, self.position(b)?);
        let mut queue = std::collections::VecDeque::from([(a, b, Word::new())]);
        let mut seen = std::collections::HashSet::from([(a, b)]);
        while let Some((x, y, word)) = queue.pop_front() {
            for input in inputs {
                let (Some((cx, ox)), Some((cy, oy))) = (self.step(x, *input), self.step(y, *input))
                else {
                    continue;
                };
                let mut next = word.clone();
                next.push(*input);
                if ox != oy {
                    return Some(next);
                }
                if seen.insert((cx, cy)) {
                    queue.push_back((cx, cy, next));
                }
            }
        }
        None
    }

    /// The node `word` reaches and whether it lies below an `err`, if the word is stored.
    fn position(&self, word: &[Input]) -> Option<Position> {
        word.iter().try_fold((ROOT, false), |position, input| {
            self.step(position, *input).map(|it| it.0)
        })
    }

    /// One input from a position: the stored edge, or `err` in place below an `err`.
    fn step(&self, (node, dead): Position, input: Input) -> Option<(Position, Output)> {
        match self.edges.get(&(node, input)) {
            Some(edge) => Some(((edge.0, dead || edge.1 == Output::Err), edge.1)),
            None => dead.then_some(((node, true), Output::Err)),
        }
    }

    /// Number of words stored, the empty word included.
    pub fn n_nodes(&self) -> usize {
        self.n_nodes.load(Ordering::Relaxed) as usize
    }

    /// Every maximal trace in the tree (a word no stored word extends), found by depth-first
    /// search over `inputs`.
    pub fn maximal_traces(&self, inputs: &[Input]) -> Vec<(Word, OutputWord)> {
        let mut traces = Vec::new();
        let mut stack = vec![(ROOT, Word::new(), OutputWord::new())];
        while let Some((node, word, outputs)) = stack.pop() {
            let mut leaf = true;
            for input in inputs.iter().rev() {
                if let Some(edge) = self.edges.get(&(node, *input)) {
                    leaf = false;
                    let mut next_word = word.clone();
                    next_word.push(*input);
                    let mut next_outputs = outputs.clone();
                    next_outputs.push(edge.1);
                    stack.push((edge.0, next_word, next_outputs));
                }
            }
            if leaf && !word.is_empty() {
                traces.push((word, outputs));
            }
        }
        traces
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_stored_word_answers_its_prefixes_and_reports_conflicts() {
        let tree = PrefixTree::default();
        let word = vec![Input::Wait, Input::Wait];
        tree.insert(&word, &[Output::Quiet, Output::Quiet]);
        assert_eq!(tree.lookup(&word[..1]), Some(vec![Output::Quiet]));
        assert_eq!(tree.lookup(&[Input::Wait; 3]), None);
        assert_eq!(
            tree.first_conflict(&word, &[Output::Quiet, Output::Err]),
            Some((1, vec![Output::Quiet, Output::Quiet]))
        );
        assert_eq!(tree.maximal_traces(&[Input::Wait]).len(), 1);
    }
}
