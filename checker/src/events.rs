//! The event model of a class: in which order its code may run, and so the state each body starts from.
//!
//! [`solve`] takes a [`ClassModel`] (the class, its state after construction) and returns an [`Event`] per body with its entry state.
//! It runs bodies through a [`Runner`]: [`Fresh`] analyses each ([`analyze_body`]); the incremental checker may answer from its last check.
//! The check then runs each event once more from its entry state to record what its calls see.
//!
//! The graph:
//! - A [`Component`] has a lifecycle, one table of edges each (`ACTIVITY`, `FRAGMENT`, `SERVICE`, `PLAIN`).
//! - The hub `*` is where handlers run: any number of times, in any order, while the component is resumed.
//! - A plain class goes from construction straight to the hub.
//! - Construction counts only the paths that return: a constructor that throws leaves no object.
//! - A method may end a plain object: a field kept from construction is then in a final state ([`ends_object`]).
//!   When only code outside the project calls that method, what it calls after is its own misuse.
//!   So only the class's own code runs after the end: deferred code and private methods ([`Hub`]).
//! - Handlers (`handlers`): methods others may call, methods named by references, lambdas and anonymous listeners.
//! - Private methods the class calls itself are helpers, analysed at their call sites, not events.
//! - A driven method ([`ClassModel::driven`], from `clients.rs`) starts from unknown field states.
//! - A last method ([`ClassModel::last`]) runs from the hub; its exit leads to no other event.
//!
//! Time and callbacks:
//! - Time passes between two events, never inside one: fields move by the protocol's wait outcomes.
//! - A listener on a field runs inside those waits when the field emits its callback (`Waits::settle`).
//! - It runs only where its registering call ran on that path ([`crate::typestate_flow::ValueData::listeners`]).
//! - Its effect is what the next event sees: `mp.start()` in `onPrepared` leaves the field Started.
//! - Listeners on locals, and methods that receive a callback, are handlers from the callback's target states (`handler_entry`).
//! - An override of the object's own callback (`onPostExecute`) runs with `this` in the callback's target states.
//! - Locals captured by deferred code survive from one event to the next, like fields (`object_state`).
//!
//! To extend:
//! - A new kind of component: a row in `BASES` and a table of lifecycle edges in [`Component::edges`].
//! - A new way to register a listener: teach `places.rs` to find it ([`Registration`]); `handler_entry` narrows from there.
//! - A new kind of event code: a variant of [`EventCode`], listed by `handlers`.
//! - Add a fixture under `tests/fixtures/java/checks/` (`Components.java`, `Listeners.java`) with a true positive and a near miss.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::cell::{Cell, RefCell};

use typestates::model::{CallbackId, WaitOutcome};

use crate::flow::Lattice;
use crate::ir::{Body, Class, ExprId, Method, MethodKind, SourceIr};
use crate::places::{Deferred, Registration, Var};
use crate::protocols::{ProtocolId, Protocols};
use crate::resolve::Resolution;
use crate::typestate_flow::{
    analyze_body, BodyResult, Cause, Env, Facts, FlowState, Pass, Shared, Value,
};

/// The name of the hub where event handlers run (the resumed state of a component).
const HANDLERS: &str = "*";
/// Where the event graph starts: after construction.
const INIT: &str = "<init>";

/// Rounds of each fixpoint of the event model before it stops ([`Rounds::Cut`]).
/// The lattice is finite, but its height grows with the tracked fields:
/// a handler that moves an object one field down a chain per run needs a round per field.
const MAX_ROUNDS: usize = 24;

/// Whether the fixpoints of an event model settled within [`MAX_ROUNDS`] rounds each.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Rounds {
    /// Each reached a round that changed nothing.
    #[default]
    Settled,
    /// One still changed in its last round: the entry states may lack what more rounds add.
    Cut,
}

impl Rounds {
    /// Notes the outcome of one more fixpoint.
    fn join(&mut self, other: Rounds) {
        if other == Rounds::Cut {
            *self = Rounds::Cut;
        }
    }
}

