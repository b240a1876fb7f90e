//! Quick fixes the checker vouches for, attached to the violations they remove.
//!
//! One fix exists: `start()` right after `prepareAsync()` on a `MediaPlayer` starts a player that is still preparing.
//! The fix starts it in an `onPrepared` listener instead, registered just before `prepareAsync()`:
//!
//! ```text
//! player.prepareAsync();         player.setOnPreparedListener(mp -> mp.start());
//! player.start();          =>    player.prepareAsync();
//! ```
//!
//! (Kotlin: `player.setOnPreparedListener { it.start() }`.)
//! It is offered only where moving the call cannot change what else the code does:
//! - the violation is definite, and `onPrepared` is the one callback pending;
//! - both calls are whole statements of the same body, next to each other with only blank space between;
//! - they are on the same receiver, a plain name, and each statement starts its line;
//! - nothing after the `start()` in that body names the receiver;
//! - nothing follows at all, unless the receiver is a local declared earlier in that body (so no other code can reach it);
//! - no `setOnPreparedListener` appears anywhere in the file, so no listener is replaced;
//! - in Java, the lambda's parameter name is used nowhere in the file.
//!
//! The fixes depend only on the IR, the text and the violations.
//! So the incremental engine recomputes them when it keeps findings across an edit.

use crate::diagnostics::{Fix, FixEdit, Violation, ViolationKind};
use crate::ir::{Body, Call, Class, ExprKind, Language, SourceIr, Span, Stmt, StmtKind};

const PLAYER: &str = "android.media.MediaPlayer";
const REGISTER: &str = "setOnPreparedListener";

/// Sets the fix of every violation in `violations`: the one this module offers, or none.
pub fn attach(ir: &SourceIr, text: &str, violations: &mut [Violation]) {
    let mut bodies: Option<Vec<&Body>> = None;
    for violation in violations.iter_mut() {
        violation.fix = None;
        if !starts_a_preparing_player(violation) || text.contains(REGISTER) {
            continue;
        }
        let bodies = bodies.get_or_insert_with(|| all_bodies(ir));
        violation.fix = bodies
            .iter()
            .find_map(|body| start_in_listener(ir.language, text, body, violation.span));
    }
}

fn starts_a_preparing_player(violation: &Violation) -> bool {
    violation.class == PLAYER
        && violation.callin == "start"
        && violation.kind == ViolationKind::Definite
        && violation.pending_callbacks == ["onPrepared"]
}

/// The bodies of the file's classes and nested classes (methods, constructors, initializers),
/// and of the lambdas and anonymous classes passed in call statements of those bodies.
fn all_bodies(ir: &SourceIr) -> Vec<&Body> {
    let mut out = Vec::new();
    ir.classes
        .iter()
        .for_each(|class| class_bodies(class, &mut out));
    let mut next = 0;
    while let Some(&body) = out.get(next) {
        for stmt in &body.stmts {
            if let StmtKind::Expr(expr) = &stmt.kind {
                nested_bodies(expr, &mut out);
            }
        }
        next += 1;
    }
    out
}

fn class_bodies<'a>(class: &'a Class, out: &mut Vec<&'a Body>) {
    out.extend(class.methods.iter().filter_map(|m| m.body.as_ref()));
    out.extend(&class.initializers);
    class.classes.iter().for_each(|c| class_bodies(c, out));
}

/// The bodies of lambdas and anonymous classes passed as arguments in a call statement
/// (`button.setOnClickListener(v -> { … })`).
fn nested_bodies<'a>(expr: &'a crate::ir::Expr, out: &mut Vec<&'a Body>) {
    let ExprKind::Call(call) = &expr.kind else {
        return;
    };
    for arg in &call.args {
        match &arg.kind {
            ExprKind::Lambda { body, .. } => out.push(body),
            ExprKind::New {
                body: Some(class), ..
            } => {
                out.extend(class.methods.iter().filter_map(|m| m.body.as_ref()));
            }
            _ => {}
        }
    }
}

/// The call a statement is, if it is a plain `name.method()` with no arguments.
fn plain_call(stmt: &Stmt) -> Option<(&str, &Call)> {
    let StmtKind::Expr(expr) = &stmt.kind else {
        return None;
    };
    let ExprKind::Call(call) = &expr.kind else {
        return None;
    };
    let ExprKind::Name(receiver) = &call.receiver.as_ref()?.kind else {
        return None;
    };
    (call.args.is_empty() && !call.is_safe).then_some((receiver.as_str(), call))
}

fn start_in_listener(language: Language, text: &str, body: &Body, span: Span) -> Option<Fix> {
    let stmts = &body.stmts;
    let index = stmts
        .iter()
        .position(|s| plain_call(s).is_some_and(|(_, call)| call.name_span == span))?;
    let (receiver, start) = plain_call(&stmts[index])?;
    let prepare = stmts.get(index.checked_sub(1)?)?;
    let (prepared, call) = plain_call(prepare)?;
    if prepared != receiver || call.name != "prepareAsync" || start.name != "start" {
        return None;
    }
    let start_stmt = &stmts[index];
    let between = text.get(prepare.span.end_byte..start_stmt.span.start_byte)?;
    let indent = line_indent(text, prepare.span)?;
    if !between.trim().is_empty() || line_indent(text, start_stmt.span).is_none() {
        return None;
    }
    let later = &stmts[index + 1..];
    let is_local = stmts[..index]
        .iter()
        .any(|s| matches!(&s.kind, StmtKind::Local(local) if local.name == receiver));
    let named_later = later.iter().any(|s| {
        text.get(s.span.start_byte..s.span.end_byte)
            .is_none_or(|t| names(t, receiver))
    });
    if named_later || (!is_local && !later.is_empty()) {
        return None;
    }
    let listener = match language {
        Language::Java => {
            let param = ["mp", "prepared", "preparedPlayer"]
                .into_iter()
                .find(|name| !names(text, name))?;
            format!("{receiver}.{REGISTER}({param} -> {param}.start());")
        }
        Language::Kotlin => format!("{receiver}.{REGISTER} {{ it.start() }}"),
    };
    Some(Fix {
        title: format!("Start `{receiver}` in an `onPrepared` listener, once it is prepared"),
        edits: vec![
            FixEdit {
                span: empty_at(prepare.span),
                new_text: format!("{listener}\n{indent}"),
            },
            FixEdit {
                span: Span {
                    start_byte: prepare.span.end_byte,
                    start: prepare.span.end,
                    ..start_stmt.span
                },
                new_text: String::new(),
            },
        ],
    })
}

/// The blank space before `span` on its line, if `span` starts its line.
fn line_indent(text: &str, span: Span) -> Option<&str> {
    let before = text.get(..span.start_byte)?;
    let indent = &before[before.rfind('\n').map_or(0, |n| n + 1)..];
    indent.trim().is_empty().then_some(indent)
}

/// An empty span at the start of `span`.
fn empty_at(span: Span) -> Span {
    Span {
        end_byte: span.start_byte,
        end: span.start,
        ..span
    }
}

/// Whether `text` contains `name` as a whole word.
fn names(text: &str, name: &str) -> bool {
    let is_word = |c: char| c.is_alphanumeric() || c == '_' || c == '$';
    text.match_indices(name).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + name.len()..].chars().next();
        !before.is_some_and(is_word) && !after.is_some_and(is_word)
    })
}
