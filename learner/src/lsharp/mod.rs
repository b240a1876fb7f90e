//! L# (Vaandrager, Garhewal, Rot and Wißmann, TACAS 2022), error-aware: the learner keeps an
//! observation tree, a basis of pairwise apart nodes and their frontier, and asks only what
//! separates a frontier node from its candidate basis states.
//!
//! Error-aware: a transition observed to answer `err` leads to the error sink of the
//! hypothesis, and nothing below it is ever asked, identified or promoted.
//!
//! Rules, applied until none fires: extend every basis and frontier node by every input
//! (R2, widened to the frontier so no node is identified unseen on an input); promote a
//! frontier node apart from the whole basis (R1); ask a witness that separates two candidates
//! of a frontier node (R3). Then the hypothesis is built, and counterexamples are processed
//! by binary search on the tree (`process_counterexample`).

mod tree;

use std::sync::Arc;

use typestates::mealy::Mealy;

use crate::closure::{Alphabet, Output};
use crate::equivalence::Counterexample;
use crate::hypothesis::Hypothesis;
use crate::oracle::{MembershipOracle, QueryError};
use tree::{Node, ObservationTree, ROOT};

/// The state of an L# run.
pub struct LSharp {
    alphabet: Arc<Alphabet>,
    tree: ObservationTree,
    basis: Vec<Node>,
}

impl LSharp {
    /// A learner over `alphabet` whose basis is the root.
    pub fn new(alphabet: Arc<Alphabet>) -> LSharp {
        let tree = ObservationTree::new(alphabet.inputs.len());
        LSharp {
            alphabet,
            tree,
            basis: vec![ROOT],
        }
    }