/// Runs `round` until it reports no change, at most [`MAX_ROUNDS`] times, or until the
/// time limit ([`Shared::out_of_time`]), which the check reports for the whole file.
fn until_settled(shared: &Shared<'_, '_>, mut round: impl FnMut() -> bool) -> Rounds {
    for _ in 0..MAX_ROUNDS {
        if shared.out_of_time() || !round() {
            return Rounds::Settled;
        }
    }
    Rounds::Cut
}

/// What kind of component a class is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Component {
    /// An `android.app.Activity` (or AndroidX) subclass.
    Activity,
    /// A Fragment.
    Fragment,
    /// A Service.
    Service,
    /// Any other class: handlers run in any order after construction.
    Plain,
}

const ACTIVITY: &[(&str, &str)] = &[
    (INIT, "onCreate"),
    ("onCreate", "onStart"),
    ("onStart", "onResume"),
    ("onResume", HANDLERS),
    (HANDLERS, "onPause"),
    ("onPause", "onResume"),
    ("onPause", "onStop"),
    ("onStop", "onRestart"),
    ("onRestart", "onStart"),
    ("onStop", "onDestroy"),
];

const FRAGMENT: &[(&str, &str)] = &[
    (INIT, "onAttach"),
    ("onAttach", "onCreate"),
    ("onCreate", "onCreateView"),
    ("onCreateView", "onViewCreated"),
    ("onViewCreated", "onActivityCreated"),
    ("onActivityCreated", "onStart"),
    ("onStart", "onResume"),
    ("onResume", HANDLERS),
    (HANDLERS, "onPause"),
    ("onPause", "onResume"),
    ("onPause", "onStop"),
    ("onStop", "onStart"),
    ("onStop", "onDestroyView"),
    ("onDestroyView", "onCreateView"),
    ("onDestroyView", "onDestroy"),
    ("onDestroy", "onDetach"),
];

const SERVICE: &[(&str, &str)] = &[
    (INIT, "onCreate"),
    ("onCreate", HANDLERS),
    (HANDLERS, "onDestroy"),
];

const PLAIN: &[(&str, &str)] = &[(INIT, HANDLERS)];

const BASES: &[(&str, Component)] = &[
    ("android.app.Activity", Component::Activity),
    ("android.app.Fragment", Component::Fragment),
    ("androidx.fragment.app.Fragment", Component::Fragment),
    ("android.support.v4.app.Fragment", Component::Fragment),
    ("android.app.Service", Component::Service),
];

impl Component {
    /// The kind of component the class `fqn` is.
    pub fn of(protocols: &Protocols<'_>, fqn: &str) -> Component {
        BASES
            .iter()
            .find(|(base, _)| protocols.is_subtype(fqn, base))
            .map_or(Component::Plain, |(_, kind)| *kind)
    }

    fn edges(self) -> &'static [(&'static str, &'static str)] {
        match self {
            Component::Activity => ACTIVITY,
            Component::Fragment => FRAGMENT,
            Component::Service => SERVICE,
            Component::Plain => PLAIN,
        }
    }

    /// The last lifecycle method, after which the component is gone (none for plain classes,
    /// which have no end).
    pub fn last(self) -> Option<&'static str> {
        match self {
            Component::Activity | Component::Service => Some("onDestroy"),
            Component::Fragment => Some("onDetach"),
            Component::Plain => None,
        }
    }

    /// Whether `name` is one of the lifecycle methods of this kind of component.
    pub fn is_lifecycle(self, name: &str) -> bool {
        self.edges()
            .iter()
            .any(|(from, to)| *from == name || *to == name)
    }
}

/// How a check runs one body as an event: [`Fresh`] analyses it; the incremental checker's
/// layer (`incremental/body_memo.rs`) may answer with a result it kept from the last check.
pub(crate) trait Runner {
    /// Called once per check, before any run, with the IR analysed and its resolution.
    fn start(&mut self, _ir: &SourceIr, _res: &Resolution) {}

