//! The analysis boundary of the server: plain data in (a source file and the protocol library),
//! plain data out (findings, per-call facts, hover text, edits). Nothing here knows LSP.
//!
//! The LSP layer (`crate::lsp`) hands [`SourceFile`] snapshots to a [`Checker`] on a blocking
//! thread and converts the results with `lsp::to_proto`. The checker is a trait object so the
//! production binary can plug in `checker::check` and the protocol tests a scripted fake.

pub mod actions;
pub mod hover;
pub mod suppress;
pub mod text;

use std::path::PathBuf;
use std::sync::Arc;

pub use text::{Pos, Span};
pub use typestates::library::Library;

/// The folder, at a workspace root, whose `.typestate` files add to or override the library.
pub const WORKSPACE_DIR: &str = ".typestar";

/// The languages the checker reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Language {
    /// `.java`
    Java,
    /// `.kt`, `.kts`
    Kotlin,
}

impl Language {
    /// The language of an LSP `languageId` or a file extension, if the checker reads it.
    pub fn from_id(id: &str) -> Option<Language> {
        match id {
            "java" => Some(Language::Java),
            "kotlin" | "kt" | "kts" => Some(Language::Kotlin),
            _ => None,
        }
    }
}

/// An immutable snapshot of one file: what analysis runs on.
#[derive(Clone, Debug)]
pub struct SourceFile {
    /// The file on disk, when it has one (for messages and for `.typestar/` lookup).
    pub path: Option<PathBuf>,
    /// The language of the text.
    pub language: Language,
    /// The whole text, shared with the document store.
    pub text: Arc<str>,
}

/// Everything one check of one file found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileAnalysis {
    /// Protocol violations, already filtered by `typestar:ignore` comments.
    pub findings: Vec<Finding>,
    /// What the checker knows at each call of a protocol method (for hovers).
    pub calls: Vec<CallFact>,
}

/// How sure the checker is that a violation happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Certainty {
    /// On every path reaching the call.
    Definite,
    /// On some path reaching the call.
    Possible,
}

/// One protocol violation.
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    /// The stable id of the check that found it; see [`FindingCode`].
    pub code: FindingCode,
    /// The offending call.
    pub span: Span,
    /// Definite or possible.
    pub certainty: Certainty,
    /// One sentence: "`start()` called on `player` in state Idle".
    pub message: String,
    /// Other places that explain it: the call that put the object in its state.
    pub related: Vec<Related>,
    /// What the user can do, when the checker knows.
    pub hint: Option<String>,
    /// The declaration line of the enclosing method, for method-level suppression.
    pub method: Option<Pos>,
    /// A fix the checker vouches for; offered as a quick fix.
    pub fix: Option<Fix>,
}

/// The stable ids of findings, used as LSP diagnostic codes and in suppression docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingCode {
    /// Diagnostic: typestate-violation. A callin not allowed in the object's state.
    TypestateViolation,
    /// Diagnostic: callback-race. A callin that is only legal after a callback that may not
    /// have arrived yet.
    CallbackRace,
}

impl FindingCode {
    /// The kebab-case id shown to users.
    pub fn id(self) -> &'static str {
        match self {
            FindingCode::TypestateViolation => "typestate-violation",
            FindingCode::CallbackRace => "callback-race",
        }
    }

    /// Where the check is documented.
    pub fn doc_url(self) -> String {
        format!("https://typestar.dev/diagnostics#{}", self.id())
    }
}

/// A location elsewhere in the same file that explains a finding.
#[derive(Clone, Debug, PartialEq)]
pub struct Related {
    /// Where.
    pub span: Span,
    /// Why it matters: "`player` enters state Started here".
    pub message: String,
}

/// A text change the checker vouches for.
#[derive(Clone, Debug, PartialEq)]
pub struct Fix {
    /// The title shown in the editor's quick-fix menu.
    pub title: String,
    /// The edits, in one file, not overlapping.
    pub edits: Vec<Edit>,
}

/// Replace `span` by `new_text`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Edit {
    /// The replaced text (empty for an insertion).
    pub span: Span,
    /// The replacement.
    pub new_text: String,
}

/// What the checker knows at one call of a protocol method.
#[derive(Clone, Debug, PartialEq)]
pub struct CallFact {
    /// The call expression.
    pub span: Span,
    /// The fully qualified class of the receiver.
    pub class: String,
    /// The callin symbol of the call.
    pub callin: String,
    /// The states the receiver may be in just before the call.
    pub states: Vec<String>,
}

/// The static checker, behind one function boundary.
pub trait Checker: Send + Sync + 'static {
    /// Checks one file against the library.
    fn check(&self, library: &Library, file: &SourceFile) -> FileAnalysis;
}

/// Checks a file and drops the findings the source suppresses.
pub fn analyze(checker: &dyn Checker, library: &Library, file: &SourceFile) -> FileAnalysis {
    let mut analysis = checker.check(library, file);
    analysis
        .findings
        .retain(|finding| !suppress::is_suppressed(&file.text, finding.span.start.line));
    analysis
}

/// The production checker. `checker::check` is not on this branch yet (branch `checker`), so
/// this finds nothing; wiring it is this one function.
#[derive(Clone, Copy, Debug, Default)]
pub struct StaticChecker;

impl Checker for StaticChecker {
    fn check(&self, _library: &Library, _file: &SourceFile) -> FileAnalysis {
        FileAnalysis::default()
    }
}
