//! Renders a checked project for people (rustc-like text) and for tools (JSON, SARIF 2.1.0).

pub mod human;
pub mod json;
pub mod sarif;

use checker::ViolationKind;
use typestates::LevelSet;

/// The severity a finding is shown with: a definite violation is an error, a possible one or
/// an ignored call a warning, a handled one a note.
pub fn severity(kind: ViolationKind) -> &'static str {
    match kind {
        ViolationKind::Definite => "error",
        ViolationKind::Possible | ViolationKind::Ignored => "warning",
        ViolationKind::Handled => "note",
    }
}

/// The API levels a finding happens on, when they say more than "every level": the app's
/// levels are known, or a protocol changes with the level.
pub fn shown_levels(levels: &LevelSet) -> Option<String> {
    (!levels.is_all()).then(|| levels.to_string())
}