    /// The result of `body` of class `class` run as an event from `entry` in `pass`: that of
    /// [`analyze_body`] at depth 0.
    fn run<'a>(
        &self,
        shared: &Shared<'a, '_>,
        class: &str,
        body: &'a Body,
        entry: Env,
        pass: Pass,
    ) -> BodyResult {
        analyze_body(shared, class, body, entry, pass, 0)
    }
}

/// The [`Runner`] that analyses every body.
pub(crate) struct Fresh;

impl Runner for Fresh {}

/// One piece of code that runs as an event, with the state it starts from.
pub struct Event<'a> {
    /// The code.
    pub code: EventCode<'a>,
    /// The tracked fields (and `this`) when it starts; locals and parameters added for
    /// listener parameters.
    pub entry: Env,
}

/// The code an [`Event`] runs.
#[derive(Clone, Copy)]
pub enum EventCode<'a> {
    /// A method of the class.
    Method(&'a Method),
    /// A lambda or an anonymous class method.
    Deferred(Deferred<'a>),
}

/// The class being modelled.
pub struct ClassModel<'a> {
    /// The class.
    pub class: &'a Class,
    /// Its fully qualified name.
    pub fqn: &'a str,
    /// The state after construction.
    pub init: Env,
    /// The methods its clients drive ([`crate::clients::Order::Driven`]): each is checked from
    /// an unknown state of the fields, so only what goes wrong within one call is found there.
    /// Their effects still reach the other events, which may run after any of them.
    pub driven: HashSet<&'a str>,
    /// The methods after which its clients call nothing on the object
    /// ([`crate::clients::Order::Last`]): they run from the hub, and nothing runs after them.
    pub last: HashSet<&'a str>,
}

impl ClassModel<'_> {
    /// The entry state `code` is checked from: for a driven method, `entry` with the fields
    /// forgotten.
    fn entry_of(&self, code: EventCode<'_>, mut entry: Env) -> Env {
        if let EventCode::Method(method) = code {
            if self.driven.contains(method.name.as_str()) {
                entry.update_each(|var, value| {
                    if matches!(var, Var::Field(class, _) if class == self.fqn) {
                        let null = value.null;
                        value.havoc();
                        value.forgotten = false;
                        value.null = null;
                    }
                });
            }
        }
        entry
    }
}

/// What [`solve`] finds of a class.
pub struct Solved<'a> {
    /// Every event, with the state it starts from.
    pub events: Vec<Event<'a>>,
    /// The state in which each point of the lifecycle is left (`onPause`, the hub `*`), in
    /// the order of the component's edges.
    pub returns: Vec<(&'static str, Env)>,
    /// The last point of the lifecycle, if the component has one (`onDestroy`).
    pub last: Option<&'static str>,
    /// Whether the entry states are a fixpoint.
    pub rounds: Rounds,
}

