//! One body's typestate dataflow: the protocol states each tracked object may be in at each point.
//!
//! [`analyze_body`] is the entry point.
//! It takes a body, the state it starts from ([`Env`]) and the file's context ([`Shared`]).
//! It returns a [`BodyResult`]: the exit state and a helper's return summary.
//! In the [`Pass::Record`] pass the result also holds an [`Observation`] per call on a tracked object.
//! With the leak report on, it also holds what the leak scan found on the body's solution ([`BodyResult::losses`]).
//! The event model ([`crate::events`]) decides which state each body starts from.
//! What it returns depends only on what it takes, so a caller may reuse a result (the incremental checker does).
//!
//! The map:
//! - [`Value`]: one object: its states with their [`Cause`]s, `null`, `unknown`, its flags and listeners.
//! - [`Env`]: the values by name ([`Var`]) and the path's flags ([`Fact`]); [`FlowState`] is its lattice.
//! - `BodyAnalysis::transfer`: the effect of one CFG node; [`crate::flow::solve`] iterates it to a fixpoint.
//! - `BodyAnalysis::call`: a callin steps every state; a call that cannot succeed ends the normal path.
//! - Creators give start states; a call bound to several callins takes the union of their outcomes.
//! - An exception edge keeps the state from before the call.
//! - Null checks, boolean callins (`hasNext()`) and flags refine the states on branch edges.
//! - `BodyAnalysis::helper_call`: a private helper is analysed from the caller's state, memoised per entry state.
//! - Its [`Returned`] summary makes the call stand for the field it returns, or for the object it made.
//! - `BodyAnalysis::record`: the observations of the last pass, which `diagnostics` turns into findings.
//! - [`ValueData::listeners`]: which listeners each path registered, so the event model runs one only where it was registered.
//!
//! Rules:
//! - No time passes inside a body; wait transitions apply between events ([`Value::after_wait`]).
//! - A copy `b = a` puts both names in one must-alias group ([`ValueData::alias`]).
//! - Where paths disagree about a copy the names evolve apart: a miss is possible, a false alarm is not.
//! - A caller's copy of a field the helper moved moves with it; a copy of what an earlier run made does not.
//! - Containers are not modelled: what `list.get(0)` returns is of unknown origin.
//!
//! To extend:
//! - A new IR node: give it an effect in `BodyAnalysis::transfer`, and edges in `cfg.rs` if it branches.
//! - A new precision rule: change the value where it changes (`call`, `transfer`, `refine_flag`).
//! - Add a true positive and a near miss under `tests/fixtures/`, and list the rule in ARCHITECTURE.md.
//! - A new fact about an object: a field of [`ValueData`], joined in [`Value::join`], so the fixpoint sees it.
//! - A new output: a field of [`BodyResult`], filled in [`analyze_body`] from its inputs alone.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::{Cell, RefCell};
use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;
use std::sync::Arc;
use std::time::Instant;

use imbl::ordmap::DiffItem;

use typestates::model::{CallbackId, CallinId, Failure, StateId, Step, WaitOutcome};
use typestates::Answer;

use crate::cfg::{Cfg, CloseTarget, EdgeKind, Node, NodeKind};
use crate::flow::{solve, Analysis, Lattice, Solution};
use crate::ir::{BinaryOp, Body, Call, Expr, ExprId, ExprKind, Language, Method, Span};
use crate::leaks::Losses;
use crate::places::{scope_receiver, Places, Var};
use crate::protocols::{CreatorCall, ProtocolId, Protocols, UnnamedCall};
use crate::registrations::{Move, Registered, Registrations};
use crate::resolve::{ExprType, LocalId, Resolution};

/// At most this many causes are kept per state (the first in source order).
const MAX_CAUSES: usize = 3;
/// How deeply helper calls are followed; a call deeper than this, or a recursive one, has an
/// unknown effect on the fields (see [`BodyAnalysis::helper_call`]).
const MAX_HELPER_DEPTH: u32 = 8;

/// Why an object may be in a state.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Cause {
    /// A call (callin or creator) moved it there.
    Call(ExprId),
    /// A try-with-resources variable was closed at the end of its `try`, at these bytes.
    Closed(usize, usize),
    /// A callback arrived between two handlers.
    Callback(CallbackId),
    /// Time passed quietly between two handlers.
    Quiet,
}

/// The abstract state of one tracked object: a shared, copy-on-write handle on its
/// [`ValueData`].
/// The flow state holds one per name at every program point; most points leave most objects
/// as they were, so sharing makes a copy of the state cost a pointer per object.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Value(Arc<ValueData>);

impl std::ops::Deref for Value {
    type Target = ValueData;

    fn deref(&self) -> &ValueData {
        &self.0
    }
}

impl std::ops::DerefMut for Value {
    /// Copies the data first when another name or program point shares it.
    fn deref_mut(&mut self) -> &mut ValueData {
        Arc::make_mut(&mut self.0)
    }
}

impl From<ValueData> for Value {
    fn from(data: ValueData) -> Value {
        Value(Arc::new(data))
    }
}

/// What the analysis knows of one tracked object.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct ValueData {
    /// The protocol the object follows.
    pub protocol: ProtocolId,
    /// The possible states, each with why.
    pub states: BTreeMap<StateId, BTreeSet<Cause>>,
    /// Whether the reference may be `null`.
    pub null: bool,
    /// Whether the object may also be in any state (its origin is not known).
    pub unknown: bool,
    /// Which must-alias group the reference belongs to: after `b = a`, `a` and `b` hold one
    /// object and share a group (named by the copy's expression), so a call on either moves
    /// both. Joining two paths that disagree drops the group: the names then evolve apart,
    /// as if they held different objects.
    pub alias: Option<ExprId>,
    /// The listeners registered on the object, by registering method
    /// (`setOnPreparedListener`), with the states in which they are.
    /// A persistent map: copies of the value share it, so a value copied at every program
    /// point costs the registrations a path adds, not all of them again.
    pub listeners: imbl::OrdMap<String, Registrations>,
    /// Whether some path reached these states through something the analysis could only
    /// approximate: a call of unknown effect, an object of unknown origin narrowed by a call,
    /// or a transition the library marks `unverified`. A finding on such a value is never
    /// definite.
    pub approximate: bool,
    /// The states that every path reaching them knew nothing of the object before calls
    /// narrowed it (an object of unknown origin, or one after a call of unknown effect): they
    /// are only what the calls allow, so a call failing in some of them says nothing.
    pub guessed: BTreeSet<StateId>,
    /// Whether a call of unknown effect made some path forget the object's state
    /// ([`Value::havoc`]): unlike an object of unknown origin, the states other paths reach
    /// still count for findings.
    pub forgotten: bool,
    /// Per state, what the paths that reach it know of the class's flags (ESP's property
    /// simulation: facts of booleans, enum constants and null checks kept apart per protocol
    /// state, so that `if (playing) player.pause()` sees only the states where `playing` may
    /// be true).
    /// The reference being `null` is a state here too ([`NULL_STATE`]): `recorder = null` in
    /// a catch, or a player created only while a flag is set, keep what those paths know;
    /// so is the unknown part of an object after a call of unknown effect ([`ANY_STATE`]).
    /// A state knows, besides its own facts, what the path it is on knows ([`Env::facts`]):
    /// a flag set or tested applies to the path alone, and only the objects that differ
    /// where two paths meet take their path's facts as their own, so a flag costs nothing
    /// per object until the object's state depends on it.
    pub facts: BTreeMap<StateId, Facts>,
}

/// The key of [`ValueData::facts`] for the reference being `null`; never a state of
/// [`ValueData::states`].
const NULL_STATE: StateId = StateId(u32::MAX);
/// The key of [`ValueData::facts`] for the states an object of unknown state may be in
/// ([`ValueData::unknown`]): a call of unknown effect moves the object, not the flags, so
/// what its states knew before still holds, joined.
const ANY_STATE: StateId = StateId(u32::MAX - 1);

/// What a state knows of the flags: what it knows of its own (`own`), and for the flags it
/// knows nothing of, what the path it is on knows; where both know a flag, the constants
/// both allow (each is true of every path that reaches the state).
fn path_facts(own: Option<&Facts>, path: &Facts) -> Facts {
    let mut facts = own.cloned().unwrap_or_default();
    for (var, values) in path {
        if let Some(known) = facts.get_mut(var) {
            known.retain(|value| values.contains(value));
        } else if facts.len() < MAX_FACTS {
            facts.insert(var.clone(), values.clone());
        }
    }
    facts
}

/// Whether [`path_facts`] of `own` and `path` differs from `own`, without building it.
fn path_facts_change(own: Option<&Facts>, path: &Facts) -> bool {
    let own_len = own.map_or(0, Facts::len);
    path.iter()
        .any(|(var, values)| match own.and_then(|own| own.get(var)) {
            Some(known) => !known.is_subset(values),
            None => own_len < MAX_FACTS,
        })
}

/// A constant a flag may hold, or for numbers and references, the class of values it is in.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Fact {
    /// `true` or `false`.
    Bool(bool),
    /// `null`.
    Null,
    /// Any reference but `null` (an observer's `nonnull` answer).
    NonNull,
    /// An enum or named constant, by its simple name (`MEDIA_RUNNING`).
    Const(String),
    /// A number of this sign: what an integer observer answers (`dequeueInputBuffer()` is
    /// negative when no buffer is free) and what a comparison with a literal tests.
    Sign(Sign),
}

/// The sign of a number, as [`Fact::Sign`] follows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sign {
    /// Below zero.
    Negative,
    /// Zero.
    Zero,
    /// Above zero.
    Positive,
}

impl Sign {
    /// The sign of `value`.
    pub fn of(value: i64) -> Sign {
        match value.cmp(&0) {
            std::cmp::Ordering::Less => Sign::Negative,
            std::cmp::Ordering::Equal => Sign::Zero,
            std::cmp::Ordering::Greater => Sign::Positive,
        }
    }

    /// Whether some number of this sign compares with `bound` as `op` says (`op` is one of
    /// `==`, `!=`, `<`, `<=`, `>`, `>=`).
    fn may_compare(self, op: BinaryOp, bound: i64) -> bool {
        let (low, high) = match self {
            Sign::Negative => (i64::MIN, -1),
            Sign::Zero => (0, 0),
            Sign::Positive => (1, i64::MAX),
        };
        match op {
            BinaryOp::Lt => low < bound,
            BinaryOp::Le => low <= bound,
            BinaryOp::Gt => high > bound,
            BinaryOp::Ge => high >= bound,
            BinaryOp::Eq => low <= bound && bound <= high,
            BinaryOp::Ne => !(low == bound && high == bound),
            _ => true,
        }
    }
}

/// The comparison that holds exactly where `op` does not: `<` for `>=`.
fn negated(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Ge,
        BinaryOp::Le => BinaryOp::Gt,
        BinaryOp::Gt => BinaryOp::Le,
        BinaryOp::Ge => BinaryOp::Lt,
        BinaryOp::Eq => BinaryOp::Ne,
        BinaryOp::Ne => BinaryOp::Eq,
        other => other,
    }
}

/// `op` with its operands swapped: `0 <= x` is `x >= 0`.
fn swapped(op: BinaryOp) -> BinaryOp {
    match op {
        BinaryOp::Lt => BinaryOp::Gt,
        BinaryOp::Le => BinaryOp::Ge,
        BinaryOp::Gt => BinaryOp::Lt,
        BinaryOp::Ge => BinaryOp::Le,
        other => other,
    }
}

/// The facts an observer's `answer` stands for.
fn answer_facts(answer: &Answer) -> BTreeSet<Fact> {
    match answer {
        Answer::True => BTreeSet::from([Fact::Bool(true)]),
        Answer::False => BTreeSet::from([Fact::Bool(false)]),
        Answer::Null => BTreeSet::from([Fact::Null]),
        Answer::NonNull => BTreeSet::from([Fact::NonNull]),
        Answer::Zero => BTreeSet::from([Fact::Sign(Sign::Zero)]),
        Answer::NonZero => BTreeSet::from([Fact::Sign(Sign::Negative), Fact::Sign(Sign::Positive)]),
        Answer::Negative => BTreeSet::from([Fact::Sign(Sign::Negative)]),
        Answer::NonNegative => BTreeSet::from([Fact::Sign(Sign::Zero), Fact::Sign(Sign::Positive)]),
        Answer::Constant(name) => BTreeSet::from([Fact::Const(name.clone())]),
    }
}

/// What a path knows of flags: the constants each may hold; a flag not named may hold anything.
pub type Facts = BTreeMap<Var, BTreeSet<Fact>>;

/// At most this many flags are followed per state, and this many constants per flag.
const MAX_FACTS: usize = 8;
const MAX_FACT_VALUES: usize = 8;

/// The flag a helper's `return` sets, renamed to the call at the call site.
/// It names no expression, so relocation leaves it as it is.
pub(crate) const RETURNED: Var = Var::Temp(ExprId(u32::MAX));

/// Joins `other` into `facts`, as two paths meeting: a flag known on both keeps the union of
/// its constants; one the other path does not know is forgotten. Returns whether it changed.
fn join_facts(facts: &mut Facts, other: &Facts) -> bool {
    let before = facts.len();
    facts.retain(|var, _| other.contains_key(var));
    let mut changed = facts.len() != before;
    let mut too_many = Vec::new();
    for (var, values) in facts.iter_mut() {
        for value in &other[var] {
            changed |= values.insert(value.clone());
        }
        if values.len() > MAX_FACT_VALUES {
            too_many.push(var.clone());
        }
    }
    for var in too_many {
        facts.remove(&var);
    }
    changed
}

/// The registrations of each method after the object took `moves`, where only they were taken.
fn after_moves(
    listeners: &imbl::OrdMap<String, Registrations>,
    moves: &[Move],
) -> imbl::OrdMap<String, Registrations> {
    (listeners.iter())
        .map(|(method, registered)| (method.clone(), registered.after_moves(moves)))
        .collect()
}

impl ValueData {
    /// A name that holds nothing: no state, not `null`, nothing known.
    fn empty(protocol: ProtocolId) -> ValueData {
        ValueData {
            protocol,
            states: BTreeMap::new(),
            null: false,
            unknown: false,
            alias: None,
            listeners: imbl::OrdMap::new(),
            approximate: false,
            guessed: BTreeSet::new(),
            forgotten: false,
            facts: BTreeMap::new(),
        }
    }
}

impl Value {
    /// A new object in `states`, created by `cause`.
    pub fn fresh(protocol: ProtocolId, states: &[StateId], cause: Cause) -> Value {
        Value::from(ValueData {
            states: states
                .iter()
                .map(|s| (*s, BTreeSet::from([cause])))
                .collect(),
            ..ValueData::empty(protocol)
        })
    }

    /// A `null` reference.
    pub fn null(protocol: ProtocolId) -> Value {
        Value::from(ValueData {
            null: true,
            ..ValueData::empty(protocol)
        })
    }

    /// A name that holds no object yet: a captured local before its method has run.
    pub fn absent(protocol: ProtocolId) -> Value {
        Value::from(ValueData::empty(protocol))
    }

    /// An object of unknown origin.
    pub fn unknown(protocol: ProtocolId) -> Value {
        Value::from(ValueData {
            unknown: true,
            ..ValueData::empty(protocol)
        })
    }

    /// An object of unknown origin seen as one that may be in any state of its protocol, so
    /// that a callback can narrow it ([`Value::after_callbacks`]).
    pub fn in_every_state(&self, protocols: &Protocols<'_>) -> Value {
        let ts = protocols.typestate(self.protocol);
        let mut facts = self.facts.clone();
        if let Some(any) = facts.remove(&ANY_STATE) {
            for state in ts.state_ids() {
                facts.entry(state).or_insert_with(|| any.clone());
            }
        }
        Value::from(ValueData {
            states: ts
                .state_ids()
                .map(|state| (state, BTreeSet::new()))
                .collect(),
            unknown: false,
            facts,
            ..(*self.0).clone()
        })
    }

    /// Renames the flags the states know.
    pub fn rename_fact_vars(&mut self, rename: &mut impl FnMut(Var) -> Var) {
        for facts in self.facts.values_mut() {
            *facts = rename_facts(std::mem::take(facts), rename);
        }
    }

