//! The JSON report (`"format": "typestar-check/1"`).
//!
//! It lists every finding with its place, states, exception, related locations and hint.
//! It lists every file that could not be checked, and every file checked with a caveat (`warnings`: read as Latin-1, a level setting not read).
//! A finding's `api_levels` says on which API levels it happens (`null`: every level).

use checker::Violation;

use serde_json::{json, Value};

use super::{severity, shown_levels};
use server::project::{ProjectResult, ShownFile};
use typestates::LevelSet;

/// The report as pretty-printed JSON.
pub fn render(project: &ProjectResult) -> String {
    let findings: Vec<Value> = project
        .files
        .iter()
        .flat_map(|f| {
            f.result
                .violations
                .iter()
                .zip(&f.violation_levels)
                .map(move |(v, levels)| finding(&f.source, v, levels))
        })
        .collect();
    let unreleased: Vec<Value> = project
        .files
        .iter()
        .flat_map(|f| {
            f.result
                .unreleased
                .iter()
                .zip(&f.unreleased_levels)
                .map(move |(u, levels)| {
                    json!({
                        "path": f.source.path.display().to_string(),
                        "line": u.span.start.line,
                        "column": u.span.start.col,
                        "code": u.code,
                        "kind": if u.definite { "definite" } else { "possible" },
                        "message": u.message,
                        "class": u.class,
                        "receiver": u.receiver,
                        "states": u.states,
                        "releasing": u.releasing,
                        "related": u.related.iter().map(|r| json!({
                            "line": r.span.start.line,
                            "column": r.span.start.col,
                            "label": r.label,
                        })).collect::<Vec<_>>(),
                        "api_levels": shown_levels(levels),
                    })
                })
        })
        .collect();
    let errors: Vec<Value> = project
        .errors
        .iter()
        .map(|e| {
            json!({
                "code": e.code(),
                "path": e.path().display().to_string(),
                "message": e.to_string(),
                "help": e.next_step(),
            })
        })
        .collect();
    let warnings: Vec<Value> = project
        .warnings
        .iter()
        .map(|w| {
            json!({
                "code": w.code(),
                "path": w.path().display().to_string(),
                "message": w.to_string(),
                "help": w.next_step(),
            })
        })
        .collect();
    let syntax_errors: Vec<Value> = project
        .files
        .iter()
        .flat_map(|f| {
            f.result.syntax_errors.iter().map(move |span| {
                json!({
                    "path": f.source.path.display().to_string(),
                    "line": span.start.line,
                    "column": span.start.col,
                })
            })
        })
        .collect();
    let report = json!({
        "format": "typestar-check/1",
        "files_checked": project.files.len(),
        "findings": findings,
        "unreleased": unreleased,
        "errors": errors,
        "warnings": warnings,
        "syntax_errors": syntax_errors,
    });
    serde_json::to_string_pretty(&report).expect("JSON values serialize") + "\n"
}

fn finding(file: &ShownFile, v: &Violation, levels: &LevelSet) -> Value {
    let path = file.path.display().to_string();
    json!({
        "path": path,
        "line": v.span.start.line,
        "column": v.span.start.col,
        "end_line": v.span.end.line,
        "end_column": v.span.end.col,
        "code": v.kind.code(),
        "kind": v.kind.name(),
        "severity": severity(v.kind),
        "message": v.message,
        "class": v.class,
        "callin": v.callin,
        "receiver": v.receiver,
        "states": v.states,
        "offending_states": v.offending_states,
        "exception": v.exception,
        "allowed": v.allowed,
        "pending_callbacks": v.pending_callbacks,
        "meanings": v.meanings.iter().map(|m| json!({
            "state": m.state,
            "meaning": m.meaning,
        })).collect::<Vec<_>>(),
        "api_levels": shown_levels(levels),
        "related": v.related.iter().map(|r| json!({
            "path": path,
            "line": r.span.start.line,
            "column": r.span.start.col,
            "label": r.label,
        })).collect::<Vec<_>>(),
    })
}
