//! L# (Vaandrager, Garhewal, Rot and Wißmann, TACAS 2022), error-aware.
//! The learner keeps an observation tree, a basis of pairwise apart nodes and their frontier.
//! It asks only what separates a frontier node from its candidate basis states.
//!
//! Error-aware: a transition observed to answer `err` leads to the error sink of the hypothesis.
//! Nothing below it is ever asked, identified or promoted.
//!
//! The rules, applied until none fires:
//! - R2 extends every basis node by every input.
//!   Each extension is followed, in the same run, by the word that best splits the basis.
//!   Words are chained while the largest class of states they leave together answers without `err`.
//! - While the basis is the root alone, R2 follows one input at a time, all root transitions together.
//!   It stops as soon as one node reached is apart from the root: a second state is found.
//!   The nodes not yet apart are told from the larger basis later, with its split words.
//! - R1 promotes a frontier node apart from the whole basis.
//! - R3 asks the word that best splits the candidates of a frontier node, chained the same way ([`separation`]).
//!   While a state bound says states are missing, the run goes on with the word that best splits the whole basis.
//!   So the node the run reaches is told from every state, and a missing state a longer word reaches needs no run of its own.
//!
//! Then the hypothesis is built.
//! Counterexamples are processed by binary search on the tree (`process_counterexample`).
//!
//! With a state bound and fewer states than it, the learner searches for the missing states itself (widening).
//! It extends frontier nodes by every input, those below the latest basis node first.
//! Each extension is followed by a word that tells the predicted state from as many others as one run can ([`separation`]).
//! A node that may still be the predicted state gets one more identifying step only where it continues the same run.
//! It never gets a run of its own: a reset to identify a node the search merely passes is the dearest query.
//! As soon as the tree contradicts the hypothesis, the search stops, and the oracle's free cache check returns the counterexample.
//! The search is a heuristic: the equivalence oracle still proves the bound.
//!
//! Once the basis holds every state the bound allows, a node's candidates come from [`crate::apartness::under_bound`].
//! There a node is also told from a state when their transitions reach nodes that can be no common state.
//! So a run through several transitions identifies the nodes it passes once its deepest one is known.
//!
//! A device pays per run (a reset), hardly per step, so every query carries as many observations as one run can.
//! That is where L# beats L*'s table of short queries.
//!
//! Each of these additions to the paper's L# is a [`Heuristic`] that can be switched off.
//! With none ([`Heuristics::PLAIN`]) the learner is plain L#.

mod heuristics;
mod separation;

pub use heuristics::{Heuristic, Heuristics};

use std::cmp::Reverse;
use std::collections::HashSet;
use std::sync::Arc;

use typestates::mealy::Mealy;

use crate::apartness::tree::{Node, ObservationTree, ROOT};
use crate::apartness::under_bound::Identification;
use crate::closure::{Alphabet, Output};
use crate::equivalence::Counterexample;
use crate::hypothesis::Hypothesis;
use crate::oracle::{MembershipOracle, QueryError};
use separation::{best_split, chained_split, first_witness, identifying_word, Split};

/// The state of an L# run.
pub struct LSharp {
    alphabet: Arc<Alphabet>,
    heuristics: Heuristics,
    tree: ObservationTree,
    basis: Vec<Node>,
    state_bound: Option<usize>,
    widened: Vec<Node>,
    checked_below: HashSet<Node>,
    /// While the basis holds every state the bound allows: which states each node may be.
    identification: Option<Identification>,
}

impl LSharp {
    /// A learner over `alphabet` whose basis is the root, with `heuristics` on top of L#.
    pub fn new(alphabet: Arc<Alphabet>, heuristics: Heuristics) -> LSharp {
        let tree = ObservationTree::new(alphabet.inputs.len());
        LSharp {
            alphabet,
            heuristics,
            tree,
            basis: vec![ROOT],
            state_bound: None,
            widened: Vec::new(),
            checked_below: HashSet::new(),
            identification: None,
        }
    }