    /// Forgets the states after a call whose effect is unknown: the object may now be in any
    /// state of its protocol ([`Value::unknown`], [`Value::forgotten`]), so no finding follows
    /// from this path alone, while the states other paths reach still count where paths
    /// meet, and a later call narrows it to guesses ([`Value::guessed`]).
    pub fn havoc(&mut self) {
        let mut kept: Option<Facts> = None;
        for state in self.fact_states().filter(|state| *state != NULL_STATE) {
            let own = self.facts.get(&state).cloned().unwrap_or_default();
            match &mut kept {
                None => kept = Some(own),
                Some(kept) => {
                    join_facts(kept, &own);
                }
            }
        }
        let null_facts = self.facts.get(&NULL_STATE).cloned();
        self.states.clear();
        self.guessed.clear();
        self.facts.clear();
        if let Some(kept) = kept.filter(|kept| !kept.is_empty()) {
            self.facts.insert(ANY_STATE, kept);
        }
        if let Some(null_facts) = null_facts.filter(|_| self.null) {
            self.facts.insert(NULL_STATE, null_facts);
        }
        self.unknown = true;
        self.forgotten = true;
        self.approximate = true;
    }

    /// Whether joining `other` would leave `self` as it is, judged cheaply: the same data,
    /// shared or equal.
    fn includes(&self, other: &Value) -> bool {
        Arc::ptr_eq(&self.0, &other.0) || self.0 == other.0
    }

    /// Joins `other` into `self`; returns whether `self` changed.
    pub fn join(&mut self, other: &Value) -> bool {
        if self.includes(other) {
            return false;
        }
        let mut changed = self.join_listeners(other);
        let extra_before = [
            (NULL_STATE, self.null, other.null),
            (ANY_STATE, self.unknown, other.unknown),
        ];
        let before = (
            self.null,
            self.unknown,
            self.alias,
            self.approximate,
            self.forgotten,
        );
        self.null |= other.null;
        self.unknown |= other.unknown;
        self.approximate |= other.approximate;
        self.forgotten |= other.forgotten;
        if self.alias != other.alias {
            self.alias = None;
        }
        changed |= before
            != (
                self.null,
                self.unknown,
                self.alias,
                self.approximate,
                self.forgotten,
            );
        for state in other.states.keys() {
            // A state is guessed only where every path reaching it guessed.
            let guessed_there = other.guessed.contains(state);
            let theirs = other.facts.get(state);
            if !self.states.contains_key(state) {
                if guessed_there {
                    self.guessed.insert(*state);
                }
                if let Some(theirs) = theirs {
                    self.facts.insert(*state, theirs.clone());
                }
                continue;
            }
            let guessed_here = self.guessed.contains(state);
            if guessed_here && !guessed_there {
                // What a path that knew the object knows of the flags is what findings (which
                // need such a path) may rely on; a guess knows nothing of them.
                self.guessed.remove(state);
                match theirs {
                    Some(theirs) => self.facts.insert(*state, theirs.clone()),
                    None => self.facts.remove(state),
                };
                changed = true;
            } else if guessed_here || !guessed_there {
                match (self.facts.get_mut(state), theirs) {
                    (Some(mine), Some(theirs)) => changed |= join_facts(mine, theirs),
                    (Some(_), None) => {
                        self.facts.remove(state);
                        changed = true;
                    }
                    (None, _) => {}
                }
            }
        }
        for (key, here, there) in extra_before {
            if !there {
                continue;
            }
            let theirs = other.facts.get(&key);
            match (here, self.facts.get_mut(&key), theirs) {
                (false, _, Some(theirs)) => {
                    self.facts.insert(key, theirs.clone());
                }
                (true, Some(mine), Some(theirs)) => changed |= join_facts(mine, theirs),
                (true, Some(_), None) => {
                    self.facts.remove(&key);
                    changed = true;
                }
                _ => {}
            }
        }
        for (state, causes) in &other.states {
            let mine = self.states.entry(*state).or_default();
            for cause in causes {
                if mine.len() < MAX_CAUSES || mine.last().is_some_and(|last| cause < last) {
                    changed |= mine.insert(*cause);
                    while mine.len() > MAX_CAUSES {
                        mine.pop_last();
                    }
                }
            }
            changed |= mine.is_empty() && causes.is_empty();
        }
        changed
    }

    /// Joins the listener registrations of `other` into `self` (before their states are
    /// joined); returns whether they changed.
    fn join_listeners(&mut self, other: &Value) -> bool {
        if self.listeners.is_empty() && other.listeners.is_empty() {
            return false;
        }
        let methods: BTreeSet<String> = self
            .listeners
            .keys()
            .chain(other.listeners.keys())
            .cloned()
            .collect();
        let mut changed = false;
        for method in methods {
            let none = Registrations::default();
            let mine = self.listeners.get(&method);
            let theirs = other.listeners.get(&method);
            let mut joined = mine.unwrap_or(&none).clone();
            joined.any = Registered::default();
            for (side, entry) in [(&*self, mine), (other, theirs)] {
                let registered = entry.map_or(&none.any, |r| &r.any);
                joined.any.with.extend(&registered.with);
                joined.any.without.extend(
                    side.states
                        .keys()
                        .filter(|s| !registered.on_every_path(**s)),
                );
                joined.any.without_any |=
                    registered.without_any || (side.unknown && entry.is_none());
            }
            joined.any = joined.any.normalised();
            joined.sites.join(&theirs.unwrap_or(&none).sites);
            // Written only when it changed, so that the map stays shared where it did not.
            if mine != Some(&joined) {
                self.listeners.insert(method, joined);
                changed = true;
            }
        }
        changed
    }

    /// The value after time passes: every state reachable by callbacks and quiet moves
    /// (including staying put), minus objects that fail.
    pub fn after_wait(&self, protocols: &Protocols<'_>) -> Value {
        self.after_wait_except(protocols, &[])
    }

    /// [`Value::after_wait`], without following a callback from a state where the listener
    /// registered by one of `handled` (the registering call and the callbacks it listens to)
    /// is registered on every path: that runs the listener, whose effect the caller applies
    /// instead. Where the listener is registered on some paths only, the callback is followed
    /// too.
    pub fn after_wait_except(
        &self,
        protocols: &Protocols<'_>,
        handled: &[(&str, &[CallbackId])],
    ) -> Value {
        let ts = protocols.typestate(self.protocol);
        let wait = |state: StateId| match &ts.state(state).on_wait {
            WaitOutcome::Quiet { target, .. } => Some((*target, Cause::Quiet, None)),
            WaitOutcome::Callback {
                callback, target, ..
            } => Some((*target, Cause::Callback(*callback), Some(*callback))),
            WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => None,
        };
        // The experiment never let time pass there: the object may be in any state.
        let restricted =
            |state: StateId| matches!(ts.state(state).on_wait, WaitOutcome::Restricted { .. });
        let mut out = self.clone();
        if self.listeners.is_empty() {
            // No listener: every callback is followed.
            let mut todo: Vec<StateId> = self.states.keys().copied().collect();
            while let Some(state) = todo.pop() {
                let Some((target, cause, _)) = wait(state) else {
                    if restricted(state) {
                        restrict(&mut out, self);
                    }
                    continue;
                };
                if !out.states.contains_key(&target) {
                    todo.push(target);
                }
                let facts = out.facts.get(&state).cloned();
                let guessed = out.guessed.contains(&state);
                carry(&mut out, guessed, facts.as_ref(), target);
                out.states.entry(target).or_default().insert(cause);
            }
            return out;
        }
        // Whether a state's callback is handled depends on the registrations reaching it, which
        // grow as moves are found: repeat until nothing changes (a few rounds).
        loop {
            let mut next = out.clone();
            let mut moves: Vec<Move> = Vec::new();
            for &state in out.states.keys() {
                let Some((target, cause, callback)) = wait(state) else {
                    if restricted(state) {
                        restrict(&mut next, self);
                    }
                    continue;
                };
                let runs_listener = callback.is_some_and(|callback| {
                    handled.iter().any(|(method, callbacks)| {
                        callbacks.contains(&callback)
                            && out
                                .listeners
                                .get(*method)
                                .is_some_and(|r| r.any.on_every_path(state))
                    })
                });
                if runs_listener {
                    continue;
                }
                let guessed = out.guessed.contains(&state);
                carry(&mut next, guessed, out.facts.get(&state), target);
                next.states.entry(target).or_default().insert(cause);
                moves.push((state, target));
            }
            next.listeners = (out.listeners.iter())
                .map(|(method, registered)| (method.clone(), registered.also_after_moves(&moves)))
                .collect();
            if next == out {
                return out;
            }
            out = next;
        }
    }

    /// The states one of `callbacks` leads to from the states of `self`, with the
    /// registrations carried along; `None` if none does.
    pub fn after_callbacks(
        &self,
        protocols: &Protocols<'_>,
        callbacks: &[CallbackId],
    ) -> Option<Value> {
        let ts = protocols.typestate(self.protocol);
        let moves: Vec<(Move, CallbackId)> = self
            .states
            .keys()
            .filter_map(|&state| match &ts.state(state).on_wait {
                WaitOutcome::Callback {
                    callback, target, ..
                } if callbacks.contains(callback) => Some(((state, *target), *callback)),
                _ => None,
            })
            .collect();
        if moves.is_empty() {
            return None;
        }
        let moved: Vec<Move> = moves.iter().map(|&(moved, _)| moved).collect();
        let mut out = Value::from(ValueData {
            states: BTreeMap::new(),
            null: false,
            listeners: after_moves(&self.listeners, &moved),
            facts: BTreeMap::new(),
            guessed: BTreeSet::new(),
            ..(*self.0).clone()
        });
        for ((source, target), callback) in moves {
            let guessed = self.guessed.contains(&source);
            carry(&mut out, guessed, self.facts.get(&source), target);
            out.states
                .entry(target)
                .or_default()
                .insert(Cause::Callback(callback));
        }
        Some(out)
    }

    /// The object after one of `callins` threw: the known states where every one of them is
    /// an error stay, and where one is allowed the call may have done anything
    /// ([`Value::havoc`]).
    fn forget_where_enabled(&self, protocols: &Protocols<'_>, callins: &[CallinId]) -> Value {
        let ts = protocols.typestate(self.protocol);
        let enabled = |state: StateId| {
            callins
                .iter()
                .any(|&callin| ts.step(state, callin).target().is_some())
        };
        if !self.states.keys().any(|&state| enabled(state)) && !self.unknown {
            return self.clone();
        }
        let mut forbidden = self.clone();
        let allowed: BTreeSet<StateId> = self
            .states
            .keys()
            .copied()
            .filter(|&state| enabled(state))
            .collect();
        forbidden.states.retain(|state, _| !allowed.contains(state));
        forbidden.guessed.retain(|state| !allowed.contains(state));
        forbidden.facts.retain(|state, _| !allowed.contains(state));
        let mut forgotten = self.clone();
        forgotten.havoc();
        forgotten.join(&forbidden);
        forgotten
    }

    /// Whether the call of one of `callins` may throw: in a state the object may be in (any
    /// state, when it is unknown), none is allowed and the failure is not a posted error.
    pub fn may_throw(&self, protocols: &Protocols<'_>, callins: &[CallinId]) -> bool {
        let ts = protocols.typestate(self.protocol);
        let throws = |state: StateId| {
            callins.iter().all(|&callin| match ts.step(state, callin) {
                Step::Enabled { .. }
                | Step::Error {
                    failure: Failure::Posts(_),
                    ..
                } => false,
                Step::Error { .. } | Step::Restricted { .. } => true,
            })
        };
        if self.unknown {
            ts.state_ids().any(throws)
        } else {
            self.states.keys().any(|&state| throws(state))
        }
    }

    /// Whether the call of one of `callins` leaves the object in `finals` only, from every
    /// state it may be in (any state, when it is unknown).
    pub fn ends_by(
        &self,
        protocols: &Protocols<'_>,
        callins: &[CallinId],
        finals: &[StateId],
    ) -> bool {
        let ts = protocols.typestate(self.protocol);
        let ends = |state: StateId| {
            callins.iter().all(|&callin| {
                ts.step(state, callin)
                    .target()
                    .is_some_and(|target| finals.contains(&target))
            })
        };
        if self.unknown {
            ts.state_ids().all(ends)
        } else {
            !self.states.is_empty() && self.states.keys().all(|&state| ends(state))
        }
    }

    /// Whether the listener registered by the call `site` may be registered while the object
    /// is in `state`.
    pub fn may_be_registered(&self, site: ExprId, state: StateId) -> bool {
        self.registered_states(site)
            .is_some_and(|with| with.contains(&state))
    }

    /// The states in which the listener registered by the call `site` may be registered, if
    /// some path registered it.
    pub fn registered_states(&self, site: ExprId) -> Option<&BTreeSet<StateId>> {
        self.listeners.values().find_map(|r| r.sites.get(site))
    }

    /// Notes that the call `site` of the registering method `via` registered a listener, on
    /// this path, in whatever state the object is (any state of `protocols`, if its origin is
    /// unknown).
    fn register(&mut self, site: ExprId, via: &str, protocols: &Protocols<'_>) {
        let states = if self.unknown {
            protocols.typestate(self.protocol).state_ids().collect()
        } else {
            self.states.keys().copied().collect()
        };
        (self.listeners.entry(via.to_owned()).or_default()).registered(site, states);
    }

    /// Makes the value what one path of a join sees when the other path does not track the
    /// name: any state, and no listener registered on every path; returns whether it changed.
    fn untracked_elsewhere(&mut self) -> bool {
        if self.is_untracked_elsewhere() {
            return false;
        }
        let mut changed = !std::mem::replace(&mut self.unknown, true);
        let without: Vec<String> = (self.listeners.iter())
            .filter(|(_, registered)| !registered.any.without_any)
            .map(|(method, _)| method.clone())
            .collect();
        for method in without {
            if let Some(registered) = self.listeners.get_mut(&method) {
                registered.any.without_any = true;
                changed = true;
            }
        }
        changed
    }

    /// Whether [`Value::untracked_elsewhere`] would leave the value as it is.
    fn is_untracked_elsewhere(&self) -> bool {
        self.unknown && self.listeners.values().all(|r| r.any.without_any)
    }

    /// Makes each state know, of its own, what `path` (the facts of the path the object is
    /// on) knows: before the object leaves that path, at a join or a `return`.
    fn take_path_facts(&mut self, path: &Facts) {
        if path.is_empty() {
            return;
        }
        if !self
            .fact_states()
            .any(|state| path_facts_change(self.facts.get(&state), path))
        {
            return;
        }
        let states: Vec<StateId> = self.fact_states().collect();
        let value: &mut ValueData = self;
        for state in states {
            let facts = path_facts(value.facts.get(&state), path);
            if facts.values().any(BTreeSet::is_empty) {
                // What the state knows contradicts the path: the object is not in it here.
                value.facts.remove(&state);
                match state {
                    NULL_STATE => value.null = false,
                    ANY_STATE => value.unknown = false,
                    _ => {
                        value.states.remove(&state);
                        value.guessed.remove(&state);
                    }
                }
                continue;
            }
            value.facts.insert(state, facts);
        }
    }

    /// Forgets what a state knows of its own that the path (`path`, where paths met) knows as
    /// well or better: the state takes it from the path.
    fn drop_path_facts(&mut self, path: &Facts) {
        let redundant = |var: &Var, values: &BTreeSet<Fact>| {
            path.get(var).is_some_and(|known| known.is_subset(values))
        };
        let any = self
            .facts
            .values()
            .any(|facts| facts.iter().any(|(var, values)| redundant(var, values)));
        if !any {
            return;
        }
        let value: &mut ValueData = self;
        for facts in value.facts.values_mut() {
            facts.retain(|var, values| !redundant(var, values));
        }
        value.facts.retain(|_, facts| !facts.is_empty());
    }

    /// The states that know facts: the protocol states, [`NULL_STATE`] when the reference
    /// may be `null`, and [`ANY_STATE`] when the object may be in any state.
    fn fact_states(&self) -> impl Iterator<Item = StateId> + '_ {
        self.states
            .keys()
            .copied()
            .chain(self.null.then_some(NULL_STATE))
            .chain(self.unknown.then_some(ANY_STATE))
    }

    /// Whether no path reaches the object in a state: only `null` (or nothing) is left.
    pub fn has_no_state(&self) -> bool {
        self.states.is_empty() && !self.unknown
    }
}

/// The tracked objects at a program point, and what the path knows of the class's flags
/// (booleans, enum constants, null checks of other fields).
/// Two indexes, derived from the objects, find the few objects a step concerns without
/// looking at every one: the names of each alias group, and the objects whose states know a
/// flag of their own.
#[derive(Debug, Clone, Default)]
pub struct Env {
    /// A persistent map: a copy shares it, and a change copies only the path to one entry.
    objects: imbl::OrdMap<Var, Value>,
    /// The flags' constants on this path; a new object starts with them in its states.
    /// Shared: a copy at every program point costs nothing until a path changes a flag.
    pub facts: Arc<Facts>,
    /// The names in each alias group ([`ValueData::alias`]).
    groups: Index<ExprId>,
    /// The objects some state of which knows a flag of its own ([`ValueData::facts`]), by flag.
    knowers: Index<Var>,
}

