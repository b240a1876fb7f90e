//! The event model of a class: in which order the framework may run its methods, and so in
//! which states its fields (and the object itself) may be when each method starts.
//!
//! Android components follow their lifecycle (an Activity runs `onCreate`, `onStart`,
//! `onResume`, then any number of `onPause`/`onResume` rounds, `onStop`, and `onRestart` back
//! to `onStart` or `onDestroy`); Fragments and Services have their own orders.
//! Every other method that the framework or other code may call (public methods, overrides,
//! methods named by method references, lambdas and anonymous listeners) is an event handler
//! that may run any number of times, in any order, while the component is resumed (any time
//! after construction for a plain class).
//! Private methods the class calls itself are helpers, analysed at their call sites.
//! Between two events time passes, so every field's states are closed under the protocol's
//! wait outcomes; within one event no time passes.
//! A listener registered on a protocol object runs exactly when the protocol emits its
//! callback: its parameter (and the registering field) start in the callback's target states.
//!
//! [`solve`] computes the entry state of every event by a fixpoint over this graph.

use std::collections::HashMap;

use crate::flow::Lattice;
use crate::ir::{Class, Method, MethodKind};
use crate::places::{Deferred, Var};
use crate::protocols::{ProtocolId, Protocols};
use crate::typestate_flow::{analyze_body, Cause, Env, FlowState, Shared, Value};

/// The name of the hub where event handlers run (the resumed state of a component).
const HANDLERS: &str = "*";
/// Where the event graph starts: after construction.
const INIT: &str = "<init>";

/// Rounds of the event fixpoint before giving up (a finite lattice converges far earlier).
const MAX_ROUNDS: usize = 24;

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

    /// Whether `name` is one of the lifecycle methods of this kind of component.
    pub fn is_lifecycle(self, name: &str) -> bool {
        self.edges()
            .iter()
            .any(|(from, to)| *from == name || *to == name)
    }
}

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
}

/// Computes the entry state of every event of `model`: lifecycle methods, handlers and
/// deferred code.
pub fn solve<'a>(shared: &Shared<'a, '_>, model: &ClassModel<'a>) -> Vec<Event<'a>> {
    let kind = Component::of(shared.protocols, model.fqn);
    let handlers = handlers(shared, model, kind);
    let mut inputs: HashMap<&str, FlowState> = HashMap::new();
    let mut outputs: HashMap<&str, FlowState> = HashMap::new();
    outputs.insert(INIT, FlowState(Some(model.init.clone())));
    for _ in 0..MAX_ROUNDS {
        let mut changed = false;
        for &(_, node) in kind.edges() {
            let mut input = FlowState::bottom();
            for &(from, to) in kind.edges() {
                if to == node {
                    if let Some(FlowState(Some(out))) = outputs.get(from) {
                        input.join(&FlowState(Some(after_wait(shared, out))));
                    }
                }
            }
            let Some(entry) = input.0.clone() else {
                continue;
            };
            let out = if node == HANDLERS {
                run_handlers(shared, model, &handlers, entry)
            } else {
                run_method(shared, model, node, entry)
            };
            changed |= inputs.insert(node, input.clone()).as_ref() != Some(&input);
            let mut joined = outputs.remove(node).unwrap_or(FlowState::bottom());
            changed |= joined.join(&FlowState(Some(out)));
            outputs.insert(node, joined);
        }
        if !changed {
            break;
        }
    }
    let mut events = Vec::new();
    for &(_, node) in kind.edges() {
        let Some(FlowState(Some(entry))) = inputs.get(node) else {
            continue;
        };
        if node == HANDLERS {
            let hub = outputs.get(HANDLERS).and_then(|s| s.0.clone());
            let entry = after_wait(shared, hub.as_ref().unwrap_or(entry));
            events.extend(handlers.iter().map(|h| Event {
                code: *h,
                entry: handler_entry(shared, *h, &entry),
            }));
        } else if !events_contain(&events, node) {
            if let Some(method) = lifecycle_method(model.class, node) {
                events.push(Event {
                    code: EventCode::Method(method),
                    entry: entry.clone(),
                });
            }
        }
    }
    events
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
fn run_method(shared: &Shared<'_, '_>, model: &ClassModel<'_>, name: &str, entry: Env) -> Env {
    match lifecycle_method(model.class, name).and_then(|m| m.body.as_ref()) {
        Some(body) => {
            let exit = analyze_body(shared, model.fqn, body, entry, false, 0).exit;
            exit.map(|env| object_state(&env)).unwrap_or_default()
        }
        None => entry,
    }
}

