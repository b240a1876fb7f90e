//! Imports the automata DroidStar learned, from its Graphviz results (`X-diagram.gv`).
//!
//! DroidStar writes `digraph { 0 -> 1[label=start]; 1 -> 3[label=delta_finished]; }`: nodes are
//! numbers and node 0 is initial.
//! A label is a callin, `delta_X` the callback `X` arriving when time passes, and `delta_beta` time
//! passing quietly.
//! The error sink is left implicit.
//! A callin without an edge is disabled, and a state without a `delta_*` edge fails when time
//! passes.
//! Labels may be quoted or not; node and graph attributes are ignored.
//!
//! DroidStar knows symbols, not Java methods.
//! So each callin is bound to an instance method of the same name with any overload.
//! Each callback is bound to an overridden method of the same name.
//! States are named `s0`, `s1`, … after DroidStar's numbers.

mod syntax;

use std::collections::HashMap;

use self::syntax::{Graph, NodeRef, RawEdge};
use super::lexer::is_word;
use super::{Diagnostic, METHOD_KINDS, RESERVED};
use crate::binding::{CallbackBinding, CallinBinding, MethodKind, MethodRef, Params};
use crate::model::{
    Callback, CallbackId, Callin, Origin, State, StateId, Step, Steps, Typestate, WaitOutcome,
};
use crate::provenance::{Provenance, ProvenanceKind};

/// Reads a DroidStar result, read from `path`, as the typestate of `class`, or returns every
/// error found at file:line:col.
pub fn from_droidstar_dot(
    path: &str,
    text: &str,
    class: &str,
) -> Result<Typestate, Vec<Diagnostic>> {
    let Graph {
        is_digraph,
        nodes,
        edges,
        mut errors,
    } = syntax::read(path, text);
    let typestate = is_digraph.then(|| {
        Builder {
            path,
            errors: &mut errors,
        }
        .build(class, &nodes, &edges)
    });
    match typestate {
        Some(typestate) if errors.is_empty() => Ok(typestate),
        _ => {
            errors.sort_by_key(|e| (e.line, e.col));
            Err(errors)
        }
    }
}

/// What a label means.
enum Symbol<'a> {
    Callin(&'a str),
    Callback(&'a str),
    Quiet,
}

fn symbol(label: &str) -> Symbol<'_> {
    match label.strip_prefix("delta_") {
        Some("beta") => Symbol::Quiet,
        Some(callback) => Symbol::Callback(callback),
        None => Symbol::Callin(label),
    }
}

/// Builds the typestate from the nodes and edges, checking it is deterministic.
struct Builder<'a> {
    path: &'a str,
    errors: &'a mut Vec<Diagnostic>,
}

