//! The Mealy machine of the synchronous closure (paper 002, §4.1 and §4.4).
//!
//! Inputs are the callins plus `wait`; outputs are the callbacks plus `quiet`, `eps` and `err`.
//! A callin answers `eps` when it is enabled and `err` when it is not; `wait` answers the
//! callback that arrives, or `quiet`. After `err` every output is `err`: the closure sends all
//! errors to one sink state.
//!
//! [`to_mealy`] and [`to_typestate`] convert both ways. A typestate carries more than its
//! Mealy machine (bindings, exceptions, the ignored mark, provenance), so the way back takes a
//! [`Signature`] with the class's symbols and keeps what the learner cannot see empty.

use std::collections::VecDeque;

use crate::model::{
    Callback, CallbackId, Callin, CallinId, Origin, State, StateId, Step, Typestate, WaitOutcome,
};
use crate::provenance::Provenance;

/// An input of the synchronous closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Input {
    /// The client calls a callin.
    Callin(CallinId),
    /// The client lets time pass until a callback arrives or the quiescence timeout expires.
    Wait,
}

/// An output of the synchronous closure.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Output {
    /// The callin was accepted.
    Eps,
    /// The callin was not allowed, or an earlier one was not.
    Err,
    /// No callback arrived before the quiescence timeout.
    Quiet,
    /// This callback arrived.
    Callback(CallbackId),
}

/// The symbols of a class, without its states: what a learning run starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Signature {
    /// Fully qualified class name.
    pub class: String,
    /// All callins, creators included; [`CallinId`] indexes this.
    pub callins: Vec<Callin>,
    /// All callbacks; [`CallbackId`] indexes this.
    pub callbacks: Vec<Callback>,
}

impl Signature {
    /// The inputs of the synchronous closure: every non-creator callin, then `wait`.
    pub fn inputs(&self) -> Vec<Input> {
        self.callins
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_creator())
            .map(|(i, _)| Input::Callin(CallinId(i as u32)))
            .chain(std::iter::once(Input::Wait))
            .collect()
    }

    /// The name of an input as written in traces.
    pub fn input_name(&self, input: Input) -> &str {
        match input {
            Input::Callin(id) => &self.callins[id.index()].name,
            Input::Wait => "wait",
        }
    }

    /// The name of an output as written in traces.
    pub fn output_name(&self, output: Output) -> &str {
        match output {
            Output::Eps => "eps",
            Output::Err => "err",
            Output::Quiet => "quiet",
            Output::Callback(id) => &self.callbacks[id.index()].name,
        }
    }
}

/// A complete deterministic Mealy machine over the synchronous closure's alphabet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Mealy {
    /// The inputs, in the order of the columns of `transitions`.
    pub inputs: Vec<Input>,
    /// The initial state.
    pub initial: u32,
    /// `transitions[state * inputs.len() + column]` is the target and the output.
    pub transitions: Vec<(u32, Output)>,
}

impl Mealy {
    /// A machine with `n_states` states whose every transition is `err` into state 0; callers
    /// overwrite the transitions they know.
    pub fn with_states(inputs: Vec<Input>, n_states: usize, initial: u32) -> Mealy {
        let width = inputs.len();
        Mealy {
            inputs,
            initial,
            transitions: vec![(0, Output::Err); n_states * width],
        }
    }

    /// Number of states.
    pub fn n_states(&self) -> usize {
        self.transitions.len() / self.inputs.len().max(1)
    }

    /// The column of `input`, if it is in the alphabet.
    pub fn column(&self, input: Input) -> Option<usize> {
        self.inputs.iter().position(|it| *it == input)
    }

    /// The transition from `state` on the input in `column`.
    pub fn transition(&self, state: u32, column: usize) -> (u32, Output) {
        self.transitions[state as usize * self.inputs.len() + column]
    }

    /// Sets the transition from `state` on the input in `column`.
    pub fn set_transition(&mut self, state: u32, column: usize, target: u32, output: Output) {
        let width = self.inputs.len();
        self.transitions[state as usize * width + column] = (target, output);
    }

    /// Runs a word of input columns from `state`, returning the outputs and the final state.
    pub fn run_columns(&self, state: u32, word: &[usize]) -> (Vec<Output>, u32) {
        let mut state = state;
        let outputs = word
            .iter()
            .map(|&column| {
                let (target, output) = self.transition(state, column);
                state = target;
                output
            })
            .collect();
        (outputs, state)
    }

    /// The outputs for a word of inputs from the initial state; `None` if an input is not in
    /// the alphabet.
    pub fn outputs(&self, word: &[Input]) -> Option<Vec<Output>> {
        let columns = word
            .iter()
            .map(|input| self.column(*input))
            .collect::<Option<Vec<_>>>()?;
        Some(self.run_columns(self.initial, &columns).0)
    }

