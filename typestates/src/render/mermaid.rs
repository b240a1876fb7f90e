//! Mermaid `stateDiagram-v2`, which Markdown viewers (GitHub, VS Code) draw inline.
//!
//! Mermaid cannot style single transitions, so the kind of move is in the label.
//! Callbacks read `on finished`, quiet moves `quiet`, ignored callins `execute (ignored)`.
//! Edges into the optional error sink name the exception after a `/`.
//! The restrictions of the experiment lead
//! to a grey state of their own, `restricted by the experiment`.

use std::fmt::Write;

use super::{edges, EdgeKind, Node, Options};
use crate::model::Typestate;

/// The Mermaid text of `typestate`.
pub fn render(typestate: &Typestate, options: Options) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_diagram(&mut out, typestate, options);
    out
}

fn write_diagram(out: &mut String, t: &Typestate, options: Options) -> std::fmt::Result {
    writeln!(out, "stateDiagram-v2")?;
    writeln!(out, "    direction LR")?;
    for state in t.state_ids() {
        let s = t.state(state);
        let id = node_id(Node::State(state));
        writeln!(out, "    state \"{}\" as {id}", escape(&s.name))?;
        if let Some(description) = &s.description {
            writeln!(out, "    {id} : {}", escape(description))?;
        }
    }
    let edges = edges(t, options);
    if options.error_sink {
        writeln!(out, "    state \"error\" as error")?;
        writeln!(out, "    classDef sink fill:#fdd,stroke:#c00")?;
        writeln!(out, "    class error sink")?;
        if edges.iter().any(|edge| edge.to == Node::Restricted) {
            writeln!(
                out,
                "    state \"restricted by the experiment\" as restricted"
            )?;
            writeln!(
                out,
                "    classDef unknown fill:#eee,stroke:#888,stroke-dasharray:4"
            )?;
            writeln!(out, "    class restricted unknown")?;
        }
    }
    for edge in edges {
        write!(out, "    {} --> {}", node_id(edge.from), node_id(edge.to))?;
        let labels: Vec<String> = edge
            .labels
            .iter()
            .map(|label| match edge.kind {
                EdgeKind::Callback => format!("on {label}"),
                _ => label.clone(),
            })
            .collect();
        if !labels.is_empty() {
            write!(out, " : {}", escape(&labels.join(", ")))?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn node_id(node: Node) -> String {
    match node {
        Node::Start => "[*]".to_owned(),
        Node::State(state) => format!("s{}", state.0),
        Node::Error => "error".to_owned(),
        Node::Restricted => "restricted".to_owned(),
    }
}

/// Text safe in a Mermaid label: entity codes for the characters Mermaid reads as syntax, and
/// one line.
fn escape(text: &str) -> String {
    let mut escaped = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '#' => escaped.push_str("#35;"),
            ';' => escaped.push_str("#59;"),
            '"' => escaped.push_str("#quot;"),
            '<' => escaped.push_str("#lt;"),
            '>' => escaped.push_str("#gt;"),
            '\n' => escaped.push(' '),
            c => escaped.push(c),
        }
    }
    escaped
}
