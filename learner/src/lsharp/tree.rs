//! The observation tree of L#: every word asked, as a tree of nodes with one child per
//! input, and apartness between its nodes.
//!
//! Below an `err` output everything is `err` (the closure), so a node reached through `err`
//! is never extended: [`ObservationTree::is_dead`] says so.

use crate::closure::{Output, OutputWord};

/// A node of the tree: the word that reaches it.
pub(super) type Node = usize;

/// The observations of an L# run.
pub(super) struct ObservationTree {
    width: usize,
    /// `children[node * width + column]` is the child and the output of the edge.
    children: Vec<Option<(Node, Output)>>,
    parent: Vec<Option<(Node, usize)>>,
    dead: Vec<bool>,
}

pub(super) const ROOT: Node = 0;

impl ObservationTree {
    pub(super) fn new(width: usize) -> ObservationTree {
        ObservationTree {
            width,
            children: vec![None; width],
            parent: vec![None],
            dead: vec![false],
        }
    }

    /// The child of `node` on `column`, with the edge's output.
    pub(super) fn child(&self, node: Node, column: usize) -> Option<(Node, Output)> {
        self.children[node * self.width + column]
    }

    /// Whether `node` lies below an `err`.
    pub(super) fn is_dead(&self, node: Node) -> bool {
        self.dead[node]
    }

    /// Stores the trace of a word of columns.
    pub(super) fn insert(&mut self, columns: &[usize], outputs: &OutputWord) {
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
    pub(super) fn node(&self, columns: &[usize]) -> Option<Node> {
        columns.iter().try_fold(ROOT, |node, &column| {
            self.child(node, column).map(|it| it.0)
        })
    }

    /// The columns of the word reaching `node`.
    pub(super) fn access(&self, node: Node) -> Vec<usize> {
        let mut columns = Vec::new();
        let mut current = node;
        while let Some((parent, column)) = self.parent[current] {
            columns.push(column);
            current = parent;
        }
        columns.reverse();
        columns
    }

    /// A shortest word (as columns) defined from both nodes whose outputs differ.
    pub(super) fn witness(&self, a: Node, b: Node) -> Option<Vec<usize>> {
        let mut queue = std::collections::VecDeque::from([(a, b, Vec::new())]);
        while let Some((x, y, word)) = queue.pop_front() {
            for column in 0..self.width {
                let (Some((cx, ox)), Some((cy, oy))) =
                    (self.child(x, column), self.child(y, column))
                else {
                    continue;
                };
                let mut next: Vec<usize> = word.clone();
                next.push(column);
                if ox != oy {
                    return Some(next);
                }
                queue.push_back((cx, cy, next));
            }
        }
        None
    }

    /// Whether the two nodes are apart: some word shows different outputs.
    pub(super) fn apart(&self, a: Node, b: Node) -> bool {
        self.witness(a, b).is_some()
    }

    /// The word of a node's access followed by `suffix`.
    pub(super) fn extend(&self, node: Node, suffix: &[usize]) -> Vec<usize> {
        let mut columns = self.access(node);
        columns.extend_from_slice(suffix);
        columns
    }
}