    /// A shortest access word (as columns) for every state reachable from the initial one,
    /// by breadth-first search in column order.
    pub fn access_words(&self) -> Vec<Option<Vec<usize>>> {
        let mut access: Vec<Option<Vec<usize>>> = vec![None; self.n_states()];
        access[self.initial as usize] = Some(Vec::new());
        let mut queue = VecDeque::from([self.initial]);
        while let Some(state) = queue.pop_front() {
            for column in 0..self.inputs.len() {
                let (target, _) = self.transition(state, column);
                if access[target as usize].is_none() {
                    let mut word = access[state as usize].clone().unwrap_or_default();
                    word.push(column);
                    access[target as usize] = Some(word);
                    queue.push_back(target);
                }
            }
        }
        access
    }

    /// The minimal machine with the same traces: unreachable states dropped, equivalent states
    /// merged by partition refinement. States are numbered in breadth-first order from the
    /// initial state, so equal machines minimise to identical values.
    pub fn minimize(&self) -> Mealy {
        let width = self.inputs.len();
        let n = self.n_states();
        // Start from the partition by output rows, then refine by successor blocks until stable.
        let mut block: Vec<usize> = number_by_key(n, |s| {
            (0..width)
                .map(|c| self.transition(s as u32, c).1)
                .collect::<Vec<_>>()
        });
        loop {
            let refined = number_by_key(n, |s| {
                let successors: Vec<usize> = (0..width)
                    .map(|c| block[self.transition(s as u32, c).0 as usize])
                    .collect();
                (block[s], successors)
            });
            let stable = count_blocks(&refined) == count_blocks(&block);
            block = refined;
            if stable {
                break;
            }
        }
        // Renumber the blocks in breadth-first order from the initial state.
        let mut order: Vec<Option<u32>> = vec![None; n];
        let mut representatives = Vec::new();
        let mut queue = VecDeque::from([self.initial]);
        order[block[self.initial as usize]] = Some(0);
        representatives.push(self.initial);
        while let Some(state) = queue.pop_front() {
            for column in 0..width {
                let (target, _) = self.transition(state, column);
                let b = block[target as usize];
                if order[b].is_none() {
                    order[b] = Some(representatives.len() as u32);
                    representatives.push(target);
                    queue.push_back(target);
                }
            }
        }
        let mut minimal = Mealy::with_states(self.inputs.clone(), representatives.len(), 0);
        for (new_state, &old_state) in representatives.iter().enumerate() {
            for column in 0..width {
                let (target, output) = self.transition(old_state, column);
                let new_target = order[block[target as usize]]
                    .expect("successor of a reachable state is reachable");
                minimal.set_transition(new_state as u32, column, new_target, output);
            }
        }
        minimal
    }

    /// A shortest input word (as columns) on which `self` and `other` answer differently, or
    /// `None` if they are equivalent. Both machines must have the same inputs in the same order.
    pub fn distinguishing_word(&self, other: &Mealy) -> Option<Vec<usize>> {
        self.distinguishing_words(other, 1).into_iter().next()
    }

    /// Up to `limit` shortest witnesses of difference, at most one per pair of states reached
    /// and input: breadth-first over the product machine, so every witness is as short as the
    /// difference it shows allows.
    pub fn distinguishing_words(&self, other: &Mealy, limit: usize) -> Vec<Vec<usize>> {
        assert_eq!(
            self.inputs, other.inputs,
            "compare machines over one alphabet"
        );
        let width = self.inputs.len();
        let mut witnesses = Vec::new();
        let mut seen = std::collections::HashSet::new();
        let mut queue = VecDeque::from([((self.initial, other.initial), Vec::<usize>::new())]);
        seen.insert((self.initial, other.initial));
        while let Some(((a, b), word)) = queue.pop_front() {
            for column in 0..width {
                let (ta, oa) = self.transition(a, column);
                let (tb, ob) = other.transition(b, column);
                let mut next = word.clone();
                next.push(column);
                if oa != ob {
                    witnesses.push(next);
                    if witnesses.len() >= limit {
                        return witnesses;
                    }
                } else if seen.insert((ta, tb)) {
                    queue.push_back(((ta, tb), next));
                }
            }
        }
        witnesses
    }
}

/// Numbers `0..n` by the value of `key`, equal keys getting equal numbers (first-seen order).
fn number_by_key<K: Eq + std::hash::Hash>(n: usize, key: impl Fn(usize) -> K) -> Vec<usize> {
    let mut numbers = std::collections::HashMap::new();
    (0..n)
        .map(|s| {
            let next = numbers.len();
            *numbers.entry(key(s)).or_insert(next)
        })
        .collect()
}

fn count_blocks(block: &[usize]) -> usize {
    block.iter().max().map_or(0, |m| m + 1)
}

