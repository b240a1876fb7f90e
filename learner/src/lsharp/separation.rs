//! Choosing what to ask a node so that it is told apart from as many candidate states as
//! possible in one run (a greedy, one-word stand-in for an adaptive distinguishing sequence).

use std::collections::HashSet;

use crate::closure::OutputWord;
use crate::lsharp::tree::{Node, ObservationTree};

/// Among the shortest witnesses of every pair of `candidates`, the one whose known outputs
/// split the candidates into the most classes, then the shortest, then the first found.
/// `None` when fewer than two candidates are left or no two of them are apart.
pub(super) fn best_split(tree: &ObservationTree, candidates: &[Node]) -> Option<Vec<usize>> {
    let pairs = candidates
        .iter()
        .enumerate()
        .flat_map(|(index, &a)| candidates[index + 1..].iter().map(move |&b| (a, b)));
    split_among(tree, candidates, pairs)
}

/// Like [`best_split`], among the witnesses that tell `target` from another candidate: the
/// word that best checks a node predicted to be `target`.
pub(super) fn best_split_towards(
    tree: &ObservationTree,
    candidates: &[Node],
    target: Node,
) -> Option<Vec<usize>> {
    let pairs = candidates
        .iter()
        .filter(|&&it| it != target)
        .map(|&other| (target, other));
    split_among(tree, candidates, pairs)
}

/// The witness of one of `pairs` that splits `candidates` into the most classes, then the
/// shortest, then the first found.
fn split_among(
    tree: &ObservationTree,
    candidates: &[Node],
    pairs: impl Iterator<Item = (Node, Node)>,
) -> Option<Vec<usize>> {
    let mut best: Option<(usize, Vec<usize>)> = None;
    let mut tried = HashSet::new();
    for (a, b) in pairs {
        let Some(word) = tree.witness(a, b) else {
            continue;
        };
        if !tried.insert(word.clone()) {
            continue;
        }
        let classes = candidates
            .iter()
            .map(|&candidate| tree.outputs_from(candidate, &word))
            .collect::<HashSet<OutputWord>>()
            .len();
        let better = best.as_ref().is_none_or(|(best_classes, best_word)| {
            classes > *best_classes || (classes == *best_classes && word.len() < best_word.len())
        });
        if better {
            best = Some((classes, word));
        }
    }
    best.map(|(_, word)| word)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::closure::Output;

    #[test]
    fn the_word_splitting_most_candidates_wins() {
        // Three states under the root's inputs 0, 1, 2: input 0 tells only the first apart,
        // input 1 tells all three apart.
        let mut tree = ObservationTree::new(3);
        let callback = |id| Output::Callback(typestates::CallbackId(id));
        for (access, outputs) in [
            (0, [Output::Err, callback(0), Output::Eps]),
            (1, [Output::Eps, callback(1), Output::Eps]),
            (2, [Output::Eps, callback(2), Output::Eps]),
        ] {
            for (column, output) in outputs.into_iter().enumerate() {
                tree.insert(&[access, column], &vec![Output::Eps, output]);
            }
        }
        let nodes: Vec<Node> = (0..3).map(|it| tree.node(&[it]).unwrap()).collect();
        assert_eq!(best_split(&tree, &nodes), Some(vec![1]));
        assert_eq!(best_split(&tree, &nodes[..1]), None);
        // Towards the first state, only witnesses against it count: input 0 tells it from
        // both others, and it is the shortest witness of both pairs.
        assert_eq!(best_split_towards(&tree, &nodes, nodes[0]), Some(vec![0]));
        // Towards the second, input 0 does not tell it from the third; input 1 does.
        assert_eq!(best_split_towards(&tree, &nodes, nodes[1]), Some(vec![1]));
    }
}