/// Computes the entry state of every event of `model`: lifecycle methods, handlers and
/// deferred code, running bodies through `runner`.
pub(crate) fn solve<'a>(
    shared: &Shared<'a, '_>,
    model: &ClassModel<'a>,
    runner: &dyn Runner,
) -> Solved<'a> {
    let kind = Component::of(shared.protocols, model.fqn);
    let (listeners, handlers): (Vec<_>, Vec<_>) = handlers(shared, model, kind)
        .into_iter()
        .map(|code| (field_listener(shared, code), code))
        .partition(|(listener, _)| listener.is_some());
    let listeners: Vec<FieldListener<'a>> = listeners.into_iter().filter_map(|(l, _)| l).collect();
    let waits = Waits {
        fired: RefCell::new(vec![FlowState::bottom(); listeners.len()]),
        listeners,
        rounds: Cell::default(),
    };
    let handlers: Vec<EventCode<'a>> = handlers.into_iter().map(|(_, code)| code).collect();
    let after_wait = |env: &Env| waits.settle(shared, model, runner, env);
    let mut inputs: HashMap<&str, FlowState> = HashMap::default();
    let mut outputs: HashMap<&str, FlowState> = HashMap::default();
    outputs.insert(INIT, FlowState(Some(model.init.clone())));
    let mut ended = FlowState::bottom();
    let mut rounds = until_settled(shared, || {
        let mut changed = false;
        for &(_, node) in kind.edges() {
            let mut input = FlowState::bottom();
            for &(from, to) in kind.edges() {
                if to == node {
                    if let Some(FlowState(Some(out))) = outputs.get(from) {
                        input.join(&FlowState(Some(after_wait(out))));
                    }
                }
            }
            let Some(entry) = input.0.clone() else {
                continue;
            };
            // A node runs the same from the same input (the waits' listener states it joins
            // into are joined again to no effect), and its last output is already part of
            // `outputs`: run it again only when its input grew.
            if inputs.get(node) == Some(&input) {
                continue;
            }
            let out = if node == HANDLERS {
                let (hub, hub_rounds) =
                    run_handlers(shared, model, runner, &handlers, &after_wait, entry);
                waits.note(hub_rounds);
                ended.join(&hub.ended);
                hub.open.0.unwrap_or_default()
            } else {
                run_method(shared, model, runner, node, entry)
            };
            inputs.insert(node, input);
            changed = true;
            outputs
                .entry(node)
                .or_insert_with(FlowState::bottom)
                .join(&FlowState(Some(out)));
        }
        changed
    });
    let mut events = Vec::new();
    for &(_, node) in kind.edges() {
        let Some(FlowState(Some(entry))) = inputs.get(node) else {
            continue;
        };
        if node == HANDLERS {
            let open = outputs.get(HANDLERS).and_then(|s| s.0.clone());
            let hub = Hub {
                open: FlowState(Some(open.unwrap_or_else(|| entry.clone()))),
                ended: ended.clone(),
            };
            for h in &handlers {
                let Some(from) = hub.entry_of(*h).0 else {
                    continue;
                };
                let entry = handler_entry(shared, *h, &after_wait(&from));
                events.push(Event {
                    code: *h,
                    entry: model.entry_of(*h, entry),
                });
            }
        } else if !events_contain(&events, node) {
            if let Some(method) = lifecycle_method(model.class, node) {
                events.push(Event {
                    code: EventCode::Method(method),
                    entry: entry.clone(),
                });
            }
        }
    }
    let mut returns: Vec<(&'static str, Env)> = Vec::new();
    for &(_, node) in kind.edges() {
        if let Some(FlowState(Some(out))) = outputs.get(node) {
            if !returns.iter().any(|(seen, _)| *seen == node) {
                returns.push((node, out.clone()));
            }
        }
    }
    for (listener, entry) in waits.listeners.iter().zip(waits.fired.into_inner()) {
        if let FlowState(Some(entry)) = entry {
            events.push(Event {
                code: EventCode::Deferred(listener.code),
                entry,
            });
        }
    }
    rounds.join(waits.rounds.get());
    Solved {
        events,
        returns,
        last: kind.last(),
        rounds,
    }
}

/// A listener registered on a field (or on the object itself) of the class.
struct FieldListener<'a> {
    code: Deferred<'a>,
    var: Var,
    /// The registering call.
    site: ExprId,
    /// The registering method (`setOnPreparedListener`).
    via: &'a str,
    callbacks: Vec<CallbackId>,
}

/// The listeners that run inside waits, and the states each was run from.
struct Waits<'a> {
    listeners: Vec<FieldListener<'a>>,
    /// Per listener, the join of its entry states over every wait that ran it.
    fired: RefCell<Vec<FlowState>>,
    /// Whether a fixpoint of the model stopped at its cap: these waits' own, or the hub's.
    rounds: Cell<Rounds>,
}

impl<'a> Waits<'a> {
    /// Notes the outcome of one fixpoint of the model ([`Waits::rounds`]).
    fn note(&self, rounds: Rounds) {
        let mut all = self.rounds.get();
        all.join(rounds);
        self.rounds.set(all);
    }

