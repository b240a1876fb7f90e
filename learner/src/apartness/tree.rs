//! The observation tree: every word observed, as a tree of nodes with one child per input,
//! and apartness between its nodes.
//!
//! Below an `err` output everything is `err` (the closure), so a node reached through `err` is dead.
//! [`ObservationTree::is_dead`] says so.
//! Apartness treats every input of a dead node as answered `err` even where the tree stores nothing.
//! That makes apartness with
//! states that have errors free: a live node that answers anything but `err` is apart from a
//! dead one.

use crate::closure::{Alphabet, Output, OutputWord};
use crate::oracle::tree::PrefixTree;

/// A node of the tree: the word that reaches it.
pub(crate) type Node = usize;

/// Observations as a tree: an L# run's own, or the query engine's cache read back.
pub(crate) struct ObservationTree {
    width: usize,
    /// `children[node * width + column]` is the child and the output of the edge.
    children: Vec<Option<(Node, Output)>>,
    parent: Vec<Option<(Node, usize)>>,
    dead: Vec<bool>,
}

pub(crate) const ROOT: Node = 0;

impl ObservationTree {
    pub(crate) fn new(width: usize) -> ObservationTree {
        ObservationTree {
            width,
            children: vec![None; width],
            parent: vec![None],
            dead: vec![false],
        }
    }

    /// The traces of the query engine's prefix tree over the inputs of `alphabet`.
    pub(crate) fn from_prefix_tree(traces: &PrefixTree, alphabet: &Alphabet) -> ObservationTree {
        let mut tree = ObservationTree::new(alphabet.inputs.len());
        for (word, outputs) in traces.maximal_traces(&alphabet.inputs) {
            let columns = alphabet
                .columns(&word)
                .expect("the traces follow the alphabet's inputs");
            tree.insert(&columns, &outputs);
        }
        tree
    }

    /// Number of inputs.
    pub(crate) fn width(&self) -> usize {
        self.width
    }

    /// Number of nodes, the root included; nodes are `0..len()`.
    pub(crate) fn len(&self) -> usize {
        self.parent.len()
    }

    /// The child of `node` on `column`, with the edge's output, if observed.
    pub(crate) fn child(&self, node: Node, column: usize) -> Option<(Node, Output)> {
        self.children[node * self.width + column]
    }

    /// What `node` answers on `column`: the observed edge, or for a dead node the `err` the
    /// closure implies (staying at the node itself).
    fn step(&self, node: Node, column: usize) -> Option<(Node, Output)> {
        self.child(node, column)
            .or_else(|| self.dead[node].then_some((node, Output::Err)))
    }

    /// Whether `node` lies below an `err`.
    pub(crate) fn is_dead(&self, node: Node) -> bool {
        self.dead[node]
    }

    /// Stores the trace of a word of columns.
    pub(crate) fn insert(&mut self, columns: &[usize], outputs: &OutputWord) {
        let mut node = ROOT;
        for (&column, &output) in columns.iter().zip(outputs) {
            node = match self.child(node, column) {
                Some((child, _)) => child,
                None => {
                    let child = self.parent.len();
                    self.parent.push(Some((node, column)));
                    self.dead.push(self.dead[node] || output == Output::Err);
                    self.children.extend(std::iter::repeat_n(None, self.width));
                    self.children[node * self.width + column] = Some((child, output));
                    child
                }
            };
        }
    }

    /// The node a word of columns reaches, if it is in the tree.
    pub(crate) fn node(&self, columns: &[usize]) -> Option<Node> {
        columns.iter().try_fold(ROOT, |node, &column| {
            self.child(node, column).map(|it| it.0)
        })
    }

    /// The columns of the word reaching `node`.
    pub(crate) fn access(&self, node: Node) -> Vec<usize> {
        let mut columns = Vec::new();
        let mut current = node;
        while let Some((parent, column)) = self.parent[current] {
            columns.push(column);
            current = parent;
        }
        columns.reverse();
        columns
    }

    /// A shortest word (as columns) answered from both nodes whose outputs differ.
    ///
    /// A breadth-first search over pairs of nodes, each pair kept with the pair and column
    /// it came from, so a word is built only for the witness.
    /// A pair with a live node is reached by one word only (the tree's path to that node),
    /// so only pairs of two dead nodes, which the closure's `err` loops revisit, are
    /// remembered as seen.
    pub(crate) fn witness(&self, a: Node, b: Node) -> Option<Vec<usize>> {
        // (x, y, the index of the pair it came from and the column, if not the start)
        let mut pairs = vec![(a, b, None::<(usize, usize)>)];
        let mut seen_dead = std::collections::HashSet::new();
        if self.dead[a] && self.dead[b] {
            seen_dead.insert((a, b));
        }
        let mut next = 0;
        while let Some(&(x, y, _)) = pairs.get(next) {
            for column in 0..self.width {
                let (Some((cx, ox)), Some((cy, oy))) = (self.step(x, column), self.step(y, column))
                else {
                    continue;
                };
                if ox != oy {
                    let mut word = vec![column];
                    let mut from = next;
                    while let (_, _, Some((parent, column))) = pairs[from] {
                        word.push(column);
                        from = parent;
                    }
                    word.reverse();
                    return Some(word);
                }
                if !(self.dead[cx] && self.dead[cy]) || seen_dead.insert((cx, cy)) {
                    pairs.push((cx, cy, Some((next, column))));
                }
            }
            next += 1;
        }
        None
    }

    /// Whether the two nodes are apart: some word shows different outputs.
    pub(crate) fn apart(&self, a: Node, b: Node) -> bool {
        self.witness(a, b).is_some()
    }

    /// The outputs the tree knows for `word` from `node`, up to the first unobserved input.
    pub(crate) fn outputs_from(&self, node: Node, word: &[usize]) -> OutputWord {
        let mut outputs = Vec::with_capacity(word.len());
        let mut current = node;
        for &column in word {
            let Some((next, output)) = self.step(current, column) else {
                break;
            };
            outputs.push(output);
            current = next;
        }
        outputs
    }

    /// The node `word` reaches from `node`, if every input of it is observed (or implied
    /// `err` below an `err`).
    pub(crate) fn reached(&self, node: Node, word: &[usize]) -> Option<Node> {
        word.iter().try_fold(node, |current, &column| {
            self.step(current, column).map(|it| it.0)
        })
    }

    /// The word of a node's access followed by `suffix`.
    pub(crate) fn extend(&self, node: Node, suffix: &[usize]) -> Vec<usize> {
        let mut columns = self.access(node);
        columns.extend_from_slice(suffix);
        columns
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_dead_node_is_apart_from_a_node_that_answers_anything_but_err() {
        let mut tree = ObservationTree::new(2);
        tree.insert(&[0, 0], &vec![Output::Eps, Output::Err]);
        tree.insert(&[1, 0], &vec![Output::Eps, Output::Eps]);
        let dead = tree.node(&[0, 0]).unwrap();
        let live = tree.node(&[1]).unwrap();
        assert!(tree.is_dead(dead));
        // `[0]` answers err on 0, `[1]` answers eps on 0.
        assert_eq!(tree.witness(tree.node(&[0]).unwrap(), live), Some(vec![0]));
        assert_eq!(tree.witness(dead, live), Some(vec![0]));
        assert_eq!(tree.outputs_from(dead, &[1, 1]), vec![Output::Err; 2]);
    }
}
