//! The callback typestate of one class: an interface automaton over callins and callbacks.
//!
//! A [`Typestate`] has states, an initial state, callins (methods the client calls) and callbacks (client methods the framework calls).
//! In each state it has, for every callin, one of:
//! - an enabled transition, possibly marked *ignored*;
//! - an error, optionally naming the exception the framework throws;
//! - a *restriction*.
//!
//! In each state exactly one thing happens when time passes ([`WaitOutcome`]):
//! - a callback arrives and moves the object;
//! - time passes quietly, possibly moving the object (MediaRecorder needs a moment after `start()` before `stop()` is allowed);
//! - the object fails;
//! - or a restriction.
//!
//! A restriction is a limit of the experiment that learned the protocol, not of the API.
//! A query filter (DroidStar's `validQuery`) forbade that input there, so nothing ran and nothing is known.
//! The synchronous closure cannot tell it from an error (the learner saw `err` either way), so [`crate::mealy`] converts it to `err`.
//! The model keeps the difference, so that a checker treats the call as unknown rather than forbidden.
//!
//! Exactly one wait outcome per state keeps the automaton deterministic: Assumption 3 of the Starling paper.
//! It makes the conversion to the Mealy machine of the synchronous closure ([`crate::mealy`]) a bijection up to the error sink.
//! (Restrictions become errors there.)

use crate::binding::{CallbackBinding, CallinBinding, MethodRef};
use crate::levels::ApiLevels;
use crate::provenance::Provenance;

/// Index of a state in [`Typestate::states`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct StateId(pub u32);

/// Index of a callin in [`Typestate::callins`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallinId(pub u32);

/// Index of a callback in [`Typestate::callbacks`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct CallbackId(pub u32);

impl StateId {
    /// The index as `usize`, for slices.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl CallinId {
    /// The index as `usize`, for slices.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl CallbackId {
    /// The index as `usize`, for slices.
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

/// The protocol of one class.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Typestate {
    /// Fully qualified name of the class, `android.media.MediaRecorder`.
    pub class: String,
    /// One-line summary shown in hovers and listings.
    pub summary: Option<String>,
    /// Where the protocol comes from.
    pub provenance: Provenance,
    /// Free-form notes, one paragraph each.
    pub notes: Vec<String>,
    /// The callins: the alphabet of inputs, plus creators (constructors and factories).
    pub callins: Vec<Callin>,
    /// The callbacks: the alphabet of outputs.
    pub callbacks: Vec<Callback>,
    /// Methods of the class that never change its protocol state and never fail in a way
    /// the protocol describes (getters, setters of parameters, listener registrations): a
    /// checker lets them pass. Any other method the protocol does not name has an unknown
    /// effect.
    pub harmless: Vec<MethodRef>,
    /// Public methods of the class deliberately left out of the protocol, each group with the
    /// reason: their effect is unknown, so a checker forgets the state after one, as after any
    /// method the protocol does not name. With them a file lists every public method once.
    pub excluded: Vec<Exclusion>,
    /// The states; [`StateId`] indexes this.
    pub states: Vec<State>,
    /// The state a fresh object starts in when created by the experiment's reset.
    pub initial: StateId,
    /// The states the object must not be abandoned in, and how and by when it leaves them.
    pub obligations: Vec<crate::obligation::Obligation>,
    /// Traces the protocol must accept or reject; checked by the library tests.
    pub examples: Vec<Example>,
}

/// Public methods deliberately left out of a protocol (`excluded: … because "…"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Exclusion {
    /// The methods.
    pub methods: Vec<MethodRef>,
    /// Why they are left out: what about their effect is unknown.
    pub reason: String,
}

/// A method the client calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callin {
    /// The symbol, unique among callins and callbacks: `start`, `openNew`.
    pub name: String,
    /// The Java method(s) this symbol stands for.
    pub binding: CallinBinding,
    /// For a creator (constructor or static factory): the state the new object starts in.
    /// Creators are not inputs of the automaton: they are how a query's reset builds the object.
    pub creates: Option<StateId>,
}

impl Callin {
    /// Whether this callin builds the object instead of acting on it.
    pub fn is_creator(&self) -> bool {
        self.creates.is_some()
    }
}

