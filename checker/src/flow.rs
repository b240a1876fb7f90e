//! A generic forward dataflow solver over a [`Cfg`], run to a fixpoint with a worklist.
//!
//! An [`Analysis`] supplies a [`Lattice`] of states, the state at entry, and a transfer function per edge.
//! The edge kind lets an analysis refine on `True`/`False` branches (null checks).
//! It also lets it leave the state unchanged on `Exception` edges (a call that threw had no effect).
//! The worklist takes nodes in reverse postorder.
//! So a node where paths meet is visited once all the paths into it have been (except along
//! loops), not once per path.
//! On a chain of `if`s, visiting in arrival order instead costs a visit of the rest of the
//! chain per branch.
//! The solver caps the number of node visits, so a lattice of unexpected height cannot make it
//! hang.
//! [`Solution::converged`] tells whether the fixpoint was reached.
//! An analysis may also stop the solver early ([`Analysis::interrupted`]), at a time limit.

use std::collections::BTreeSet;

use crate::cfg::{Cfg, EdgeKind, Node, NodeId};

/// A join semilattice of abstract states.
pub trait Lattice: Clone {
    /// The state of a point no path reaches.
    fn bottom() -> Self;

    /// Joins `other` into `self`; returns whether `self` changed.
    fn join(&mut self, other: &Self) -> bool;
}

/// A forward dataflow problem.
pub trait Analysis<'a> {
    /// The abstract state at a program point.
    type State: Lattice;

    /// The state at the entry of the graph.
    fn entry_state(&self) -> Self::State;

    /// The state leaving `node` along an edge of kind `edge`, given the state entering it.
    fn transfer(&self, node: &Node<'a>, edge: EdgeKind, input: &Self::State) -> Self::State;

    /// Whether to stop before the next node visit: the solution is then not converged.
    /// Checked once per visit, so it bounds the solve by a time limit.
    fn interrupted(&self) -> bool {
        false
    }
}

/// Node visits allowed per node before the solver gives up on reaching a fixpoint.
const MAX_VISITS_PER_NODE: usize = 64;

/// The states entering every node of a graph.
#[derive(Debug, Clone)]
pub struct Solution<S> {
    states: Vec<S>,
    reached: Vec<bool>,
    /// Whether the fixpoint was reached within the visit budget.
    pub converged: bool,
}

impl<S> Solution<S> {
    /// The state entering `node`.
    pub fn state_at(&self, node: NodeId) -> &S {
        &self.states[node.0 as usize]
    }

    /// Whether some path from the entry reaches `node`.
    pub fn is_reachable(&self, node: NodeId) -> bool {
        self.reached[node.0 as usize]
    }
}

/// Runs `analysis` over `cfg` to a fixpoint.
pub fn solve<'a, A: Analysis<'a>>(cfg: &Cfg<'a>, analysis: &A) -> Solution<A::State> {
    let n_nodes = cfg.nodes.len();
    let mut states = vec![A::State::bottom(); n_nodes];
    states[cfg.entry().0 as usize] = analysis.entry_state();
    let mut reached = vec![false; n_nodes];
    reached[cfg.entry().0 as usize] = true;
    let order = reverse_postorder(cfg);
    let mut worklist = BTreeSet::from([(order[cfg.entry().0 as usize], cfg.entry())]);
    let mut budget = n_nodes.saturating_mul(MAX_VISITS_PER_NODE);
    while let Some((_, id)) = worklist.pop_first() {
        if budget == 0 || analysis.interrupted() {
            return Solution {
                states,
                reached,
                converged: false,
            };
        }
        budget -= 1;
        let node = cfg.node(id);
        for &(succ, edge) in &node.succs {
            let out = analysis.transfer(node, edge, &states[id.0 as usize]);
            let changed = states[succ.0 as usize].join(&out);
            let first_visit = !std::mem::replace(&mut reached[succ.0 as usize], true);
            if changed || first_visit {
                worklist.insert((order[succ.0 as usize], succ));
            }
        }
    }
    Solution {
        states,
        reached,
        converged: true,
    }
}

/// Each node's position in a reverse postorder of the graph from its entry (nodes the entry
/// does not reach come last).
fn reverse_postorder(cfg: &Cfg<'_>) -> Vec<usize> {
    let n_nodes = cfg.nodes.len();
    let mut postorder = Vec::with_capacity(n_nodes);
    let mut seen = vec![false; n_nodes];
    // Each frame: a node and how many of its successors were pushed.
    let mut stack = vec![(cfg.entry(), 0)];
    seen[cfg.entry().0 as usize] = true;
    while let Some((id, next)) = stack.last_mut() {
        let succs = &cfg.node(*id).succs;
        if let Some(&(succ, _)) = succs.get(*next) {
            *next += 1;
            if !std::mem::replace(&mut seen[succ.0 as usize], true) {
                stack.push((succ, 0));
            }
        } else {
            postorder.push(*id);
            stack.pop();
        }
    }
    let mut order = vec![n_nodes; n_nodes];
    for (position, id) in postorder.iter().rev().enumerate() {
        order[id.0 as usize] = position;
    }
    order
}

#[cfg(test)]
mod tests;