/// An index of [`Env::objects`]: the names filed under each key.
type Index<K> = imbl::OrdMap<K, imbl::OrdSet<Var>>;

/// Files `var` under `key`, or takes it out (`filed` false).
fn refile<K: Ord + Clone>(index: &mut Index<K>, key: K, var: &Var, filed: bool) {
    if filed {
        index.entry(key).or_default().insert(var.clone());
    } else if let Some(names) = index.get_mut(&key) {
        names.remove(var);
        if names.is_empty() {
            index.remove(&key);
        }
    }
}

/// The flags some state of `value` knows of its own.
fn known_flags(value: Option<&Value>) -> BTreeSet<&Var> {
    value
        .into_iter()
        .flat_map(|value| value.facts.values())
        .flat_map(Facts::keys)
        .collect()
}

impl PartialEq for Env {
    /// The indexes follow from the objects.
    fn eq(&self, other: &Env) -> bool {
        self.objects == other.objects && self.facts == other.facts
    }
}

impl Eq for Env {}

impl std::hash::Hash for Env {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.objects.hash(state);
        self.facts.hash(state);
    }
}

impl Env {
    /// No object, nothing known.
    pub fn new() -> Env {
        Env::default()
    }

    /// Renames every variable the state names: the objects' names, and the flags the path
    /// and each object's states know.
    pub fn rename_vars(&mut self, rename: &mut impl FnMut(Var) -> Var) {
        let facts = rename_facts(
            Arc::unwrap_or_clone(std::mem::take(&mut self.facts)),
            rename,
        );
        *self = std::mem::take(&mut self.objects)
            .into_iter()
            .map(|(var, mut value)| {
                value.rename_fact_vars(rename);
                (rename(var), value)
            })
            .collect();
        self.facts = Arc::new(facts);
    }

    /// Sets what `var` holds; returns what it held.
    pub fn insert(&mut self, var: Var, value: Value) -> Option<Value> {
        let old = self.objects.insert(var.clone(), value.clone());
        self.reindex(&var, old.as_ref(), Some(&value));
        old
    }

    /// Stops tracking `var`; returns what it held.
    pub fn remove(&mut self, var: &Var) -> Option<Value> {
        let old = self.objects.remove(var);
        self.reindex(var, old.as_ref(), None);
        old
    }

    /// What `var` holds, to change: the change is written back (and indexed) when the
    /// handle is dropped.
    pub fn get_mut(&mut self, var: &Var) -> Option<ValueMut<'_>> {
        let value = self.objects.get(var)?.clone();
        Some(ValueMut {
            env: self,
            var: var.clone(),
            value,
        })
    }

    /// Files `var` in the indexes by what it holds now (`new`) instead of what it held (`old`).
    fn reindex(&mut self, var: &Var, old: Option<&Value>, new: Option<&Value>) {
        if let (Some(old), Some(new)) = (old, new) {
            if Arc::ptr_eq(&old.0, &new.0) {
                return;
            }
        }
        let (old_group, new_group) = (old.and_then(|v| v.alias), new.and_then(|v| v.alias));
        if old_group != new_group {
            if let Some(group) = old_group {
                refile(&mut self.groups, group, var, false);
            }
            if let Some(group) = new_group {
                refile(&mut self.groups, group, var, true);
            }
        }
        let knows_none = |value: Option<&Value>| {
            value.is_none_or(|value| value.facts.values().all(Facts::is_empty))
        };
        if knows_none(old) && knows_none(new) {
            return;
        }
        let (old_flags, new_flags) = (known_flags(old), known_flags(new));
        for flag in old_flags.difference(&new_flags) {
            refile(&mut self.knowers, (*flag).clone(), var, false);
        }
        for flag in new_flags.difference(&old_flags) {
            refile(&mut self.knowers, (*flag).clone(), var, true);
        }
    }

    /// The names in alias group `group`.
    fn group(&self, group: ExprId) -> imbl::OrdSet<Var> {
        self.groups.get(&group).cloned().unwrap_or_default()
    }

    /// The objects some state of which knows a flag `known` selects, of its own.
    fn knowing(&self, known: impl Fn(&Var) -> bool) -> imbl::OrdSet<Var> {
        let mut names = imbl::OrdSet::new();
        for (flag, knowers) in &self.knowers {
            if known(flag) {
                names = names.union(knowers.clone());
            }
        }
        names
    }
}

/// A handle on what one name of an [`Env`] holds, from [`Env::get_mut`].
pub struct ValueMut<'e> {
    env: &'e mut Env,
    var: Var,
    value: Value,
}

impl std::ops::Deref for ValueMut<'_> {
    type Target = Value;

    fn deref(&self) -> &Value {
        &self.value
    }
}

impl std::ops::DerefMut for ValueMut<'_> {
    fn deref_mut(&mut self) -> &mut Value {
        &mut self.value
    }
}

impl Drop for ValueMut<'_> {
    /// Writes the value back if it changed.
    fn drop(&mut self) {
        let unchanged = self
            .env
            .objects
            .get(&self.var)
            .is_some_and(|held| Arc::ptr_eq(&held.0, &self.value.0));
        if !unchanged {
            self.env.insert(self.var.clone(), self.value.clone());
        }
    }
}

/// `facts` with every flag renamed.
fn rename_facts(facts: Facts, rename: &mut impl FnMut(Var) -> Var) -> Facts {
    facts
        .into_iter()
        .map(|(var, values)| (rename(var), values))
        .collect()
}

impl std::ops::Deref for Env {
    type Target = imbl::OrdMap<Var, Value>;

    fn deref(&self) -> &Self::Target {
        &self.objects
    }
}

impl FromIterator<(Var, Value)> for Env {
    fn from_iter<I: IntoIterator<Item = (Var, Value)>>(iter: I) -> Env {
        let mut env = Env::new();
        for (var, value) in iter {
            env.insert(var, value);
        }
        env
    }
}

impl Env {
    /// Lets `change` see and change each object; writes back only the ones it changed, so
    /// that the others stay shared with the states this one was copied from.
    pub fn update_each(&mut self, change: impl FnMut(&Var, &mut Value)) {
        let names: Vec<Var> = self.objects.keys().cloned().collect();
        self.update_some(names, change);
    }

    /// [`Env::update_each`] for the objects `names` names.
    fn update_some(
        &mut self,
        names: impl IntoIterator<Item = Var>,
        mut change: impl FnMut(&Var, &mut Value),
    ) {
        let mut changed = Vec::new();
        for var in names {
            let Some(value) = self.objects.get(&var) else {
                continue;
            };
            let mut copy = value.clone();
            change(&var, &mut copy);
            if !Arc::ptr_eq(&copy.0, &value.0) {
                changed.push((var, copy));
            }
        }
        for (var, value) in changed {
            self.insert(var, value);
        }
    }
}

impl<'e> IntoIterator for &'e Env {
    type Item = (&'e Var, &'e Value);
    type IntoIter = imbl::ordmap::Iter<'e, Var, Value, imbl::shared_ptr::DefaultSharedPtr>;

    fn into_iter(self) -> Self::IntoIter {
        self.objects.iter()
    }
}

/// The dataflow state: `None` where no path reaches.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct FlowState(pub Option<Env>);

impl Lattice for FlowState {
    fn bottom() -> Self {
        FlowState(None)
    }

    fn join(&mut self, other: &Self) -> bool {
        let Some(theirs) = &other.0 else {
            return false;
        };
        let Some(mine) = &mut self.0 else {
            self.0 = Some(theirs.clone());
            return true;
        };
        // The objects' states take the facts of their own path ([`ValueData::facts`]) before
        // the paths' facts are joined; an object the same on both paths needs not.
        let path = mine.facts.clone();
        let mut changed = !Arc::ptr_eq(&mine.facts, &theirs.facts)
            && mine.facts != theirs.facts
            && join_facts(Arc::make_mut(&mut mine.facts), &theirs.facts);
        if mine.objects.ptr_eq(&theirs.objects) {
            return changed;
        }
        // Only the objects that differ: the diff skips what the two maps share, so a join
        // after a branch that touched a few of many objects costs about those few.
        let mut differ = Vec::new();
        let mut only_mine = Vec::new();
        for item in mine.objects.diff(&theirs.objects) {
            match item {
                DiffItem::Add(var, value)
                | DiffItem::Update {
                    new: (var, value), ..
                } => {
                    differ.push((var.clone(), value.clone()));
                }
                DiffItem::Remove(var, _) => only_mine.push(var.clone()),
            }
        }
        for (var, mut value) in differ {
            value.take_path_facts(&theirs.facts);
            match mine.objects.get(&var) {
                Some(held) => {
                    let held = held.clone();
                    let mut current = held.clone();
                    current.take_path_facts(&path);
                    current.join(&value);
                    current.drop_path_facts(&mine.facts);
                    // What changed is the value written back, not the joined one: the join
                    // sees the path's facts it took, which the write-back drops again.
                    // Written back only when it differs, so that it stays shared where not.
                    if !current.includes(&held) {
                        mine.insert(var, current);
                        changed = true;
                    }
                }
                None => {
                    value.untracked_elsewhere();
                    value.drop_path_facts(&mine.facts);
                    mine.insert(var, value);
                    changed = true;
                }
            }
        }
        let joined = mine.facts.clone();
        for var in only_mine {
            if mine
                .objects
                .get(&var)
                .is_none_or(Value::is_untracked_elsewhere)
            {
                continue;
            }
            if let Some(mut value) = mine.get_mut(&var) {
                value.take_path_facts(&path);
                changed |= value.untracked_elsewhere();
                value.drop_path_facts(&joined);
            }
        }
        changed
    }
}

/// What the analysis saw at one call on a tracked object.
#[derive(Debug, Clone)]
pub struct Observation {
    /// Where to report: the called name, or the resource.
    pub span: Span,
    /// The callin symbol's method name as called (`start`, `close`).
    pub method: String,
    /// The receiver as written (`player`, `this`), for messages.
    pub receiver: String,
    /// Where the receiver is written, if it is.
    pub receiver_span: Option<Span>,
    /// The callins the call may be; empty for calls the protocol does not name.
    pub callins: Vec<CallinId>,
    /// The receiver's value just before the call.
    pub value: Value,
    /// The exception types (simple names, as written) that a `catch` around the call
    /// catches, so that a violation the code expects can be reported as handled.
    pub caught: Vec<String>,
    /// Whether the call runs only under a condition the analysis did not use for this object
    /// (`if (set.size() > 0)`, `if (prepared)`): the condition may exclude the states that
    /// fail, so a finding here is never definite.
    pub guarded: bool,
    /// Whether an error callback the call posts can reach the client.
    pub delivery: Delivery,
}

/// Whether an error callback a call posts ([`typestates::Failure::Posts`]) can be delivered.
/// It runs on the looper, so only after the method returns; once the object has ended
/// (`release()`), the framework drops it (MediaPlayer's event handler ignores events once
/// the native player is gone).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Delivery {
    /// Some path returns (or throws) with the object not ended after the call.
    Delivered,
    /// Every path after the call ends the object before the body returns: nothing observable.
    EndedFirst,
}

impl Delivery {
    /// What two calling contexts of one call site give: delivered if either delivers.
    pub fn join(self, other: Delivery) -> Delivery {
        if self == Delivery::Delivered || other == Delivery::Delivered {
            Delivery::Delivered
        } else {
            Delivery::EndedFirst
        }
    }
}

/// Per node of a body, whether it reaches an exit for one object, when known ([`delivery`]).
type Reaches = Vec<Option<bool>>;

/// One path from each node to an exit, shared by every object's delivery search: per node
/// the exit it leads to and the objects the path concerns (the receivers of its calls, and the
/// objects whose value changes along it).
/// An object the path does not concern holds one value all along it, the value it holds at the
/// path's exit; if that value is not ended there, the path delivers its posted errors
/// ([`delivery`]), and no search needs to walk it for that object.
/// Built backwards from the exits, each node's set extends its successor's (shared), and the
/// changes between two nodes' states come from a diff that skips what they share: about the
/// changes' size per node, so a method that touches each of many objects once builds it in
/// time about linear in its length, where a walk per object was quadratic.
struct Paths {
    /// Per node, the exit its path reaches and the objects it concerns; `None` for the nodes
    /// no path reaches or that reach no exit through reached nodes.
    path: Vec<Option<(crate::cfg::NodeId, imbl::OrdSet<Var>)>>,
}

impl Paths {
    fn new(shared: &Shared<'_, '_>, cfg: &Cfg<'_>, solution: &Solution<FlowState>) -> Paths {
        let n_nodes = cfg.nodes.len();
        let env_at =
            |id: crate::cfg::NodeId| match (solution.is_reachable(id), solution.state_at(id)) {
                (true, FlowState(Some(env))) => Some(env),
                _ => None,
            };
        let mut preds: Vec<Vec<crate::cfg::NodeId>> = vec![Vec::new(); n_nodes];
        for (index, node) in cfg.nodes.iter().enumerate() {
            let id = crate::cfg::NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            for (succ, _) in &node.succs {
                preds[succ.0 as usize].push(id);
            }
        }
        let receiver = |id: crate::cfg::NodeId| match cfg.node(id).kind {
            NodeKind::Call(Expr {
                kind: ExprKind::Call(on),
                ..
            }) => (on.receiver.as_deref()).and_then(|r| shared.places.var(r)),
            _ => None,
        };
        let mut path = vec![None; n_nodes];
        let mut queue = std::collections::VecDeque::new();
        for exit in [cfg.exit, cfg.exceptional_exit] {
            if env_at(exit).is_some() && path[exit.0 as usize].is_none() {
                let concerns: imbl::OrdSet<Var> = receiver(exit).into_iter().cloned().collect();
                path[exit.0 as usize] = Some((exit, concerns));
                queue.push_back(exit);
            }
        }
        // Breadth first from the exits: each node's path goes through the node it was found from.
        while let Some(next) = queue.pop_front() {
            let Some((exit, after)) = path[next.0 as usize].clone() else {
                continue;
            };
            let Some(next_env) = env_at(next) else {
                continue;
            };
            for &id in &preds[next.0 as usize] {
                if path[id.0 as usize].is_some() {
                    continue;
                }
                let Some(env) = env_at(id) else {
                    continue;
                };
                let mut concerns = after.clone();
                for item in env.objects.diff(&next_env.objects) {
                    let var = match item {
                        DiffItem::Add(var, _) | DiffItem::Remove(var, _) => var,
                        DiffItem::Update { new: (var, _), .. } => var,
                    };
                    concerns.insert(var.clone());
                }
                if let Some(var) = receiver(id) {
                    concerns.insert(var.clone());
                }
                path[id.0 as usize] = Some((exit, concerns));
                queue.push_back(id);
            }
        }
        Paths { path }
    }

    /// The exit of the path from `id`, if the path does not concern `var`.
    fn clear_of(&self, id: crate::cfg::NodeId, var: &Var) -> Option<crate::cfg::NodeId> {
        match &self.path[id.0 as usize] {
            Some((exit, concerns)) if !concerns.contains(var) => Some(*exit),
            _ => None,
        }
    }
}