    /// Explores until the first hypothesis is ready.
    pub async fn start<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        self.stabilise(mq).await
    }

    /// Adds a counterexample to the tree, processes it and explores again.
    pub async fn refine<M: MembershipOracle>(
        &mut self,
        mq: &M,
        counterexample: &Counterexample,
    ) -> Result<(), QueryError> {
        let columns = self
            .alphabet
            .columns(&counterexample.word)
            .expect("counterexamples use the alphabet");
        let hypothesis = self.hypothesis();
        self.tree.insert(&columns, &counterexample.outputs);
        let expected = hypothesis.outputs(&counterexample.word);
        if let Some(position) = expected
            .iter()
            .zip(&counterexample.outputs)
            .position(|(a, b)| a != b)
        {
            self.process_counterexample(mq, &hypothesis, columns[..position].to_vec())
                .await?;
        }
        self.stabilise(mq).await
    }

    /// The hypothesis: one state per basis node, plus the error sink when some transition
    /// answers `err`.
    pub fn hypothesis(&self) -> Hypothesis {
        let width = self.alphabet.inputs.len();
        let sink = self.basis.len() as u32;
        let mut access: Vec<_> = self
            .basis
            .iter()
            .map(|node| self.alphabet.word(&self.tree.access(*node)))
            .collect();
        let mut mealy = Mealy::with_states(self.alphabet.inputs.clone(), self.basis.len() + 1, 0);
        for (state, &node) in self.basis.iter().enumerate() {
            for column in 0..width {
                let (child, output) = self
                    .tree
                    .child(node, column)
                    .expect("the basis is complete");
                let target = if output == Output::Err {
                    if access.len() == self.basis.len() {
                        access.push(self.alphabet.word(&self.tree.access(child)));
                    }
                    sink
                } else {
                    self.basis_index(self.identified(child))
                };
                mealy.set_transition(state as u32, column, target, output);
            }
        }
        for column in 0..width {
            mealy.set_transition(sink, column, sink, Output::Err);
        }
        if access.len() == self.basis.len() {
            mealy.transitions.truncate(self.basis.len() * width);
        }
        Hypothesis { mealy, access }
    }

    async fn ask<M: MembershipOracle>(
        &mut self,
        mq: &M,
        queries: Vec<Vec<usize>>,
    ) -> Result<(), QueryError> {
        let words: Vec<_> = queries.iter().map(|it| self.alphabet.word(it)).collect();
        let answers = mq.answer(&words).await?;
        for (columns, outputs) in queries.iter().zip(&answers) {
            self.tree.insert(columns, outputs);
        }
        Ok(())
    }

    /// Applies R2, R1 and R3 until the basis is complete and every frontier node has exactly
    /// one candidate.
    async fn stabilise<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        loop {
            let extensions = self.missing_extensions();
            if !extensions.is_empty() {
                self.ask(mq, extensions).await?;
                continue;
            }
            let frontier = self.frontier();
            if let Some(&isolated) = frontier
                .iter()
                .find(|&&node| self.candidates(node).is_empty())
            {
                self.basis.push(isolated);
                continue;
            }
            let separations: Vec<Vec<usize>> = frontier
                .iter()
                .filter_map(|&node| {
                    let candidates = self.candidates(node);
                    let [first, second, ..] = candidates[..] else {
                        return None;
                    };
                    let witness = self.tree.witness(first, second)?;
                    Some(self.tree.extend(node, &witness))
                })
                .collect();
            if separations.is_empty() {
                return Ok(());
            }
            self.ask(mq, separations).await?;
        }
    }

    /// The one-input extensions of basis nodes not yet in the tree (rule R2), and of
    /// frontier nodes, so that each frontier node is compared with its candidates on every
    /// input before it is identified (the columns L* starts with).
    fn missing_extensions(&self) -> Vec<Vec<usize>> {
        let tree = &self.tree;
        self.basis
            .iter()
            .copied()
            .chain(self.frontier())
            .flat_map(|node| {
                (0..self.alphabet.inputs.len())
                    .filter(move |&column| tree.child(node, column).is_none())
                    .map(move |column| tree.extend(node, &[column]))
            })
            .collect()
    }

    /// Children of basis nodes that are neither basis nor below an `err`.
    fn frontier(&self) -> Vec<Node> {
        self.basis
            .iter()
            .flat_map(|&node| {
                (0..self.alphabet.inputs.len())
                    .filter_map(move |column| self.tree.child(node, column))
            })
            .map(|(child, _)| child)
            .filter(|child| !self.tree.is_dead(*child) && !self.basis.contains(child))
            .collect()
    }

    /// Basis nodes `node` is not apart from.
    fn candidates(&self, node: Node) -> Vec<Node> {
        self.basis
            .iter()
            .copied()
            .filter(|&basis| !self.tree.apart(node, basis))
            .collect()
    }

    /// The basis node a basis or identified frontier node stands for.
    fn identified(&self, node: Node) -> Node {
        if self.basis.contains(&node) {
            node
        } else {
            self.candidates(node)[0]
        }
    }

    fn basis_index(&self, node: Node) -> u32 {
        self.basis
            .iter()
            .position(|it| *it == node)
            .expect("identified nodes are basis nodes") as u32
    }

    /// The basis node of the hypothesis state `word` reaches; `None` for the error sink.
    fn basis_of(&self, hypothesis: &Hypothesis, word: &[usize]) -> Option<Node> {
        let state = hypothesis
            .mealy
            .run_columns(hypothesis.mealy.initial, word)
            .1;
        self.basis.get(state as usize).copied()
    }

    /// Shrinks a conflict (the tree node of `conflict` is apart from the hypothesis state it
    /// reaches) by binary search until it lies on the frontier.
    async fn process_counterexample<M: MembershipOracle>(
        &mut self,
        mq: &M,
        hypothesis: &Hypothesis,
        mut conflict: Vec<usize>,
    ) -> Result<(), QueryError> {
        loop {
            let node = self
                .tree
                .node(&conflict)
                .expect("conflicts are in the tree");
            if self.basis.contains(&node) || self.frontier().contains(&node) {
                return Ok(());
            }
            let frontier_depth = (1..=conflict.len())
                .find(|&length| {
                    let prefix = self.tree.node(&conflict[..length]).expect("in the tree");
                    !self.basis.contains(&prefix)
                })
                .expect("a node below the frontier has a frontier ancestor");
            let middle = (frontier_depth + conflict.len()) / 2;
            let (head, tail) = conflict.split_at(middle);
            let Some(witness) = self
                .basis_of(hypothesis, &conflict)
                .and_then(|basis_node| self.tree.witness(node, basis_node))
            else {
                return Ok(());
            };
            // The hypothesis sends `head` to the error sink only where the tree agrees.
            let Some(basis_node) = self.basis_of(hypothesis, head) else {
                return Ok(());
            };
            let mut suffix = tail.to_vec();
            suffix.extend_from_slice(&witness);
            self.ask(mq, vec![self.tree.extend(basis_node, &suffix)])
                .await?;
            let query = self.tree.extend(basis_node, tail);
            let head_node = self.tree.node(head).expect("in the tree");
            conflict = if self.tree.apart(head_node, basis_node) {
                head.to_vec()
            } else {
                query
            };
        }
    }
}
