//! The server's extensions to LSP: the `typestar.learnClass` command, its arguments and result,
//! and the `typestar/protocol` request behind the protocol view.

use std::path::PathBuf;

use serde::{Deserialize, Serialize};
use tower_lsp_server::ls_types::{Position, TextDocumentIdentifier, TextDocumentPositionParams};

/// `workspace/executeCommand` id: learn the class under the cursor.
pub const LEARN_CLASS: &str = "typestar.learnClass";

/// The commands the server executes.
pub const COMMANDS: &[&str] = &[LEARN_CLASS];

/// Arguments of `typestar.learnClass`: one object, the cursor.
pub type LearnClassArgs = TextDocumentPositionParams;

/// The result of `typestar.learnClass`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase", tag = "status")]
pub enum LearnClassResult {
    /// The experiment draft was written and opened for review; run the command again to learn.
    Drafted {
        /// The class.
        class: String,
        /// The draft.
        draft: PathBuf,
    },
    /// The typestate was learned and written; diagnostics are being refreshed.
    Learned {
        /// The class.
        class: String,
        /// The written `.typestate` file: in `.typestar/learned/` when the library has the
        /// class, which it does not replace.
        typestate: PathBuf,
        /// When the library has the class: the differences from its protocol (Markdown).
        #[serde(skip_serializing_if = "Option::is_none")]
        diff: Option<PathBuf>,
    },
    /// The user cancelled, or the run hit `typestar.timeouts.learnMs`.
    Cancelled {
        /// The class.
        class: String,
    },
    /// This build or configuration cannot learn.
    Unavailable {
        /// The class.
        class: String,
        /// Why.
        reason: String,
    },
}

/// Request: the protocol view of a class (`analysis::protocol::ProtocolView`, or `null`).
pub const PROTOCOL: &str = "typestar/protocol";

/// Params of `typestar/protocol`: a class by name, or the class at a cursor (whose call, if the
/// cursor is on one, gives the states the object may be in).
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(untagged)]
pub enum ProtocolParams {
    /// A class of the library, by qualified or simple name.
    Class {
        /// The class.
        class: String,
    },
    /// The class at the cursor.
    Cursor {
        /// The document.
        #[serde(rename = "textDocument")]
        text_document: TextDocumentIdentifier,
        /// The cursor.
        position: Position,
    },
}