/// A method of the client the framework calls.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Callback {
    /// The symbol, unique among callins and callbacks: `prepared`, `onFinish`.
    pub name: String,
    /// How the client receives it.
    pub binding: CallbackBinding,
    /// What singles this callback out among callbacks bound to the same method: "the event
    /// mask has DELETE_SELF" (FileObserver's `modified` and `deleted` are both `onEvent`).
    /// `None` when the method alone decides.
    pub condition: Option<String>,
}

/// One state of the automaton.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct State {
    /// The name used in files and diagnostics: `Prepared`.
    pub name: String,
    /// What this state means, for hovers.
    pub description: Option<String>,
    /// What each callin does here, indexed by [`CallinId`]; creators are always an error with
    /// nothing recorded ([`Step::unknown_error`]).
    pub on_callin: Steps,
    /// What happens here when time passes.
    pub on_wait: WaitOutcome,
    /// Steps that replace [`State::on_callin`] on some API levels only, by callin, then in
    /// file order; the ranges of one callin are disjoint. Empty for a protocol that is the same on every level.
    pub by_level: Vec<LevelStep>,
}

/// What each callin does in one state, stored sparsely: the steps that are not
/// [`Step::unknown_error`] (what a state says of a callin it does not mention).
/// A model then takes memory in proportion to the steps its file names, not to its states
/// times its callins.
/// Indexing by a callin's index gives its step; [`Steps::iter`] gives every callin's step in
/// order.
#[derive(Clone, Default)]
pub struct Steps {
    /// How many callins there are.
    len: usize,
    /// The steps set, by callin index; the others are [`Step::unknown_error`].
    set: std::collections::BTreeMap<usize, Step>,
}

/// The step of a callin no step was set for.
static UNKNOWN_ERROR: Step = Step::Error {
    failure: Failure::Throws(None),
    origin: Origin {
        source: None,
        unverified: false,
    },
};

impl Steps {
    /// `len` callins, each an unknown error.
    pub fn new(len: usize) -> Steps {
        Steps {
            len,
            set: std::collections::BTreeMap::new(),
        }
    }

    /// How many callins there are.
    pub fn len(&self) -> usize {
        self.len
    }

    /// Whether there are no callins.
    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// Makes room for `len` callins: new ones are unknown errors, ones past `len` are dropped.
    pub fn resize(&mut self, len: usize) {
        self.set.retain(|&index, _| index < len);
        self.len = len;
    }

    /// Every callin's step, in callin order.
    pub fn iter(&self) -> impl Iterator<Item = &Step> + '_ {
        (0..self.len).map(|index| &self[index])
    }

    /// The steps set, in callin order: every step that may be enabled or restricted, and some
    /// errors; for questions an unknown error answers no to (a target, a restriction).
    pub fn set(&self) -> impl Iterator<Item = &Step> + '_ {
        self.set.values()
    }

    /// The steps that say more than an unknown error, with their callin index, in callin
    /// order: what a writer lists, since a state that does not list a callin means an unknown error.
    pub fn named(&self) -> impl Iterator<Item = (usize, &Step)> + '_ {
        self.set
            .iter()
            .filter(|(_, step)| **step != UNKNOWN_ERROR)
            .map(|(&index, step)| (index, step))
    }

    /// The steps set, mutable, for changes that leave an unknown error as it is (renumbering
    /// targets).
    pub fn set_mut(&mut self) -> impl Iterator<Item = &mut Step> + '_ {
        self.set.values_mut()
    }

    /// Every callin's step, mutable, in callin order; this stores every step.
    pub fn iter_mut(&mut self) -> impl Iterator<Item = &mut Step> + '_ {
        for index in 0..self.len {
            self.set.entry(index).or_insert_with(Step::unknown_error);
        }
        self.set.values_mut()
    }
}

impl std::ops::Index<usize> for Steps {
    type Output = Step;

    fn index(&self, index: usize) -> &Step {
        assert!(index < self.len, "callin {index} of {}", self.len);
        self.set.get(&index).unwrap_or(&UNKNOWN_ERROR)
    }
}

impl std::ops::IndexMut<usize> for Steps {
    fn index_mut(&mut self, index: usize) -> &mut Step {
        assert!(index < self.len, "callin {index} of {}", self.len);
        self.set.entry(index).or_insert_with(Step::unknown_error)
    }
}