    /// `env` after time passes: callbacks and quiet moves, and the listeners of the callbacks
    /// that arrive on fields, to a fixpoint.
    fn settle(
        &self,
        shared: &Shared<'a, '_>,
        model: &ClassModel<'_>,
        runner: &dyn Runner,
        env: &Env,
    ) -> Env {
        if self.listeners.is_empty() {
            return after_wait(shared, env);
        }
        // A callback whose listener is registered on every path runs it instead of its plain
        // effect.
        let handled = |var: &Var| -> Vec<(&str, &[CallbackId])> {
            self.listeners
                .iter()
                .filter(|l| &l.var == var)
                .map(|l| (l.via, l.callbacks.as_slice()))
                .collect()
        };
        let close = |env: &Env| -> Env {
            let mut closed: Env = env
                .iter()
                .map(|(var, value)| {
                    let value = value.after_wait_except(shared.protocols, &handled(var));
                    (var.clone(), value)
                })
                .collect();
            closed.facts = env.facts.clone();
            closed
        };
        let mut state = FlowState(Some(close(env)));
        let rounds = until_settled(shared, || {
            let Some(current) = state.0.clone() else {
                return false;
            };
            let mut changed = false;
            for (index, listener) in self.listeners.iter().enumerate() {
                let Some(value) = current.get(&listener.var) else {
                    continue;
                };
                let ts = shared.protocols.typestate(value.protocol);
                let fires = value.states.keys().any(|s| {
                    value.may_be_registered(listener.site, *s)
                        && matches!(&ts.state(*s).on_wait,
                        WaitOutcome::Callback { callback, .. } if listener.callbacks.contains(callback))
                });
                if !fires {
                    continue;
                }
                let code = EventCode::Deferred(listener.code);
                let entry = handler_entry(shared, code, &current);
                if let Some(fired) = self.fired.borrow_mut().get_mut(index) {
                    fired.join(&FlowState(Some(entry.clone())));
                }
                let param = listener_param(shared, listener.code);
                let Some(mut exit) = runner
                    .run(
                        shared,
                        model.fqn,
                        listener.code.body,
                        entry.clone(),
                        Pass::Fixpoint,
                    )
                    .exit
                else {
                    continue;
                };
                // The parameter is the field's object: its final state is the field's, unless
                // the body assigned the field.
                if let Some(mut after) = param.and_then(|p| exit.get(&p)).cloned() {
                    let held = exit.get(&listener.var);
                    if let Some(held) = held.filter(|held| Some(*held) == entry.get(&listener.var))
                    {
                        after.listeners = held.listeners.clone();
                        exit.insert(listener.var.clone(), after);
                    }
                }
                changed |= state.join(&FlowState(Some(close(&object_state(shared, &exit)))));
            }
            changed
        });
        self.note(rounds);
        state.0.unwrap_or_default()
    }
}

/// The local a listener's first parameter (or Kotlin's implicit `it`) is.
fn listener_param(shared: &Shared<'_, '_>, deferred: Deferred<'_>) -> Option<Var> {
    let at = deferred
        .params
        .first()
        .map_or(deferred.body.span.start_byte, |p| p.span.start_byte);
    shared.res.declared_at(at).map(Var::Local)
}

/// `code` as a listener registered on a field or on the object itself, if it is one.
fn field_listener<'a>(shared: &Shared<'a, '_>, code: EventCode<'a>) -> Option<FieldListener<'a>> {
    let EventCode::Deferred(deferred) = code else {
        return None;
    };
    let registration = deferred.registration?;
    let var = shared.places.var(registration.receiver?)?;
    if !matches!(var, Var::Field(..) | Var::This(_)) {
        return None;
    }
    let protocol = shared.protocol_of_var(var)?;
    let callbacks = listened_callbacks(shared.protocols, protocol, deferred, registration);
    (!callbacks.is_empty()).then(|| FieldListener {
        code: deferred,
        var: var.clone(),
        site: registration.site,
        via: &registration.call.name,
        callbacks,
    })
}

/// The callbacks of `protocol` that `deferred`, registered by `registration`, listens to:
/// those its registering method registers, and for an anonymous class method only those
/// delivered to that method.
fn listened_callbacks(
    protocols: &Protocols<'_>,
    protocol: ProtocolId,
    deferred: Deferred<'_>,
    registration: Registration<'_>,
) -> Vec<CallbackId> {
    protocols
        .callbacks_registered_by(protocol, &registration.call.name)
        .into_iter()
        .filter(|cb| {
            deferred
                .method
                .is_none_or(|m| protocols.listener_method(protocol, *cb) == m)
        })
        .collect()
}

