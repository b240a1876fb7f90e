//! Markdown renderings of a protocol for hovers: a state table and a Mermaid state diagram.
//!
//! Interim until `typestates::render::{table, mermaid}` (branch `formats`) lands; the hover code
//! calls only [`table`] and [`mermaid`], so switching is a change of imports.

use std::fmt::Write;

use typestates::{Step, Typestate, WaitOutcome};

/// A markdown table: one row per state, one column per callin, and a last column for what
/// happens when time passes.
pub fn table(typestate: &Typestate) -> String {
    let callins: Vec<_> = typestate.input_callins().collect();
    let mut out = String::from("| state |");
    for &callin in &callins {
        let _ = write!(out, " `{}` |", typestate.callin(callin).name);
    }
    out.push_str(" time passes |\n|---|");
    out.push_str(&"---|".repeat(callins.len() + 1));
    out.push('\n');
    for id in typestate.state_ids() {
        let state = typestate.state(id);
        let marker = if id == typestate.initial {
            " (initial)"
        } else {
            ""
        };
        let _ = write!(out, "| **{}**{marker} |", state.name);
        for &callin in &callins {
            let cell = match typestate.step(id, callin) {
                Step::Enabled {
                    target,
                    ignored: true,
                    ..
                } => format!("→ {} (ignored)", typestate.state(*target).name),
                Step::Enabled { target, .. } => format!("→ {}", typestate.state(*target).name),
                Step::Error {
                    exception: Some(exception),
                    ..
                } => format!("✗ `{}`", short_class(exception)),
                Step::Error { .. } => "✗".to_string(),
            };
            let _ = write!(out, " {cell} |");
        }
        let wait = match &state.on_wait {
            WaitOutcome::Quiet { target, .. } if *target == id => "—".to_string(),
            WaitOutcome::Quiet { target, .. } => format!("→ {}", typestate.state(*target).name),
            WaitOutcome::Callback {
                callback, target, ..
            } => format!(
                "`{}()` → {}",
                typestate.callback(*callback).binding.method(),
                typestate.state(*target).name
            ),
            WaitOutcome::Error { .. } => "fails".to_string(),
        };
        let _ = writeln!(out, " {wait} |");
    }
    out
}

/// A Mermaid `stateDiagram-v2` of the enabled transitions, callbacks and quiet moves.
pub fn mermaid(typestate: &Typestate) -> String {
    let mut out = String::from("stateDiagram-v2\n");
    let _ = writeln!(
        out,
        "    [*] --> {}",
        typestate.state(typestate.initial).name
    );
    for id in typestate.state_ids() {
        let from = &typestate.state(id).name;
        for callin in typestate.input_callins() {
            if let Step::Enabled { target, .. } = typestate.step(id, callin) {
                let _ = writeln!(
                    out,
                    "    {from} --> {}: {}()",
                    typestate.state(*target).name,
                    typestate.callin(callin).name
                );
            }
        }
        match &typestate.state(id).on_wait {
            WaitOutcome::Callback {
                callback, target, ..
            } => {
                let _ = writeln!(
                    out,
                    "    {from} --> {}: ⇠ {}()",
                    typestate.state(*target).name,
                    typestate.callback(*callback).binding.method()
                );
            }
            WaitOutcome::Quiet { target, .. } if *target != id => {
                let _ = writeln!(
                    out,
                    "    {from} --> {}: quiet",
                    typestate.state(*target).name
                );
            }
            WaitOutcome::Quiet { .. } | WaitOutcome::Error { .. } => {}
        }
    }
    out
}

/// `IllegalStateException` for `java.lang.IllegalStateException`.
pub fn short_class(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}
