//! The analysis boundary of the server.
//! Plain data goes in: a source file and the protocol library.
//! Plain data comes out: findings, per-call facts, hover text, edits.
//! Nothing here knows LSP.
//!
//! The LSP layer (`crate::lsp`) hands [`SourceFile`] snapshots to a [`Checker`] on a blocking
//! thread and converts the results with `lsp::to_proto`.
//! The checker is a trait object so the production binary can plug in `checker::check` and the
//! protocol tests a scripted fake.

pub mod actions;
pub mod hover;
pub mod protocol;
mod static_checker;
pub mod suppress;
pub mod text;

use std::path::PathBuf;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use serde::Deserialize;

pub use static_checker::StaticChecker;
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

/// What a checker keeps of one document between two checks of it, so that the next check
/// re-does only what the edit changed (`checker::Incremental`), and the per-call results of
/// the last check, which hovers, inlay hints and views are answered from. The LSP layer keeps
/// one per open document; a check of a file that is not open gets a fresh one.
#[derive(Default)]
pub struct DocumentCache {
    pub(crate) incremental: Mutex<checker::Incremental>,
    /// The text of the last check and its calls.
    calls: Mutex<Option<KeptCalls>>,
}

/// A text and its calls.
type KeptCalls = (Arc<str>, Arc<Vec<CallFact>>);

impl DocumentCache {
    /// Keeps the calls a check of `file` found.
    pub fn keep_calls(&self, file: &SourceFile, calls: Arc<Vec<CallFact>>) {
        let mut kept = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        *kept = Some((file.text.clone(), calls));
    }

    /// The calls of the last check, if it checked the text of `file`.
    pub fn calls_of(&self, file: &SourceFile) -> Option<Arc<Vec<CallFact>>> {
        let kept = self.calls.lock().unwrap_or_else(PoisonError::into_inner);
        let (text, calls) = kept.as_ref()?;
        (Arc::ptr_eq(text, &file.text) || **text == *file.text).then(|| calls.clone())
    }
}

impl std::fmt::Debug for DocumentCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("DocumentCache")
    }
}

/// The call whose name is at `pos`.
pub fn call_at(calls: &[CallFact], pos: Pos) -> Option<&CallFact> {
    calls.iter().find(|call| call.span.contains(pos))
}

/// Everything one check of one file found.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct FileAnalysis {
    /// Protocol violations, suppressions already applied by the checker.
    pub findings: Vec<Finding>,
    /// What the check knew at each call on a protocol object, in source order.
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
    /// A fix the checker vouches for; offered as a quick fix.
    pub fix: Option<Fix>,
}

/// The stable ids of findings, used as LSP diagnostic codes and in suppression docs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FindingCode {
    /// Diagnostic: typestate-violation. A callin not allowed in the object's state.
    TypestateViolation,
    /// Diagnostic: ignored-call. A callin the protocol accepts but ignores in every state
    /// reaching it (`execute()` on a cancelled AsyncTask).
    IgnoredCall,
    /// Diagnostic: typestate-violation-handled. A violation inside a `try` whose `catch`
    /// catches what the call throws: the code expects it.
    HandledViolation,
    /// Diagnostic: not-checked-fully. The file nests deeper than the checker follows, or its
    /// check hit the time limit; findings past that place may be missing.
    NotCheckedFully,
    /// Diagnostic: leak-method-end. A local still holds an object that must be released when
    /// the method that created it ends.
    LeakMethodEnd,
    /// Diagnostic: leak-exception. An exception leaves the method while a local holds an
    /// object that must be released.
    LeakException,
    /// Diagnostic: leak-overwritten. The name holding an object that must be released is given
    /// another value or `null`.
    LeakOverwritten,
    /// Diagnostic: leak-replaced. A new object replaces, in a field, one that must be released.
    LeakReplaced,
    /// Diagnostic: leak-component-end. A field of a component still holds an object that must
    /// be released when the component is destroyed.
    LeakComponentEnd,
    /// Diagnostic: leak-lifecycle. A field of a component holds an object the protocol asks to
    /// release by a lifecycle callback when that callback returns.
    LeakLifecycle,
    /// Diagnostic: never-released. An object of a protocol without obligations is not in one
    /// of its final states when its method or component ends.
    NeverReleased,
}

/// Which leak reports a check makes (`typestar.unreleased`, the CLI's `--unreleased`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Leaks {
    /// Only those the leak benchmark vouches for (`checker::leaks`).
    #[default]
    Vouched,
    /// Every leak the checker finds.
    All,
}

/// What a check reports and how long it may take.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct CheckOptions {
    /// Which leak reports the check makes.
    pub leaks: Leaks,
    /// How long parsing and checking one file may take (`typestar.timeLimitSeconds`, the CLI's
    /// `--time-limit`).
    pub time_limit: Duration,
}

impl Default for CheckOptions {
    fn default() -> CheckOptions {
        CheckOptions {
            leaks: Leaks::default(),
            time_limit: checker::CheckConfig::default().time_limit,
        }
    }
}

/// A length of time given as a number of seconds, 0 or more.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "f64")]
pub struct Seconds(pub Duration);

impl TryFrom<f64> for Seconds {
    type Error = String;

    fn try_from(seconds: f64) -> Result<Seconds, String> {
        Duration::try_from_secs_f64(seconds)
            .map(Seconds)
            .map_err(|_| format!("`{seconds}`: expected a number of seconds, 0 or more"))
    }
}

