//! Renderings of a typestate for people: Graphviz DOT ([`dot`]), Mermaid state diagrams
//! ([`mermaid`]) and the protocol table ([`table`]) shown by `typestar show` and in hovers.
//!
//! DOT and Mermaid draw the same edges, computed once here ([`edges`]).
//! There is one edge per pair of states and kind of move, labelled with every symbol that makes it.
//! Quiet self-loops are left
//! out (a state that says nothing about time passing stays put, as in the text format).
//! The error sink is drawn only when [`Options::error_sink`] asks for it.
//! With it comes a separate, grey node for the restrictions of the experiment, which are not errors of the API.

pub mod dot;
pub mod mermaid;
pub mod table;

use crate::model::{Failure, StateId, Step, Typestate, WaitOutcome};

/// What the diagrams show.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Options {
    /// Draw the error sink and an edge to it from every state with a disabled callin (labelled
    /// with the exception when known) or an asynchronous failure. DroidStar leaves it implicit.
    /// Restrictions of the experiment go to their own node, `restricted`, beside it.
    pub error_sink: bool,
}

/// An end of an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Node {
    /// Where objects come from: the initial state, or what each creator returns.
    Start,
    /// A state of the typestate.
    State(StateId),
    /// The error sink.
    Error,
    /// Where the experiment did not look: the inputs its query filters forbade.
    Restricted,
}

/// What moves along an edge.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum EdgeKind {
    /// Object creation, by reset or by a creator callin.
    Create,
    /// An enabled callin.
    Callin,
    /// A callin accepted without effect.
    Ignored,
    /// A callback arriving when time passes.
    Callback,
    /// Time passing quietly into another state.
    Quiet,
    /// A disabled callin or an asynchronous failure.
    Error,
    /// An input the experiment forbade.
    Restricted,
}

/// One drawn edge with every symbol that makes it, in declaration order.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Edge {
    from: Node,
    to: Node,
    kind: EdgeKind,
    labels: Vec<String>,
}

/// The edges of the diagram, in the order of states, then callins, then time passing.
fn edges(t: &Typestate, options: Options) -> Vec<Edge> {
    let mut edges: Vec<Edge> = Vec::new();
    let mut add = |from: Node, to: Node, kind: EdgeKind, label: Option<String>| {
        let existing = edges
            .iter_mut()
            .find(|e| e.from == from && e.to == to && e.kind == kind);
        let edge = match existing {
            Some(edge) => edge,
            None => {
                edges.push(Edge {
                    from,
                    to,
                    kind,
                    labels: Vec::new(),
                });
                edges.last_mut().expect("just pushed")
            }
        };
        edge.labels.extend(label);
    };
    let creators: Vec<_> = t.creators().collect();
    if !creators
        .iter()
        .any(|c| t.callin(*c).creates == Some(t.initial))
    {
        add(Node::Start, Node::State(t.initial), EdgeKind::Create, None);
    }
    for creator in creators {
        let callin = t.callin(creator);
        if let Some(state) = callin.creates {
            add(
                Node::Start,
                Node::State(state),
                EdgeKind::Create,
                Some(callin.name.clone()),
            );
        }
    }
    for state in t.state_ids() {
        let from = Node::State(state);
        for callin in t.input_callins() {
            let name = &t.callin(callin).name;
            match t.step(state, callin) {
                Step::Enabled {
                    target, ignored, ..
                } => {
                    let (kind, label) = if *ignored {
                        (EdgeKind::Ignored, format!("{name} (ignored)"))
                    } else {
                        (EdgeKind::Callin, name.clone())
                    };
                    add(from, Node::State(*target), kind, Some(label));
                }
                Step::Error { failure, .. } if options.error_sink => {
                    let label = match failure {
                        Failure::Throws(Some(exception)) => {
                            format!("{name} / {}", simple_name(exception))
                        }
                        Failure::Throws(None) => name.clone(),
                        Failure::Posts(posted) => {
                            format!("{name} / posts {}", simple_name(&posted.callback))
                        }
                    };
                    add(from, Node::Error, EdgeKind::Error, Some(label));
                }
                Step::Restricted { .. } if options.error_sink => {
                    add(
                        from,
                        Node::Restricted,
                        EdgeKind::Restricted,
                        Some(name.clone()),
                    );
                }
                Step::Error { .. } | Step::Restricted { .. } => {}
            }
        }
        match &t.state(state).on_wait {
            WaitOutcome::Callback {
                callback, target, ..
            } => add(
                from,
                Node::State(*target),
                EdgeKind::Callback,
                Some(t.callback(*callback).name.clone()),
            ),
            WaitOutcome::Quiet { target, .. } if *target != state => add(
                from,
                Node::State(*target),
                EdgeKind::Quiet,
                Some("quiet".to_owned()),
            ),
            WaitOutcome::Quiet { .. } => {}
            WaitOutcome::Error { .. } if options.error_sink => {
                add(from, Node::Error, EdgeKind::Error, Some("fails".to_owned()))
            }
            WaitOutcome::Restricted { .. } if options.error_sink => add(
                from,
                Node::Restricted,
                EdgeKind::Restricted,
                Some("wait".to_owned()),
            ),
            WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => {}
        }
    }
    edges
}

/// `IllegalStateException` for `java.lang.IllegalStateException`.
fn simple_name(qualified: &str) -> &str {
    qualified.rsplit('.').next().unwrap_or(qualified)
}
