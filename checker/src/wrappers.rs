//! The protocol of a wrapper, derived from how its methods drive its fields.
//!
//! A wrapper is a plain class whose fields hold objects with protocols ([`crate::clients`]).
//! Its clients call its methods in their order, so the order is theirs to get right.
//! [`derive`] gives the wrapper a protocol of its own over its methods ([`typestates::derived`]).
//! - Its states are the states of the wrapper's tracked fields, from the state after construction.
//!   Time passing moves them by their protocols' waits.
//! - A method fails from a state when its body, run from there, has a violation on a field.
//!   The step's reason names the method, the field call and the field's states.
//! - A method whose run keeps nothing known of a field, or whose overloads disagree, has an unknown effect there.
//! - So does a failing method that others call too (the class itself, a runtime): it stays checked inside, in any order.
//! - The work is bounded by the model's state and method bounds; past them, no protocol.
//! - A method that loses a field's object with an obligation from some state gives the class no protocol.
//!   A protocol of violations cannot say that, so the leak stays reported inside, in any order.
//!
//! How the check uses it ([`crate::check`]):
//! - Only a wrapper whose methods the project calls on names its clients' flows follow gets one ([`crate::clients::Clients::at_clients`]).
//! - Those methods run inside the wrapper from unknown field states: only what fails within one call is reported there.
//! - The file is then checked again with the derived protocols added ([`crate::protocols::Protocols::with_derived`]).
//!   A client's local or field of the wrapper's class is tracked like a library object, and a call out of order is reported at the client.
//! - A client that holds the wrapper through a supertype or an interface is not checked: that type has no protocol.
//! - A project check derives the protocols of every file first, so that clients in other files are checked too ([`crate::Project`]).

use typestates::derived::Move;
use typestates::Typestate;

use crate::diagnostics::{self, ViolationKind};
use crate::ir::{Class, MethodKind};
use crate::leaks::{Losses, Owned};
use crate::places::Var;
use crate::typestate_flow::{analyze_body, Env, Pass, Shared};

/// What a wrapper's state is: each tracked field with its possible states, whether it may
/// also be in any state, and whether it may be `null`.
type Key = Vec<(Var, Vec<u32>, bool, bool)>;

/// A state of the wrapper during the exploration: its key, and the fields as one run left them.
#[derive(Clone)]
struct Wrapped {
    key: Key,
    env: Env,
}

impl PartialEq for Wrapped {
    fn eq(&self, other: &Wrapped) -> bool {
        self.key == other.key
    }
}

/// The key of `env`: the tracked fields of the class `fqn`.
fn key_of(fqn: &str, env: &Env) -> Key {
    env.iter()
        .filter(|(var, _)| matches!(var, Var::Field(class, _) if class == fqn))
        .map(|(var, value)| {
            let states = value.states.keys().map(|s| s.0).collect();
            (var.clone(), states, value.unknown, value.null)
        })
        .collect()
}

/// The methods of `class` its clients may call: not private, not static, with a body.
pub(crate) fn public_methods(class: &Class) -> Vec<String> {
    let mut names: Vec<String> = class
        .methods
        .iter()
        .filter(|m| m.kind == MethodKind::Method)
        .filter(|m| !m.modifiers.is_private && !m.modifiers.is_static && m.body.is_some())
        .map(|m| m.name.clone())
        .collect();
    names.sort();
    names.dedup();
    names
}

/// The protocol of the wrapper `class` (named `fqn`) that construction leaves in `constructed`,
/// having given its fields the new objects of `owned`.
/// Only the methods of `at_clients` fail in it: the others run in any order inside the class,
/// where their failures are reported; they have an unknown effect where they fail.
/// `None` when it has no tracked field, or its exploration passes the model's bounds.
pub(crate) fn derive<'a>(
    shared: &Shared<'a, '_>,
    class: &'a Class,
    fqn: &str,
    constructed: &Env,
    owned: &[Owned],
    at_clients: &[&str],
) -> Option<Typestate> {
    let initial = Wrapped {
        key: key_of(fqn, constructed),
        env: kept(shared, constructed),
    };
    if initial.key.is_empty() {
        return None;
    }
    let methods = public_methods(class);
    let describe = |state: &Wrapped| describe(shared, state);
    // A method that loses a field's object from some state (`fos = new …` while it is open)
    // leaks there: a protocol of violations cannot say that, so the class gets none.
    let leaks = std::cell::Cell::new(false);
    let step = |state: &Wrapped, i: usize| -> Move<Wrapped> {
        let mut moves = class
            .methods
            .iter()
            .filter(|m| m.kind == MethodKind::Method && m.name == methods[i])
            .filter(|m| !m.modifiers.is_private && !m.modifiers.is_static)
            .filter_map(|m| m.body.as_ref().map(|body| (m, body)))
            .map(|(m, body)| run(shared, fqn, &m.name, body, &state.env, owned, &leaks));
        let first = moves.next().unwrap_or(Move::Unknown);
        // Overloads share a name: they must agree, or the name's effect is unknown.
        if !moves.all(|other| other == first) {
            return Move::Unknown;
        }
        // A method others call too runs in any order inside: its failures are reported there.
        match first {
            Move::Fails { .. } if !at_clients.contains(&methods[i].as_str()) => Move::Unknown,
            first => first,
        }
    };
    // Time passing moves each field by its protocol's waits, staying put included.
    let wait = |state: &Wrapped| -> Option<Wrapped> {
        let mut env = state.env.clone();
        for (var, ..) in &state.key {
            let value = env.get(var)?.after_wait(shared.protocols);
            env.insert(var.clone(), value);
        }
        let key = key_of(fqn, &env);
        let known = key.iter().all(|(_, _, unknown, _)| !unknown);
        known.then_some(Wrapped { key, env })
    };
    let derived = typestates::derived::derive(fqn, &methods, initial, describe, step, wait);
    derived.filter(|_| !leaks.get())
}