/// Whether an error posted by the call at `call` on `var` can be delivered: whether some path
/// from it reaches an exit of the body while the object is in a state that is not final.
/// A path stops where the object is known to be in final states only, or at a later call on
/// it that moves every state it may be in to a final one (`release()`).
/// It leaves such a call through its exception edges only if the protocol lets the call
/// throw in a state the object may be in ([`Value::may_throw`]): a `release()` allowed in
/// every state does not skip itself into a `catch`.
/// Whether a node reaches an exit so depends only on the node, `var` and `protocol`:
/// `known` keeps, per node, what earlier searches for them found (`Some(true)` for the nodes on
/// a path found to an exit, `Some(false)` for all those a failed search visited).
/// Without it, the calls of one long method each searched the rest of it: quadratic.
/// Before searching, it tries the paths every object shares ([`Paths`]): one clear of `var`
/// whose exit sees the object not ended is a path the search would accept.
/// Without them, each of many objects called once in one long method searched the rest of it.
fn delivery(
    shared: &Shared<'_, '_>,
    (cfg, solution, paths): (&Cfg<'_>, &Solution<FlowState>, &Paths),
    call: crate::cfg::NodeId,
    (var, protocol): (&Var, ProtocolId),
    known: &mut [Option<bool>],
) -> Delivery {
    let finals = shared.protocols.final_states(protocol);
    // What a call on the object at `id` does on its way out: (may throw, ends it).
    let exits = |id: crate::cfg::NodeId| {
        let (NodeKind::Call(expr), FlowState(Some(env))) =
            (cfg.node(id).kind, solution.state_at(id))
        else {
            return (true, false);
        };
        let ExprKind::Call(on) = &expr.kind else {
            return (true, false);
        };
        let receiver = on.receiver.as_deref().and_then(|r| shared.places.var(r));
        let callins = shared.protocols.callins(protocol, &on.name, on.args.len());
        match (receiver, env.get(var)) {
            (Some(receiver), Some(value)) if receiver == var && !callins.is_empty() => (
                value.may_throw(shared.protocols, &callins),
                value.ends_by(shared.protocols, &callins, &finals),
            ),
            _ => (true, false),
        }
    };
    let ended = |id: crate::cfg::NodeId| match solution.state_at(id) {
        FlowState(Some(env)) => env.get(var).is_some_and(|value| {
            !value.unknown
                && !value.null
                && !value.states.is_empty()
                && value.states.keys().all(|state| finals.contains(state))
        }),
        FlowState(None) => true,
    };
    // The call itself returned: its exception edges are not taken by a posted error.
    let clear = (cfg.node(call).succs.iter())
        .filter(|(_, edge)| *edge != EdgeKind::Exception)
        .filter_map(|(succ, _)| paths.clear_of(*succ, var))
        .any(|exit| !ended(exit));
    if clear {
        return Delivery::Delivered;
    }
    // Each entry: a node, and the index in `trail` of the node it was reached from.
    let mut stack: Vec<(crate::cfg::NodeId, Option<usize>)> = (cfg.node(call).succs.iter())
        .filter(|(_, edge)| *edge != EdgeKind::Exception)
        .map(|(succ, _)| (*succ, None))
        .collect();
    let mut seen = BTreeSet::new();
    // The nodes expanded, each with the index of the one it was reached from.
    let mut trail: Vec<(crate::cfg::NodeId, Option<usize>)> = Vec::new();
    // Marks the path that reached an exit through `trail[from]`: each node on it reaches one.
    fn found(
        trail: &[(crate::cfg::NodeId, Option<usize>)],
        known: &mut [Option<bool>],
        mut from: Option<usize>,
    ) -> Delivery {
        while let Some(index) = from {
            let (id, back) = trail[index];
            known[id.0 as usize] = Some(true);
            from = back;
        }
        Delivery::Delivered
    }
    while let Some((id, back)) = stack.pop() {
        if !seen.insert(id.0) {
            continue;
        }
        match known[id.0 as usize] {
            Some(true) => return found(&trail, known, back),
            Some(false) => continue,
            None if ended(id) => continue,
            None => {}
        }
        trail.push((id, back));
        #[cfg(test)]
        tests::EXPANDED.with(|expanded| expanded.set(expanded.get() + 1));
        if id == cfg.exit || id == cfg.exceptional_exit {
            return found(&trail, known, Some(trail.len() - 1));
        }
        let (throws, ends) = exits(id);
        let here = Some(trail.len() - 1);
        stack.extend(
            (cfg.node(id).succs.iter())
                .filter(|(_, edge)| match edge {
                    EdgeKind::Exception => throws,
                    _ => !ends,
                })
                .map(|(succ, _)| (*succ, here)),
        );
    }
    // Every node this search expanded reaches only nodes it visited: none reaches an exit.
    for (id, _) in trail {
        known[id.0 as usize] = Some(false);
    }
    Delivery::EndedFirst
}

/// A private helper method of the class, whose calls are analysed in place.
#[derive(Debug, Clone, Copy)]
pub struct Helper<'a> {
    /// The helper.
    pub method: &'a Method,
    /// Its index, for memoisation.
    pub index: usize,
}

/// What every body analysis of one file shares.
pub struct Shared<'a, 'l> {
    /// The library.
    pub protocols: &'a Protocols<'l>,
    /// Name and type resolution of the file.
    pub res: &'a Resolution,
    /// Tracked objects of the file.
    pub places: &'a Places<'a>,
    /// The file's language.
    pub language: Language,
    /// Helpers (see `check::collect_helpers`) by `(class, name)`.
    pub helpers: HashMap<(&'a str, &'a str), Vec<Helper<'a>>>,
    summaries: RefCell<HashMap<HelperEntry, BodyResult>>,
    /// The helper entries the record pass has analysed: their observations and losses are
    /// already recorded, so another call from the same entry takes the summary instead.
    recorded: RefCell<HashSet<(HelperEntry, Vec<String>)>>,
    /// The helpers being analysed, innermost last: a helper that calls itself, directly or
    /// through others, is not followed again (its effect there is unknown).
    active_helpers: RefCell<Vec<usize>>,
    /// The control-flow graph of each body analysed so far, by the body's address: the event
    /// fixpoint and the recording pass analyse most bodies more than once.
    cfgs: RefCell<HashMap<*const Body, Rc<Cfg<'a>>>>,
    /// [`Shared::protocol_of_var`] of each variable asked about: it follows from the file's
    /// types alone, and the analysis asks again at every step.
    var_protocols: RefCell<HashMap<Var, Option<ProtocolId>>>,
    /// Locals of methods that create deferred code: the lambdas and listeners may capture
    /// them, so their objects outlive the method like fields do (see [`Shared::survives`]).
    /// Each maps to the byte offset it is declared at.
    pub captured: HashMap<LocalId, usize>,
    /// The captured locals of deferred code that runs once per creation, which no later run
    /// sees ([`crate::once`]).
    pub once_captured: crate::once::OnceCaptures,
    /// The private fields of the file's classes, as [`Var::Field`]s: the only fields whose
    /// flags the analysis follows, since code elsewhere cannot write them between events.
    pub private_fields: HashSet<Var>,
    /// The methods the file's classes declare, by class and name.
    pub own_methods: HashSet<(String, String)>,
    /// Fields that overrides use in classes whose superclass's code the check does not see
    /// (`crate::check`): that code calls the overrides, so a call of an inherited method may
    /// run them and release or replace what these fields hold.
    pub overrides_use: HashSet<Var>,
    /// Who calls the methods of the project's plain classes.
    pub clients: std::sync::Arc<crate::clients::Clients>,
    /// Whether the [`Pass::Record`] pass scans each body for leaks ([`BodyResult::losses`]).
    pub report_unreleased: bool,
    deadline: Option<Instant>,
    timed_out: Cell<bool>,
}

impl<'a, 'l> Shared<'a, 'l> {
    /// The shared context for one file.
    pub fn new(
        protocols: &'a Protocols<'l>,
        res: &'a Resolution,
        places: &'a Places<'a>,
        language: Language,
        helpers: HashMap<(&'a str, &'a str), Vec<Helper<'a>>>,
        deadline: Option<Instant>,
    ) -> Self {
        Shared {
            protocols,
            res,
            places,
            language,
            helpers,
            summaries: RefCell::new(HashMap::default()),
            recorded: RefCell::new(HashSet::default()),
            active_helpers: RefCell::default(),
            cfgs: RefCell::default(),
            var_protocols: RefCell::default(),
            captured: HashMap::default(),
            once_captured: HashMap::default(),
            private_fields: HashSet::default(),
            own_methods: HashSet::default(),
            overrides_use: HashSet::default(),
            clients: std::sync::Arc::default(),
            report_unreleased: false,
            deadline,
            timed_out: Cell::new(false),
        }
    }

    /// The control-flow graph of `body`, built on first use.
    fn cfg(&self, body: &'a Body) -> Rc<Cfg<'a>> {
        let mut cfgs = self.cfgs.borrow_mut();
        let cfg = cfgs
            .entry(std::ptr::from_ref(body))
            .or_insert_with(|| Rc::new(Cfg::build(body, self.language)));
        Rc::clone(cfg)
    }

    /// Whether the time bound has passed; once it has, bodies are no longer analysed.
    pub fn out_of_time(&self) -> bool {
        if !self.timed_out.get() && self.deadline.is_some_and(|d| Instant::now() >= d) {
            self.timed_out.set(true);
        }
        self.timed_out.get()
    }

    /// Whether `var` outlives the body it is used in: fields, the object itself, and
    /// [`Shared::captured`] locals.
    pub fn survives(&self, var: &Var) -> bool {
        match var {
            Var::Field(..) | Var::This(_) => true,
            Var::Local(local) => self.captured.contains_key(local),
            Var::Temp(_) => false,
        }
    }

    /// Whether the analysis follows the constants `var` holds: helper results, and the locals
    /// and private fields some condition tests ([`Places::tested`]); the others could only
    /// crowd out the flags that matter.
    pub fn follows_flag(&self, var: &Var) -> bool {
        match var {
            Var::Temp(_) => true,
            Var::Local(_) => self.places.tested.contains(var),
            Var::Field(..) => self.private_fields.contains(var) && self.places.tested.contains(var),
            Var::This(_) => false,
        }
    }

    /// The protocol of values of type `ty`.
    pub fn protocol_of_type(&self, ty: Option<&ExprType>) -> Option<ProtocolId> {
        ty.filter(|ty| !ty.is_class_ref)
            .and_then(|ty| self.protocols.protocol_of(&ty.fqn))
    }

    /// The protocol of the objects `var` holds, from its declared or inferred type.
    pub fn protocol_of_var(&self, var: &Var) -> Option<ProtocolId> {
        if let Some(&known) = self.var_protocols.borrow().get(var) {
            return known;
        }
        let protocol = match var {
            Var::Local(id) => self.protocol_of_type(self.res.type_of_local(*id)),
            Var::Field(class, name) => self.protocol_of_type(self.res.type_of_field(class, name)),
            Var::This(class) => self.protocols.protocol_of(class),
            Var::Temp(_) => return None,
        };
        self.var_protocols
            .borrow_mut()
            .insert(var.clone(), protocol);
        protocol
    }
}

/// The result of analysing one body.
#[derive(Debug, Clone)]
pub struct BodyResult {
    /// The state at normal or exceptional exit (`None` if no path gets there).
    pub exit: Option<Env>,
    /// The state where the body returns normally (`None` if every path throws).
    /// A constructor's object exists only after such a return.
    pub normal_exit: Option<Env>,
    /// For a helper (analysed at `depth > 0`), the protocol object it returns, if any.
    pub returned: Option<Returned>,
    /// The alias groups the body (or a helper it calls) started: a caller's name still in
    /// one of them holds what an earlier run made, not what this run made.
    pub started_groups: BTreeSet<ExprId>,
    /// In the [`Pass::Record`] pass, what each call on a tracked object saw, in this body and
    /// in the helpers it called; empty in the fixpoint.
    pub observations: Vec<Observation>,
    /// In the [`Pass::Record`] pass with [`Shared::report_unreleased`], what the leak scan
    /// found in this body and in the helpers it called; empty otherwise.
    pub losses: Losses,
    /// The bodies (this one, or a helper it followed) whose dataflow stopped at the solver's
    /// visit cap short of a fixpoint ([`crate::flow::Solution::converged`]).
    /// What this result holds rests on their unfinished states.
    pub unfinished: Vec<Span>,
}

impl BodyResult {
    /// The result of a body the time limit cut short ([`Shared::out_of_time`]): nothing.
    fn out_of_time() -> BodyResult {
        BodyResult {
            exit: None,
            normal_exit: None,
            returned: None,
            started_groups: BTreeSet::new(),
            observations: Vec::new(),
            losses: Losses::default(),
            unfinished: Vec::new(),
        }
    }
}

/// A helper and the state it is entered in: the key of its summaries.
/// The state's hash is computed once, since hashing it walks every object.
#[derive(Debug, Clone, PartialEq, Eq)]
struct HelperEntry {
    /// First, so that comparing two entries looks at it first.
    hash: u64,
    helper: usize,
    entry: Env,
}

impl HelperEntry {
    fn new(helper: usize, entry: &Env) -> HelperEntry {
        let mut hasher = rustc_hash::FxHasher::default();
        std::hash::Hash::hash(&(helper, entry), &mut hasher);
        HelperEntry {
            hash: std::hash::Hasher::finish(&hasher),
            helper,
            entry: entry.clone(),
        }
    }
}

impl std::hash::Hash for HelperEntry {
    /// Equal entries have equal states, so equal hashes.
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// Which pass of the check analyses a body.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Pass {
    /// A round of the event fixpoint: only the exit state and the helper's return count.
    Fixpoint,
    /// The last pass, from the final entry states: each call on a tracked object is observed
    /// ([`BodyResult::observations`]), and the leak scan runs.
    Record,
}

/// What a helper returns, over every `return` that some path reaches: the return summary
/// that lets `player().start()` act on the field `player()` returns, and
/// `MediaRecorder r = newRecorder()` start from the states the helper left the new object in.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Returned {
    /// The tracked name every `return` returns (a field, `this`, a parameter), when they all
    /// return the same one; the caller's value is then that name's (or its argument's).
    pub place: Option<Var>,
    /// The returned object, joined over every `return` (a `return` of something untracked
    /// makes it of unknown origin).
    pub value: Value,
}

/// Analyses `body` from `entry` in `pass`; `depth` is 0 for a body run as an event, and one
/// more for each helper call followed to get here.
pub fn analyze_body<'a>(
    shared: &Shared<'a, '_>,
    class: &str,
    body: &'a Body,
    entry: Env,
    pass: Pass,
    depth: u32,
) -> BodyResult {
    analyze_within(shared, class, body, entry, pass, depth, Vec::new())
}

/// [`analyze_body`] of a helper called where the caller's `catch`es catch `outer_caught`.
fn analyze_within<'a>(
    shared: &Shared<'a, '_>,
    class: &str,
    body: &'a Body,
    entry: Env,
    pass: Pass,
    depth: u32,
    outer_caught: Vec<String>,
) -> BodyResult {
    if shared.out_of_time() {
        return BodyResult::out_of_time();
    }
    let cfg = shared.cfg(body);
    let analysis = BodyAnalysis {
        shared,
        class,
        entry,
        depth,
        started_groups: RefCell::default(),
        observations: RefCell::default(),
        losses: RefCell::default(),
        unfinished: RefCell::default(),
        outer_caught,
    };
    let solution = solve(&cfg, &analysis);
    // The solve stops at the time limit ([`BodyAnalysis::interrupted`]): its states are
    // unfinished, and nothing after the limit is worth its time.
    if shared.out_of_time() {
        return BodyResult::out_of_time();
    }
    let mut losses = Losses::default();
    if pass == Pass::Record && shared.report_unreleased {
        losses = crate::leaks::scan_body(shared, &cfg, |id| solution.state_at(id).0.as_ref());
    }
    let mut exit = FlowState::bottom();
    exit.join(solution.state_at(cfg.exit));
    exit.join(&without_facts_of_throwing_paths(
        solution.state_at(cfg.exceptional_exit),
        solution.state_at(cfg.exit),
    ));
    let returned = (depth > 0)
        .then(|| analysis.returned(&cfg, &solution))
        .flatten();
    if pass == Pass::Record {
        let dependences = cfg.control_dependences();
        // What the delivery searches found, per object and protocol ([`delivery`]).
        let known: RefCell<HashMap<(Var, ProtocolId), Reaches>> = RefCell::default();
        let paths = std::cell::OnceCell::new();
        for (index, node) in cfg.nodes.iter().enumerate() {
            if shared.out_of_time() {
                return BodyResult::out_of_time();
            }
            let id = crate::cfg::NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            if let (true, FlowState(Some(env))) = (solution.is_reachable(id), solution.state_at(id))
            {
                let guards: Vec<&Node<'_>> = dependences[index]
                    .iter()
                    .map(|branch| cfg.node(*branch))
                    .collect();
                let delivery = |protocol: ProtocolId, var: Option<&Var>| match var {
                    Some(var) => {
                        let mut known = known.borrow_mut();
                        let known = known
                            .entry((var.clone(), protocol))
                            .or_insert_with(|| vec![None; cfg.nodes.len()]);
                        let paths = paths.get_or_init(|| Paths::new(shared, &cfg, &solution));
                        let graph = (&*cfg, &solution, paths);
                        delivery(shared, graph, id, (var, protocol), known)
                    }
                    None => Delivery::Delivered,
                };
                analysis.record(node, env, caught_at(&cfg, id), &guards, &delivery);
            }
        }
    }
    // What the helpers the record pass followed lost.
    losses.append(&mut analysis.losses.take());
    let mut unfinished = analysis.unfinished.take();
    if !solution.converged {
        unfinished.push(body.span);
    }
    BodyResult {
        exit: exit.0,
        normal_exit: solution.state_at(cfg.exit).0.clone(),
        returned,
        started_groups: analysis.started_groups.take(),
        observations: analysis.observations.take(),
        losses,
        unfinished,
    }
}