impl FindingCode {
    /// The kebab-case id shown to users.
    pub fn id(self) -> &'static str {
        match self {
            FindingCode::TypestateViolation => "typestate-violation",
            FindingCode::IgnoredCall => "ignored-call",
            FindingCode::HandledViolation => "typestate-violation-handled",
            FindingCode::NotCheckedFully => "not-checked-fully",
            FindingCode::LeakMethodEnd => "leak-method-end",
            FindingCode::LeakException => "leak-exception",
            FindingCode::LeakOverwritten => "leak-overwritten",
            FindingCode::LeakReplaced => "leak-replaced",
            FindingCode::LeakComponentEnd => "leak-component-end",
            FindingCode::LeakLifecycle => "leak-lifecycle",
            FindingCode::NeverReleased => "never-released",
        }
    }

    /// Whether the code reports a leak: an object lost while it must still be released.
    pub fn is_leak(self) -> bool {
        !matches!(
            self,
            FindingCode::TypestateViolation
                | FindingCode::IgnoredCall
                | FindingCode::HandledViolation
                | FindingCode::NotCheckedFully
        )
    }

    /// Every code, in the order the documentation lists them.
    pub const ALL: [FindingCode; 11] = [
        FindingCode::TypestateViolation,
        FindingCode::IgnoredCall,
        FindingCode::HandledViolation,
        FindingCode::NotCheckedFully,
        FindingCode::LeakMethodEnd,
        FindingCode::LeakException,
        FindingCode::LeakOverwritten,
        FindingCode::LeakReplaced,
        FindingCode::LeakComponentEnd,
        FindingCode::LeakLifecycle,
        FindingCode::NeverReleased,
    ];

    /// What the code means, for the generated documentation (`crate::docs`).
    pub fn description(self) -> &'static str {
        match self {
            FindingCode::TypestateViolation => {
                "A call the object's protocol does not allow in the state the object may be in there: an error when it happens on every path to the call, a warning when on some. The message names the states, and a related location shows where the object entered them."
            }
            FindingCode::IgnoredCall => {
                "A call the protocol accepts but ignores in every state that reaches it (`execute()` on a cancelled `AsyncTask`): it does nothing, which is rarely what the code means."
            }
            FindingCode::HandledViolation => {
                "A violation inside a `try` whose `catch` catches what the call throws: the code expects it, so it is a hint, not an error."
            }
            FindingCode::NotCheckedFully => {
                "The file nests deeper than the checker follows, or its check hit the time limit: findings past that place may be missing."
            }
            FindingCode::LeakMethodEnd => {
                "A local still holds an object its protocol obliges to release (close, release, recycle, cancel) when the method that created it ends. Reported by default for the classes the leak benchmark vouches for (`bench/results/leaks.md`), and for every class with `--unreleased` or the `typestar.unreleased` setting; a quick fix wraps a closeable local in try-with-resources or `use {}`."
            }
            FindingCode::LeakException => {
                "An I/O exception leaves the method while a local holds an object that must be released: the release at the end is skipped. A quick fix wraps the local in try-with-resources or `use {}`."
            }
            FindingCode::LeakOverwritten => {
                "The variable or field holding an object that must be released is given another value or `null` while the object is still live."
            }
            FindingCode::LeakReplaced => {
                "A new object replaces, in a field, an object that must be released and may still be live."
            }
            FindingCode::LeakComponentEnd => {
                "A field of an Activity, Fragment or Service still holds an object that must be released when the component is destroyed. A quick fix releases it in `onDestroy()`."
            }
            FindingCode::LeakLifecycle => {
                "The protocol asks to release the object by a lifecycle callback (a Camera by `onPause()`, a timer by `onStop()`), and a field of the component still holds it when that callback returns. A quick fix releases it at the end of that callback."
            }
            FindingCode::NeverReleased => {
                "An object of a protocol that declares no obligation is not in one of its final states when its method or component ends; the final states are guessed from the names of its releasing calls."
            }
        }
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
    /// The called name.
    pub span: Span,
    /// The fully qualified class of the receiver.
    pub class: String,
    /// The receiver as written.
    pub receiver: String,
    /// The called method (a callin symbol, or a Java method a callin binds).
    pub method: String,
    /// The states the receiver may be in just before the call.
    pub states: Vec<String>,
    /// Whether the receiver may be null there.
    pub maybe_null: bool,
    /// Whether the receiver may be in any state (its origin is unknown).
    pub unknown: bool,
    /// The receiver's protocol when the checker derived it from a wrapper of the project:
    /// no library holds it.
    pub derived: Option<std::sync::Arc<typestates::Typestate>>,
}

/// The static checker, behind one boundary: the production one wraps `checker::check`, the
/// protocol tests script one.
pub trait Checker: Send + Sync + 'static {
    /// Checks one file against the library, reusing and updating what `cache` kept of the
    /// document's earlier checks.
    /// The cache reuses work only from a check against the same `Arc` (`checker::Incremental`).
    fn check(
        &self,
        library: &Arc<Library>,
        file: &SourceFile,
        cache: &DocumentCache,
        options: CheckOptions,
    ) -> FileAnalysis;

    /// The start of the method (or function) declaration enclosing `pos`.
    fn method_at(&self, file: &SourceFile, pos: Pos) -> Option<Pos>;

    /// Learns project-wide facts (which classes extend protocol classes) from every source
    /// file of the workspace, replacing what an earlier call learned.
    fn index(&self, library: &Library, files: &[SourceFile]);
}
