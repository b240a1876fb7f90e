//! Test runs for a distinguisher bound that check many transitions in one run
//! ([`Suite::Chained`](crate::equivalence::Suite::Chained)).
//!
//! Algorithm 2 checks a transition `q -i-> q'` from `q`'s access word, one run per test word.
//! Any word the hypothesis takes to `q` serves as well, once its own transitions are proven.
//! That is the convergence argument of Simão, Petrenko and Yevtushenko's SPY test suites.
//! Here is the proof, for a system whose distinct states differ on some word of at most `k` inputs.
//! - A word is *proven* when it takes the system where its state's access word does.
//! - The empty word and the access words are proven.
//! - A proven word followed by a tree transition is proven.
//! - The other transitions are proven one by one, in a fixed order: their *rank*.
//! - A word's rank is the highest rank of the transitions it takes.
//! - Take `q -i-> q'` of rank `r`, and proven words of rank below `r`.
//! - After those reaching `q`, `i·w` must answer as the hypothesis, for every `w` of at most `k` inputs.
//! - After those reaching `q'`, every such `w` must.
//! - Then `R(q)·i` and `R(q')` reach states that agree on every such word: the same state.
//!
//! So a check may start where a check of a lower rank ended, and one run serves many transitions.
//! The `err` outputs and the tree transitions' outputs need only be seen after some proven word.
//! Every word is cut after its first `err`: after `err` the system answers only `err`.
//!
//! [`chained_runs`] plans the runs greedily.
//! Each run goes on to the nearest open check its rank allows.
//! It ends at an `err`, or when no open check is reachable.
//!
//! Traces already observed count as runs already made ([`Suite::ChainedKnown`]).
//! A trace that answers as the hypothesis closes every check a planned run with its inputs would.
//! The proof above never asks when a proven word was run, only that it answered so.
//! So checks the learning queries, earlier rounds or prefixes of longer runs answered are skipped.
//!
//! [`Suite::ChainedKnown`]: crate::equivalence::Suite::ChainedKnown

use std::collections::{HashMap, VecDeque};

use crate::closure::{first_err, words_of_length, Input, Output, Word};
use crate::hypothesis::Hypothesis;

/// The rank of a transition that needs no proof (a tree transition, or a quiet self-loop
/// assumed to change nothing).
const FREE: u32 = 0;
/// The rank of an `err` transition: never taken by a run that goes on.
const BLOCKED: u32 = u32::MAX;

/// One check: after a word of rank below `limit` that reaches `state`, `columns` must answer
/// as the hypothesis does.
struct Check {
    state: u32,
    columns: Vec<usize>,
    limit: u32,
}

/// The runs that prove `hypothesis` under distinguisher bound `bound`, as the module says,
/// beside the `known` traces, each of which must answer as `hypothesis` does.
/// `quiet_is_noop` makes quiet `wait` self-loops free, as Algorithm 2's optimisation (a) does.
pub(crate) fn chained_runs(
    hypothesis: &Hypothesis,
    bound: usize,
    quiet_is_noop: bool,
    known: &[Word],
) -> Vec<Word> {
    let plan = Plan::new(hypothesis, bound, quiet_is_noop);
    plan.runs(known)
}

/// The hypothesis's transitions ranked, and every check they need.
struct Plan<'a> {
    hypothesis: &'a Hypothesis,
    width: usize,
    /// Each state's access word, as columns.
    access: Vec<Vec<usize>>,
    /// `rank[state * width + column]`.
    rank: Vec<u32>,
    checks: Vec<Check>,
    /// The checks by state and words.
    by_window: HashMap<(u32, Vec<usize>), Vec<usize>>,
}