struct BodyAnalysis<'s, 'a, 'l> {
    shared: &'s Shared<'a, 'l>,
    class: &'s str,
    entry: Env,
    depth: u32,
    /// See [`BodyResult::started_groups`].
    started_groups: RefCell<BTreeSet<ExprId>>,
    /// See [`BodyResult::observations`].
    observations: RefCell<Vec<Observation>>,
    /// What the leak scans of the helpers called found ([`BodyResult::losses`]).
    losses: RefCell<Losses>,
    /// The helpers followed whose solve stopped short ([`BodyResult::unfinished`]).
    unfinished: RefCell<Vec<Span>>,
    /// The exceptions the callers' `catch`es around the call of this helper catch (simple
    /// names): a violation here that throws one of them is handled there.
    outer_caught: Vec<String>,
}

impl BodyAnalysis<'_, '_, '_> {
    /// The state after `node` threw from `env`: unchanged (the call did not happen), except
    /// that a release that throws (`close()` in a `finally`'s own `try`) may have released
    /// its object where the protocol allows the release, which is then forgotten there (a
    /// release the protocol forbids throws without releasing anything).
    fn after_throw(&self, node: &Node<'_>, env: &Env) -> FlowState {
        let mut env = env.clone();
        if let NodeKind::Call(expr) = node.kind {
            if let Some(var) = crate::leaks::released_receiver(self.shared, expr, &env) {
                if let (Some(value), ExprKind::Call(call)) = (env.get(&var), &expr.kind) {
                    let protocols = self.shared.protocols;
                    let callins = protocols.callins(value.protocol, &call.name, call.args.len());
                    let thrown = value.forget_where_enabled(protocols, &callins);
                    set_in_group(&mut env, var, thrown);
                }
            }
        }
        FlowState(Some(env))
    }
}

/// What a null test found on one of its edges.
enum Nullness {
    Null,
    NotNull,
}

/// The receiver of a call or close, as the analysis sees it.
struct Receiver {
    var: Option<Var>,
    value: Value,
    text: String,
}

impl<'a> Analysis<'a> for BodyAnalysis<'_, '_, '_> {
    type State = FlowState;

    fn entry_state(&self) -> FlowState {
        FlowState(Some(self.entry.clone()))
    }

    /// Past the time limit, the solve stops.
    fn interrupted(&self) -> bool {
        self.shared.out_of_time()
    }

    fn transfer(&self, node: &Node<'a>, edge: EdgeKind, input: &FlowState) -> FlowState {
        let Some(env) = &input.0 else {
            return FlowState(None);
        };
        if edge == EdgeKind::Exception {
            return self.after_throw(node, env);
        }
        let mut env = env.clone();
        let reachable = match node.kind {
            NodeKind::Declare(local) => {
                let var = self
                    .shared
                    .res
                    .declared_at(local.name_span.start_byte)
                    .map(Var::Local);
                if let Some(var) = var {
                    let protocol = self.shared.protocol_of_var(&var);
                    if protocol.is_none() && self.shared.follows_flag(&var) {
                        let fact = local
                            .init
                            .as_ref()
                            .and_then(|init| self.fact_of(init, &env));
                        set_fact(&mut env, &var, fact);
                        if let Some(init) = &local.init {
                            self.keep_answer(&var, init, &mut env);
                            copy_result_facts(&mut env, init, &var);
                        }
                    }
                    let value = match &local.init {
                        Some(init) => {
                            let value = self.eval(init, &env, protocol);
                            self.copy(init, value, &mut env)
                        }
                        None => protocol.map(Value::unknown),
                    };
                    set(&mut env, var, value);
                }
                true
            }
            NodeKind::Assign { target, value } => {
                if let Some(var) = self.shared.places.var(target).cloned() {
                    let protocol = self.shared.protocol_of_var(&var);
                    if protocol.is_none() && self.shared.follows_flag(&var) {
                        let fact = self.fact_of(value, &env);
                        set_fact(&mut env, &var, fact);
                        self.keep_answer(&var, value, &mut env);
                        copy_result_facts(&mut env, value, &var);
                    }
                    let evaluated = self.eval(value, &env, protocol);
                    let value = self.copy(value, evaluated, &mut env);
                    set(&mut env, var, value);
                }
                true
            }
            NodeKind::Call(expr) => self.call(expr, &mut env),
            NodeKind::Close(target) => self.close(target, &mut env),
            NodeKind::EnterScope(subject) => {
                if self.shared.places.var(subject).is_none() {
                    let value = self.eval(subject, &env, None);
                    set(&mut env, Var::Temp(subject.id), value);
                }
                true
            }
            NodeKind::NotNull(tested) => {
                let found = match edge {
                    EdgeKind::False => Nullness::Null,
                    _ => Nullness::NotNull,
                };
                self.refine_null(tested, found, &mut env).unwrap_or(true)
            }
            NodeKind::Yield { control, value } => {
                let value = self.eval(value, &env, None);
                set(&mut env, Var::Temp(control.id), value);
                true
            }
            NodeKind::Branch(cond) => self.refine(cond, edge == EdgeKind::True, &mut env),
            NodeKind::New(expr) => {
                if let ExprKind::New { args, .. } = &expr.kind {
                    self.havoc_arguments(args, &mut env);
                }
                true
            }
            NodeKind::Case {
                scrutinee,
                arms,
                arm,
            } => self.enter_case(scrutinee, arms, arm, &mut env),
            NodeKind::Return(value) => {
                if self.depth > 0 {
                    let fact = self.fact_of(value, &env);
                    set_fact(&mut env, &RETURNED, fact);
                    // `return cursor.moveToFirst();`: the answer, per state of its object.
                    self.keep_answer(&RETURNED, value, &mut env);
                }
                true
            }
            NodeKind::Catch(catch) => {
                // A caught exception is never `null`: `catch (E ex) { return ex; }`.
                let local = self.shared.res.declared_at(catch.param.span.start_byte);
                if let Some(local) = local {
                    let var = Var::Local(local);
                    if self.shared.follows_flag(&var)
                        || self.shared.places.returned.contains(&local)
                    {
                        set_fact(&mut env, &var, Some(BTreeSet::from([Fact::NonNull])));
                    }
                }
                true
            }
            NodeKind::Entry
            | NodeKind::Exit
            | NodeKind::ExceptionalExit
            | NodeKind::Throw(_)
            | NodeKind::Join => true,
        };
        FlowState(reachable.then_some(env))
    }
}

/// `value`, a copy of what `var` holds made at `site`, in one alias group with `var` when
/// `var` holds an object; a site that runs again starts a new group, taking its name back
/// from the names of the previous run (and noting it in `started`).
fn join_group(
    var: &Var,
    site: ExprId,
    mut value: Value,
    env: &mut Env,
    started: &RefCell<BTreeSet<ExprId>>,
) -> Value {
    let Some(held) = env.get(var).filter(|v| !v.has_no_state()) else {
        return value;
    };
    let group = match held.alias {
        Some(group) => group,
        None => {
            env.update_some(env.group(site), |_, other| other.alias = None);
            if let Some(mut held) = env.get_mut(var) {
                held.alias = Some(site);
            }
            started.borrow_mut().insert(site);
            site
        }
    };
    value.alias = Some(group);
    value
}

