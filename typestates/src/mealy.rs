//! The Mealy machine of the synchronous closure (the Starling paper, §4.1 and §4.4).
//!
//! Inputs are the callins plus `wait`; outputs are the callbacks plus `quiet`, `eps` and `err`.
//! A callin answers `eps` when it is enabled and `err` when it is not; `wait` answers the callback
//! that arrives, or `quiet`.
//! After `err` every output is `err`: the closure sends all errors to one sink state.
//!
//! A restriction of the experiment ([`Step::Restricted`], [`WaitOutcome::Restricted`]) is `err` here, as the learner saw it.
//! Learning equivalence ignores the difference.
//! [`to_typestate`] gives plain errors, which the learner's report marks as restrictions again from its filters.
//!
//! [`to_mealy`] and [`to_typestate`] convert both ways.
//! A typestate carries more than its Mealy machine (bindings, exceptions, the ignored mark, provenance).
//! So the way back takes a [`Signature`] with the class's symbols and keeps what the learner cannot see empty.
//! A creator starts where its word from the initial state leads ([`CreatorStart`]), never at a state number of another machine.

use std::collections::VecDeque;

use crate::model::{
    Callback, CallbackId, Callin, CallinId, Origin, State, StateId, Step, Steps, Typestate,
    WaitOutcome,
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
    /// The methods that never change the state ([`Typestate::harmless`]).
    pub harmless: Vec<crate::binding::MethodRef>,
    /// The methods left out of the protocol ([`Typestate::excluded`]).
    pub excluded: Vec<crate::model::Exclusion>,
    /// Where each creator starts, in callin order.
    pub creators: Vec<CreatorStart>,
}

/// Where a creator starts, as a word rather than a state number, so that any machine of the class can place it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CreatorStart {
    /// The creator.
    pub callin: CallinId,
    /// A shortest word of inputs from the initial state to the state the creator makes.
    /// `None` when no word reaches it: an experiment that resets to the initial state never sees that state.
    pub word: Option<Vec<Input>>,
}