impl<'a> Plan<'a> {
    fn new(hypothesis: &'a Hypothesis, bound: usize, quiet_is_noop: bool) -> Plan<'a> {
        let mealy = &hypothesis.mealy;
        let width = mealy.inputs.len();
        let n = mealy.n_states();
        // States reached only through `err` (the error sink) need no check.
        let live: Vec<bool> = (0..n)
            .map(|state| first_err(&hypothesis.outputs(&hypothesis.access[state])).is_none())
            .collect();
        let mut order: Vec<u32> = (0..n as u32).filter(|&it| live[it as usize]).collect();
        order.sort_by_key(|&state| (hypothesis.access[state as usize].len(), state));
        let mut rank = vec![BLOCKED; n * width];
        let mut next = 1;
        for &state in &order {
            for column in 0..width {
                let (target, output) = mealy.transition(state, column);
                if output == Output::Err {
                    continue;
                }
                let input = mealy.inputs[column];
                let mut word = hypothesis.access[state as usize].clone();
                word.push(input);
                let tree = word == hypothesis.access[target as usize];
                let quiet_loop = quiet_is_noop
                    && input == Input::Wait
                    && output == Output::Quiet
                    && target == state;
                rank[state as usize * width + column] = if tree || quiet_loop {
                    FREE
                } else {
                    next += 1;
                    next - 1
                };
            }
        }
        // A state's own words must be seen below the lowest rank of a transition into it.
        let mut into = vec![BLOCKED; n];
        for &state in &order {
            for column in 0..width {
                let r = rank[state as usize * width + column];
                if r != FREE && r != BLOCKED {
                    let (target, _) = mealy.transition(state, column);
                    into[target as usize] = into[target as usize].min(r);
                }
            }
        }
        assert!(
            hypothesis.access[mealy.initial as usize].is_empty(),
            "the initial state's access word is the empty word"
        );
        let access = hypothesis
            .access
            .iter()
            .map(|word| columns(mealy, word))
            .collect();
        let mut plan = Plan {
            hypothesis,
            width,
            access,
            rank,
            checks: Vec::new(),
            by_window: HashMap::new(),
        };
        let columns: Vec<usize> = (0..width).collect();
        let suffixes = words_of_length(&mealy.inputs, bound);
        for &state in &order {
            if into[state as usize] != BLOCKED {
                let words = suffixes.iter().map(|it| plan.columns_of(it)).collect();
                plan.add_leaves(state, words, into[state as usize]);
            }
            for &column in &columns {
                let r = plan.rank[state as usize * width + column];
                if r == FREE || r == BLOCKED {
                    plan.add_leaves(state, vec![vec![column]], BLOCKED);
                    continue;
                }
                let words = suffixes
                    .iter()
                    .map(|suffix| {
                        let mut word = vec![column];
                        word.extend(plan.columns_of(suffix));
                        word
                    })
                    .collect();
                plan.add_leaves(state, words, r);
            }
        }
        plan
    }

    fn columns_of(&self, word: &[Input]) -> Vec<usize> {
        columns(&self.hypothesis.mealy, word)
    }

    /// Adds a check for each of `words` from `state`, cut after its first `err`, less those
    /// that are a proper prefix of another.
    fn add_leaves(&mut self, state: u32, words: Vec<Vec<usize>>, limit: u32) {
        let mealy = &self.hypothesis.mealy;
        let mut cut: Vec<Vec<usize>> = words
            .into_iter()
            .map(|word| {
                let (outputs, _) = mealy.run_columns(state, &word);
                match first_err(&outputs) {
                    Some(err) => word[..=err].to_vec(),
                    None => word,
                }
            })
            .collect();
        cut.sort();
        cut.dedup();
        let prefixes: std::collections::HashSet<&[usize]> = cut
            .iter()
            .flat_map(|word| (0..word.len()).map(move |length| &word[..length]))
            .collect();
        let leaves: Vec<Vec<usize>> = cut
            .iter()
            .filter(|word| !prefixes.contains(word.as_slice()))
            .cloned()
            .collect();
        for columns in leaves {
            self.by_window
                .entry((state, columns.clone()))
                .or_default()
                .push(self.checks.len());
            self.checks.push(Check {
                state,
                columns,
                limit,
            });
        }
    }

    /// The runs, planned greedily until every check the `known` traces leave open is covered.
    fn runs(&self, known: &[Word]) -> Vec<Word> {
        let mealy = &self.hypothesis.mealy;
        let mut open = vec![true; self.checks.len()];
        let mut remaining = self.checks.len();
        for word in known {
            let mut run = Run::new(mealy.initial);
            for input in word {
                match mealy.column(*input) {
                    Some(column) if !run.ended => run.push(self, column),
                    _ => break,
                }
            }
            remaining -= self.cover(&run, 0, &mut open);
        }
        let mut runs = Vec::new();
        while remaining > 0 {
            let mut run = Run::new(mealy.initial);
            while !run.ended {
                let Some((path, check)) = self.nearest(&run, &open) else {
                    break;
                };
                let start = run.columns.len();
                for &column in path.iter().chain(&self.checks[check].columns) {
                    run.push(self, column);
                }
                remaining -= self.cover(&run, start, &mut open);
                if open[check] {
                    unreachable!("the chosen check is covered by the run that takes it");
                }
            }
            assert!(
                !run.columns.is_empty(),
                "a fresh run always reaches an open check"
            );
            runs.push(
                run.columns
                    .iter()
                    .map(|&column| mealy.inputs[column])
                    .collect(),
            );
        }
        runs
    }

    /// The shortest path from the run's end to an open check its rank allows, and that check
    /// (the lowest limit first among the nearest).
    fn nearest(&self, run: &Run, open: &[bool]) -> Option<(Vec<usize>, usize)> {
        let mealy = &self.hypothesis.mealy;
        let n = mealy.n_states();
        let from = *run.states.last().expect("a run has a state");
        let start_rank = *run.ranks.last().expect("a run has a rank");
        // Breadth first, keeping each state's path and its rank.
        let mut seen: Vec<Option<(Vec<usize>, u32)>> = vec![None; n];
        seen[from as usize] = Some((Vec::new(), start_rank));
        let mut queue = VecDeque::from([from]);
        let mut order = Vec::new();
        while let Some(state) = queue.pop_front() {
            order.push(state);
            let (path, rank) = seen[state as usize]
                .clone()
                .expect("queued states are seen");
            for column in 0..self.width {
                let r = self.rank[state as usize * self.width + column];
                if r == BLOCKED {
                    continue;
                }
                let (target, _) = mealy.transition(state, column);
                if seen[target as usize].is_none() {
                    let mut next = path.clone();
                    next.push(column);
                    seen[target as usize] = Some((next, rank.max(r)));
                    queue.push_back(target);
                }
            }
        }
        if run.columns.is_empty() {
            // Every access word is proven: a fresh run takes it, whatever its transitions.
            for (state, path) in self.access.iter().enumerate() {
                if let Some(seen) = seen.get_mut(state) {
                    *seen = Some((path.clone(), FREE));
                }
            }
        }
        let mut best: Option<(usize, u32, usize)> = None;
        for (index, check) in self.checks.iter().enumerate() {
            if !open[index] {
                continue;
            }
            let Some((path, rank)) = &seen[check.state as usize] else {
                continue;
            };
            if *rank >= check.limit {
                continue;
            }
            let key = (path.len(), check.limit, index);
            if best.is_none_or(|it| key < it) {
                best = Some(key);
            }
        }
        best.map(|(_, _, index)| {
            let (path, _) = seen[self.checks[index].state as usize]
                .clone()
                .expect("a reachable check");
            (path, index)
        })
    }

    /// Closes every open check that a window of `run` starting at `from` or later, or ending
    /// after it, covers; returns how many.
    fn cover(&self, run: &Run, from: usize, open: &mut [bool]) -> usize {
        let longest = self
            .checks
            .iter()
            .map(|it| it.columns.len())
            .max()
            .unwrap_or(0);
        let mut closed = 0;
        for position in from.saturating_sub(longest)..run.columns.len() {
            let (state, rank) = (run.states[position], run.ranks[position]);
            for end in position + 1..=run.columns.len().min(position + longest) {
                let key = (state, run.columns[position..end].to_vec());
                for &index in self.by_window.get(&key).into_iter().flatten() {
                    if open[index] && rank < self.checks[index].limit {
                        open[index] = false;
                        closed += 1;
                    }
                }
            }
        }
        closed
    }
}

/// `word` as the columns of `mealy`'s inputs.
fn columns(mealy: &typestates::mealy::Mealy, word: &[Input]) -> Vec<usize> {
    word.iter()
        .map(|input| mealy.column(*input).expect("the hypothesis's inputs"))
        .collect()
}

/// A run being planned: its inputs, the hypothesis state and the rank after each prefix.
struct Run {
    columns: Vec<usize>,
    states: Vec<u32>,
    ranks: Vec<u32>,
    ended: bool,
}

impl Run {
    /// A run not yet begun, at `initial`.
    fn new(initial: u32) -> Run {
        Run {
            columns: Vec::new(),
            states: vec![initial],
            ranks: vec![FREE],
            ended: false,
        }
    }