/// The constant `expr` spells: `true`, `false`, `null`, or a named constant by the Java
/// convention (`STATE_IDLE`, `State.MEDIA_RUNNING`).
pub(crate) fn constant(expr: &Expr) -> Option<Fact> {
    match &expr.kind {
        ExprKind::Bool(b) => Some(Fact::Bool(*b)),
        ExprKind::Null => Some(Fact::Null),
        ExprKind::Name(name) | ExprKind::Field { name, .. }
            if name.len() > 1
                && name.starts_with(|c: char| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') =>
        {
            Some(Fact::Const(name.clone()))
        }
        _ => None,
    }
}

/// A branch condition that tests a flag.
struct FlagTest {
    var: Var,
    test: Test,
}

/// What a [`FlagTest`] asks of its flag.
enum Test {
    /// Whether it equals `compared` (`equal`) or not.
    Equals { compared: Fact, equal: bool },
    /// Whether it compares with the integer `bound` as `op` says (`x >= 0`).
    Compares { op: BinaryOp, bound: i64 },
}

/// Sets what the path knows of `var` (`None`: nothing): from here on, whatever state an
/// object is in, the flag is this, so the objects' states forget what they knew of it and
/// take the path's fact.
pub(crate) fn set_fact(env: &mut Env, var: &Var, fact: Option<BTreeSet<Fact>>) {
    forget_facts(env, |known| known == var);
    if let Some(fact) = fact {
        if env.facts.len() < MAX_FACTS {
            Arc::make_mut(&mut env.facts).insert(var.clone(), fact);
        }
    }
}

/// `error = prepare()`: what the objects know, per state, of what the call `value` returned
/// (a helper's answer), they now know of `var`.
fn copy_result_facts(env: &mut Env, value: &Expr, var: &Var) {
    if !matches!(value.kind, ExprKind::Call(_)) {
        return;
    }
    let result = Var::Temp(value.id);
    env.update_some(env.knowing(|known| *known == result), |_, object| {
        for facts in object.facts.values_mut() {
            if let Some(known) = facts.get(&result).cloned() {
                if facts.len() < MAX_FACTS || facts.contains_key(var) {
                    facts.insert(var.clone(), known);
                }
            }
        }
    });
}

/// A step the experiment never ran (`restricted`) from a state `before` may be in: the path
/// taking it no longer knows the object's state.
/// It forgets the state as a call of unknown effect does ([`Value::havoc`]), so the states
/// other paths reach still count where paths meet.
/// An object of unknown origin stays one: nothing it reaches is known to begin with.
fn restrict(next: &mut ValueData, before: &ValueData) {
    next.forgotten |= !before.unknown || before.forgotten;
    next.unknown = true;
    next.approximate = true;
}

/// Forgets the flags `forgotten` selects, on the path and in every object's states.
fn forget_facts(env: &mut Env, forgotten: impl Fn(&Var) -> bool) {
    if env.facts.keys().any(&forgotten) {
        Arc::make_mut(&mut env.facts).retain(|var, _| !forgotten(var));
    }
    env.update_some(env.knowing(&forgotten), |_, value| {
        for facts in value.facts.values_mut() {
            facts.retain(|var, _| !forgotten(var));
        }
    });
}

/// Refines the path and every object on the `holds` edge of `test`: the path's constants of
/// the flag narrow to those that pass, and an object keeps only the states where the flag
/// may pass. Returns whether the edge can be taken at all.
fn refine_facts(env: &mut Env, test: &FlagTest, holds: bool) -> bool {
    match &test.test {
        Test::Equals { compared, equal } => {
            let passes = |fact: &Fact| (fact == compared) == (*equal == holds);
            // What an unknown flag is assumed to be on this edge, when the test pins it down.
            let assumed: Option<BTreeSet<Fact>> = match (compared, *equal == holds) {
                (compared, true) => Some(BTreeSet::from([compared.clone()])),
                (Fact::Bool(b), false) => Some(BTreeSet::from([Fact::Bool(!b)])),
                _ => None,
            };
            refine_flag(env, &test.var, passes, assumed)
        }
        Test::Compares { op, bound } => {
            let op = if holds { *op } else { negated(*op) };
            let passes = |fact: &Fact| match fact {
                Fact::Sign(sign) => sign.may_compare(op, *bound),
                _ => true,
            };
            refine_flag(env, &test.var, passes, None)
        }
    }
}

/// Refines the path and every object to the constants of `var` that `passes` lets through,
/// assuming `assumed` where the flag is not known; returns whether any path is left.
fn refine_flag(
    env: &mut Env,
    var: &Var,
    passes: impl Fn(&Fact) -> bool,
    assumed: Option<BTreeSet<Fact>>,
) -> bool {
    let narrow = |facts: &mut Facts| -> bool {
        match facts.get_mut(var) {
            Some(values) => {
                values.retain(|fact| passes(fact));
                !values.is_empty()
            }
            None => {
                if let Some(assumed) = &assumed {
                    if facts.len() < MAX_FACTS {
                        facts.insert(var.clone(), assumed.clone());
                    }
                }
                true
            }
        }
    };
    if !narrow(Arc::make_mut(&mut env.facts)) {
        return false;
    }
    // A state that knows nothing of its own about the flag takes the path's, narrowed above;
    // only the states that know some constants of the flag narrow them.
    let narrows = |facts: &Facts| {
        facts
            .get(var)
            .is_some_and(|values| values.iter().any(|fact| !passes(fact)))
    };
    // An object left with no state, not even `null`, says this path cannot happen.
    let mut emptied = false;
    env.update_some(env.knowing(|flag| flag == var), |_, value| {
        if !value.facts.values().any(narrows) {
            return;
        }
        let states: Vec<StateId> = value.fact_states().collect();
        let value: &mut ValueData = value;
        let mut dropped = Vec::new();
        for state in states {
            if let Some(facts) = value.facts.get_mut(&state) {
                if let Some(values) = facts.get_mut(var) {
                    values.retain(|fact| passes(fact));
                    if values.is_empty() {
                        dropped.push(state);
                    }
                }
            }
        }
        for state in dropped {
            match state {
                NULL_STATE => value.null = false,
                ANY_STATE => value.unknown = false,
                _ => {
                    value.states.remove(&state);
                }
            }
            value.facts.remove(&state);
        }
        emptied |= value.states.is_empty() && !value.null && !value.unknown;
    });
    !emptied
}

/// Narrows the path's facts to what the states `var`'s object may still be in know of their
/// own: after `if (recorder == null)`, the path knows what every path that left `recorder`
/// null knows. Returns whether the path can be taken (no flag is left without a constant).
fn narrow_path(env: &mut Env, var: &Var) -> bool {
    let Some(value) = env.get(var).filter(|value| !value.unknown) else {
        return true;
    };
    let mut known: Option<Facts> = None;
    for state in value.fact_states() {
        // A state that knows nothing of its own takes the path's facts: nothing to narrow.
        let Some(own) = value.facts.get(&state) else {
            return true;
        };
        known = Some(match known {
            None => own.clone(),
            Some(mut known) => {
                known.retain(|flag, _| own.contains_key(flag));
                for (flag, values) in &mut known {
                    values.extend(own[flag].iter().cloned());
                }
                known
            }
        });
    }
    for (flag, values) in known.unwrap_or_default() {
        let room = env.facts.len() < MAX_FACTS;
        let path_facts = Arc::make_mut(&mut env.facts);
        match path_facts.get_mut(&flag) {
            Some(path) => {
                path.retain(|fact| values.contains(fact));
                if path.is_empty() {
                    return false;
                }
            }
            None if room => {
                path_facts.insert(flag, values);
            }
            None => {}
        }
    }
    true
}

/// The state at the exceptional exit, with the facts of the normal exit where an object is in
/// the same state there: the caller's code after a call runs only when it returned, so what a
/// throwing path knew (or did not) must not blur what the returning paths know; the states
/// themselves are kept.
fn without_facts_of_throwing_paths(thrown: &FlowState, returned: &FlowState) -> FlowState {
    let (FlowState(Some(thrown)), FlowState(Some(returned))) = (thrown, returned) else {
        return thrown.clone();
    };
    let mut out = thrown.clone();
    out.facts = returned.facts.clone();
    out.update_each(|var, value| {
        let Some(normal) = returned.get(var) else {
            return;
        };
        let states: Vec<StateId> = value.fact_states().collect();
        let normal_states: Vec<StateId> = normal.fact_states().collect();
        let value: &mut ValueData = value;
        for state in states {
            match normal.facts.get(&state) {
                Some(facts) if normal_states.contains(&state) => {
                    value.facts.insert(state, facts.clone());
                }
                _ => {}
            }
        }
    });
    FlowState(Some(out))
}

/// Adds to `value` what a move from a state to `target` brings, before `target` is added to
/// its states: whether the path guessed the state (`guessed`: guessed while every path so
/// far guessed), and what it knows of the flags (`facts`: the first path's, joined with the
/// next ones'; a path that knew the object wins over one that guessed, whose facts say
/// nothing a finding may rely on).
fn carry(value: &mut Value, guessed: bool, facts: Option<&Facts>, target: StateId) {
    if !value.states.contains_key(&target) {
        if guessed {
            value.guessed.insert(target);
        }
        if let Some(facts) = facts {
            value.facts.insert(target, facts.clone());
        }
        return;
    }
    let guessed_here = value.guessed.contains(&target);
    if guessed_here && !guessed {
        value.guessed.remove(&target);
        match facts {
            Some(facts) => value.facts.insert(target, facts.clone()),
            None => value.facts.remove(&target),
        };
    } else if guessed_here || !guessed {
        match (value.facts.get_mut(&target), facts) {
            (Some(mine), Some(theirs)) => {
                join_facts(mine, theirs);
            }
            (Some(_), None) => {
                value.facts.remove(&target);
            }
            (None, _) => {}
        }
    }
}

/// Makes `var`, which holds `value`, and every name in its alias group hold an object of
/// unknown state ([`Value::havoc`]).
fn havoc(env: &mut Env, var: &Var, value: &Value) {
    let mut forgotten = value.clone();
    forgotten.havoc();
    forgotten.null = false;
    set_in_group(env, var.clone(), forgotten);
}

/// Sets `var` and every name in its alias group to `value`.
fn set_in_group(env: &mut Env, var: Var, value: Value) {
    if let Some(group) = value.alias {
        env.update_some(env.group(group), |_, other| *other = value.clone());
    }
    env.insert(var, value);
}

/// Sets `var` to `value`, or stops tracking it.
fn set(env: &mut Env, var: Var, value: Option<Value>) {
    match value {
        Some(value) => {
            env.insert(var, value);
        }
        None => {
            env.remove(&var);
        }
    }
}

impl<'a> BodyAnalysis<'_, 'a, '_> {
    /// The abstract value of `expr`, flowing into a place of protocol `expected`.
    fn eval(&self, expr: &Expr, env: &Env, expected: Option<ProtocolId>) -> Option<Value> {
        let shared = self.shared;
        if let Some(var) = shared.places.var(expr) {
            let protocol = expected.or_else(|| shared.protocol_of_var(var));
            return env
                .get(var)
                .cloned()
                .or_else(|| protocol.map(Value::unknown));
        }
        if let Some(returned) = env.get(&Var::Temp(expr.id)) {
            return Some(returned.clone());
        }
        match &expr.kind {
            ExprKind::Null => expected.map(Value::null),
            ExprKind::Cast { expr: inner, .. } => {
                let cast = shared
                    .protocol_of_type(shared.res.type_of(expr.id))
                    .or(expected);
                self.eval(inner, env, cast)
            }
            ExprKind::New { .. } | ExprKind::Call(_) => {
                let created = self.shared.creation(expr, expected);
                created
                    .map(|(protocol, states)| Value::fresh(protocol, &states, Cause::Call(expr.id)))
                    .or_else(|| {
                        expected
                            .or_else(|| shared.protocol_of_type(shared.res.type_of(expr.id)))
                            .map(Value::unknown)
                    })
            }
            _ => expected
                .or_else(|| shared.protocol_of_type(shared.res.type_of(expr.id)))
                .map(Value::unknown),
        }
    }

    /// The constants `expr` may evaluate to, when the path knows: a literal, a named constant,
    /// a flag the path knows, or what a helper call returned.
    fn fact_of(&self, expr: &Expr, env: &Env) -> Option<BTreeSet<Fact>> {
        if let Some(fact) = constant(expr) {
            return Some(BTreeSet::from([fact]));
        }
        match &expr.kind {
            ExprKind::Int(value) => Some(BTreeSet::from([Fact::Sign(Sign::of(*value))])),
            // `return new RuntimeException(…)`: a new object is never `null`.
            ExprKind::New { .. } => Some(BTreeSet::from([Fact::NonNull])),
            ExprKind::Call(_) if self.shared.res.is_constructor_call(expr.id) => {
                Some(BTreeSet::from([Fact::NonNull]))
            }
            ExprKind::Not(inner) => {
                let inner = self.fact_of(inner, env)?;
                inner
                    .iter()
                    .map(|fact| match fact {
                        Fact::Bool(b) => Some(Fact::Bool(!b)),
                        _ => None,
                    })
                    .collect()
            }
            ExprKind::Call(_) => env.facts.get(&Var::Temp(expr.id)).cloned(),
            _ => {
                let var = self.shared.places.var(expr)?;
                env.facts.get(var).cloned()
            }
        }
    }

    /// Refines the flag a `switch` tests on entering one of its arms: the labels' constants
    /// for a case arm, anything but them for the default arm. Labels that are not all
    /// constants say nothing.
    fn enter_case(
        &self,
        scrutinee: &Expr,
        arms: &[crate::ir::SwitchArm],
        arm: Option<usize>,
        env: &mut Env,
    ) -> bool {
        let Some(var) = self
            .shared
            .places
            .var(scrutinee)
            .filter(|var| {
                self.shared.protocol_of_var(var).is_none() && self.shared.follows_flag(var)
            })
            .cloned()
        else {
            return true;
        };
        let constants = |arm: &crate::ir::SwitchArm| -> Option<BTreeSet<Fact>> {
            arm.labels.iter().map(constant).collect()
        };
        match arm {
            Some(index) => {
                let Some(labels) = arms.get(index).and_then(constants) else {
                    return true;
                };
                if labels.is_empty() || arms[index].guard.is_some() {
                    return true;
                }
                refine_flag(
                    env,
                    &var,
                    |fact| labels.contains(fact),
                    Some(labels.clone()),
                )
            }
            None => {
                let mut others = BTreeSet::new();
                for arm in arms.iter().filter(|arm| !arm.is_default) {
                    match constants(arm) {
                        Some(labels) if arm.guard.is_none() => others.extend(labels),
                        _ => return true,
                    }
                }
                refine_flag(env, &var, |fact| !others.contains(fact), None)
            }
        }
    }

    /// The name `call`'s explicit receiver denotes, if it names one.
    fn tracked_receiver(&self, call: &Call) -> Option<Var> {
        call.receiver
            .as_deref()
            .and_then(|r| self.shared.places.var(r))
            .cloned()
    }

    /// Keeps what an observer's answer stored in `var` says of its object (`val id =
    /// codec.dequeueInputBuffer(0)`): each state the call may have left the object in knows
    /// the answers the calls into it give, so a later test of `var` (`id >= 0`) narrows the
    /// object as a test of the call itself would.
    fn keep_answer(&self, var: &Var, value: &Expr, env: &mut Env) {
        let ExprKind::Call(call) = &value.kind else {
            return;
        };
        let Some(receiver) = self.tracked_receiver(call) else {
            return;
        };
        let Some(object) = env.get(&receiver) else {
            return;
        };
        let protocols = self.shared.protocols;
        let ts = protocols.typestate(object.protocol);
        let callins = protocols.callins(object.protocol, &call.name, call.args.len());
        let mut answers: Vec<(CallinId, BTreeSet<Fact>)> = Vec::new();
        for &callin in &callins {
            let Some(answer) = &ts.callin(callin).binding.returns else {
                return;
            };
            answers.push((callin, answer_facts(answer)));
        }
        if answers.is_empty() {
            return;
        }
        let mut all = BTreeSet::new();
        let mut object = object.clone();
        let states: Vec<StateId> = object.states.keys().copied().collect();
        for target in states {
            let mut into = BTreeSet::new();
            for (callin, facts) in &answers {
                if ts
                    .state_ids()
                    .any(|s| ts.step(s, *callin).target() == Some(target))
                {
                    into.extend(facts.iter().cloned());
                }
            }
            all.extend(into.iter().cloned());
            let own = object.facts.entry(target).or_default();
            if own.len() < MAX_FACTS || own.contains_key(var) {
                own.insert(var.clone(), into);
            }
        }
        env.insert(receiver, object);
        if !all.is_empty() && env.facts.len() < MAX_FACTS {
            Arc::make_mut(&mut env.facts).insert(var.clone(), all);
        }
    }

    /// The flag a branch condition tests, if it tests one: `playing`, `state == RUNNING`,
    /// `listener != null`, or a helper call's result.
    fn flag_test(&self, cond: &Expr) -> Option<FlagTest> {
        let flag = |expr: &Expr| -> Option<Var> {
            match &expr.kind {
                // What a helper returned; any other call's result is not followed.
                ExprKind::Call(call) => self.helper(call).map(|_| Var::Temp(expr.id)),
                _ => {
                    let var = self.shared.places.var(expr)?;
                    (self.shared.protocol_of_var(var).is_none() && self.shared.follows_flag(var))
                        .then(|| var.clone())
                }
            }
        };
        match &cond.kind {
            ExprKind::Binary { op, lhs, rhs } => {
                let compares = op.is_comparison();
                match (&lhs.kind, &rhs.kind) {
                    (_, ExprKind::Int(bound)) if compares => {
                        return Some(FlagTest {
                            var: flag(lhs)?,
                            test: Test::Compares {
                                op: *op,
                                bound: *bound,
                            },
                        });
                    }
                    (ExprKind::Int(bound), _) if compares => {
                        return Some(FlagTest {
                            var: flag(rhs)?,
                            test: Test::Compares {
                                op: swapped(*op),
                                bound: *bound,
                            },
                        });
                    }
                    _ => {}
                }
                let equal = match op {
                    BinaryOp::Eq => true,
                    BinaryOp::Ne => false,
                    _ => return None,
                };
                let (var, compared) = match (constant(lhs), constant(rhs)) {
                    (None, Some(c)) => (flag(lhs)?, c),
                    (Some(c), None) => (flag(rhs)?, c),
                    _ => return None,
                };
                Some(FlagTest {
                    var,
                    test: Test::Equals { compared, equal },
                })
            }
            ExprKind::Call(_) | ExprKind::Name(_) | ExprKind::Field { .. } => Some(FlagTest {
                var: flag(cond)?,
                test: Test::Equals {
                    compared: Fact::Bool(true),
                    equal: true,
                },
            }),
            _ => None,
        }
    }

    /// `value`, the value of `source`, joined to the alias group of `source` when `source`
    /// is a tracked name holding an object (a copy `b = a`); a copy site that runs again
    /// starts a new group, taking its name back from the names of the previous run.
    fn copy(&self, source: &Expr, value: Option<Value>, env: &mut Env) -> Option<Value> {
        let value = value?;
        match self.shared.places.var(source) {
            Some(var) => Some(join_group(var, source.id, value, env, &self.started_groups)),
            None => Some(value),
        }
    }
}

impl Shared<'_, '_> {
    /// If `expr` creates a protocol object, its protocol and start states.
    /// The receiver of `expr` when `expr` calls a callin that returns it
    /// (`new CountDownTimer(..) {..}.start()`, [`crate::platform::returns_receiver`]).
    pub(crate) fn receiver_returned<'x>(&self, expr: &'x Expr) -> Option<&'x Expr> {
        let ExprKind::Call(call) = &expr.kind else {
            return None;
        };
        let receiver = call.receiver.as_deref()?;
        let protocol = self.protocol_of_type(self.res.type_of(receiver.id))?;
        let class = &self.protocols.typestate(protocol).class;
        crate::platform::returns_receiver(class, &call.name, call.args.len()).then_some(receiver)
    }

    pub fn creation(
        &self,
        expr: &Expr,
        expected: Option<ProtocolId>,
    ) -> Option<(ProtocolId, Vec<StateId>)> {
        let shared = self;
        let protocols = shared.protocols;
        match &expr.kind {
            ExprKind::New { args, .. } => {
                let class = shared.res.type_of(expr.id)?;
                protocols.creation(
                    CreatorCall::New {
                        class: &class.fqn,
                        arity: args.len(),
                    },
                    expected,
                )
            }
            ExprKind::Call(call) => {
                let arity = call.args.len();
                let receiver = shared.res.receiver_of(expr.id);
                let shape = match receiver {
                    None if shared.res.is_constructor_call(expr.id) => {
                        let class = shared.res.type_of(expr.id)?;
                        CreatorCall::New {
                            class: &class.fqn,
                            arity,
                        }
                    }
                    Some(ty) if ty.is_class_ref => CreatorCall::Static {
                        class: &ty.fqn,
                        name: &call.name,
                        arity,
                    },
                    receiver => CreatorCall::Instance {
                        receiver: receiver.map(|ty| ty.fqn.as_str()),
                        name: &call.name,
                        arity,
                    },
                };
                protocols.creation(shape, expected)
            }
            _ => None,
        }
    }
}

impl<'a> BodyAnalysis<'_, 'a, '_> {
    /// The tracked receiver of a call, if its class follows a protocol.
    fn receiver(&self, expr: &Expr, call: &Call, env: &Env) -> Option<Receiver> {
        let shared = self.shared;
        let (var, text) = match &call.receiver {
            Some(receiver) => (
                shared.places.var(receiver).cloned().or_else(|| {
                    let returned = Var::Temp(receiver.id);
                    env.contains_key(&returned).then_some(returned)
                }),
                receiver_text(receiver),
            ),
            None => (
                shared.places.implicit_receiver(expr.id).cloned(),
                shared
                    .places
                    .implicit_subject(expr.id)
                    .filter(|s| matches!(s.kind, ExprKind::Name(_) | ExprKind::Field { .. }))
                    .map_or_else(|| "this".to_owned(), receiver_text),
            ),
        };
        let value = match (&var, &call.receiver) {
            (Some(var), _) => env.get(var).cloned().or_else(|| {
                let protocol = shared.protocol_of_var(var)?;
                Some(Value::unknown(protocol))
            }),
            (None, Some(receiver)) => self.eval(receiver, env, None),
            (None, None) => None,
        }?;
        Some(Receiver { var, value, text })
    }

    fn call(&self, expr: &Expr, env: &mut Env) -> bool {
        let ExprKind::Call(call) = &expr.kind else {
            return true;
        };
        if crate::inline::inlined(call, self.shared.language).is_some() {
            // An inline function does what its lambda, inlined before this node, does.
            return true;
        }
        self.forget_fluent_receiver(call, env);
        let Some(receiver) = self.receiver(expr, call, env) else {
            return self.other_call(expr, call, env);
        };
        self.register(expr, call, &receiver, env);
        let protocol = receiver.value.protocol;
        let callins = self
            .shared
            .protocols
            .callins(protocol, &call.name, call.args.len());
        if callins.is_empty() {
            let effect = self
                .shared
                .protocols
                .unnamed_call(protocol, &call.name, call.args.len());
            // The class's own calls on itself are its code, analysed as helpers or events.
            let own = matches!(receiver.var, Some(Var::This(_)) | None);
            if !own && effect == UnnamedCall::Unknown {
                if let Some(var) = &receiver.var {
                    havoc(env, var, &receiver.value);
                }
            }
            return self.other_call(expr, call, env);
        }
        self.havoc_call_arguments(expr, call, env);
        let mut receiver = receiver;
        if receiver.var.is_none() && self.shared.receiver_returned(expr).is_some() {
            // The call's value is the object after the call (`t = new CountDownTimer(..) {..}.start()`).
            receiver.var = Some(Var::Temp(expr.id));
        }
        self.step(receiver, &callins, Cause::Call(expr.id), env)
    }

    /// A call on what a callin of a tracked object returned, where that may be the object
    /// itself (`json.name("a").value(1)`): the object's state is unknown after it, as after
    /// any call of unknown effect.
    /// It may be when the returned type is the object's class, or is not known and the outer
    /// call is a callin of the object's protocol; a call the protocol does not bind is one on
    /// a value derived from the object (`extractor.getTrackFormat(0).getString("mime")`).
    fn forget_fluent_receiver(&self, call: &Call, env: &mut Env) {
        let Some(inner) = call.receiver.as_deref() else {
            return;
        };
        let ExprKind::Call(inner_call) = &inner.kind else {
            return;
        };
        let Some(var) = self.tracked_receiver(inner_call) else {
            return;
        };
        let Some(value) = env.get(&var).cloned() else {
            return;
        };
        let protocols = self.shared.protocols;
        if protocols
            .callins(value.protocol, &inner_call.name, inner_call.args.len())
            .is_empty()
        {
            return;
        }
        let returned = self.shared.res.type_of(inner.id);
        let same_object = match self.shared.protocol_of_type(returned) {
            Some(protocol) => protocol == value.protocol,
            None => {
                returned.is_none()
                    && !protocols
                        .callins(value.protocol, &call.name, call.args.len())
                        .is_empty()
            }
        };
        if same_object {
            havoc(env, &var, &value);
        }
    }

