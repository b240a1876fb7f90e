//! The text of `typestar diff`: where two typestates behave differently.
//! It also shows where one says an input was only restricted by its experiment and the other an
//! error.
//! The CLI prints it, and `typestar.learnClass` shows it when it learned a class the library
//! already has.

use typestates::diff::Diff;

/// `diff` of `left` and `right` (the names shown for the two sides), one finding a line.
pub fn describe(diff: &Diff, left: &str, right: &str) -> String {
    if diff.is_identical() {
        return format!("{left} and {right} are equivalent.\n");
    }
    let mut text = String::new();
    if diff.is_equivalent() {
        text += &format!(
            "{left} and {right} have the same traces, but not the same restrictions of their experiments:\n"
        );
    }
    let sides = [
        ("callins", &diff.callins_only_left, left),
        ("callins", &diff.callins_only_right, right),
        ("callbacks", &diff.callbacks_only_left, left),
        ("callbacks", &diff.callbacks_only_right, right),
    ];
    for (what, names, side) in sides {
        if !names.is_empty() {
            text += &format!("{what} only in {side}: {}\n", names.join(", "));
        }
    }
    for witness in diff.witnesses.iter().chain(&diff.restrictions) {
        let Some((last, prefix)) = witness.steps.split_last() else {
            continue;
        };
        let prefix: Vec<String> = prefix
            .iter()
            .map(|s| format!("{}/{}", s.input, s.left))
            .collect();
        text += &format!(
            "after [{}]: `{}` answers {} in {left} but {} in {right}\n",
            prefix.join(" "),
            last.input,
            last.left,
            last.right,
        );
    }
    text
}