    fn push(&mut self, plan: &Plan, column: usize) {
        let state = *self.states.last().expect("a run has a state");
        let (target, output) = plan.hypothesis.mealy.transition(state, column);
        let r = plan.rank[state as usize * plan.width + column];
        let rank = *self.ranks.last().expect("a run has a rank");
        self.columns.push(column);
        self.states.push(target);
        let proven_access = self.columns == plan.access[target as usize];
        self.ranks.push(match r {
            BLOCKED => BLOCKED,
            _ if proven_access => FREE,
            _ => rank.max(r),
        });
        self.ended |= output == Output::Err;
    }
}

#[cfg(test)]
mod tests {
    use typestates::mealy::{to_mealy, Mealy};

    use super::chained_runs;
    use crate::closure::{words_of_length, Input, Output};
    use crate::hypothesis::Hypothesis;

    /// The model as a hypothesis, with its breadth-first access words.
    fn hypothesis(mealy: Mealy) -> Hypothesis {
        let access = mealy
            .access_words()
            .into_iter()
            .map(|word| {
                let columns = word.expect("a minimal machine reaches every state");
                columns.iter().map(|&column| mealy.inputs[column]).collect()
            })
            .collect();
        Hypothesis { mealy, access }
    }

    /// Whether every two states of `mealy` answer some word of at most `bound` inputs
    /// differently.
    fn has_distinguisher_bound(mealy: &Mealy, bound: usize) -> bool {
        let words: Vec<Vec<usize>> = (0..=bound)
            .flat_map(|length| words_of_length(&mealy.inputs, length))
            .map(|word| word.iter().map(|it| mealy.column(*it).unwrap()).collect())
            .collect();
        let signatures: Vec<Vec<Vec<Output>>> = (0..mealy.n_states() as u32)
            .map(|state| {
                words
                    .iter()
                    .map(|word| mealy.run_columns(state, word).0)
                    .collect()
            })
            .collect();
        let mut sorted = signatures.clone();
        sorted.sort();
        sorted.dedup();
        sorted.len() == signatures.len()
    }

