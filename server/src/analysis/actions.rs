//! Code actions as plain edits: the checker's own fix where it gave one, and suppressions for
//! the line or the enclosing method.

use super::{suppress, Edit, FileAnalysis, Pos, SourceFile, Span};

/// One code action for one finding.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Action {
    /// The menu title.
    pub title: String,
    /// Index of the finding in [`FileAnalysis::findings`].
    pub finding: usize,
    /// Edits of the file.
    pub edits: Vec<Edit>,
    /// A fix (true) or a suppression (false).
    pub is_fix: bool,
}

/// The actions for the findings that touch one of `ranges` (the requested range, and the
/// ranges of the diagnostics the client sent with it), fixes first; `method_at` finds the
/// declaration enclosing a position.
pub fn actions(
    file: &SourceFile,
    analysis: &FileAnalysis,
    ranges: &[Span],
    method_at: impl Fn(Pos) -> Option<Pos>,
) -> Vec<Action> {
    let mut actions = Vec::new();
    for (index, finding) in analysis.findings.iter().enumerate() {
        if !ranges.iter().any(|range| finding.span.touches(range)) {
            continue;
        }
        if let Some(fix) = &finding.fix {
            actions.push(Action {
                title: fix.title.clone(),
                finding: index,
                edits: fix.edits.clone(),
                is_fix: true,
            });
        }
        actions.push(Action {
            title: format!("Ignore `{}` on this line", finding.code.id()),
            finding: index,
            edits: vec![suppress::ignore_line(&file.text, finding.span.start.line)],
            is_fix: false,
        });
        if let Some(method) = method_at(finding.span.start) {
            actions.push(Action {
                title: "Suppress typestate checks in this method".to_string(),
                finding: index,
                edits: vec![suppress::suppress_method(&file.text, file.language, method)],
                is_fix: false,
            });
        }
    }
    actions.sort_by_key(|action| !action.is_fix);
    actions
}

/// Every fix of the file whose edits do not overlap an earlier fix's, in finding order: one
/// `source.fixAll` action.
pub fn fix_all(analysis: &FileAnalysis) -> Vec<Edit> {
    let mut edits: Vec<Edit> = Vec::new();
    for fix in analysis.findings.iter().filter_map(|f| f.fix.as_ref()) {
        let overlaps = fix.edits.iter().any(|new| {
            edits
                .iter()
                .any(|old| new.span.start < old.span.end && old.span.start < new.span.end)
        });
        if !overlaps {
            edits.extend(fix.edits.iter().cloned());
        }
    }
    edits
}
