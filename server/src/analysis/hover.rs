//! Hover text: the protocol of a class under the cursor, or the state of an object at a call.

use std::collections::BTreeSet;
use std::fmt::Write;

use typestates::library::{Entry, EntrySource};
use typestates::{CallinId, StateId, Typestate, WaitOutcome};

use super::{text, CallFact, Library, Pos, SourceFile, Span};

/// Markdown for the editor, and the text it describes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HoverText {
    /// The markdown.
    pub markdown: String,
    /// The hovered call or name.
    pub span: Span,
}

/// Whether a hover may link to the protocol view: only a client that runs the
/// `typestar.showProtocol` command from a Markdown link (the VS Code extension says so).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewLink {
    /// A `command:typestar.showProtocol` link after the class summary.
    Command,
    /// No link.
    #[default]
    Omitted,
}

/// The client command that opens the protocol view of a class (its one argument).
pub const SHOW_PROTOCOL: &str = "typestar.showProtocol";

/// The hover at `pos`: a call of `calls` (the file's, from the checker), else a protocol class
/// name.
pub fn hover(
    calls: &[CallFact],
    library: &Library,
    file: &SourceFile,
    pos: Pos,
    link: ViewLink,
) -> Option<HoverText> {
    if let Some(call) = super::call_at(calls, pos) {
        if let Some(entry) = library.get(&call.class) {
            return Some(HoverText {
                markdown: call_markdown(&entry.typestate, call),
                span: call.span,
            });
        }
        if let Some(derived) = &call.derived {
            let mut markdown = call_markdown(derived, call);
            markdown.push_str(&derived_markdown(derived));
            return Some(HoverText {
                markdown,
                span: call.span,
            });
        }
    }
    let (word, span) = text::word_at(&file.text, pos)?;
    let entry = library.find(word).ok()?;
    Some(HoverText {
        markdown: class_markdown(entry, link),
        span,
    })
}

/// A short description of the protocol: the summary, the states with the first line of their
/// descriptions, where the protocol comes from, and a link to the protocol view.
pub fn class_markdown(entry: &Entry, link: ViewLink) -> String {
    let typestate = &entry.typestate;
    let mut out = format!("### `{}` protocol\n\n", typestate.class);
    if let Some(summary) = &typestate.summary {
        let _ = writeln!(out, "{summary}\n");
    }
    out.push_str("**States:**\n\n");
    for state in typestate.state_ids() {
        let s = typestate.state(state);
        let initial = if state == typestate.initial {
            " (initial)"
        } else {
            ""
        };
        let description = s
            .description
            .as_deref()
            .and_then(|d| d.lines().next())
            .map_or_else(String::new, |line| format!(": {line}"));
        let _ = writeln!(out, "- `{}`{initial}{description}", s.name);
    }
    let provenance = &typestate.provenance;
    let _ = write!(out, "\n**Provenance:** {}", provenance.kind.keyword());
    if let Some(platform) = &provenance.platform {
        let _ = write!(out, " on {platform}");
    }
    let _ = write!(out, ", {}", source(&entry.source));
    if let Some(overridden) = &entry.overrides {
        let _ = write!(out, ", overriding {}", source(overridden));
    }
    out.push('\n');
    if link == ViewLink::Command {
        let argument = serde_json::json!([typestate.class]).to_string();
        let _ = write!(
            out,
            "\n[Show the protocol diagram](command:{SHOW_PROTOCOL}?{})\n",
            percent_encode(&argument)
        );
    }
    out
}

