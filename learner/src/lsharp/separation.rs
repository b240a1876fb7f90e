//! Choosing what to ask a node, to tell it apart from as many candidate states as one run can.
//! It is a greedy, one-word stand-in for an adaptive distinguishing sequence.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use crate::apartness::tree::{Node, ObservationTree};
use crate::closure::{Output, OutputWord};

/// Among the shortest witnesses of every pair of `candidates`, the one that leaves the
/// fewest candidates stranded together in a class that answers `err` (the run ends there
/// with them still untold, so they cost another run), then splits them into the most
/// classes, then the shortest, then the first found.
/// `None` when fewer than two candidates are left or no two of them are apart.
pub(super) fn best_split(tree: &ObservationTree, candidates: &[Node]) -> Option<Vec<usize>> {
    let pairs = candidates
        .iter()
        .enumerate()
        .flat_map(|(index, &a)| candidates[index + 1..].iter().map(move |&b| (a, b)));
    // (candidates stranded together behind an `err`, fewer first; classes; length, shorter first)
    type Score = (Reverse<usize>, usize, Reverse<usize>);
    let mut best: Option<(Score, Vec<usize>)> = None;
    let mut tried = HashSet::new();
    for (a, b) in pairs {
        let Some(word) = tree.witness(a, b) else {
            continue;
        };
        if !tried.insert(word.clone()) {
            continue;
        }
        let mut classes: HashMap<OutputWord, usize> = HashMap::new();
        for &candidate in candidates {
            *classes
                .entry(tree.outputs_from(candidate, &word))
                .or_default() += 1;
        }
        let stranded: usize = classes
            .iter()
            .filter(|(answers, size)| **size > 1 && answers.contains(&Output::Err))
            .map(|(_, size)| size)
            .sum();
        let score = (Reverse(stranded), classes.len(), Reverse(word.len()));
        if best
            .as_ref()
            .is_none_or(|(best_score, _)| score > *best_score)
        {
            best = Some((score, word));
        }
    }
    best.map(|(_, word)| word)
}

/// A word that tells `target` from as many other candidates as one run can: the witness
/// (against a candidate not yet told) that tells the most of them apart, preferring one the
/// target answers without `err`, then the shortest; while the target's answers stay free of
/// `err` the run goes on, so the next witness, between the nodes the target and the
/// candidates still untold reach, is appended (a step of an adaptive distinguishing sequence
/// for the target, read off the tree). `None` when no candidate is apart from the target.
pub(super) fn identifying_word(
    tree: &ObservationTree,
    candidates: &[Node],
    target: Node,
) -> Option<Vec<usize>> {
    let mut word = Vec::new();
    let mut at = target;
    let mut untold: Vec<Node> = candidates
        .iter()
        .copied()
        .filter(|&it| it != target)
        .collect();
    loop {
        let mut best: Option<(usize, bool, Reverse<usize>, Vec<usize>)> = None;
        let mut tried = HashSet::new();
        for &other in &untold {
            let Some(witness) = tree.witness(at, other) else {
                continue;
            };
            if !tried.insert(witness.clone()) {
                continue;
            }
            let expected = tree.outputs_from(at, &witness);
            let told = untold
                .iter()
                .filter(|&&it| differ(&tree.outputs_from(it, &witness), &expected))
                .count();
            let continues = !expected.contains(&Output::Err);
            let score = (told, continues, Reverse(witness.len()));
            if best
                .as_ref()
                .is_none_or(|(a, b, c, _)| score > (*a, *b, *c))
            {
                best = Some((score.0, score.1, score.2, witness));
            }
        }
        let Some((_, continues, _, witness)) = best else {
            break;
        };
        let expected = tree.outputs_from(at, &witness);
        untold = untold
            .iter()
            .filter(|&&it| !differ(&tree.outputs_from(it, &witness), &expected))
            .filter_map(|&it| tree.reached(it, &witness))
            .collect();
        word.extend_from_slice(&witness);
        match tree.reached(at, &witness) {
            Some(next) if continues && !untold.is_empty() => at = next,
            _ => break,
        }
    }
    (!word.is_empty()).then_some(word)
}

/// Plain L#'s separating word: the shortest witness of the first two `candidates` that are
/// apart. `None` when no two of them are apart.
pub(super) fn first_witness(tree: &ObservationTree, candidates: &[Node]) -> Option<Vec<usize>> {
    candidates.iter().enumerate().find_map(|(index, &a)| {
        candidates[index + 1..]
            .iter()
            .find_map(|&b| tree.witness(a, b))
    })
}

/// How one separating word is chosen: [`best_split`] or [`first_witness`].
pub(super) type Split = fn(&ObservationTree, &[Node]) -> Option<Vec<usize>>;

