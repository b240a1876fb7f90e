//! rustc-like text: the finding, the source line with a caret, the calls that led there, and what
//! the protocol allows instead.
//! Colour only on a terminal and never under `NO_COLOR`.

use std::fmt::Write;

use checker::{Related, Violation};

use super::{severity, shown_levels};
use server::project::{ProjectResult, ShownFile};
use typestates::LevelSet;

/// ANSI styles, or none.
#[derive(Clone, Copy, Debug)]
pub struct Style {
    colour: bool,
}

impl Style {
    /// Colour when `colour` is true.
    pub fn new(colour: bool) -> Style {
        Style { colour }
    }

    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_owned()
        }
    }
}

/// The whole report, ending with a summary line.
pub fn render(project: &ProjectResult, style: Style) -> String {
    let mut out = String::new();
    for error in &project.errors {
        let _ = writeln!(
            out,
            "{}{}: {error}\n  = help: {}\n",
            style.paint("1;31", "error"),
            style.paint("1", &format!("[{}]", error.code())),
            error.next_step()
        );
    }
    for warning in &project.warnings {
        let _ = writeln!(
            out,
            "{}{}: {warning}\n  = help: {}\n",
            style.paint("1;33", "warning"),
            style.paint("1", &format!("[{}]", warning.code())),
            warning.next_step()
        );
    }
    for checked in &project.files {
        let (file, result) = (&checked.source, &checked.result);
        for (violation, levels) in result.violations.iter().zip(&checked.violation_levels) {
            render_violation(&mut out, file, violation, levels, style);
        }
        for (unreleased, levels) in result.unreleased.iter().zip(&checked.unreleased_levels) {
            let kind = if unreleased.definite {
                "definite"
            } else {
                "possible"
            };
            let _ = writeln!(
                out,
                "{}{}: {} ({kind})\n  --> {}:{}",
                style.paint("1;33", "warning"),
                style.paint("1", &format!("[{}]", unreleased.code)),
                unreleased.message,
                file.path.display(),
                unreleased.span.start
            );
            render_related(&mut out, file, &unreleased.related);
            write_levels(&mut out, levels);
            out.push('\n');
        }
        for span in &result.syntax_errors {
            let _ = writeln!(
                out,
                "{}{}: {}:{}: syntax error; the rest of the file was checked around it\n  = help: if the code compiles, please report the parser gap\n",
                style.paint("1;33", "warning"),
                style.paint("1", "[syntax-error]"),
                file.path.display(),
                span.start
            );
        }
    }
    let n_violations = project.n_violations();
    let warnings = match project.warnings.len() {
        0 => String::new(),
        n => format!(", {n} file warning(s)"),
    };
    let _ = writeln!(
        out,
        "{} file(s) checked: {} finding(s), {} file error(s){warnings}.",
        project.files.len(),
        n_violations,
        project.errors.len()
    );
    out
}

/// One note per related location of a finding.
fn render_related(out: &mut String, file: &ShownFile, related: &[Related]) {
    for related in related {
        let _ = writeln!(
            out,
            "  = note: {} ({}:{})",
            related.label,
            file.path.display(),
            related.span.start
        );
    }
}

/// The note saying on which API levels a finding happens, when that says more than "every
/// level".
fn write_levels(out: &mut String, levels: &LevelSet) {
    if let Some(levels) = shown_levels(levels) {
        let _ = writeln!(out, "  = note: happens on API levels {levels}");
    }
}

fn render_violation(
    out: &mut String,
    file: &ShownFile,
    v: &Violation,
    levels: &LevelSet,
    style: Style,
) {
    let severity = severity(v.kind);
    let colour = if severity == "error" { "1;31" } else { "1;33" };
    let _ = writeln!(
        out,
        "{}{}: {} ({})",
        style.paint(colour, severity),
        style.paint("1", &format!("[{}]", v.kind.code())),
        v.message,
        v.kind.name()
    );
    let line = v.span.start.line;
    let col = v.span.start.col;
    let _ = writeln!(out, "  --> {}:{line}:{col}", file.path.display());
    if let Some(text) = file.line(line) {
        let gutter = " ".repeat(line.to_string().len());
        let width = if v.span.end.line == line {
            (v.span.end.col.saturating_sub(col)).max(1) as usize
        } else {
            1
        };
        let _ = writeln!(out, "{gutter} |");
        let _ = writeln!(out, "{line} | {text}");
        let _ = writeln!(
            out,
            "{gutter} | {}{}",
            " ".repeat(col as usize - 1),
            style.paint(colour, &"^".repeat(width))
        );
    }
    render_related(out, file, &v.related);
    if let Some(exception) = &v.exception {
        let _ = writeln!(out, "  = note: the framework throws {exception}");
    }
    for meaning in &v.meanings {
        let _ = writeln!(out, "  = note: {}: {}", meaning.state, meaning.meaning);
    }
    write_levels(out, levels);
    if !v.allowed.is_empty() || !v.pending_callbacks.is_empty() {
        let mut help = Vec::new();
        if !v.allowed.is_empty() {
            help.push(format!("allowed here: {}", v.allowed.join(", ")));
        }
        if !v.pending_callbacks.is_empty() {
            help.push(format!(
                "callbacks that may arrive: {}",
                v.pending_callbacks.join(", ")
            ));
        }
        let _ = writeln!(out, "  = help: {}", help.join("; "));
    }
    let _ = writeln!(out);
}