/// `text` with every byte but unreserved URI characters percent-encoded.
fn percent_encode(text: &str) -> String {
    text.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => {
                (b as char).to_string()
            }
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// Where a library entry comes from, for people.
pub fn source(source: &EntrySource) -> String {
    match source {
        EntrySource::Bundled { path } => format!("bundled with typestar (`{path}`)"),
        EntrySource::User { path } => format!("from `{}`", path.display()),
    }
}

/// What the checker knows at a call: the possible states before it, what is allowed after it,
/// and which callbacks may arrive after it.
pub fn call_markdown(typestate: &Typestate, call: &CallFact) -> String {
    let before: Vec<StateId> = if call.unknown {
        typestate.state_ids().collect()
    } else {
        call.states
            .iter()
            .filter_map(|name| typestate.state_by_name(name))
            .collect()
    };
    // The callins this call may be: its symbol, or every callin bound to the Java method.
    let callins: Vec<CallinId> = typestate
        .input_callins()
        .filter(|&id| {
            let callin = typestate.callin(id);
            callin.name == call.method
                || callin.binding.methods.iter().any(|m| m.name == call.method)
        })
        .collect();
    let after: BTreeSet<StateId> = before
        .iter()
        .flat_map(|&state| {
            callins
                .iter()
                .filter_map(move |&id| typestate.step(state, id).target())
        })
        .collect();
    let mut out = format!(
        "**`{}.{}()`** on `{}`\n\nPossible states before the call: {}{}\n\n",
        call.receiver,
        call.method,
        typestate.simple_name(),
        if call.unknown {
            "any (where the object comes from is not known)".to_string()
        } else {
            names(typestate, before.iter().copied())
        },
        if call.maybe_null {
            "; it may also be `null`"
        } else {
            ""
        },
    );
    if after.is_empty() {
        out.push_str("Not allowed in any of these states.\n");
        return out;
    }
    let _ = writeln!(
        out,
        "After it: {}\n",
        names(typestate, after.iter().copied())
    );
    let allowed: Vec<String> = typestate
        .input_callins()
        .filter(|&next| {
            after
                .iter()
                .all(|&state| typestate.step(state, next).target().is_some())
        })
        .map(|next| format!("`{}()`", typestate.callin(next).name))
        .collect();
    let _ = writeln!(
        out,
        "Allowed next: {}\n",
        if allowed.is_empty() {
            "nothing".to_string()
        } else {
            allowed.join(", ")
        }
    );
    let callbacks: BTreeSet<String> = after
        .iter()
        .filter_map(|&state| match &typestate.state(state).on_wait {
            WaitOutcome::Callback { callback, .. } => Some(format!(
                "`{}()`",
                typestate.callback(*callback).binding.method()
            )),
            WaitOutcome::Quiet { .. }
            | WaitOutcome::Error { .. }
            | WaitOutcome::Restricted { .. } => None,
        })
        .collect();
    let _ = writeln!(
        out,
        "Callbacks that may arrive: {}",
        if callbacks.is_empty() {
            "none".to_string()
        } else {
            callbacks.into_iter().collect::<Vec<_>>().join(", ")
        }
    );
    out
}

/// The protocol the checker derived from a wrapper's code: each state with its fields' states,
/// and the methods that fail there with why.
pub fn derived_markdown(typestate: &Typestate) -> String {
    let mut out = format!(
        "\n**Protocol derived from `{}`'s code:**\n\n",
        typestate.simple_name()
    );
    for state in typestate.state_ids() {
        let s = typestate.state(state);
        let fields = s.description.as_deref().unwrap_or("");
        let _ = writeln!(out, "- `{}` ({fields})", s.name);
        for callin in typestate.input_callins() {
            if let typestates::Step::Error { origin, .. } = typestate.step(state, callin) {
                let why = origin.source.as_deref().unwrap_or("not allowed");
                let _ = writeln!(
                    out,
                    "  - `{}()` fails: {why}",
                    typestate.callin(callin).name
                );
            }
        }
    }
    out
}

fn names(typestate: &Typestate, states: impl Iterator<Item = StateId>) -> String {
    let names: Vec<&str> = states
        .map(|state| typestate.state(state).name.as_str())
        .collect();
    if names.is_empty() {
        "unknown".to_string()
    } else {
        names.join(", ")
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Language;
    use std::sync::Arc;

    /// A call on a wrapper whose protocol the checker derived shows that protocol: no library
    /// holds it.
    #[test]
    fn a_call_on_a_wrapper_shows_its_derived_protocol() {
        let text = "import java.util.concurrent.locks.ReentrantLock;\n\
            class Scope {\n  private final ReentrantLock lock = new ReentrantLock();\n  \
            public void lock() { lock.lock(); }\n  public void unlock() { lock.unlock(); }\n}\n\
            class User {\n  void go() {\n    Scope s = new Scope();\n    s.unlock();\n  }\n}\n";
        let library = Library::bundled();
        let file = checker::SourceFile::from_bytes(
            std::path::Path::new("Scope.java"),
            text.as_bytes().to_vec(),
        )
        .expect("checkable");
        let result = checker::check(&library, &file, &checker::CheckConfig::default());
        let states = result
            .calls
            .into_iter()
            .find(|call| call.class == "Scope")
            .expect("the call on the scope is tracked");
        assert!(states.derived.is_some(), "its protocol is derived");
        let call = CallFact {
            span: Span::new(Pos::new(9, 6), Pos::new(9, 12)),
            class: states.class,
            receiver: states.receiver,
            method: "unlock".to_owned(),
            states: states.states,
            maybe_null: states.maybe_null,
            unknown: states.unknown,
            derived: states.derived,
        };
        let source = SourceFile {
            path: None,
            language: Language::Java,
            text: Arc::from(text),
        };
        let hover = hover(
            &[call],
            &library,
            &source,
            Pos::new(9, 8),
            ViewLink::Omitted,
        )
        .expect("a hover");
        assert!(hover
            .markdown
            .contains("Protocol derived from `Scope`'s code"));
        assert!(
            hover
                .markdown
                .contains("`unlock()` fails: `unlock()` calls `lock.unlock()`"),
            "{}",
            hover.markdown
        );
        assert!(hover
            .markdown
            .contains("Not allowed in any of these states"));
    }
}