/// Lists every callin's step, as the dense list it stands for.
impl std::fmt::Debug for Steps {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq for Steps {
    fn eq(&self, other: &Steps) -> bool {
        self.len == other.len
            && (self.set.keys().chain(other.set.keys())).all(|&index| self[index] == other[index])
    }
}

impl Eq for Steps {}

impl FromIterator<Step> for Steps {
    fn from_iter<I: IntoIterator<Item = Step>>(steps: I) -> Steps {
        let mut len = 0;
        let mut set = std::collections::BTreeMap::new();
        for (index, step) in steps.into_iter().enumerate() {
            if step != UNKNOWN_ERROR {
                set.insert(index, step);
            }
            len = index + 1;
        }
        Steps { len, set }
    }
}

impl<'a> IntoIterator for &'a Steps {
    type Item = &'a Step;
    type IntoIter = Box<dyn Iterator<Item = &'a Step> + 'a>;

    fn into_iter(self) -> Self::IntoIter {
        Box::new(self.iter())
    }
}

/// What a callin does in a state on some API levels, instead of its step on the others.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LevelStep {
    /// The callin.
    pub callin: CallinId,
    /// The levels this step holds on.
    pub levels: ApiLevels,
    /// What the callin does there.
    pub step: Step,
}

/// What a callin does in a state.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// The callin is allowed and moves the object to `target`.
    Enabled {
        /// The state after the call.
        target: StateId,
        /// Accepted but without effect (AsyncTask `execute()` after `cancel()`).
        ignored: bool,
        /// Where this transition comes from.
        origin: Origin,
    },
    /// The callin is not allowed here.
    Error {
        /// How the call fails: it throws, or it returns and posts an error callback.
        failure: Failure,
        /// Where this fact comes from.
        origin: Origin,
    },
    /// The experiment never ran the callin here: a query filter forbade it (DroidStar's
    /// `validQuery`). Nothing is known of the API; the closure answered `err` for the learner.
    Restricted {
        /// The rule of the experiment that forbade it.
        origin: Origin,
    },
}

impl Step {
    /// An error step with no recorded exception or origin: what a state says of a callin it
    /// does not mention.
    pub fn unknown_error() -> Step {
        Step::Error {
            failure: Failure::Throws(None),
            origin: Origin::default(),
        }
    }

    /// The target state, if the callin is enabled.
    pub fn target(&self) -> Option<StateId> {
        match self {
            Step::Enabled { target, .. } => Some(*target),
            Step::Error { .. } | Step::Restricted { .. } => None,
        }
    }

    /// Where this step comes from.
    pub fn origin(&self) -> &Origin {
        match self {
            Step::Enabled { origin, .. }
            | Step::Error { origin, .. }
            | Step::Restricted { origin } => origin,
        }
    }

    /// Whether the experiment forbade this callin here, so nothing is known of it.
    pub fn is_restricted(&self) -> bool {
        matches!(self, Step::Restricted { .. })
    }
}

/// How a callin fails in a state where it is not allowed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Failure {
    /// The call throws this exception (`java.lang.IllegalStateException`), when known.
    Throws(Option<String>),
    /// The call returns normally and posts an error callback to the object's looper.
    /// `MediaPlayer.start()` in Idle posts `onError(-38)` rather than throwing.
    Posts(PostedError),
}

impl Failure {
    /// The exception the call throws, if it throws one that is known.
    pub fn exception(&self) -> Option<&str> {
        match self {
            Failure::Throws(exception) => exception.as_deref(),
            Failure::Posts(_) => None,
        }
    }

    /// The error callback the call posts, if it posts one.
    pub fn posted(&self) -> Option<&PostedError> {
        match self {
            Failure::Throws(_) => None,
            Failure::Posts(posted) => Some(posted),
        }
    }
}

/// An error callback a failing call posts instead of throwing.
/// The state the object is in afterwards is not modelled: a checker forgets it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PostedError {
    /// The listener method that receives it, fully qualified:
    /// `android.media.MediaPlayer.OnErrorListener.onError`.
    pub callback: String,
}