/// The word of `split`, followed, while the largest class of candidates it leaves
/// together (same answers) answers all of it without `err`, by the split of that class
/// from the nodes they reach: a node in that class is split further in the same run, and a
/// node in another class stops early at its `err` or pays only the extra steps.
pub(super) fn chained_split(
    tree: &ObservationTree,
    candidates: &[Node],
    split: Split,
) -> Option<Vec<usize>> {
    let mut word = split(tree, candidates)?;
    let mut together: Vec<Node> = candidates.to_vec();
    loop {
        let mut classes: HashMap<OutputWord, Vec<Node>> = HashMap::new();
        for &candidate in &together {
            classes
                .entry(tree.outputs_from(candidate, &word))
                .or_default()
                .push(candidate);
        }
        let Some(largest) = classes
            .into_iter()
            .filter(|(answers, members)| {
                members.len() > 1 && answers.len() == word.len() && !answers.contains(&Output::Err)
            })
            .map(|(_, members)| members)
            .max_by_key(|members| (members.len(), Reverse(members.clone())))
        else {
            break;
        };
        let Some(next) = largest
            .iter()
            .map(|&it| tree.reached(it, &word))
            .collect::<Option<Vec<Node>>>()
            .and_then(|reached| split(tree, &reached))
        else {
            break;
        };
        word.extend(next);
        together = largest;
    }
    Some(word)
}

/// Whether two answers known up to different lengths differ where both are known.
fn differ(a: &[Output], b: &[Output]) -> bool {
    a.iter().zip(b).any(|(x, y)| x != y)
}

#[cfg(test)]
mod tests {
    use super::*;

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
        // Towards the first state, input 0 tells it from both others, and it answers `err`
        // there: the run ends.
        assert_eq!(identifying_word(&tree, &nodes, nodes[0]), Some(vec![0]));
        // Towards the second, input 0 does not tell it from the third; input 1 tells both.
        assert_eq!(identifying_word(&tree, &nodes, nodes[1]), Some(vec![1]));
    }

    #[test]
    fn a_split_that_strands_candidates_behind_an_err_loses() {
        // Input 0 splits three states into two classes, two of them together at an `err`;
        // input 1 (the witness of those two) also splits them into two classes, and the pair
        // it leaves together goes on.
        let mut tree = ObservationTree::new(2);
        for (access, outputs) in [
            (0, [Output::Eps, Output::Quiet]),
            (1, [Output::Err, Output::Eps]),
            (2, [Output::Err, Output::Quiet]),
        ] {
            for (column, output) in outputs.into_iter().enumerate() {
                tree.insert(&[access, column], &vec![Output::Eps, output]);
            }
        }
        let nodes: Vec<Node> = (0..3).map(|it| tree.node(&[it]).unwrap()).collect();
        assert_eq!(best_split(&tree, &nodes), Some(vec![1]));
    }

    #[test]
    fn witnesses_are_chained_while_the_target_answers_without_err() {
        // Three states under the root's inputs: input 0 tells the first from the second,
        // and after input 0, input 2 tells it from the third.
        let mut tree = ObservationTree::new(3);
        for (word, outputs) in [
            (vec![0, 0, 2], vec![Output::Eps; 3]),
            (vec![0, 2], vec![Output::Eps; 2]),
            (vec![1, 0], vec![Output::Eps, Output::Err]),
            (vec![2, 0, 2], vec![Output::Eps, Output::Eps, Output::Err]),
            (vec![2, 2], vec![Output::Eps, Output::Err]),
        ] {
            tree.insert(&word, &outputs);
        }
        let nodes: Vec<Node> = (0..3).map(|it| tree.node(&[it]).unwrap()).collect();
        assert_eq!(identifying_word(&tree, &nodes, nodes[0]), Some(vec![0, 2]));
        assert_eq!(identifying_word(&tree, &nodes[..1], nodes[0]), None);
    }

    #[test]
    fn a_split_goes_on_for_the_largest_class_that_answers_without_err() {
        // Inputs 0 and 1 each tell one of three states from the two others; after input 0,
        // input 1 tells the second from the third.
        let mut tree = ObservationTree::new(3);
        for (word, outputs) in [
            (vec![0, 0], vec![Output::Eps, Output::Err]),
            (vec![0, 1], vec![Output::Eps, Output::Err]),
            (vec![1, 0, 1], vec![Output::Eps; 3]),
            (vec![1, 1], vec![Output::Eps; 2]),
            (vec![2, 0, 1], vec![Output::Eps, Output::Eps, Output::Err]),
            (vec![2, 1], vec![Output::Eps, Output::Err]),
        ] {
            tree.insert(&word, &outputs);
        }
        let candidates: Vec<Node> = (0..3).map(|it| tree.node(&[it]).unwrap()).collect();
        assert_eq!(best_split(&tree, &candidates), Some(vec![0]));
        assert_eq!(
            chained_split(&tree, &candidates, best_split),
            Some(vec![0, 1])
        );
        assert_eq!(first_witness(&tree, &candidates), Some(vec![0]));
    }
}