/// The Mealy machine of a typestate's synchronous closure. Its states are the typestate's
/// states in order, followed by one error sink when any step leads to an error.
pub fn to_mealy(typestate: &Typestate) -> Mealy {
    let inputs = typestate.signature().inputs();
    let n = typestate.states.len();
    let sink = n as u32;
    let mut mealy = Mealy::with_states(inputs.clone(), n + 1, typestate.initial.0);
    for state in typestate.state_ids() {
        let s = typestate.state(state);
        for (column, input) in inputs.iter().enumerate() {
            let (target, output) = match *input {
                Input::Callin(callin) => match &s.on_callin[callin.index()] {
                    Step::Enabled { target, .. } => (target.0, Output::Eps),
                    Step::Error { .. } => (sink, Output::Err),
                },
                Input::Wait => match &s.on_wait {
                    WaitOutcome::Quiet { target, .. } => (target.0, Output::Quiet),
                    WaitOutcome::Callback {
                        callback, target, ..
                    } => (target.0, Output::Callback(*callback)),
                    WaitOutcome::Error { .. } => (sink, Output::Err),
                },
            };
            mealy.set_transition(state.0, column, target, output);
        }
    }
    for column in 0..inputs.len() {
        mealy.set_transition(sink, column, sink, Output::Err);
    }
    let uses_sink = mealy.transitions[..n * inputs.len()]
        .iter()
        .any(|(_, output)| *output == Output::Err);
    if !uses_sink {
        mealy.transitions.truncate(n * inputs.len());
    }
    mealy
}

/// The typestate of a Mealy machine over `signature`'s symbols (paper 002, §4.4): transitions
/// with output `err` become errors, `wait` transitions become callbacks or quiescence, and
/// states only reachable through `err` (the sink) disappear. States are named `s0`, `s1`, …
/// in the machine's order after minimisation.
pub fn to_typestate(mealy: &Mealy, signature: &Signature) -> Typestate {
    let minimal = mealy.minimize();
    let width = minimal.inputs.len();
    // States reachable without passing an err transition are the typestate's states.
    let mut keep: Vec<Option<u32>> = vec![None; minimal.n_states()];
    let mut order = Vec::new();
    let mut queue = VecDeque::from([minimal.initial]);
    keep[minimal.initial as usize] = Some(0);
    order.push(minimal.initial);
    while let Some(state) = queue.pop_front() {
        for column in 0..width {
            let (target, output) = minimal.transition(state, column);
            if output != Output::Err && keep[target as usize].is_none() {
                keep[target as usize] = Some(order.len() as u32);
                order.push(target);
                queue.push_back(target);
            }
        }
    }
    let states = order
        .iter()
        .enumerate()
        .map(|(index, &old)| {
            let mut on_callin = vec![Step::unknown_error(); signature.callins.len()];
            let mut on_wait = WaitOutcome::quiet_loop(StateId(index as u32));
            for (column, input) in minimal.inputs.iter().enumerate() {
                let (target, output) = minimal.transition(old, column);
                let target = keep[target as usize].map(StateId);
                match (*input, output, target) {
                    (_, Output::Err, _) | (_, _, None) => {
                        if *input == Input::Wait {
                            on_wait = WaitOutcome::Error {
                                origin: Origin::default(),
                            };
                        }
                    }
                    (Input::Callin(callin), _, Some(target)) => {
                        on_callin[callin.index()] = Step::Enabled {
                            target,
                            ignored: false,
                            origin: Origin::default(),
                        };
                    }
                    (Input::Wait, Output::Callback(callback), Some(target)) => {
                        on_wait = WaitOutcome::Callback {
                            callback,
                            target,
                            origin: Origin::default(),
                        };
                    }
                    (Input::Wait, _, Some(target)) => {
                        on_wait = WaitOutcome::Quiet {
                            target,
                            origin: Origin::default(),
                        };
                    }
                }
            }
            State {
                name: format!("s{index}"),
                description: None,
                on_callin,
                on_wait,
            }
        })
        .collect();
    Typestate {
        class: signature.class.clone(),
        summary: None,
        provenance: Provenance::default(),
        notes: Vec::new(),
        callins: signature.callins.clone(),
        callbacks: signature.callbacks.clone(),
        states,
        initial: StateId(0),
        examples: Vec::new(),
    }
}

impl Typestate {
    /// The class's symbols without the states.
    pub fn signature(&self) -> Signature {
        Signature {
            class: self.class.clone(),
            callins: self.callins.clone(),
            callbacks: self.callbacks.clone(),
        }
    }

    /// Number of states of the minimal equivalent typestate (error sink excluded).
    pub fn n_minimal_states(&self) -> usize {
        to_typestate(&to_mealy(self), &self.signature())
            .states
            .len()
    }
}