impl Signature {
    /// The inputs of the synchronous closure: every non-creator callin, then `wait`.
    pub fn inputs(&self) -> Vec<Input> {
        inputs_of(&self.callins)
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

    /// The states reachable from the initial one without an `err` transition, in breadth-first
    /// order: the states of its typestate ([`to_typestate`]).
    pub fn live_states(&self) -> Vec<u32> {
        let mut seen = vec![false; self.n_states()];
        seen[self.initial as usize] = true;
        let mut order = vec![self.initial];
        let mut next = 0;
        while let Some(&state) = order.get(next) {
            next += 1;
            for column in 0..self.inputs.len() {
                let (target, output) = self.transition(state, column);
                if output != Output::Err && !std::mem::replace(&mut seen[target as usize], true) {
                    order.push(target);
                }
            }
        }
        order
    }

    /// The state `word` leads to from the initial state, unless an input on the way answers
    /// `err` or is not in the alphabet.
    pub fn run_live(&self, word: &[Input]) -> Option<u32> {
        word.iter().try_fold(self.initial, |state, input| {
            let (target, output) = self.transition(state, self.column(*input)?);
            (output != Output::Err).then_some(target)
        })
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

/// The inputs of the synchronous closure over `callins`: every non-creator, then `wait`.
fn inputs_of(callins: &[Callin]) -> Vec<Input> {
    callins
        .iter()
        .enumerate()
        .filter(|(_, c)| !c.is_creator())
        .map(|(i, _)| Input::Callin(CallinId(i as u32)))
        .chain(std::iter::once(Input::Wait))
        .collect()
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
/// Steps that hold on some API levels only are left out: convert [`Typestate::at_level`] for
/// the machine of one level.
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
                    Step::Error { .. } | Step::Restricted { .. } => (sink, Output::Err),
                },
                Input::Wait => match &s.on_wait {
                    WaitOutcome::Quiet { target, .. } => (target.0, Output::Quiet),
                    WaitOutcome::Callback {
                        callback, target, ..
                    } => (target.0, Output::Callback(*callback)),
                    WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => {
                        (sink, Output::Err)
                    }
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

/// The typestate of a Mealy machine over `signature`'s symbols (the Starling paper, §4.4): transitions
/// with output `err` become errors, `wait` transitions become callbacks or quiescence, and
/// states only reachable through `err` (the sink) disappear. States are named `s0`, `s1`, …
/// in the machine's order after minimisation.
pub fn to_typestate(mealy: &Mealy, signature: &Signature) -> Typestate {
    let minimal = mealy.minimize();
    // States reachable without passing an err transition are the typestate's states.
    let order = minimal.live_states();
    let mut keep: Vec<Option<u32>> = vec![None; minimal.n_states()];
    for (index, &state) in order.iter().enumerate() {
        keep[state as usize] = Some(index as u32);
    }
    let mut states: Vec<State> = order
        .iter()
        .enumerate()
        .map(|(index, &old)| {
            let mut on_callin = Steps::new(signature.callins.len());
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
                by_level: Vec::new(),
            }
        })
        .collect();
    let mut callins = signature.callins.clone();
    for creator in &signature.creators {
        let start = creator
            .word
            .as_ref()
            .and_then(|word| minimal.run_live(word))
            .and_then(|state| keep[state as usize]);
        let start = start.unwrap_or_else(|| {
            if states.len() == order.len() {
                states.push(unlearned_state(signature));
            }
            order.len() as u32
        });
        callins[creator.callin.index()].creates = Some(StateId(start));
    }
    Typestate {
        class: signature.class.clone(),
        summary: None,
        provenance: Provenance::default(),
        notes: Vec::new(),
        callins,
        callbacks: signature.callbacks.clone(),
        harmless: signature.harmless.clone(),
        excluded: signature.excluded.clone(),
        states,
        initial: StateId(0),
        obligations: Vec::new(),
        examples: Vec::new(),
    }
}

/// The state where creators the machine cannot place start: every input restricted, since no run of the experiment showed it.
fn unlearned_state(signature: &Signature) -> State {
    let origin = || Origin {
        source: Some(
            "not learned: no run of the experiment reaches the state this creator makes".to_owned(),
        ),
        unverified: false,
    };
    State {
        name: "Unlearned".to_owned(),
        description: Some(
            "Where a creator starts that the experiment never ran: nothing is known here."
                .to_owned(),
        ),
        on_callin: signature
            .callins
            .iter()
            .map(|callin| {
                if callin.is_creator() {
                    Step::unknown_error()
                } else {
                    Step::Restricted { origin: origin() }
                }
            })
            .collect(),
        on_wait: WaitOutcome::Restricted { origin: origin() },
        by_level: Vec::new(),
    }
}

impl Typestate {
    /// The class's symbols without the states.
    pub fn signature(&self) -> Signature {
        let access = self.access_words();
        let creators = self
            .callins
            .iter()
            .enumerate()
            .filter_map(|(index, callin)| {
                Some(CreatorStart {
                    callin: CallinId(index as u32),
                    word: access[callin.creates?.index()].clone(),
                })
            })
            .collect();
        Signature {
            class: self.class.clone(),
            callins: self.callins.clone(),
            callbacks: self.callbacks.clone(),
            harmless: self.harmless.clone(),
            excluded: self.excluded.clone(),
            creators,
        }
    }

    /// A shortest word of inputs from the initial state to each state it reaches without an
    /// error, by breadth-first search in input order.
    pub fn access_words(&self) -> Vec<Option<Vec<Input>>> {
        let mut access: Vec<Option<Vec<Input>>> = vec![None; self.states.len()];
        access[self.initial.index()] = Some(Vec::new());
        let mut queue = VecDeque::from([self.initial]);
        let inputs = inputs_of(&self.callins);
        while let Some(state) = queue.pop_front() {
            let s = self.state(state);
            for &input in &inputs {
                let target = match input {
                    Input::Callin(callin) => s.on_callin[callin.index()].target(),
                    Input::Wait => s.on_wait.target(),
                };
                if let Some(target) = target.filter(|it| access[it.index()].is_none()) {
                    let mut word = access[state.index()].clone().unwrap_or_default();
                    word.push(input);
                    access[target.index()] = Some(word);
                    queue.push_back(target);
                }
            }
        }
        access
    }

    /// Number of states of the minimal equivalent typestate from the initial state (error sink
    /// excluded).
    pub fn n_minimal_states(&self) -> usize {
        to_mealy(self).minimize().live_states().len()
    }
}

#[cfg(test)]
mod tests {
    use super::{to_mealy, to_typestate, Input, Mealy, Output};
    use crate::diff::diff;
    use crate::format::parse;
    use crate::model::{CallinId, Typestate};

    /// A typestate of class `t.T` from the states and symbols written inline.
    fn typestate(body: &str) -> Typestate {
        parse("inline", &format!("typestate t.T\n{body}"))
            .unwrap_or_else(|errors| panic!("{errors:?}"))
    }

    /// A timer whose `Done` state is written twice under two names.
    const TIMER_WITH_TWIN: &str = "
        callin start: start()
        callin cancel: cancel()
        callback finished: override onFinish()
        state Idle initial
          start -> Running
          cancel -> Done
        state Running
          cancel -> Twin
          on finished -> Done
        state Done
          cancel -> Twin
        state Twin
          cancel -> Done";

    const TIMER: &str = "
        callin start: start()
        callin cancel: cancel()
        callback finished: override onFinish()
        state Done
          cancel -> Done
        state Running
          cancel -> Done
          on finished -> Done
        state Idle initial
          start -> Running
          cancel -> Done";

    #[test]
    fn minimisation_merges_equivalent_states() {
        let cases = [
            // (typestate, states of the minimal Mealy machine, error sink included)
            ("state A initial", 1),
            (
                "callin a: a()\nstate A initial\n  a -> B\nstate B\n  a -> A",
                1,
            ),
            ("callin a: a()\nstate A initial\n  a -> B\nstate B", 3),
            (TIMER_WITH_TWIN, 4),
            (TIMER, 4),
            (
                "callin a: a()\nstate A initial\n  a -> A\nstate Unreachable",
                1,
            ),
            // B allows nothing and fails when time passes: it is the error sink.
            ("state A initial\n  quiet -> B\nstate B\n  fails", 2),
        ];
        for (body, n_states) in cases {
            let minimal = to_mealy(&typestate(body)).minimize();
            assert_eq!(minimal.n_states(), n_states, "{body}");
            assert_eq!(minimal.minimize(), minimal, "minimising twice: {body}");
        }
    }

    #[test]
    fn minimal_machines_are_numbered_canonically() {
        // The same protocol with states in another order and under other names.
        let twin = to_mealy(&typestate(TIMER_WITH_TWIN)).minimize();
        let plain = to_mealy(&typestate(TIMER)).minimize();
        assert_eq!(twin, plain);
        assert_eq!(plain.initial, 0);
        // Breadth-first from the initial state in column order: start, cancel, wait.
        let targets: Vec<u32> = (0..plain.n_states() as u32)
            .flat_map(|s| (0..plain.inputs.len()).map(move |c| (s, c)))
            .map(|(s, c)| plain.transition(s, c).0)
            .collect();
        assert_eq!(targets, [1, 2, 0, 3, 2, 2, 3, 2, 2, 3, 3, 3]);
    }

    #[test]
    fn creators_start_where_their_word_leads_in_the_new_machine() {
        // B's twin C merges with it; D is never reached from the initial state.
        let original = typestate(
            "callin a: a()\ncallin made: new() creates C\ncallin lost: new(int) creates D\nstate A initial\n  a -> B\n  fails\nstate B\n  a -> C\nstate C\n  a -> B\nstate D\n  a -> D",
        );
        let back = to_typestate(&to_mealy(&original), &original.signature());
        let start = |name: &str| {
            let creates = back.callin(back.callin_by_name(name).unwrap()).creates;
            back.state(creates.unwrap()).name.clone()
        };
        assert_eq!(start("made"), "s1");
        assert_eq!(start("lost"), "Unlearned");
        assert_eq!(back.states.len(), 3);
    }

    #[test]
    fn to_typestate_and_back_is_equivalent() {
        for body in [
            "state A initial",
            TIMER,
            TIMER_WITH_TWIN,
            "callin a: a()\ncallin b: b()\nstate A initial\n  a -> B ignored\nstate B\n  b error x.E\n  quiet -> C\nstate C\n  fails",
            "callin make: new() creates B\ncallin a: a()\nstate A initial\n  a -> B\nstate B\n  a -> A",
        ] {
            let original = typestate(body);
            let mealy = to_mealy(&original);
            let back = to_typestate(&mealy, &original.signature());
            assert!(diff(&original, &back, 1).is_equivalent(), "{body}");
            assert_eq!(to_mealy(&back).minimize(), mealy.minimize(), "{body}");
            assert_eq!(back.states.len(), original.n_minimal_states(), "{body}");
        }
    }

    #[test]
    fn distinguishing_words_are_shortest() {
        let chain = |last: &str| {
            format!(
                "callin a: a()\ncallin b: b()\nstate S0 initial\n  a -> S1\nstate S1\n  a -> S2\nstate S2\n  {last}"
            )
        };
        let cases = [
            // (left, right, the expected shortest word)
            (chain("a -> S2"), chain("a -> S2"), None),
            (chain("b -> S0"), chain("a -> S2"), Some("a a a")),
            // Equal outputs everywhere until a quiet move has led to different states.
            (
                chain("b -> S2"),
                chain("b -> S2\n  quiet -> S0"),
                Some("a a wait a"),
            ),
            (
                "callin a: a()\ncallin b: b()\nstate S initial\n  a -> S".to_owned(),
                "callin a: a()\ncallin b: b()\nstate S initial\n  a -> S\n  b -> S".to_owned(),
                Some("b"),
            ),
        ];
        for (left, right, expected) in cases {
            let (left, right) = (to_mealy(&typestate(&left)), to_mealy(&typestate(&right)));
            let word = left.distinguishing_word(&right);
            let names = word.as_ref().map(|word| {
                word.iter()
                    .map(|&c| match left.inputs[c] {
                        Input::Callin(CallinId(0)) => "a",
                        Input::Callin(_) => "b",
                        Input::Wait => "wait",
                    })
                    .collect::<Vec<_>>()
                    .join(" ")
            });
            assert_eq!(names.as_deref(), expected);
            if let Some(word) = word {
                assert_ne!(
                    left.run_columns(left.initial, &word).0,
                    right.run_columns(right.initial, &word).0
                );
                assert!(no_shorter_word_distinguishes(&left, &right, word.len()));
            }
        }
    }

    /// Checks every word shorter than `length`, by brute force.
    fn no_shorter_word_distinguishes(left: &Mealy, right: &Mealy, length: usize) -> bool {
        let width = left.inputs.len();
        (0..length).all(|n| {
            (0..width.pow(n as u32)).all(|mut code| {
                let word: Vec<usize> = (0..n)
                    .map(|_| {
                        let column = code % width;
                        code /= width;
                        column
                    })
                    .collect();
                left.run_columns(left.initial, &word).0 == right.run_columns(right.initial, &word).0
            })
        })
    }

    #[test]
    fn the_closure_answers_eps_err_quiet_and_callbacks() {
        let t = typestate(TIMER);
        let mealy = to_mealy(&t);
        let start = Input::Callin(CallinId(0));
        let cancel = Input::Callin(CallinId(1));
        let cases = [
            (
                vec![start, Input::Wait, Input::Wait],
                vec!["eps", "finished", "quiet"],
            ),
            (vec![start, start, cancel], vec!["eps", "err", "err"]),
            (
                vec![Input::Wait, cancel, start],
                vec!["quiet", "eps", "err"],
            ),
        ];
        let signature = t.signature();
        for (word, expected) in cases {
            let outputs = mealy.outputs(&word).expect("inputs of the alphabet");
            let names: Vec<&str> = outputs.iter().map(|o| signature.output_name(*o)).collect();
            assert_eq!(names, expected);
        }
        assert_eq!(mealy.outputs(&[Input::Callin(CallinId(9))]), None);
        // No error anywhere: no sink state.
        let total = to_mealy(&typestate("callin a: a()\nstate A initial\n  a -> A"));
        assert_eq!(total.n_states(), 1);
        assert_eq!(total.transitions, [(0, Output::Eps), (0, Output::Quiet)]);
    }
}