fn events_contain(events: &[Event<'_>], name: &str) -> bool {
    events
        .iter()
        .any(|e| matches!(e.code, EventCode::Method(m) if m.name == name))
}

/// The instance method named `name` with a body, if the class declares one.
fn lifecycle_method<'a>(class: &'a Class, name: &str) -> Option<&'a Method> {
    class
        .methods
        .iter()
        .find(|m| m.name == name && m.body.is_some() && !m.modifiers.is_static)
}

/// Runs the lifecycle method `name` (or nothing, if the class does not declare it).
fn run_method<'a>(
    shared: &Shared<'a, '_>,
    model: &ClassModel<'a>,
    runner: &dyn Runner,
    name: &str,
    entry: Env,
) -> Env {
    match lifecycle_method(model.class, name).and_then(|m| m.body.as_ref()) {
        Some(body) => {
            let exit = runner
                .run(shared, model.fqn, body, entry, Pass::Fixpoint)
                .exit;
            exit.map(|env| object_state(shared, &env))
                .unwrap_or_default()
        }
        None => entry,
    }
}

/// The hub's state after its handlers ran any number of times.
struct Hub {
    /// Where every handler may run next.
    open: FlowState,
    /// Where only the class's own code runs: after a method ended the object ([`ends_object`]).
    /// Its clients call nothing more, but callbacks already registered still arrive.
    /// They may call its private methods.
    ended: FlowState,
}

impl Hub {
    /// The state `handler` may start from.
    fn entry_of(&self, handler: EventCode<'_>) -> FlowState {
        let mut entry = self.open.clone();
        if runs_after_end(handler) {
            entry.join(&self.ended);
        }
        entry
    }
}

/// Whether `handler` may run after its object ended: all but the methods clients call.
fn runs_after_end(handler: EventCode<'_>) -> bool {
    match handler {
        EventCode::Method(method) => method.modifiers.is_private,
        EventCode::Deferred(_) => true,
    }
}

/// Which part of the [`Hub`] a state belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Side {
    Open,
    Ended,
}

/// Runs the handlers any number of times from `entry`; says whether that settled.
fn run_handlers<'a>(
    shared: &Shared<'a, '_>,
    model: &ClassModel<'_>,
    runner: &dyn Runner,
    handlers: &[EventCode<'a>],
    after_wait: &dyn Fn(&Env) -> Env,
    entry: Env,
) -> (Hub, Rounds) {
    let plain = Component::of(shared.protocols, model.fqn) == Component::Plain;
    let mut hub = Hub {
        open: FlowState(Some(entry)),
        ended: FlowState::bottom(),
    };
    let rounds = until_settled(shared, || {
        let mut changed = false;
        for handler in handlers {
            let body = match handler {
                EventCode::Method(method) => method.body.as_ref(),
                EventCode::Deferred(deferred) => Some(deferred.body),
            };
            let Some(body) = body else { continue };
            if matches!(handler, EventCode::Method(m) if model.last.contains(m.name.as_str())) {
                continue;
            }
            // Deferred code runs apart from the ended states, so that what it leaves there
            // stays out of reach of the methods.
            let starts = [(&hub.open, Side::Open), (&hub.ended, Side::Ended)];
            let mut exits: Vec<(Env, Side)> = Vec::new();
            for (from, side) in starts {
                let FlowState(Some(current)) = from else {
                    continue;
                };
                if side == Side::Ended && !runs_after_end(*handler) {
                    continue;
                }
                let entry = handler_entry(shared, *handler, &after_wait(current));
                let exit = runner
                    .run(shared, model.fqn, body, entry, Pass::Fixpoint)
                    .exit;
                if let Some(exit) = exit {
                    let exit = without_own_copies(shared, *handler, exit, current);
                    let ends = plain
                        && matches!(handler, EventCode::Method(m)
                            if !m.modifiers.is_private
                                && shared.clients.ends_for_callers(model.fqn, &m.name))
                        && ends_object(shared, model, &exit);
                    let side = if ends { Side::Ended } else { side };
                    exits.push((object_state(shared, &exit), side));
                }
            }
            for (exit, side) in exits {
                let into = match side {
                    Side::Open => &mut hub.open,
                    Side::Ended => &mut hub.ended,
                };
                changed |= into.join(&FlowState(Some(exit)));
            }
        }
        changed
    });
    (hub, rounds)
}