    /// The same learner, told that the system has at most `state_bound` states (error sink
    /// included). With [`Heuristic::MissingStateSearch`], while its hypothesis has fewer, it
    /// looks for the missing ones itself, extending frontier nodes by every input (those
    /// below the latest basis node first, then the shallowest) before it asks an equivalence
    /// query: far cheaper than the W-method's search for extra states.
    pub fn with_state_bound(self, state_bound: usize) -> LSharp {
        LSharp {
            state_bound: Some(state_bound),
            ..self
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
        self.reidentify();
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
        self.reidentify();
        Ok(())
    }

    /// Recomputes the identification under the bound after the tree or the basis changed:
    /// only while the basis (and the error sink, once seen) holds exactly as many states as
    /// the bound allows, when every live node is one of the basis states.
    fn reidentify(&mut self) {
        let complete = self.state_bound == Some(self.states_found())
            && self
                .heuristics
                .contains(Heuristic::IdentificationUnderBound);
        self.identification = complete
            .then(|| Identification::under_bound(&self.tree, &self.basis))
            .flatten();
    }

    /// Applies R2, R1 and R3 until the basis is complete and every frontier node has exactly
    /// one candidate.
    ///
    /// Every query is one run on the system, so each asks as much as it can: a missing
    /// transition of a basis node (R2) is asked followed by the word that best splits the
    /// basis, which identifies the new frontier node in the same run (while the basis is the
    /// root alone, by one input after another until some node is apart); a frontier node with
    /// several candidates (R3) is asked the word that splits its candidates best.
    async fn stabilise<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        loop {
            let missing = self.missing_transitions();
            if !missing.is_empty()
                && self.basis.len() == 1
                && self.heuristics.contains(Heuristic::RootProbing)
            {
                self.probe_root(mq, missing).await?;
                continue;
            }
            if !missing.is_empty() {
                let queries = missing
                    .into_iter()
                    .flat_map(|(node, column)| self.probed(node, column))
                    .collect();
                self.ask(mq, queries).await?;
                continue;
            }
            let frontier = self.frontier();
            if let Some(&isolated) = frontier
                .iter()
                .find(|&&node| self.candidates(node).is_empty())
            {
                self.basis.push(isolated);
                self.reidentify();
                continue;
            }
            let separations: Vec<Vec<usize>> = frontier
                .iter()
                .filter_map(|&node| self.split(node))
                .collect();
            if !separations.is_empty() {
                self.ask(mq, separations).await?;
                continue;
            }
            let hypothesis = self.hypothesis();
            if !self.widened.is_empty() && !self.tree_agrees_with(&hypothesis) {
                // The search found a missing state: the hypothesis contradicts the tree, and
                // the equivalence oracle's free check returns the counterexample.
                return Ok(());
            }
            // Nodes below widened ones that may still be the state the hypothesis predicts
            // get one query each: enough to expose most missing states, without paying for a
            // full identification of every node searched.
            let below: Vec<Node> = self
                .below_widened()
                .into_iter()
                .filter(|&node| {
                    let candidates = self.candidates(node);
                    self.search_depth().is_some()
                        && !self.checked_below.contains(&node)
                        && candidates.len() > 1
                        && self
                            .basis_of(&hypothesis, &self.tree.access(node))
                            .is_some_and(|it| candidates.contains(&it))
                })
                .collect();
            self.checked_below.extend(below.iter().copied());
            let separations: Vec<Vec<usize>> =
                below.iter().filter_map(|&node| self.split(node)).collect();
            if !separations.is_empty() {
                self.ask(mq, separations).await?;
                continue;
            }
            let Some(node) = self.next_to_widen(&frontier) else {
                return Ok(());
            };
            self.widen(mq, node).await?;
        }
    }

