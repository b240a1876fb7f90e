//! Shared test helpers: the language of a fixture, and its `// ^^^ text` annotations
//! compared with what a pass actually found.

// Each test crate uses a subset of the helpers.
#![allow(dead_code)]

use std::fmt::Write as _;
use std::path::Path;

use checker::ir::Language;
use checker::{CheckConfig, Unconverged, Unreleased, Unsettled, Violation};

/// The default settings with a time limit no fixture reaches, however loaded the machine:
/// these tests compare findings, never speed.
pub fn unhurried() -> CheckConfig {
    CheckConfig {
        time_limit: std::time::Duration::from_secs(600),
        ..CheckConfig::default()
    }
}

/// One expected or actual finding: a line, a byte column range on it, and a message.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
pub struct Annotation {
    pub line: u32,
    pub cols: (u32, u32),
    pub text: String,
}

/// The language of a fixture, from its extension.
pub fn language_of(path: &Path) -> Language {
    match path.extension().and_then(|e| e.to_str()) {
        Some("kt" | "kts") => Language::Kotlin,
        _ => Language::Java,
    }
}

/// Reads the `// ^^^ text` annotations of a fixture.
/// The carets mark 1-based byte columns of the nearest line above that is not an annotation.
pub fn annotations(text: &str) -> Vec<Annotation> {
    let mut out = Vec::new();
    let mut target_line = 0;
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        let carets = trimmed.strip_prefix("//").map(str::trim_start);
        match carets {
            Some(rest) if rest.starts_with('^') => {
                let start = line.find('^').unwrap_or(0);
                let len = rest.chars().take_while(|c| *c == '^').count();
                let message = rest[len..].trim().to_owned();
                out.push(Annotation {
                    line: target_line,
                    cols: (start as u32 + 1, (start + len) as u32 + 1),
                    text: message,
                });
            }
            _ => target_line = index as u32 + 1,
        }
    }
    out.sort();
    out
}

/// Compares actual findings with the annotations of `text`, with a readable failure.
#[track_caller]
pub fn assert_annotations(path: &Path, text: &str, mut actual: Vec<Annotation>) {
    actual.sort();
    let expected = annotations(text);
    if expected != actual {
        let render = |items: &[Annotation]| {
            items.iter().fold(String::new(), |mut out, a| {
                let _ = writeln!(out, "  {}:{}-{}: {}", a.line, a.cols.0, a.cols.1, a.text);
                out
            })
        };
        panic!(
            "{}: annotations differ\nexpected:\n{}actual:\n{}",
            path.display(),
            render(&expected),
            render(&actual)
        );
    }
}

/// Findings as annotations: `kind: Class.callin in State, State` at the call's columns.
pub fn violations(found: &[Violation]) -> Vec<Annotation> {
    found
        .iter()
        .map(|v| {
            let class = v.class.rsplit('.').next().unwrap_or(&v.class);
            Annotation {
                line: v.span.start.line,
                cols: (v.span.start.col, v.span.end.col),
                text: format!(
                    "{}: {class}.{} in {}",
                    v.kind.name(),
                    v.callin,
                    v.offending_states.join(", ")
                ),
            }
        })
        .collect()
}

/// Leak reports as annotations: `code (definite): Class in State, State` where the object is
/// lost (`possible` when some path releases it).
pub fn leaks(found: &[Unreleased]) -> Vec<Annotation> {
    found
        .iter()
        .map(|u| {
            let class = u.class.rsplit('.').next().unwrap_or(&u.class);
            Annotation {
                line: u.span.start.line,
                cols: (u.span.start.col, u.span.end.col),
                text: format!(
                    "{} ({}): {class} in {}",
                    u.code,
                    if u.definite { "definite" } else { "possible" },
                    u.states.join(", ")
                ),
            }
        })
        .collect()
}

/// Classes withheld for a solve that stopped short, as annotations: `unconverged:
/// Class.method` at the first column of the body that stopped (`Class.<events>` at the
/// class's for its event model).
pub fn unconverged(found: &[Unconverged]) -> Vec<Annotation> {
    found
        .iter()
        .map(|u| {
            let class = u.class.rsplit('.').next().unwrap_or(&u.class);
            let method = match &u.analysis {
                Unsettled::Method(method) => method.as_str(),
                Unsettled::Initializer => "<initializer>",
                Unsettled::Events => "<events>",
            };
            Annotation {
                line: u.span.start.line,
                cols: (u.span.start.col, u.span.start.col + 1),
                text: format!("unconverged: {class}.{method}"),
            }
        })
        .collect()
}