    /// Words as the learning and earlier rounds leave them: each access word followed by one
    /// input, and 50 walks of six inputs from the initial state (seeded).
    fn learning_words(hypothesis: &Hypothesis) -> Vec<Vec<Input>> {
        let inputs = &hypothesis.mealy.inputs;
        let pairs = words_of_length(inputs, 1);
        let mut seed: u64 = 17;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as usize
        };
        let walks: Vec<Vec<Input>> = (0..50)
            .map(|_| (0..6).map(|_| inputs[next() % inputs.len()]).collect())
            .collect();
        hypothesis
            .access
            .iter()
            .flat_map(|access| {
                pairs.iter().map(move |pair| {
                    let mut word = access.clone();
                    word.extend(pair);
                    word
                })
            })
            .chain(walks)
            .collect()
    }

    /// Soundness, by mutation: every machine one transition away from a library model (another
    /// target, or `err`) that differs from it and keeps distinguisher bound 2 answers some
    /// chained run differently. Models of at most 12 states (8 beside known traces) keep the test quick.
    /// With `known` traces, the runs are planned beside those the mutant answers as the model:
    /// a system like the mutant may have left just those.
    /// The test fails when the known traces' ranks are ignored.
    fn every_mutant_within_the_bound_fails(known: KnownTraces) {
        let bound = 2;
        let mut mutants = 0;
        let mut told_by_traces = 0;
        for file in typestates::library::bundled_files() {
            let model =
                typestates::format::parse(file.path, file.text).expect("bundled files parse");
            let mealy = to_mealy(&model).minimize();
            if mealy.n_states() > known.largest_model() {
                continue;
            }
            let hypothesis = hypothesis(mealy.clone());
            let candidates = match known {
                KnownTraces::None => Vec::new(),
                KnownTraces::LearningWords => learning_words(&hypothesis),
            };
            let runs = chained_runs(&hypothesis, bound, false, &candidates);
            let n = mealy.n_states() as u32;
            for state in 0..n {
                for column in 0..mealy.inputs.len() {
                    let (target, output) = mealy.transition(state, column);
                    if output == Output::Err {
                        continue;
                    }
                    let changes = (0..n)
                        .filter(|it| *it != target)
                        .map(|it| (it, output))
                        .chain([(target, Output::Err)]);
                    for (new_target, new_output) in changes {
                        let mut mutant = mealy.clone();
                        mutant.set_transition(state, column, new_target, new_output);
                        let minimal = mutant.minimize();
                        if mealy.distinguishing_word(&mutant).is_none()
                            || !has_distinguisher_bound(&minimal, bound)
                        {
                            continue;
                        }
                        // The traces a system like the mutant may have left: those it answers
                        // as the model (one it answers otherwise is a counterexample already).
                        let traces: Vec<Vec<Input>> = candidates
                            .iter()
                            .filter(|word| mutant.outputs(word) == mealy.outputs(word))
                            .cloned()
                            .collect();
                        let replanned;
                        let runs = if traces.len() == candidates.len() {
                            &runs
                        } else {
                            told_by_traces += 1;
                            replanned = chained_runs(&hypothesis, bound, false, &traces);
                            &replanned
                        };
                        mutants += 1;
                        assert!(
                            runs.iter()
                                .any(|run| mutant.outputs(run) != mealy.outputs(run)),
                            "{}: no chained run tells the model from its mutant \
                             (state {state}, column {column} to {new_target}, {new_output:?}, \
                             {} known traces)",
                            file.path,
                            traces.len()
                        );
                    }
                }
            }
        }
        assert!(mutants > 100, "only {mutants} mutants checked");
        if known == KnownTraces::LearningWords {
            assert!(
                told_by_traces > 0,
                "no mutant answers a known trace otherwise"
            );
        }
    }