    /// The word that splits `candidates` ([`Heuristic::BestSplit`], [`Heuristic::ChainedSplits`]),
    /// if two of them are apart.
    fn separating_word(&self, candidates: &[Node]) -> Option<Vec<usize>> {
        let split: Split = if self.heuristics.contains(Heuristic::BestSplit) {
            best_split
        } else {
            first_witness
        };
        if self.heuristics.contains(Heuristic::ChainedSplits) {
            chained_split(&self.tree, candidates, split)
        } else {
            split(&self.tree, candidates)
        }
    }

    /// The query that splits the candidates of `node` (rule R3), if they can be split.
    /// While the search for missing states is on, a run that some candidate answers without
    /// `err` goes on with the word that splits the whole basis: the node it reaches is told
    /// from the basis in the same run, so a missing state a longer word reaches shows up
    /// without a run of its own (the widening would pay one per node it checks).
    fn split(&self, node: Node) -> Option<Vec<usize>> {
        let candidates = self.candidates(node);
        let mut witness = self.separating_word(&candidates)?;
        let run_goes_on = candidates.iter().any(|&candidate| {
            let answers = self.tree.outputs_from(candidate, &witness);
            answers.len() == witness.len() && !answers.contains(&Output::Err)
        });
        if self.search_depth().is_some() && run_goes_on {
            witness.extend(self.separating_word(&self.basis).unwrap_or_default());
        }
        Some(self.tree.extend(node, &witness))
    }

    /// Extends `node` by every input: each transition not yet observed, or observed but not
    /// yet told from the other candidates, is checked against the state the hypothesis
    /// predicts for it. One query at a time: a node reached that may still be the predicted
    /// state gets one more identifying step where it continues the same run (the
    /// candidates' observations reach that far: no reset), and no run of its own.
    async fn widen<M: MembershipOracle>(&mut self, mq: &M, node: Node) -> Result<(), QueryError> {
        self.widened.push(node);
        let hypothesis = self.hypothesis();
        let queries = (0..self.tree.width())
            .flat_map(|column| {
                let word = self.tree.extend(node, &[column]);
                match (
                    self.basis_of(&hypothesis, &word),
                    self.tree.child(node, column),
                ) {
                    (Some(predicted), None) => vec![self.checked(node, column, predicted)],
                    // Seen before, but not yet told from the other candidates.
                    (Some(predicted), Some((child, _)))
                        if !self.tree.is_dead(child) && {
                            let candidates = self.candidates(child);
                            candidates.len() > 1 && candidates.contains(&predicted)
                        } =>
                    {
                        vec![self.checked(node, column, predicted)]
                    }
                    (None, None) => self.probed(node, column),
                    _ => Vec::new(),
                }
            })
            .collect::<Vec<Vec<usize>>>();
        let depth = self.tree.access(node).len();
        for query in queries {
            self.ask(mq, vec![query.clone()]).await?;
            let reached = self.tree.node(&query[..=depth]).expect("just asked");
            let end = self.tree.node(&query).expect("just asked");
            let candidates = self.candidates(reached);
            let may_be_predicted = self
                .basis_of(&hypothesis, &self.tree.access(reached))
                .is_some_and(|it| candidates.contains(&it));
            if self.tree.is_dead(reached)
                || candidates.len() < 2
                || !may_be_predicted
                || !self.checked_below.insert(reached)
            {
                continue;
            }
            let continuing = (!self.tree.is_dead(end))
                .then(|| self.continuing_split(reached, end, &candidates))
                .flatten();
            if let Some(next) = continuing {
                self.ask(mq, vec![next]).await?;
            }
        }
        Ok(())
    }

