//! The protocol view: a class's protocol as a Graphviz diagram, and the states an object may be in at the cursor.
//! The diagram says what each state and transition means and where it comes from.

use serde::Serialize;
use typestates::library::Entry;
use typestates::render::{dot, Options};
use typestates::{Origin, StateId, Step, WaitOutcome};

use super::{text, CallFact, Library, Pos, SourceFile};

/// What the protocol view shows.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ProtocolView {
    /// The fully qualified class.
    pub class: String,
    /// One sentence on the class, when the protocol has one.
    pub summary: Option<String>,
    /// The diagram in DOT; states are the nodes `s0`, `s1`, ... of [`StateView::id`].
    pub dot: String,
    /// The states.
    pub states: Vec<StateView>,
    /// Every transition, with its citation.
    pub transitions: Vec<TransitionView>,
    /// Where the protocol comes from, one line each.
    pub provenance: Vec<String>,
    /// The ids of the states the object at the cursor may be in (empty when the cursor is not on
    /// a call, or the object may be in any state).
    pub possible: Vec<String>,
}

/// A state of the view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct StateView {
    /// The DOT node: `s0`.
    pub id: String,
    /// The name in the protocol.
    pub name: String,
    /// What the state means.
    pub description: Option<String>,
    /// Whether objects start here.
    pub initial: bool,
}

/// A transition of the view: an edge from one state to another, to `error` or to `restricted`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TransitionView {
    /// The DOT node it leaves.
    pub from: String,
    /// The DOT node it reaches.
    pub to: String,
    /// The input: a callin, `on CALLBACK`, `quiet`, `wait`.
    pub label: String,
    /// Where it comes from.
    pub source: Option<String>,
    /// Nobody ran the class to confirm it.
    pub unverified: bool,
}

/// The view of the class at `pos` in `file` (the receiver class of a call of `calls`, else the
/// name there).
pub fn at(
    calls: &[CallFact],
    library: &Library,
    file: &SourceFile,
    pos: Pos,
) -> Option<ProtocolView> {
    if let Some(call) = super::call_at(calls, pos) {
        if let Some(entry) = library.get(&call.class) {
            let states = if call.unknown { &[][..] } else { &call.states };
            return Some(view(entry, states));
        }
    }
    let (word, _) = text::word_at(&file.text, pos)?;
    library.find(word).ok().map(|entry| view(entry, &[]))
}

/// The view of `entry`, with the states named in `possible` highlighted.
pub fn view(entry: &Entry, possible: &[String]) -> ProtocolView {
    let t = &entry.typestate;
    let id = |state: StateId| format!("s{}", state.0);
    let states = t
        .state_ids()
        .map(|state| StateView {
            id: id(state),
            name: t.state(state).name.clone(),
            description: t.state(state).description.clone(),
            initial: state == t.initial,
        })
        .collect();
    let mut transitions = Vec::new();
    let mut add = |from: StateId, to: String, label: String, origin: &Origin| {
        transitions.push(TransitionView {
            from: id(from),
            to,
            label,
            source: origin.source.clone(),
            unverified: origin.unverified,
        });
    };
    for state in t.state_ids() {
        for callin in t.input_callins() {
            let name = t.callin(callin).name.clone();
            match t.step(state, callin) {
                Step::Enabled {
                    target,
                    ignored,
                    origin,
                } => {
                    let label = if *ignored {
                        format!("{name} (ignored)")
                    } else {
                        name
                    };
                    add(state, id(*target), label, origin);
                }
                Step::Error { origin, .. } => add(state, "error".into(), name, origin),
                Step::Restricted { origin } => add(state, "restricted".into(), name, origin),
            }
        }
        match &t.state(state).on_wait {
            WaitOutcome::Callback {
                callback,
                target,
                origin,
            } => {
                let label = format!("on {}", t.callback(*callback).name);
                add(state, id(*target), label, origin);
            }
            WaitOutcome::Quiet { target, origin } => {
                add(state, id(*target), "quiet".into(), origin)
            }
            WaitOutcome::Error { origin } => add(state, "error".into(), "wait".into(), origin),
            WaitOutcome::Restricted { origin } => {
                add(state, "restricted".into(), "wait".into(), origin)
            }
        }
    }
    let provenance = &t.provenance;
    let mut lines = vec![format!(
        "{}{}, {}",
        provenance.kind.keyword(),
        provenance
            .platform
            .as_ref()
            .map_or_else(String::new, |p| format!(" on {p}")),
        super::hover::source(&entry.source)
    )];
    lines.extend(provenance.sources.iter().cloned());
    ProtocolView {
        class: t.class.clone(),
        summary: t.summary.clone(),
        dot: dot::render(t, Options { error_sink: true }),
        states,
        transitions,
        provenance: lines,
        possible: possible
            .iter()
            .filter_map(|name| t.state_by_name(name).map(id))
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_bundled_protocol_has_a_view_whose_ids_are_the_diagram_nodes() {
        let library = Library::bundled();
        for entry in library.iter() {
            let first = entry.typestate.state(entry.typestate.initial).name.clone();
            let view = view(entry, std::slice::from_ref(&first));
            for state in entry.typestate.state_ids() {
                let node = format!("\"s{}\" [label=", state.0);
                assert!(view.dot.contains(&node), "{}: {node}", view.class);
            }
            assert_eq!(view.possible, [format!("s{}", entry.typestate.initial.0)]);
            for transition in &view.transitions {
                for end in [&transition.from, &transition.to] {
                    assert!(
                        view.dot.contains(&format!("\"{end}\"")),
                        "{}: {end}",
                        view.class
                    );
                }
            }
            assert!(view.states.iter().filter(|s| s.initial).count() == 1);
        }
    }
}