/// What happens in a state when the client lets time pass.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum WaitOutcome {
    /// No callback arrives; after the quiescence timeout the object is in `target`
    /// (usually the same state).
    Quiet {
        /// The state after quiescence.
        target: StateId,
        /// Where this transition comes from.
        origin: Origin,
    },
    /// The framework calls `callback` and the object moves to `target`.
    Callback {
        /// The callback that arrives.
        callback: CallbackId,
        /// The state after the callback.
        target: StateId,
        /// Where this transition comes from.
        origin: Origin,
    },
    /// The object fails asynchronously (an error callback): nothing is allowed afterwards.
    Error {
        /// Where this fact comes from.
        origin: Origin,
    },
    /// The experiment never let time pass here: a query filter forbade it. Nothing is known;
    /// the closure answered `err` for the learner.
    Restricted {
        /// The rule of the experiment that forbade it.
        origin: Origin,
    },
}

impl WaitOutcome {
    /// Quiet self-loop on `state`: what a state says when it mentions no wait outcome.
    pub fn quiet_loop(state: StateId) -> WaitOutcome {
        WaitOutcome::Quiet {
            target: state,
            origin: Origin::default(),
        }
    }

    /// The state after waiting, unless the object fails.
    pub fn target(&self) -> Option<StateId> {
        match self {
            WaitOutcome::Quiet { target, .. } | WaitOutcome::Callback { target, .. } => {
                Some(*target)
            }
            WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => None,
        }
    }

    /// Where this outcome comes from.
    pub fn origin(&self) -> &Origin {
        match self {
            WaitOutcome::Quiet { origin, .. }
            | WaitOutcome::Callback { origin, .. }
            | WaitOutcome::Error { origin }
            | WaitOutcome::Restricted { origin } => origin,
        }
    }

    /// Whether the experiment forbade waiting here, so nothing is known of it.
    pub fn is_restricted(&self) -> bool {
        matches!(self, WaitOutcome::Restricted { .. })
    }
}

/// Where one transition comes from, so that every fact in the library can be traced.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Origin {
    /// A citation: "DroidStar §4.2", "MediaPlayer reference, state diagram".
    pub source: Option<String>,
    /// True when nobody has run the class to confirm it.
    pub unverified: bool,
}

/// A trace the protocol must accept or reject.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Example {
    /// Whether the trace is allowed.
    pub accepted: bool,
    /// The events in order.
    pub trace: Vec<Event>,
}

/// One event of an asynchronous trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// The client calls a callin.
    Callin(CallinId),
    /// The framework calls a callback.
    Callback(CallbackId),
    /// Time passes and no callback arrives.
    Quiet,
}

impl Typestate {
    /// The state with this id.
    pub fn state(&self, id: StateId) -> &State {
        &self.states[id.index()]
    }

    /// The callin with this id.
    pub fn callin(&self, id: CallinId) -> &Callin {
        &self.callins[id.index()]
    }

    /// The callback with this id.
    pub fn callback(&self, id: CallbackId) -> &Callback {
        &self.callbacks[id.index()]
    }