    /// The word that splits the candidates of `node` as they are seen after the part of the
    /// run below `node` (the run ended in `end`), appended to the run so that it needs no
    /// reset: a step of an adaptive distinguishing sequence read off the tree. `None` when
    /// fewer than two candidates have observations that far, or none splits them.
    fn continuing_split(&self, node: Node, end: Node, candidates: &[Node]) -> Option<Vec<usize>> {
        let access = self.tree.access(node);
        let run = self.tree.access(end);
        let below = run.strip_prefix(access.as_slice())?;
        let moved: Vec<Node> = candidates
            .iter()
            .filter_map(|&candidate| {
                let reached = below.iter().try_fold(candidate, |current, &column| {
                    self.tree.child(current, column).map(|it| it.0)
                })?;
                (!self.tree.is_dead(reached)).then_some(reached)
            })
            .collect();
        if moved.len() < 2 {
            return None;
        }
        let word = best_split(&self.tree, &moved)?;
        Some(self.tree.extend(end, &word))
    }

    /// R2 while the basis is the root alone (no word splits it): each missing transition
    /// followed by one input after another, until some node reached is apart from the root
    /// (a second state: R1 can grow the basis) or every input has been tried. The nodes not
    /// yet apart are left to R3 and the widening, which tell them from the larger basis: a
    /// root self-loop probed by every input against the root alone costs a run per input,
    /// and that work is redone once the basis grows.
    async fn probe_root<M: MembershipOracle>(
        &mut self,
        mq: &M,
        missing: Vec<(Node, usize)>,
    ) -> Result<(), QueryError> {
        for probe in 0..self.tree.width() {
            let queries: Vec<Vec<usize>> = missing
                .iter()
                .filter(|&&(node, column)| {
                    self.tree.child(node, column).is_none_or(|(child, _)| {
                        !self.tree.is_dead(child) && !self.tree.apart(child, node)
                    })
                })
                .map(|&(node, column)| self.tree.extend(node, &[column, probe]))
                .collect();
            self.ask(mq, queries).await?;
            let second_state = missing.iter().any(|&(node, column)| {
                self.tree.child(node, column).is_some_and(|(child, _)| {
                    !self.tree.is_dead(child) && self.tree.apart(child, node)
                })
            });
            if second_state {
                break;
            }
        }
        Ok(())
    }

    /// The queries that observe `node`'s transition on `column` (rule R2) and, with
    /// [`Heuristic::SeparatingExtension`], in the same runs start identifying the node it
    /// reaches: followed by the word that splits the basis, or while the basis is one node
    /// (nothing to split), by every single input.
    fn probed(&self, node: Node, column: usize) -> Vec<Vec<usize>> {
        if !self.heuristics.contains(Heuristic::SeparatingExtension) {
            return vec![self.tree.extend(node, &[column])];
        }
        let probes = match self.separating_word(&self.basis) {
            Some(word) => vec![word],
            None => (0..self.tree.width()).map(|it| vec![it]).collect(),
        };
        probes
            .into_iter()
            .map(|probe| {
                let mut suffix = vec![column];
                suffix.extend(probe);
                self.tree.extend(node, &suffix)
            })
            .collect()
    }

    /// The query that observes `node`'s transition on `column`, which the hypothesis sends to
    /// basis node `predicted`, followed by the word that tells `predicted` from as many other
    /// basis nodes as one run can: the widening's check that the node reached is the state
    /// predicted.
    fn checked(&self, node: Node, column: usize, predicted: Node) -> Vec<usize> {
        let mut suffix = vec![column];
        suffix.extend(identifying_word(&self.tree, &self.basis, predicted).unwrap_or_default());
        self.tree.extend(node, &suffix)
    }

    /// The node to extend by every input while the basis (and the error sink, once seen) has
    /// fewer states than the bound: a live node at most `bound - states` inputs below the
    /// frontier that is not extended yet (frontier nodes first, then the children of extended
    /// ones, breadth first; within a layer, the nodes below the latest basis node first, then
    /// the shallowest). `None` once the bound is met or the depth is used up;
    /// then the equivalence oracle searches on.
    fn next_to_widen(&self, frontier: &[Node]) -> Option<Node> {
        let depth = self.search_depth()?;
        let mut layer: Vec<Node> = frontier.to_vec();
        for _ in 0..depth {
            let open = layer
                .iter()
                .copied()
                .filter(|node| !self.widened.contains(node))
                .min_by_key(|&node| {
                    let from = self.basis_ancestor(node);
                    (Reverse(from), self.tree.access(node).len(), node)
                });
            if open.is_some() {
                return open;
            }
            layer = layer
                .iter()
                .flat_map(|&node| {
                    (0..self.tree.width()).filter_map(move |column| self.tree.child(node, column))
                })
                .map(|(child, _)| child)
                .filter(|child| !self.tree.is_dead(*child) && !self.basis.contains(child))
                .collect();
        }
        None
    }