    /// A call that is no callin of a tracked receiver: a private helper is analysed in
    /// place; any other method may do anything to the tracked objects passed to it.
    fn other_call(&self, expr: &Expr, call: &Call, env: &mut Env) -> bool {
        if self.helper(call).is_some() {
            return self.helper_call(expr, call, env, Pass::Fixpoint, &[]);
        }
        env.remove(&Var::Temp(expr.id));
        self.havoc_call_arguments(expr, call, env);
        let on_this = match &call.receiver {
            None => true,
            Some(receiver) => matches!(receiver.kind, ExprKind::This(_)),
        };
        let declared_here = self
            .shared
            .own_methods
            .contains(&(self.class.to_owned(), call.name.clone()));
        if on_this && declared_here {
            // A method of the class that is not analysed here may set any of its private
            // fields; no other code can.
            forget_facts(env, |var| matches!(var, Var::Field(..)));
        }
        if on_this && !declared_here {
            // An inherited method may call the class's overrides, which use these fields.
            let used: Vec<(Var, Value)> = env
                .iter()
                .filter(|(var, value)| {
                    self.shared.overrides_use.contains(var) && !value.has_no_state()
                })
                .map(|(var, value)| (var.clone(), value.clone()))
                .collect();
            for (var, value) in used {
                havoc(env, &var, &value);
            }
        }
        true
    }

    /// The arguments of the call `expr` after it, as [`Self::havoc_arguments`] says, unless
    /// the callee is a platform method that neither keeps nor closes them
    /// ([`crate::platform::borrows_arguments`]): then they stay as they were.
    fn havoc_call_arguments(&self, expr: &Expr, call: &Call, env: &mut Env) {
        let borrows = self
            .shared
            .res
            .receiver_of(expr.id)
            .is_some_and(|receiver| {
                crate::platform::borrows_arguments(&receiver.fqn, &call.name, call.args.len())
            });
        if !borrows {
            self.havoc_arguments(&call.args, env);
        }
    }

    /// Tracked objects passed to a method whose effect is unknown (a library method, a method
    /// of another class, one a subclass may override, a constructor) may be in any state after
    /// it: the callee may configure, release or keep them.
    fn havoc_arguments(&self, args: &[Expr], env: &mut Env) {
        for arg in args {
            let Some(var) = self.shared.places.var(arg) else {
                continue;
            };
            if let Some(value) = env.get(var).cloned() {
                if !value.has_no_state() {
                    havoc(env, var, &value);
                }
            }
        }
    }

    /// If `call` registers a listener of the receiver's protocol (`setOnPreparedListener`),
    /// notes it in the receiver's value (and its aliases') on this path: a `set…` call replaces
    /// the listener an earlier call of the same name registered, and with a `null` argument
    /// only removes it.
    fn register(&self, expr: &Expr, call: &Call, receiver: &Receiver, env: &mut Env) {
        let protocols = self.shared.protocols;
        let Some(var) = &receiver.var else { return };
        if protocols
            .callbacks_registered_by(receiver.value.protocol, &call.name)
            .is_empty()
        {
            return;
        }
        let replaces = call.name.starts_with("set");
        let removes = call.args.iter().all(|a| a.kind == ExprKind::Null);
        let update = |value: &mut Value| {
            if replaces {
                value.listeners.remove(&call.name);
            }
            if !removes {
                value.register(expr.id, &call.name, protocols);
            }
        };
        let mut value = env.get(var).unwrap_or(&receiver.value).clone();
        update(&mut value);
        let group = value.alias;
        env.insert(var.clone(), value);
        if let Some(group) = group {
            let others = env.group(group).without(var);
            env.update_some(others, |_, other| update(other));
        }
    }

    fn close(&self, target: CloseTarget<'_>, env: &mut Env) -> bool {
        let Some((receiver, _)) = self.close_receiver(target, env) else {
            return true;
        };
        let callins = self
            .shared
            .protocols
            .callins(receiver.value.protocol, "close", 0);
        if callins.is_empty() {
            return true;
        }
        let cause = match target {
            CloseTarget::Local(local) => {
                Cause::Closed(local.name_span.start_byte, local.name_span.end_byte)
            }
            CloseTarget::Expr(expr) => Cause::Call(expr.id),
        };
        self.step(receiver, &callins, cause, env)
    }

    fn close_receiver(&self, target: CloseTarget<'_>, env: &Env) -> Option<(Receiver, Span)> {
        let (var, text, span) = match target {
            CloseTarget::Local(local) => (
                Var::Local(self.shared.res.declared_at(local.name_span.start_byte)?),
                local.name.clone(),
                local.name_span,
            ),
            CloseTarget::Expr(expr) => (
                scope_receiver(self.shared.places, expr),
                receiver_text(expr),
                expr.span,
            ),
        };
        let value = env.get(&var)?.clone();
        Some((
            Receiver {
                var: Some(var),
                value,
                text,
            },
            span,
        ))
    }

    /// Applies `callins` to the receiver; returns whether the normal path goes on.
    fn step(&self, receiver: Receiver, callins: &[CallinId], cause: Cause, env: &mut Env) -> bool {
        let value = &receiver.value;
        let ts = self.shared.protocols.typestate(value.protocol);
        let sources: Vec<StateId> = if value.unknown {
            // An object of unknown origin is not taken to be in a state where the call is an
            // ignored no-op (`mark()` on a closed stream): a caller that hands over a closed
            // stream is not this call's fault, and a later `reset()` should not be either.
            let effective = |s: StateId| {
                callins.iter().any(|&c| match ts.step(s, c) {
                    Step::Enabled {
                        ignored, target, ..
                    } => !ignored || *target != s,
                    Step::Error { .. } | Step::Restricted { .. } => false,
                })
            };
            let all: Vec<StateId> = ts.state_ids().collect();
            let useful: Vec<StateId> = all.iter().copied().filter(|&s| effective(s)).collect();
            let mut sources = if useful.is_empty() { all } else { useful };
            // The states known paths reach stay, whatever the call does there.
            sources.extend(value.states.keys().copied());
            sources.sort();
            sources.dedup();
            sources
        } else {
            value.states.keys().copied().collect()
        };
        // An object of unknown state may be in a state the experiment never explored, where
        // the call may be allowed and lead anywhere: it stays unknown.
        let unexplored = value.unknown && self.shared.protocols.is_partial(value.protocol);
        let mut next = Value::from(ValueData {
            alias: value.alias,
            approximate: value.approximate || value.unknown,
            unknown: unexplored,
            forgotten: unexplored && value.forgotten,
            ..ValueData::empty(value.protocol)
        });
        if !value.listeners.is_empty() {
            let moves: Vec<Move> = (sources.iter())
                .flat_map(|&state| {
                    (callins.iter()).filter_map(move |&callin| {
                        ts.step(state, callin)
                            .target()
                            .map(|target| (state, target))
                    })
                })
                .collect();
            next.listeners = after_moves(&value.listeners, &moves);
        }
        for state in sources {
            for &callin in callins {
                match ts.step(state, callin) {
                    Step::Enabled { target, origin, .. } => {
                        // Only the states no known path reached are guesses.
                        let guessed =
                            !value.states.contains_key(&state) || value.guessed.contains(&state);
                        let facts = match value.facts.get(&state) {
                            Some(facts) => Some(facts),
                            None if !value.states.contains_key(&state) => {
                                value.facts.get(&ANY_STATE)
                            }
                            None => None,
                        };
                        carry(&mut next, guessed, facts, *target);
                        let causes = next.states.entry(*target).or_default();
                        match value.states.get(&state) {
                            // A call that leaves a known state as it was (`isPlaying()`) did
                            // not move the object there: the earlier causes still say why.
                            Some(before) if *target == state => causes.extend(before),
                            _ => {
                                causes.insert(cause);
                            }
                        }
                        while causes.len() > MAX_CAUSES {
                            causes.pop_last();
                        }
                        next.approximate |= origin.unverified;
                    }
                    // The experiment never ran this call here: this path forgets the state.
                    Step::Restricted { .. } => restrict(&mut next, value),
                    // The call returns and posts an error callback: the object is in the
                    // framework's error state, which the protocol does not model, so this path
                    // forgets it and reports nothing from it alone. It does not make the other
                    // paths' findings approximate: in that error state the calls that failed
                    // still fail (MediaPlayer's Error state allows only reset() and release()).
                    Step::Error {
                        failure: Failure::Posts(_),
                        ..
                    } => {
                        next.unknown = true;
                        next.forgotten = true;
                    }
                    Step::Error { .. } => {}
                }
            }
        }
        let goes_on = !next.states.is_empty() || next.unknown || value.has_no_state();
        if let Some(var) = receiver.var {
            if goes_on {
                if let Some(group) = next.alias {
                    env.update_some(env.group(group).without(&var), |_, value| {
                        *value = next.clone();
                    });
                }
                env.insert(var, next);
            }
        }
        goes_on
    }

    /// Refines the object `tested` names on a path where it was `found` null or not null;
    /// returns `None` when `tested` names no tracked object, else whether the path can be
    /// taken (a reference that every path left `null` is never found not null).
    fn refine_null(&self, tested: &Expr, found: Nullness, env: &mut Env) -> Option<bool> {
        let var = self.shared.places.var(tested)?;
        let feasible = Self::refine_null_of(var, found, env)?;
        Some(feasible && narrow_path(env, var))
    }

    fn refine_null_of(var: &Var, found: Nullness, env: &mut Env) -> Option<bool> {
        let mut value = env.get_mut(var)?;
        match found {
            Nullness::Null => {
                let value: &mut ValueData = &mut value;
                value.states.clear();
                value.facts.retain(|state, _| *state == NULL_STATE);
                value.unknown = false;
                value.null = true;
                Some(true)
            }
            Nullness::NotNull => {
                let only_null = value.null && value.has_no_state();
                value.null = false;
                value.facts.remove(&NULL_STATE);
                Some(!only_null)
            }
        }
    }

    /// Refines the state on the `holds` edge of a branch on `cond`: a null check of a tracked
    /// name, or a test of an observer's answer (`p.isPlaying()`, `it.hasNext()`,
    /// `task.getStatus() == Status.RUNNING`, `c.getFoo() != null`).
    fn refine(&self, cond: &Expr, holds: bool, env: &mut Env) -> bool {
        if let Some((tested, is_eq)) = cond.null_check() {
            let found = if is_eq == holds {
                Nullness::Null
            } else {
                Nullness::NotNull
            };
            if let Some(feasible) = self.refine_null(tested, found, env) {
                return feasible;
            }
        }
        let observed = observer_test(cond).and_then(|test| {
            let var = test
                .call
                .receiver
                .as_deref()
                .and_then(|r| self.shared.places.var(r))?;
            env.contains_key(var).then_some((test, var))
        });
        let Some((test, var)) = observed else {
            return match self.flag_test(cond) {
                Some(test) => refine_facts(env, &test, holds),
                None => true,
            };
        };
        let Some(mut value) = env.get_mut(var) else {
            return true;
        };
        let protocols = self.shared.protocols;
        let ts = protocols.typestate(value.protocol);
        let callins = protocols.callins(value.protocol, &test.call.name, test.call.args.len());
        // The answers the edge allows, including those that do not decide it.
        let mut answering = Vec::new();
        for &callin in &callins {
            let Some(answer) = &ts.callin(callin).binding.returns else {
                return true;
            };
            if test.asks.may_pass(answer, holds) {
                answering.push(callin);
            }
        }
        if answering.len() == callins.len() {
            return true;
        }
        let targets: BTreeSet<StateId> = ts
            .state_ids()
            .flat_map(|s| {
                answering
                    .iter()
                    .filter_map(move |&c| ts.step(s, c).target())
            })
            .collect();
        value.states.retain(|state, _| targets.contains(state));
        drop(value);
        narrow_path(env, var)
    }

    /// Applies a call `expr` of a helper of the class; returns whether the path goes
    /// on. What the helper returns becomes the value of `expr` (see [`Returned`]).
    fn helper_call(
        &self,
        expr: &Expr,
        call: &Call,
        env: &mut Env,
        pass: Pass,
        caught: &[String],
    ) -> bool {
        env.remove(&Var::Temp(expr.id));
        let Some(helper) = self.helper(call) else {
            return true;
        };
        let recursive = self.shared.active_helpers.borrow().contains(&helper.index);
        if recursive || self.depth >= MAX_HELPER_DEPTH {
            // A recursive call, or one too deep to follow: like a method of the class not
            // analysed here, it may set any private field and do anything to the objects
            // passed to it.
            self.havoc_arguments(&call.args, env);
            forget_facts(env, |var| matches!(var, Var::Field(..)));
            return true;
        }
        let Some(body) = &helper.method.body else {
            return true;
        };
        // The helper sees the fields and `this`, and its parameters bound to the arguments.
        let mut entry: Env = env
            .iter()
            .filter(|(var, _)| self.shared.survives(var))
            .map(|(var, value)| (var.clone(), value.clone()))
            .collect();
        let mut bound = Vec::new();
        for (param, arg) in helper.method.params.iter().zip(&call.args) {
            let Some(local) = self.shared.res.declared_at(param.span.start_byte) else {
                continue;
            };
            let param_var = Var::Local(local);
            let protocol = self.shared.protocol_of_var(&param_var);
            if let Some(value) = self.eval(arg, env, protocol) {
                entry.insert(param_var.clone(), value);
                if let Some(arg_var) = self.shared.places.var(arg) {
                    bound.push((param_var, arg_var.clone()));
                }
            }
        }
        entry.facts = env
            .facts
            .iter()
            .filter(|(var, _)| matches!(var, Var::Field(..)))
            .map(|(var, values)| (var.clone(), values.clone()))
            .collect::<Facts>()
            .into();
        for (param, arg) in helper.method.params.iter().zip(&call.args) {
            let Some(local) = self.shared.res.declared_at(param.span.start_byte) else {
                continue;
            };
            let param_var = Var::Local(local);
            if self.shared.protocol_of_var(&param_var).is_none() {
                if let Some(fact) = self.fact_of(arg, env) {
                    Arc::make_mut(&mut entry.facts).insert(param_var, fact);
                }
            }
        }
        let key = HelperEntry::new(helper.index, &entry);
        // The record pass analyses each entry once: a second visit (the caller's fixpoint
        // reaching the call again, or another call from the same state) would observe the
        // same calls again, which merging per call site would only join with themselves.
        let recorded = (key.clone(), caught.to_vec());
        let cached = (pass == Pass::Fixpoint || self.shared.recorded.borrow().contains(&recorded))
            .then(|| self.shared.summaries.borrow().get(&key).cloned())
            .flatten();
        let result = match cached {
            Some(result) => result,
            None => {
                self.shared.active_helpers.borrow_mut().push(helper.index);
                let mut result = analyze_within(
                    self.shared,
                    self.class,
                    body,
                    entry,
                    pass,
                    self.depth + 1,
                    caught.to_vec(),
                );
                self.shared.active_helpers.borrow_mut().pop();
                self.observations
                    .borrow_mut()
                    .append(&mut result.observations);
                self.losses.borrow_mut().append(&mut result.losses);
                if pass == Pass::Record {
                    self.shared.recorded.borrow_mut().insert(recorded);
                }
                self.shared
                    .summaries
                    .borrow_mut()
                    .insert(key, result.clone());
                result
            }
        };
        self.unfinished.borrow_mut().extend(&result.unfinished);
        let Some(exit) = result.exit else {
            return false;
        };
        // A name of the caller in a group the helper started holds what an earlier run made;
        // one in a group a field of the exit still has holds the field's object, which the
        // helper may have moved.
        self.started_groups
            .borrow_mut()
            .extend(result.started_groups.iter().copied());
        env.update_each(|var, value| {
            let Some(group) = value.alias else { return };
            if result.started_groups.contains(&group) {
                value.alias = None;
            } else if !self.shared.survives(var) {
                let moved = exit
                    .iter()
                    .find(|(v, held)| self.shared.survives(v) && held.alias == Some(group));
                if let Some((_, held)) = moved {
                    *value = held.clone();
                }
            }
        });
        // What the objects know of the helper's answer becomes what they know of the call's.
        let called = Var::Temp(expr.id);
        let carried = |value: &Value| {
            let mut value = value.clone();
            if value
                .facts
                .values()
                .any(|facts| facts.contains_key(&RETURNED))
            {
                value.rename_fact_vars(&mut |var: Var| {
                    if var == RETURNED {
                        called.clone()
                    } else {
                        var
                    }
                });
            }
            value
        };
        for (var, value) in &exit {
            if self.shared.survives(var) {
                env.insert(var.clone(), carried(value));
            }
        }
        let path_facts = Arc::make_mut(&mut env.facts);
        path_facts.retain(|var, _| !matches!(var, Var::Field(..)));
        for (var, values) in exit.facts.iter() {
            if matches!(var, Var::Field(..)) {
                path_facts.insert(var.clone(), values.clone());
            } else if *var == RETURNED {
                path_facts.insert(called.clone(), values.clone());
            }
        }
        for (param, arg) in &bound {
            if let Some(value) = exit.get(param) {
                env.insert(arg.clone(), carried(value));
            }
        }
        if let Some(returned) = result.returned {
            let place = returned.place.and_then(|place| {
                if self.shared.survives(&place) {
                    return Some(place);
                }
                bound
                    .iter()
                    .find(|(param, _)| *param == place)
                    .map(|(_, arg)| arg.clone())
            });
            let value = match place {
                Some(place) => {
                    let held = env.get(&place).cloned().unwrap_or(returned.value);
                    join_group(&place, expr.id, held, env, &self.started_groups)
                }
                None => {
                    let mut value = returned.value;
                    let shared_group = value.alias.is_some_and(|group| {
                        exit.iter()
                            .any(|(var, v)| self.shared.survives(var) && v.alias == Some(group))
                    });
                    if !shared_group {
                        value.alias = None;
                    }
                    value
                }
            };
            env.insert(Var::Temp(expr.id), value);
        }
        true
    }

