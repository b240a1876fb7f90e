//! The text format of typestates: one `.typestate` file per class, written and read by people.
//!
//! The grammar is documented in `typestates/FORMAT.md`.
//! [`parse`] reports every error with file:line:col and what was expected; [`print`] writes the
//! canonical form, which parses back to the same typestate.
//! The same model travels as JSON ([`to_json`], [`from_json`], with the schema [`json_schema`]),
//! and [`from_droidstar_dot`] imports DroidStar's learned automata.

mod droidstar_dot;
mod json;
mod lexer;
mod parser;
mod printer;

pub use droidstar_dot::from_droidstar_dot;
pub use json::{from_json, json_schema, to_json};
/// Quotes a string with `\"`, `\\` and `\n` escapes: the text format's strings, which
/// are also valid DOT strings.
pub(crate) use lexer::quote;
pub use parser::{parse, MAX_ERRORS};

/// The most steps (states times callins) a typestate read from a file may hold.
/// The model stores only the steps a file names ([`crate::Steps`]), so memory follows the file.
/// Printing, rendering and learning still visit every state and callin: this bounds their time.
/// Real protocols hold a few hundred steps; the 5 000 by 5 000 fuzz model (25 million) loads.
pub const MAX_STEPS: usize = 1 << 26;

/// The error for a typestate of `states` states and `callins` callins past [`MAX_STEPS`].
fn too_many_steps(states: usize, callins: usize) -> Option<String> {
    let steps = states.saturating_mul(callins);
    (steps > MAX_STEPS).then(|| {
        format!(
            "{states} states times {callins} callins make {steps} steps, more than the limit of {MAX_STEPS}"
        )
    })
}
pub use printer::print;

use std::fmt;

/// Words that cannot name a callin or callback: the synchronous closure's own symbols, the
/// keywords of transition lines (`restricted` also names restrictions in `typestar diff`), and
/// the keywords that open a declaration, which a transition line of that callin would read as
/// (found by the `droidstar_dot` fuzz target: a callin `source` printed `source -> s0`).
const RESERVED: [&str; 22] = [
    "wait",
    "quiet",
    "eps",
    "err",
    "on",
    "fails",
    "restricted",
    "harmless",
    "excluded",
    "typestate",
    "summary",
    "note",
    "source",
    "platform",
    "provenance",
    "stats",
    "callin",
    "callback",
    "state",
    "obligation",
    "accept",
    "reject",
];

/// Words that open a method reference (`new(..)`, `static name(..)`), so cannot name an instance
/// method (found by the `droidstar_dot` fuzz target: a callin `static` printed `static(..)`).
const METHOD_KINDS: [&str; 2] = ["new", "static"];

/// Whether `name` is a word of the text format that cannot name a callin or callback.
pub fn is_reserved(name: &str) -> bool {
    RESERVED.contains(&name)
}

/// An error in a typestate file, at file:line:col.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// The file as the user named it.
    pub path: String,
    /// 1-based line.
    pub line: usize,
    /// 1-based column, in characters.
    pub col: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl Diagnostic {
    fn new(path: &str, line: usize, col: usize, message: String) -> Diagnostic {
        Diagnostic {
            path: path.to_owned(),
            line,
            col,
            message,
        }
    }
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}",
            self.path, self.line, self.col, self.message
        )
    }
}

impl std::error::Error for Diagnostic {}

/// Whether `text` names a listener method as a posted error callback must: a qualified Java
/// name of at least two parts (`android.media.MediaPlayer.OnErrorListener.onError`).
pub(crate) fn is_posted_callback(text: &str) -> bool {
    let parts: Vec<&str> = text.split('.').collect();
    parts.len() >= 2
        && parts.iter().all(|part| {
            let mut chars = part.chars();
            chars
                .next()
                .is_some_and(|c| c.is_alphabetic() || matches!(c, '_' | '$'))
                && chars.all(|c| c.is_alphanumeric() || matches!(c, '_' | '$'))
        })
}