    /// How many states the hypothesis (the basis, and the error sink once seen) lacks to
    /// reach the state bound, while [`Heuristic::MissingStateSearch`] looks for them; `None`
    /// without the heuristic, without a bound or once it is met.
    fn search_depth(&self) -> Option<usize> {
        if !self.heuristics.contains(Heuristic::MissingStateSearch) {
            return None;
        }
        let bound = self.state_bound?;
        bound.checked_sub(self.states_found()).filter(|it| *it > 0)
    }

    /// The states of the hypothesis: the basis, and the error sink once seen.
    fn states_found(&self) -> usize {
        let sink_seen = self.basis.iter().any(|&node| {
            (0..self.tree.width()).any(|column| {
                self.tree
                    .child(node, column)
                    .is_some_and(|it| it.1 == Output::Err)
            })
        });
        self.basis.len() + usize::from(sink_seen)
    }

    /// The position in the basis of the nearest basis node above `node`: states found later
    /// come later, and their neighbourhood is where missing states hide most often.
    fn basis_ancestor(&self, node: Node) -> usize {
        let access = self.tree.access(node);
        (0..access.len())
            .rev()
            .find_map(|length| {
                let prefix = self.tree.node(&access[..length]).expect("in the tree");
                self.basis.iter().position(|it| *it == prefix)
            })
            .unwrap_or(0)
    }

    /// The live children of widened nodes outside the basis: identified like frontier nodes
    /// (rule R3), so that a missing state the widening reaches shows up as a node apart from
    /// the state the hypothesis sends it to.
    fn below_widened(&self) -> Vec<Node> {
        self.widened
            .iter()
            .flat_map(|&node| {
                (0..self.tree.width()).filter_map(move |column| self.tree.child(node, column))
            })
            .map(|(child, _)| child)
            .filter(|child| !self.tree.is_dead(*child) && !self.basis.contains(child))
            .collect()
    }

    /// Whether `hypothesis` gives every output the tree holds.
    fn tree_agrees_with(&self, hypothesis: &Hypothesis) -> bool {
        let mealy = &hypothesis.mealy;
        let mut stack = vec![(ROOT, mealy.initial)];
        while let Some((node, state)) = stack.pop() {
            for column in 0..self.tree.width() {
                let Some((child, output)) = self.tree.child(node, column) else {
                    continue;
                };
                let (target, expected) = mealy.transition(state, column);
                if expected != output {
                    return false;
                }
                if output != Output::Err {
                    stack.push((child, target));
                }
            }
        }
        true
    }

    /// The transitions of basis nodes not yet in the tree (rule R2).
    fn missing_transitions(&self) -> Vec<(Node, usize)> {
        self.basis
            .iter()
            .flat_map(|&node| {
                (0..self.tree.width())
                    .filter(move |&column| self.tree.child(node, column).is_none())
                    .map(move |column| (node, column))
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

    /// Basis nodes `node` may be: those it is not apart from, narrowed by the identification
    /// under the bound while the basis is complete (unless that leaves none, which only a
    /// wrong bound does: then apartness alone decides, and the node is promoted as usual).
    fn candidates(&self, node: Node) -> Vec<Node> {
        if let Some(identification) = &self.identification {
            let inferred = identification.candidates(node);
            if !inferred.is_empty() {
                return inferred;
            }
        }
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