    /// The private helper of the class that `call` calls, if it calls one.
    fn helper(&self, call: &Call) -> Option<Helper<'a>> {
        let receiver_is_this = match &call.receiver {
            None => true,
            Some(receiver) => matches!(receiver.kind, ExprKind::This(None)),
        };
        if !receiver_is_this {
            return None;
        }
        self.shared
            .helpers
            .get(&(self.class, call.name.as_str()))?
            .iter()
            .find(|h| h.method.params.len() == call.args.len())
            .copied()
    }

    /// The return summary of a helper's body, from the states entering its `return`s.
    fn returned(&self, cfg: &Cfg<'_>, solution: &Solution<FlowState>) -> Option<Returned> {
        let mut returns = Vec::new();
        for (index, node) in cfg.nodes.iter().enumerate() {
            let id = crate::cfg::NodeId(u32::try_from(index).unwrap_or(u32::MAX));
            let (NodeKind::Return(value), FlowState(Some(env))) =
                (node.kind, solution.state_at(id))
            else {
                continue;
            };
            let place = self.shared.places.var(value).cloned();
            let mut returned = self.eval(value, env, None);
            if let Some(returned) = &mut returned {
                returned.take_path_facts(&env.facts);
            }
            returns.push((value, place, returned));
        }
        let protocol = returns.iter().find_map(|(_, _, v)| v.as_ref())?.protocol;
        let first_place = returns.first().and_then(|(_, place, _)| place.clone());
        let same_place = returns.iter().all(|(_, place, _)| *place == first_place);
        let mut joined: Option<Value> = None;
        for (expr, _, value) in returns {
            let value = match value {
                Some(value) if value.protocol == protocol => value,
                Some(_) => Value::unknown(protocol),
                None if expr.kind == ExprKind::Null => Value::null(protocol),
                None => Value::unknown(protocol),
            };
            match &mut joined {
                Some(joined) => {
                    joined.join(&value);
                }
                None => joined = Some(value),
            }
        }
        Some(Returned {
            place: first_place.filter(|_| same_place),
            value: joined?,
        })
    }

    /// Whether one of `callins` posts an error callback in some state of `protocol`.
    fn may_post(&self, protocol: ProtocolId, callins: &[CallinId]) -> bool {
        let ts = self.shared.protocols.typestate(protocol);
        ts.state_ids().any(|state| {
            callins.iter().any(|&callin| {
                matches!(
                    ts.step(state, callin),
                    Step::Error {
                        failure: Failure::Posts(_),
                        ..
                    }
                )
            })
        })
    }

    /// Records what the call or close at `node` sees, given the state entering it.
    fn record(
        &self,
        node: &Node<'_>,
        env: &Env,
        mut caught: Vec<String>,
        guards: &[&Node<'_>],
        delivery: &dyn Fn(ProtocolId, Option<&Var>) -> Delivery,
    ) {
        caught.extend(self.outer_caught.iter().cloned());
        let places = self.shared.places;
        // A guard is resolved for the object when the analysis refined it there: a null
        // check of its name, or a test of one of its observers.
        let unresolved = |var: Option<&Var>| {
            guards.iter().any(|guard| {
                let NodeKind::Branch(cond) = guard.kind else {
                    return true;
                };
                let tested = cond
                    .null_check()
                    .map(|(tested, _)| tested)
                    .or_else(|| observer_test(cond).and_then(|t| t.call.receiver.as_deref()));
                var.is_none() || tested.and_then(|t| places.var(t)) != var
            })
        };
        // The search for a delivery runs only for a call that may post an error.
        let posted_delivery = |receiver: &Receiver, callins: &[CallinId]| {
            if self.may_post(receiver.value.protocol, callins) {
                delivery(receiver.value.protocol, receiver.var.as_ref())
            } else {
                Delivery::Delivered
            }
        };
        let observation = match node.kind {
            NodeKind::Call(expr) => {
                let ExprKind::Call(call) = &expr.kind else {
                    return;
                };
                let Some(receiver) = self.receiver(expr, call, env) else {
                    let mut env = env.clone();
                    self.helper_call(expr, call, &mut env, Pass::Record, &caught);
                    return;
                };
                let callins = self.shared.protocols.callins(
                    receiver.value.protocol,
                    &call.name,
                    call.args.len(),
                );
                if callins.is_empty() {
                    let mut env = env.clone();
                    self.helper_call(expr, call, &mut env, Pass::Record, &caught);
                }
                let delivery = posted_delivery(&receiver, &callins);
                Observation {
                    span: call.name_span,
                    method: call.name.clone(),
                    receiver: receiver.text,
                    receiver_span: call.receiver.as_ref().map(|r| r.span),
                    guarded: unresolved(receiver.var.as_ref()),
                    delivery,
                    callins,
                    value: receiver.value,
                    caught,
                }
            }
            NodeKind::Close(target) => {
                let Some((receiver, span)) = self.close_receiver(target, env) else {
                    return;
                };
                let callins = self
                    .shared
                    .protocols
                    .callins(receiver.value.protocol, "close", 0);
                let delivery = posted_delivery(&receiver, &callins);
                Observation {
                    span,
                    method: "close".to_owned(),
                    receiver: receiver.text,
                    receiver_span: None,
                    guarded: unresolved(receiver.var.as_ref()),
                    delivery,
                    callins,
                    value: receiver.value,
                    caught,
                }
            }
            _ => return,
        };
        self.observations.borrow_mut().push(observation);
    }
}

/// The exception types the `catch` clauses that an exception thrown at `id` reaches catch:
/// the innermost `try`'s, and those of enclosing ones it is rethrown to (through joins).
fn caught_at(cfg: &Cfg<'_>, id: crate::cfg::NodeId) -> Vec<String> {
    let mut caught = Vec::new();
    let mut seen = BTreeSet::new();
    let mut stack: Vec<crate::cfg::NodeId> = cfg
        .node(id)
        .succs
        .iter()
        .filter(|(_, edge)| *edge == EdgeKind::Exception)
        .map(|(succ, _)| *succ)
        .collect();
    while let Some(next) = stack.pop() {
        if !seen.insert(next.0) {
            continue;
        }
        match cfg.node(next).kind {
            NodeKind::Catch(catch) => {
                caught.extend(catch.types.iter().map(|ty| ty.simple_name().to_owned()));
            }
            NodeKind::Join => stack.extend(cfg.node(next).succs.iter().map(|(succ, _)| *succ)),
            _ => {}
        }
    }
    caught
}

/// A branch condition that tests what a call returned: `call`, `!call` (the CFG splits `!`),
/// `call == X` or `call != X` for `X` a boolean, `null` or a constant's name, or `call > 0`
/// and the other comparisons with an integer literal.
struct ObserverTest<'e> {
    call: &'e Call,
    asks: Asks,
}

/// What an [`ObserverTest`] asks of the answer.
enum Asks {
    /// Whether it equals `compared` (`equal`: `==`, or a bare call) or not.
    Equals { compared: Answer, equal: bool },
    /// Whether it compares with the integer `bound` as `op` says (`getCount() > 0`).
    Compares { op: BinaryOp, bound: i64 },
}

impl Asks {
    /// Whether a call answering `answer` may take the `holds` edge of the condition.
    fn may_pass(&self, answer: &Answer, holds: bool) -> bool {
        match self {
            Asks::Equals { compared, equal } => answer.equals(compared) != Some(*equal != holds),
            Asks::Compares { op, bound } => {
                let op = if holds { *op } else { negated(*op) };
                answer_facts(answer).iter().any(|fact| match fact {
                    Fact::Sign(sign) => sign.may_compare(op, *bound),
                    _ => true,
                })
            }
        }
    }
}

fn observer_test(cond: &Expr) -> Option<ObserverTest<'_>> {
    match &cond.kind {
        ExprKind::Call(call) => Some(ObserverTest {
            call,
            asks: Asks::Equals {
                compared: Answer::True,
                equal: true,
            },
        }),
        ExprKind::Binary { op, lhs, rhs } => {
            match (&lhs.kind, &rhs.kind) {
                (ExprKind::Call(call), ExprKind::Int(bound)) if op.is_comparison() => {
                    return Some(ObserverTest {
                        call,
                        asks: Asks::Compares {
                            op: *op,
                            bound: *bound,
                        },
                    });
                }
                (ExprKind::Int(bound), ExprKind::Call(call)) if op.is_comparison() => {
                    return Some(ObserverTest {
                        call,
                        asks: Asks::Compares {
                            op: swapped(*op),
                            bound: *bound,
                        },
                    });
                }
                _ => {}
            }
            let equal = match op {
                BinaryOp::Eq => true,
                BinaryOp::Ne => false,
                _ => return None,
            };
            let (call, other) = match (&lhs.kind, &rhs.kind) {
                (ExprKind::Call(call), _) => (call, rhs),
                (_, ExprKind::Call(call)) => (call, lhs),
                _ => return None,
            };
            let compared = match constant(other)? {
                Fact::Bool(true) => Answer::True,
                Fact::Bool(false) => Answer::False,
                Fact::Null => Answer::Null,
                Fact::NonNull => Answer::NonNull,
                Fact::Const(name) => Answer::Constant(name),
                Fact::Sign(_) => return None,
            };
            Some(ObserverTest {
                call,
                asks: Asks::Equals { compared, equal },
            })
        }
        _ => None,
    }
}

/// The receiver as written, for messages (`player`, `this.player`, `it`).
pub(crate) fn receiver_text(expr: &Expr) -> String {
    match &expr.kind {
        ExprKind::This(_) => "this".to_owned(),
        _ => expr
            .dotted_name()
            .or_else(|| match &expr.kind {
                ExprKind::Field { receiver, name, .. }
                    if matches!(receiver.kind, ExprKind::This(_)) =>
                {
                    Some(format!("this.{name}"))
                }
                _ => None,
            })
            .unwrap_or_else(|| "the object".to_owned()),
    }
}

/// The value of a field initializer, `expr`, for a field of protocol `expected`.
pub fn eval_initializer(
    shared: &Shared<'_, '_>,
    class: &str,
    expr: &Expr,
    expected: Option<ProtocolId>,
) -> Option<Value> {
    let analysis = BodyAnalysis {
        shared,
        class,
        entry: Env::new(),
        depth: 0,
        started_groups: RefCell::default(),
        observations: RefCell::default(),
        losses: RefCell::default(),
        unfinished: RefCell::default(),
        outer_caught: Vec::new(),
    };
    analysis.eval(expr, &Env::new(), expected)
}

#[cfg(test)]
mod tests {
    use super::*;

    thread_local! {
        /// The nodes the delivery searches of this thread expanded ([`delivery`]).
        pub(super) static EXPANDED: Cell<usize> = const { Cell::new(0) };
    }

    /// Each of `n` fields started once in one method, as `bench/scale/families.py java-fields`.
    fn fields_started_once(n: usize) -> String {
        let mut fields = String::new();
        let mut calls = String::new();
        for i in 0..n {
            fields += &format!("MediaPlayer f{i} = new MediaPlayer();\n");
            calls += &format!("f{i}.start();\n");
        }
        let class = "class A extends android.app.Activity";
        format!("import android.media.MediaPlayer;\n{class} {{\n{fields}void onStart() {{\n{calls}}} }}\n")
    }

    /// The delivery search of each of many objects, each called once in one long method, is
    /// answered by the path every object shares ([`Paths`]): each search walked the rest of
    /// the method before, quadratic in the objects (`java-fields` of `bench/scale`).
    #[test]
    fn objects_called_once_share_their_path_to_the_exit() {
        let n = 60;
        let text = fields_started_once(n);
        let file = crate::SourceFile::from_bytes(std::path::Path::new("A.java"), text.into_bytes())
            .expect("UTF-8");
        let library = typestates::library::Library::bundled();
        EXPANDED.with(|expanded| expanded.set(0));
        let result = crate::check(&library, &file, &crate::CheckConfig::default());
        // Every `start()` may post onError() to a client that outlives the method.
        let posted = (result.violations.iter())
            .filter(|v| v.posted.is_some())
            .count();
        assert_eq!(posted, n);
        assert_eq!(EXPANDED.with(Cell::get), 0, "nodes searched per object");
    }

    /// A flag named `name`.
    fn flag(name: &str) -> Var {
        Var::Field("A".to_owned(), name.to_owned())
    }

    /// An object in state 0, in alias group `alias`, whose state knows `flags` to be true.
    fn object(alias: Option<u32>, flags: &[&str]) -> Value {
        let mut value = Value::fresh(ProtocolId(0), &[StateId(0)], Cause::Quiet);
        value.alias = alias.map(ExprId);
        if !flags.is_empty() {
            let facts = (flags.iter())
                .map(|name| (flag(name), BTreeSet::from([Fact::Bool(true)])))
                .collect();
            value.facts.insert(StateId(0), facts);
        }
        value
    }

    /// Fails unless the indexes of `env` are what filing its objects afresh gives.
    fn assert_indexed(env: &Env, step: &str) {
        let fresh: Env = env
            .iter()
            .map(|(v, value)| (v.clone(), value.clone()))
            .collect();
        assert_eq!(env.groups, fresh.groups, "groups after {step}");
        assert_eq!(env.knowers, fresh.knowers, "knowers after {step}");
    }

    #[test]
    fn the_indexes_follow_every_change() {
        let local = |i: u32| Var::Local(LocalId(i));
        let mut env: Env = (0..6)
            .map(|i| (local(i), object(Some(i % 2), &[["a", "b"][i as usize % 2]])))
            .collect();
        assert_indexed(&env, "collect");
        assert_eq!(env.group(ExprId(0)).len(), 3);
        assert_eq!(env.knowing(|f| *f == flag("b")).len(), 3);
        env.insert(local(0), object(Some(7), &["c"]));
        assert_indexed(&env, "insert over a name");
        env.insert(local(9), object(None, &[]));
        assert_indexed(&env, "insert of a new name");
        if let Some(mut value) = env.get_mut(&local(1)) {
            value.alias = None;
            value.facts.clear();
        }
        assert_indexed(&env, "get_mut");
        env.remove(&local(2));
        assert_indexed(&env, "remove");
        env.update_some(env.group(ExprId(1)), |_, value| {
            value.alias = Some(ExprId(0))
        });
        assert_indexed(&env, "update_some");
        forget_facts(&mut env, |f| *f == flag("a"));
        assert_indexed(&env, "forget_facts");
        assert!(env.knowing(|f| *f == flag("a")).is_empty());
        env.rename_vars(&mut |var: Var| match var {
            Var::Local(LocalId(i)) => local(i + 100),
            other => other,
        });
        assert_indexed(&env, "rename_vars");
        let mut other = env.clone();
        other.insert(local(103), object(Some(3), &["d"]));
        other.remove(&local(104));
        let mut joined = FlowState(Some(env));
        joined.join(&FlowState(Some(other)));
        assert_indexed(joined.0.as_ref().expect("reached"), "join");
    }

    /// Joining two states that differ in one object of many leaves the others shared, not
    /// copied (fuzz finding F9: the state at every program point held a copy of every object).
    #[test]
    fn a_join_copies_only_the_objects_that_differ() {
        let mine: Env = (0..1000)
            .map(|i| (Var::Local(LocalId(i)), object(None, &[])))
            .collect();
        let mut theirs = mine.clone();
        let mut moved = object(Some(1), &["a"]);
        moved.states = BTreeMap::from([(StateId(1), BTreeSet::new())]);
        theirs.insert(Var::Local(LocalId(500)), moved);
        let mut joined = FlowState(Some(mine.clone()));
        assert!(joined.join(&FlowState(Some(theirs))));
        let joined = joined.0.expect("reached");
        let copied: Vec<&Var> = (joined.iter())
            .filter(|(var, value)| !Arc::ptr_eq(&value.0, &mine.get(*var).expect("in mine").0))
            .map(|(var, _)| var)
            .collect();
        assert_eq!(copied, [&Var::Local(LocalId(500))]);
    }
}