    /// Ids of all states, in order.
    pub fn state_ids(&self) -> impl Iterator<Item = StateId> + '_ {
        (0..self.states.len() as u32).map(StateId)
    }

    /// Whether the experiment left part of the class unexplored: some state has a
    /// `restricted` callin or wait.
    /// The object may then be in a state the automaton does not name (a second nested
    /// `save()` of a Canvas), where any call may be allowed.
    pub fn is_partial(&self) -> bool {
        self.states.iter().any(|state| {
            state.on_wait.is_restricted() || state.on_callin.set().any(Step::is_restricted)
        })
    }

    /// Ids of the callins that are inputs of the automaton (creators excluded).
    pub fn input_callins(&self) -> impl Iterator<Item = CallinId> + '_ {
        self.callins
            .iter()
            .enumerate()
            .filter(|(_, c)| !c.is_creator())
            .map(|(i, _)| CallinId(i as u32))
    }

    /// Ids of the creators.
    pub fn creators(&self) -> impl Iterator<Item = CallinId> + '_ {
        self.callins
            .iter()
            .enumerate()
            .filter(|(_, c)| c.is_creator())
            .map(|(i, _)| CallinId(i as u32))
    }

    /// The state named `name`.
    pub fn state_by_name(&self, name: &str) -> Option<StateId> {
        self.states
            .iter()
            .position(|s| s.name == name)
            .map(|i| StateId(i as u32))
    }

    /// The callin named `name`.
    pub fn callin_by_name(&self, name: &str) -> Option<CallinId> {
        self.callins
            .iter()
            .position(|c| c.name == name)
            .map(|i| CallinId(i as u32))
    }

    /// The callback named `name`.
    pub fn callback_by_name(&self, name: &str) -> Option<CallbackId> {
        self.callbacks
            .iter()
            .position(|c| c.name == name)
            .map(|i| CallbackId(i as u32))
    }

    /// The simple class name: `MediaRecorder` for `android.media.MediaRecorder`.
    pub fn simple_name(&self) -> &str {
        self.class.rsplit(['.', '$']).next().unwrap_or(&self.class)
    }

    /// Whether some step holds on some API levels only.
    pub fn varies_by_level(&self) -> bool {
        self.states.iter().any(|s| !s.by_level.is_empty())
    }

    /// The levels at which some step of the protocol changes (see [`ApiLevels::boundaries`]).
    pub fn level_boundaries(&self) -> impl Iterator<Item = u32> + '_ {
        self.states
            .iter()
            .flat_map(|s| &s.by_level)
            .flat_map(|l| l.levels.boundaries())
    }

    /// The protocol on API level `level`: each level-dependent step that holds there replaces
    /// the state's step, and no step depends on the level any more.
    pub fn at_level(&self, level: u32) -> Typestate {
        let mut at = self.clone();
        for state in &mut at.states {
            for override_ in std::mem::take(&mut state.by_level) {
                if override_.levels.contains(level) {
                    state.on_callin[override_.callin.index()] = override_.step;
                }
            }
        }
        at
    }

    /// What `callin` does in `state`.
    pub fn step(&self, state: StateId, callin: CallinId) -> &Step {
        &self.state(state).on_callin[callin.index()]
    }

    /// Runs an asynchronous trace from `start`: the state reached, or where it goes wrong. A
    /// restriction stops the run as an error does, since nothing is known past it; the
    /// [`Rejection`]'s state tells which it was.
    pub fn run(&self, start: StateId, trace: &[Event]) -> Result<StateId, Rejection> {
        let mut state = start;
        for (position, event) in trace.iter().enumerate() {
            let next = match *event {
                Event::Callin(callin) => self.step(state, callin).target(),
                Event::Callback(callback) => match &self.state(state).on_wait {
                    WaitOutcome::Callback {
                        callback: arriving,
                        target,
                        ..
                    } if *arriving == callback => Some(*target),
                    _ => None,
                },
                Event::Quiet => match &self.state(state).on_wait {
                    WaitOutcome::Quiet { target, .. } => Some(*target),
                    _ => None,
                },
            };
            state = next.ok_or(Rejection { position, state })?;
        }
        Ok(state)
    }

    /// Whether the asynchronous trace is allowed for a new object: from the state its first
    /// event creates when that event is a creator (`build_unavailable enqueue on404`), and
    /// from the initial state otherwise.
    pub fn accepts(&self, trace: &[Event]) -> bool {
        match trace.split_first() {
            Some((Event::Callin(first), rest)) if self.callin(*first).is_creator() => {
                let start = self
                    .callin(*first)
                    .creates
                    .expect("creators create a state");
                self.run(start, rest).is_ok()
            }
            _ => self.run(self.initial, trace).is_ok(),
        }
    }

    /// The symbol of an event, as written in files: a callin or callback name, or `quiet`.
    pub fn event_name(&self, event: Event) -> &str {
        match event {
            Event::Callin(id) => &self.callin(id).name,
            Event::Callback(id) => &self.callback(id).name,
            Event::Quiet => "quiet",
        }
    }

    /// States reachable from the initial state and from every creator's start state.
    pub fn reachable_states(&self) -> Vec<bool> {
        let mut seen = vec![false; self.states.len()];
        let mut stack: Vec<StateId> = std::iter::once(self.initial)
            .chain(self.callins.iter().filter_map(|c| c.creates))
            .collect();
        while let Some(state) = stack.pop() {
            if std::mem::replace(&mut seen[state.index()], true) {
                continue;
            }
            let s = self.state(state);
            stack.extend(s.on_callin.set().filter_map(Step::target));
            stack.extend(s.on_wait.target());
        }
        seen
    }
}

/// Where a trace leaves the protocol.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rejection {
    /// Index of the first event that is not allowed.
    pub position: usize,
    /// The state the object was in at that event.
    pub state: StateId,
}