/// What running `body` of the method `name` from `entry` does to the wrapper.
fn run<'a>(
    shared: &Shared<'a, '_>,
    fqn: &str,
    name: &str,
    body: &'a crate::ir::Body,
    entry: &Env,
    owned: &[Owned],
    leaks: &std::cell::Cell<bool>,
) -> Move<Wrapped> {
    let result = analyze_body(shared, fqn, body, entry.clone(), Pass::Record, 0);
    let own = |var: &Var| matches!(var, Var::Field(class, _) if class == fqn);
    let lost = Losses {
        owned: owned.iter().chain(&result.losses.owned).cloned().collect(),
        dropped: (result.losses.dropped.iter())
            .filter(|lost| own(&lost.var))
            .cloned()
            .collect(),
    };
    if !lost.dropped.is_empty() && !crate::leaks::report(shared.protocols, lost, true).is_empty() {
        leaks.set(true);
    }
    if shared.out_of_time() || !result.unfinished.is_empty() {
        return Move::Unknown;
    }
    let merged = diagnostics::merge(result.observations);
    let violations = diagnostics::violations(shared.protocols, shared.places, "", &merged);
    let failing = violations
        .iter()
        .find(|v| matches!(v.kind, ViolationKind::Definite | ViolationKind::Possible));
    // The reason names no line: an editor's check moves a kept result's spans across an edit
    // (`Incremental`), never the words of its messages.
    if let Some(v) = failing {
        let simple = v.class.rsplit('.').next().unwrap_or(&v.class);
        return Move::Fails {
            exception: v.exception.clone(),
            reason: format!(
                "`{name}()` calls `{}.{}()` with the {simple} in {}{}",
                v.receiver,
                v.callin,
                v.offending_states.join(" or "),
                v.posted.as_deref().map_or(String::new(), |posted| {
                    let simple = posted.rsplit('.').next().unwrap_or(posted);
                    format!(", which posts {simple}()")
                })
            ),
            certain: v.kind == ViolationKind::Definite,
        };
    }
    match result.normal_exit {
        Some(exit) => {
            let key = key_of(fqn, &exit);
            if key.iter().any(|(_, _, unknown, _)| *unknown) {
                return Move::Unknown;
            }
            Move::To(Wrapped {
                key,
                env: kept(shared, &exit),
            })
        }
        None => Move::Unknown,
    }
}

/// What of `env` lasts from one call of the wrapper to the next: its fields and `this`.
fn kept(shared: &Shared<'_, '_>, env: &Env) -> Env {
    let mut out = env.clone();
    let gone: Vec<Var> = env
        .iter()
        .map(|(var, _)| var)
        .filter(|var| !shared.survives(var))
        .cloned()
        .collect();
    for var in &gone {
        out.remove(var);
    }
    out
}

/// The fields of a state and their states, for hovers: `lock: Locked`.
fn describe(shared: &Shared<'_, '_>, state: &Wrapped) -> String {
    let fields: Vec<String> = state
        .env
        .iter()
        .filter(|(var, _)| state.key.iter().any(|(v, ..)| v == *var))
        .map(|(var, value)| {
            let ts = shared.protocols.typestate(value.protocol);
            let states: Vec<&str> = value
                .states
                .keys()
                .map(|s| ts.state(*s).name.as_str())
                .collect();
            let name = match var {
                Var::Field(_, name) => name.as_str(),
                _ => "this",
            };
            format!("{name}: {}", states.join(" or "))
        })
        .collect();
    fields.join(", ")
}
