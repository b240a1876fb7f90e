//! Graphviz DOT: `dot -Tsvg` draws it.
//!
//! Every label and id is quoted, so symbols with `-`, spaces or `$` survive (DroidStar's unquoted
//! labels did not).
//! States are boxes labelled with their names, with the description as tooltip.
//! Callins are plain edges, ignored callins dotted and grey, callbacks blue, quiet moves dashed.
//! The optional error sink is a red octagon whose edges name the exceptions.
//! The restrictions of the experiment lead, dashed and grey, to a grey octagon `restricted`.

use std::fmt::Write;

use super::{edges, EdgeKind, Node, Options};
use crate::format::quote;
use crate::model::Typestate;

/// The DOT text of `typestate`.
pub fn render(typestate: &Typestate, options: Options) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_graph(&mut out, typestate, options);
    out
}

fn write_graph(out: &mut String, t: &Typestate, options: Options) -> std::fmt::Result {
    writeln!(out, "digraph {} {{", quote(&t.class))?;
    writeln!(out, "  rankdir=LR;")?;
    writeln!(out, "  node [shape=box, style=rounded];")?;
    writeln!(out, "  \"start\" [shape=point, label=\"\"];")?;
    for state in t.state_ids() {
        let s = t.state(state);
        write!(
            out,
            "  {} [label={}",
            node_id(Node::State(state)),
            quote(&s.name)
        )?;
        if let Some(description) = &s.description {
            write!(out, ", tooltip={}", quote(description))?;
        }
        writeln!(out, "];")?;
    }
    let edges = edges(t, options);
    if options.error_sink {
        writeln!(
            out,
            "  \"error\" [label=\"error\", shape=octagon, color=red, fontcolor=red];"
        )?;
        if edges.iter().any(|edge| edge.to == Node::Restricted) {
            writeln!(
                out,
                "  \"restricted\" [label=\"restricted by the experiment\", shape=octagon, style=dashed, color=gray40, fontcolor=gray40];"
            )?;
        }
    }
    for edge in edges {
        write!(out, "  {} -> {}", node_id(edge.from), node_id(edge.to))?;
        let mut attributes = Vec::new();
        if !edge.labels.is_empty() {
            attributes.push(format!("label={}", quote(&edge.labels.join("\n"))));
        }
        attributes.extend(
            style(edge.kind)
                .iter()
                .map(|attribute| (*attribute).to_owned()),
        );
        if !attributes.is_empty() {
            write!(out, " [{}]", attributes.join(", "))?;
        }
        writeln!(out, ";")?;
    }
    writeln!(out, "}}")
}

fn style(kind: EdgeKind) -> &'static [&'static str] {
    match kind {
        EdgeKind::Create | EdgeKind::Callin => &[],
        EdgeKind::Ignored => &["style=dotted", "color=gray40", "fontcolor=gray40"],
        EdgeKind::Callback => &["color=blue", "fontcolor=blue"],
        EdgeKind::Quiet => &["style=dashed"],
        EdgeKind::Error => &["color=red", "fontcolor=red"],
        EdgeKind::Restricted => &["style=dashed", "color=gray40", "fontcolor=gray40"],
    }
}

fn node_id(node: Node) -> String {
    match node {
        Node::Start => "\"start\"".to_owned(),
        Node::State(state) => format!("\"s{}\"", state.0),
        Node::Error => "\"error\"".to_owned(),
        Node::Restricted => "\"restricted\"".to_owned(),
    }
}