impl Builder<'_> {
    fn error(&mut self, at: &NodeRef, message: String) {
        self.errors
            .push(Diagnostic::new(self.path, at.line, at.col, message));
    }

    fn build(&mut self, class: &str, nodes: &[NodeRef], edges: &[RawEdge]) -> Typestate {
        let state_of: HashMap<&str, StateId> = nodes
            .iter()
            .enumerate()
            .map(|(i, node)| (node.id.as_str(), StateId(i as u32)))
            .collect();
        let mut callins: Vec<Callin> = Vec::new();
        let mut callbacks: Vec<Callback> = Vec::new();
        for node in nodes.iter().filter(|n| !is_word(&n.id)) {
            self.error(node, format!("`{}` cannot name a state", node.id));
        }
        let mut states: Vec<State> = nodes
            .iter()
            .map(|node| State {
                name: format!("s{}", node.id),
                description: None,
                on_callin: Steps::default(),
                on_wait: WaitOutcome::Error {
                    origin: Origin::default(),
                },
                by_level: Vec::new(),
            })
            .collect();
        let mut seen: HashMap<(StateId, Option<String>), &NodeRef> = HashMap::new();
        for edge in edges {
            let Some(label) = &edge.label else {
                self.error(&edge.from, "expected a `label` on the edge".to_owned());
                continue;
            };
            let from = state_of[edge.from.id.as_str()];
            let target = state_of[edge.to.id.as_str()];
            let symbol = symbol(&label.id);
            let name = match symbol {
                Symbol::Callin(name) | Symbol::Callback(name) => Some(name),
                Symbol::Quiet => None,
            };
            if let Some(name) = name {
                // A dot would make the method `a.b(..)` of the printed text a method of class `a`.
                if !is_word(name) || RESERVED.contains(&name) || name.contains('.') {
                    self.error(label, format!("`{name}` cannot name a symbol"));
                    continue;
                }
                // A callin binds the instance method of its own name.
                if matches!(symbol, Symbol::Callin(_)) && METHOD_KINDS.contains(&name) {
                    self.error(label, format!("`{name}` cannot name a method"));
                    continue;
                }
            }
            // Callbacks and quiet share the one time-passing move of a state.
            let key = (
                from,
                matches!(symbol, Symbol::Callin(_)).then(|| label.id.clone()),
            );
            if let Some(first) = seen.get(&key) {
                let edge_kind = match symbol {
                    Symbol::Callin(name) => format!("a `{name}` edge"),
                    Symbol::Callback(_) | Symbol::Quiet => "a `delta_*` edge".to_owned(),
                };
                let message = format!(
                    "node {} already has {edge_kind} (line {}): the automaton must be deterministic",
                    edge.from.id, first.line
                );
                self.error(label, message);
                continue;
            }
            seen.insert(key, label);
            let on_wait = match symbol {
                Symbol::Callin(name) => {
                    if callbacks.iter().any(|c| c.name == name) {
                        self.error(label, format!("`{name}` is also a callback"));
                        continue;
                    }
                    let callin =
                        index_or_push(&mut callins, |c| c.name == name, || callin_named(name));
                    if let Some(message) = super::too_many_steps(states.len(), callins.len()) {
                        self.error(label, message);
                        break;
                    }
                    let on_callin = &mut states[from.index()].on_callin;
                    on_callin.resize(callins.len());
                    on_callin[callin] = Step::Enabled {
                        target,
                        ignored: false,
                        origin: Origin::default(),
                    };
                    continue;
                }
                Symbol::Callback(name) => {
                    if callins.iter().any(|c| c.name == name) {
                        self.error(label, format!("`{name}` is also a callin"));
                        continue;
                    }
                    WaitOutcome::Callback {
                        callback: CallbackId(index_or_push(
                            &mut callbacks,
                            |c| c.name == name,
                            || callback_named(name),
                        ) as u32),
                        target,
                        origin: Origin::default(),
                    }
                }
                Symbol::Quiet => WaitOutcome::Quiet {
                    target,
                    origin: Origin::default(),
                },
            };
            states[from.index()].on_wait = on_wait;
        }
        for state in &mut states {
            state.on_callin.resize(callins.len());
        }
        let initial = match state_of.get("0") {
            Some(initial) => *initial,
            None => {
                // With no node at all, a syntax error has usually said why already.
                match nodes.first() {
                    Some(first) => self.error(
                        first,
                        "expected node 0, DroidStar's initial state".to_owned(),
                    ),
                    None if self.errors.is_empty() => self.errors.push(Diagnostic::new(
                        self.path,
                        1,
                        1,
                        "expected at least one edge".to_owned(),
                    )),
                    None => {}
                }
                StateId(0)
            }
        };
        Typestate {
            class: class.to_owned(),
            summary: None,
            provenance: Provenance {
                kind: ProvenanceKind::Droidstar,
                sources: vec![format!("DroidStar result {}", self.path)],
                platform: None,
                stats: None,
                run: None,
            },
            notes: Vec::new(),
            callins,
            callbacks,
            harmless: Vec::new(),
            excluded: Vec::new(),
            states,
            initial,
            obligations: Vec::new(),
            examples: Vec::new(),
        }
    }
}

/// The index of the first item `is` accepts, after pushing `make()` if there is none.
fn index_or_push<T>(
    items: &mut Vec<T>,
    is: impl Fn(&T) -> bool,
    make: impl FnOnce() -> T,
) -> usize {
    items.iter().position(is).unwrap_or_else(|| {
        items.push(make());
        items.len() - 1
    })
}

fn callin_named(name: &str) -> Callin {
    Callin {
        name: name.to_owned(),
        binding: CallinBinding {
            methods: vec![MethodRef {
                kind: MethodKind::Instance,
                class: None,
                name: name.to_owned(),
                params: Params::Any,
            }],
            condition: None,
            returns: None,
        },
        creates: None,
    }
}

fn callback_named(name: &str) -> Callback {
    Callback {
        name: name.to_owned(),
        binding: CallbackBinding::Override {
            class: None,
            method: name.to_owned(),
        },
        condition: None,
    }
}
