//! Identification under a state bound: which basis state each node of the observation tree may be.
//! It applies once the basis holds every state the bound allows.
//!
//! The basis nodes are pairwise apart, so they reach as many distinct states.
//! That may be as many as the bound allows (less the error sink once seen).
//! Then every live state of the system is a basis state, and every live node of the tree *is* one of them.
//! A node is then told from a basis state not only by a word both answer differently (apartness) but also by a transition.
//! Take a node and a state that answer an input alike.
//! When the nodes they reach can be no common state, the two are different states.
//! Refining the candidates of every
//! node until nothing changes identifies nodes that apartness leaves open.
//! In a run through several transitions, a deeper node once identified identifies the nodes
//! above it.
//! So the learner need not ask each of them its own distinguishing word, nor the equivalence
//! oracle test it.
//!
//! A live node is never the error sink.
//! In the closure `wait` answers `quiet` or a callback in every live state.
//! So the sink, which answers only `err`, is entered by `err` alone.

use crate::apartness::tree::{Node, ObservationTree};

/// The basis states each node of the tree may be, under the bound.
pub(crate) struct Identification {
    /// `candidates[node]`: bit `i` set while the node may be `basis[i]`. Dead nodes (the
    /// error sink) have none, and a live node has none only if the bound is wrong.
    candidates: Vec<u64>,
    basis: Vec<Node>,
}

impl Identification {
    /// Refines apartness with the transitions of the tree, to a fixpoint. The caller vouches
    /// that every live state of the system is one of the `basis` nodes (pairwise apart). `None`
    /// past 64 basis nodes: the candidates are a 64-bit set, and beyond it nodes are told by
    /// apartness alone.
    pub(crate) fn under_bound(tree: &ObservationTree, basis: &[Node]) -> Option<Identification> {
        if basis.len() > u64::BITS as usize {
            return None;
        }
        let mut candidates: Vec<u64> = (0..tree.len())
            .map(|node| {
                if tree.is_dead(node) {
                    return 0;
                }
                if let Some(index) = basis.iter().position(|&it| it == node) {
                    return 1 << index;
                }
                basis
                    .iter()
                    .enumerate()
                    .filter(|&(_, &state)| !tree.apart(node, state))
                    .fold(0, |set, (index, _)| set | 1 << index)
            })
            .collect();
        let mut changed = true;
        while changed {
            changed = false;
            // Children come after their parents: deepest first, so identities climb up fast.
            for node in (0..tree.len()).rev() {
                if tree.is_dead(node) || basis.contains(&node) {
                    continue;
                }
                let kept = basis
                    .iter()
                    .enumerate()
                    .filter(|&(index, _)| candidates[node] & 1 << index != 0)
                    .filter(|&(_, &state)| transitions_agree(tree, &candidates, node, state))
                    .fold(0, |set, (index, _)| set | 1 << index);
                if kept != candidates[node] {
                    candidates[node] = kept;
                    changed = true;
                }
            }
        }
        Some(Identification {
            candidates,
            basis: basis.to_vec(),
        })
    }

    /// The basis nodes `node` may be, in basis order; none for a node added to the tree
    /// since.
    pub(crate) fn candidates(&self, node: Node) -> Vec<Node> {
        let set = self.candidates.get(node).copied().unwrap_or(0);
        self.basis
            .iter()
            .enumerate()
            .filter(|&(index, _)| set & 1 << index != 0)
            .map(|(_, &state)| state)
            .collect()
    }
}

/// Whether `node` can be basis node `state`: on every input both have observed, the outputs
/// agree and the nodes reached can still be one state (both the error sink, or sharing a
/// candidate).
fn transitions_agree(tree: &ObservationTree, candidates: &[u64], node: Node, state: Node) -> bool {
    (0..tree.width()).all(|column| {
        let (Some((reached, output)), Some((expected, expected_output))) =
            (tree.child(node, column), tree.child(state, column))
        else {
            return true;
        };
        output == expected_output
            && (tree.is_dead(reached) || candidates[reached] & candidates[expected] != 0)
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::closure::Output;

    #[test]
    fn a_node_is_identified_by_the_state_it_reaches() {
        // DownloadManager: inputs enqueue (0), another enqueue (1), remove (2), wait (3);
        // states Idle (the root), Downloading [0], Completed [0, 3], Removed [0, 2].
        let (eps, err, quiet) = (Output::Eps, Output::Err, Output::Quiet);
        let completed = Output::Callback(typestates::CallbackId(0));
        let mut tree = ObservationTree::new(4);
        for (word, outputs) in [
            // The basis and its transitions.
            (vec![1], vec![eps]),
            (vec![2], vec![err]),
            (vec![3, 0], vec![quiet, eps]),
            (vec![0, 0], vec![eps, err]),
            (vec![0, 1], vec![eps, err]),
            (vec![0, 2, 0], vec![eps, eps, err]),
            (vec![0, 2, 1], vec![eps, eps, err]),
            (vec![0, 2, 2], vec![eps, eps, err]),
            (vec![0, 2, 3, 3, 2], vec![eps, eps, quiet, quiet, err]),
            (vec![0, 3, 0], vec![eps, completed, err]),
            (vec![0, 3, 1], vec![eps, completed, err]),
            (vec![0, 3, 2], vec![eps, completed, eps]),
            // One run through Completed's wait: two more waits, then remove.
            (vec![0, 3, 3, 3, 2], vec![eps, completed, quiet, quiet, eps]),
        ] {
            tree.insert(&word, &outputs);
        }
        let node = |word: &[usize]| tree.node(word).unwrap();
        let basis = [node(&[]), node(&[0]), node(&[0, 3]), node(&[0, 2])];
        let (idle, removed) = (basis[0], basis[3]);
        let waited = node(&[0, 3, 3]);
        // Apartness tells Completed's wait from Downloading only: no word both it and
        // Idle, Completed or Removed answer tells them apart.
        let apart_from: Vec<Node> = basis
            .iter()
            .copied()
            .filter(|&it| !tree.apart(waited, it))
            .collect();
        assert_eq!(apart_from, vec![idle, basis[2], removed]);
        // But the node it reaches by wait answers remove with eps, so that node is
        // Downloading or Completed, while Idle's wait reaches Idle: not Idle either.
        let identification = Identification::under_bound(&tree, &basis).unwrap();
        let (downloading, completed_state) = (basis[1], basis[2]);
        assert_eq!(identification.candidates(node(&[3])), vec![idle]);
        assert_eq!(
            identification.candidates(node(&[0, 3, 3, 3])),
            vec![downloading, completed_state]
        );
        assert_eq!(
            identification.candidates(waited),
            vec![completed_state, removed]
        );
        // Removed stays: the tree is also consistent with a machine whose Removed moves to
        // Completed on wait and back, and the identification never excludes what some
        // machine within the bound could do.
        assert_eq!(
            identification.candidates(node(&[0, 2, 3])),
            vec![idle, completed_state, removed]
        );
    }
}