/// `exit` of deferred code that runs once per creation, with the locals it alone captures as
/// they were before it ran: each creation has its own copy, which no later run sees
/// ([`crate::once`]).
fn without_own_copies(
    shared: &Shared<'_, '_>,
    handler: EventCode<'_>,
    mut exit: Env,
    before: &Env,
) -> Env {
    let EventCode::Deferred(deferred) = handler else {
        return exit;
    };
    let Some(locals) = shared.once_captured.get(&deferred.body.span.start_byte) else {
        return exit;
    };
    let mut facts = (*exit.facts).clone();
    for local in locals {
        let var = Var::Local(*local);
        match before.get(&var) {
            Some(value) => exit.insert(var.clone(), value.clone()),
            None => exit.remove(&var),
        };
        match before.facts.get(&var) {
            Some(known) => facts.insert(var, known.clone()),
            None => facts.remove(&var),
        };
    }
    exit.facts = facts.into();
    exit
}

/// Whether a method of a plain class that left `exit` ended its object.
/// It did when a field that keeps what construction gave it is in final states only (`End` after `release()`).
/// The object can do nothing more, so nothing its clients call after counts.
/// What they call then is their misuse of the class, as a call after `release()` would be.
fn ends_object(shared: &Shared<'_, '_>, model: &ClassModel<'_>, exit: &Env) -> bool {
    exit.iter().any(|(var, value)| {
        matches!(var, Var::Field(class, _) if class == model.fqn)
            && !shared.places.reassigned.contains(var)
            && !value.unknown
            && !value.states.is_empty()
            && {
                let finals = shared.protocols.final_states(value.protocol);
                value.states.keys().all(|s| finals.contains(s))
            }
    })
}

/// The fields, `this` and captured locals: what survives from one event to the next.
fn object_state(shared: &Shared<'_, '_>, env: &Env) -> Env {
    let mut state: Env = env
        .iter()
        .filter(|(var, _)| shared.survives(var))
        .map(|(var, value)| (var.clone(), value.clone()))
        .collect();
    state.facts = env
        .facts
        .iter()
        .filter(|(var, _)| shared.survives(var))
        .map(|(var, values)| (var.clone(), values.clone()))
        .collect::<Facts>()
        .into();
    state
}

/// `env` after time passes.
fn after_wait(shared: &Shared<'_, '_>, env: &Env) -> Env {
    let mut waited: Env = env
        .iter()
        .map(|(var, value)| (var.clone(), value.after_wait(shared.protocols)))
        .collect();
    waited.facts = env.facts.clone();
    waited
}

/// The handlers of `model`: methods the framework or other code may call at any time, and
/// the deferred code of the class.
fn handlers<'a>(
    shared: &Shared<'a, '_>,
    model: &ClassModel<'a>,
    kind: Component,
) -> Vec<EventCode<'a>> {
    let places = shared.places;
    let methods = model.class.methods.iter().filter(|m| {
        let referenced = places.method_refs.contains(&m.name);
        let called = places
            .self_calls
            .contains(&(model.fqn.to_owned(), m.name.clone()));
        m.kind == MethodKind::Method
            && m.body.is_some()
            && !kind.is_lifecycle(&m.name)
            && (referenced || !(m.modifiers.is_private && called))
    });
    let inner_prefix = format!("{}$", model.fqn);
    let deferred = places
        .deferred
        .iter()
        .filter(|d| d.class == model.fqn || d.class.starts_with(&inner_prefix));
    methods
        .map(EventCode::Method)
        .chain(deferred.copied().map(EventCode::Deferred))
        .collect()
}