/// Runs the handlers any number of times from `entry`; returns the hub state.
fn run_handlers(
    shared: &Shared<'_, '_>,
    model: &ClassModel<'_>,
    handlers: &[EventCode<'_>],
    entry: Env,
) -> Env {
    let mut hub = FlowState(Some(entry));
    for _ in 0..MAX_ROUNDS {
        let Some(current) = hub.0.clone() else {
            break;
        };
        let waited = after_wait(shared, &current);
        let mut changed = false;
        for handler in handlers {
            let entry = handler_entry(shared, *handler, &waited);
            let body = match handler {
                EventCode::Method(method) => method.body.as_ref(),
                EventCode::Deferred(deferred) => Some(deferred.body),
            };
            let Some(body) = body else { continue };
            let exit = analyze_body(shared, model.fqn, body, entry, false, 0).exit;
            if let Some(exit) = exit {
                changed |= hub.join(&FlowState(Some(object_state(&exit))));
            }
        }
        if !changed {
            break;
        }
    }
    hub.0.unwrap_or_default()
}

/// The fields and `this`: what survives from one event to the next.
fn object_state(env: &Env) -> Env {
    env.iter()
        .filter(|(var, _)| matches!(var, Var::Field(..) | Var::This(_)))
        .map(|(var, value)| (var.clone(), value.clone()))
        .collect()
}

/// `env` after time passes.
fn after_wait(shared: &Shared<'_, '_>, env: &Env) -> Env {
    env.iter()
        .map(|(var, value)| (var.clone(), value.after_wait(shared.protocols)))
        .collect()
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

/// The entry state of a handler: the waited hub state, narrowed to the callback's target
/// states when the handler receives a protocol callback.
fn handler_entry(shared: &Shared<'_, '_>, handler: EventCode<'_>, waited: &Env) -> Env {
    let protocols = shared.protocols;
    let mut entry = waited.clone();
    match handler {
        EventCode::Method(method) => {
            // A method of the class that receives a callback of a field's protocol
            // (`onMediaScannerConnected` of a client passed to the connection).
            for value in entry.values_mut() {
                let callbacks = protocols.callbacks_for_method(value.protocol, &method.name);
                narrow_to_callbacks(protocols, value, &callbacks);
            }
        }
        EventCode::Deferred(deferred) => {
            let Some(registration) = deferred.registration else {
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
                return entry;
            };
            let callbacks: Vec<_> = protocols
                .callbacks_registered_by(protocol, &registration.call.name)
                .into_iter()
                .filter(|cb| {
                    deferred
                        .method
                        .is_none_or(|m| protocols.listener_method(protocol, *cb) == m)
                })
                .collect();
            if callbacks.is_empty() {
                return entry;
            }
            if let Some(value) = receiver_var.and_then(|var| entry.get_mut(var)) {
                narrow_to_callbacks(protocols, value, &callbacks);
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

/// Narrows `value` to the states `callbacks` lead to from its states, if any does.
fn narrow_to_callbacks(
    protocols: &Protocols<'_>,
    value: &mut Value,
    callbacks: &[typestates::model::CallbackId],
) {
    if callbacks.is_empty() {
        return;
    }
    let ts = protocols.typestate(value.protocol);
    let mut narrowed = Value {
        states: Default::default(),
        ..value.clone()
    };
    for state in value.states.keys() {
        if let typestates::model::WaitOutcome::Callback {
            callback, target, ..
        } = &ts.state(*state).on_wait
        {
            if callbacks.contains(callback) {
                narrowed
                    .states
                    .entry(*target)
                    .or_default()
                    .insert(Cause::Callback(*callback));
            }
        }
    }
    if !narrowed.states.is_empty() {
        narrowed.null = false;
        *value = narrowed;
    }
}