    /// Which traces count as observed before the chained runs.
    #[derive(Clone, Copy, PartialEq, Eq)]
    enum KnownTraces {
        None,
        LearningWords,
    }

    impl KnownTraces {
        /// The most states a mutated model has: planning once per mutant is slower.
        fn largest_model(self) -> usize {
            match self {
                KnownTraces::None => 12,
                KnownTraces::LearningWords => 8,
            }
        }
    }

    #[test]
    fn every_mutant_within_the_bound_fails_a_chained_run() {
        every_mutant_within_the_bound_fails(KnownTraces::None);
    }

    #[test]
    fn every_mutant_within_the_bound_fails_a_run_planned_beside_known_traces() {
        every_mutant_within_the_bound_fails(KnownTraces::LearningWords);
    }

    /// The known traces close checks: fewer runs are planned beside them, never more.
    #[test]
    fn known_traces_close_checks() {
        let mut fewer = 0;
        for file in typestates::library::bundled_files() {
            let model =
                typestates::format::parse(file.path, file.text).expect("bundled files parse");
            let hypothesis = hypothesis(to_mealy(&model).minimize());
            let alone = chained_runs(&hypothesis, 2, false, &[]).len();
            let beside = chained_runs(&hypothesis, 2, false, &learning_words(&hypothesis)).len();
            assert!(beside <= alone, "{}: {beside} > {alone}", file.path);
            fewer += usize::from(beside < alone);
        }
        assert!(fewer > 0, "no known trace closed a check");
    }
}