/// Narrows every value of `entry` that may have one of `callbacks_of(its protocol)` pending to
/// the callbacks' target states: the code runs because the callback arrived.
fn narrow_to_callbacks(
    protocols: &Protocols<'_>,
    entry: &mut Env,
    callbacks_of: impl Fn(ProtocolId) -> Vec<CallbackId>,
) {
    entry.update_each(|_, value| {
        let callbacks = callbacks_of(value.protocol);
        if let Some(narrowed) = value.after_callbacks(protocols, &callbacks) {
            *value = narrowed;
        }
    });
}

/// The entry state of a handler: the waited hub state, narrowed to the callback's target
/// states when the handler receives a protocol callback.
fn handler_entry(shared: &Shared<'_, '_>, handler: EventCode<'_>, waited: &Env) -> Env {
    let protocols = shared.protocols;
    let mut entry = waited.clone();
    match handler {
        EventCode::Method(method) => {
            // A method of the class that receives a callback of a field's protocol
            // (`onMediaScannerConnected` of a client passed to the connection), or an override
            // of one of the object's own callbacks (`onCreate` of an SQLiteOpenHelper): the
            // framework runs it only when the callback arrives, so `this`, whose origin is
            // unknown, is in the callback's target states.
            entry.update_each(|var, value| {
                let callbacks = protocols.callbacks_for_method(value.protocol, &method.name);
                let from = match var {
                    Var::This(_) if value.unknown => &value.in_every_state(protocols),
                    _ => &*value,
                };
                if let Some(narrowed) = from.after_callbacks(protocols, &callbacks) {
                    *value = narrowed;
                }
            });
        }
        EventCode::Deferred(deferred) => {
            let Some(registration) = deferred.registration else {
                // An anonymous class registered elsewhere (a BroadcastReceiver kept in a field):
                // like a method of the class, it receives the callbacks its method is named for.
                if let Some(method) = deferred.method {
                    narrow_to_callbacks(protocols, &mut entry, |protocol| {
                        protocols.callbacks_for_method(protocol, method)
                    });
                }
                return entry;
            };
            let receiver_var = registration.receiver.and_then(|r| shared.places.var(r));
            let protocol: Option<ProtocolId> = match receiver_var {
                Some(var) => waited
                    .get(var)
                    .map(|v| v.protocol)
                    .or_else(|| shared.protocol_of_var(var)),
                None => registration
                    .receiver
                    .and_then(|r| shared.protocol_of_type(shared.res.type_of(r.id))),
            };
            let Some(protocol) = protocol else {
                // Registered through an object that follows no protocol (`registerReceiver` of the
                // Context, for DownloadManager's ACTION_DOWNLOAD_COMPLETE): it receives the
                // callbacks that protocols of the fields register through that method.
                narrow_to_callbacks(protocols, &mut entry, |protocol| {
                    listened_callbacks(protocols, protocol, deferred, registration)
                });
                return entry;
            };
            let callbacks = listened_callbacks(protocols, protocol, deferred, registration);
            if callbacks.is_empty() {
                return entry;
            }
            if let Some(mut value) = receiver_var.and_then(|var| entry.get_mut(var)) {
                // The listener runs from the states where this path may have registered it.
                let mut registered = value.clone();
                if let Some(with) = value.registered_states(registration.site) {
                    registered.states.retain(|s, _| with.contains(s));
                }
                if let Some(narrowed) = registered.after_callbacks(protocols, &callbacks) {
                    *value = narrowed;
                }
            }
            let param = deferred
                .params
                .first()
                .map_or(deferred.body.span.start_byte, |p| p.span.start_byte);
            if let Some(local) = shared.res.declared_at(param) {
                let mut value = Value::fresh(protocol, &[], Cause::Quiet);
                for &cb in &callbacks {
                    for state in protocols.callback_targets(protocol, cb) {
                        value
                            .states
                            .entry(state)
                            .or_default()
                            .insert(Cause::Callback(cb));
                    }
                }
                entry.insert(Var::Local(local), value);
            }
        }
    }
    entry
}
