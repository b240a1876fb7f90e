//! What the client can do, resolved once from `initialize` into plain values, so handlers never
//! dig through `ClientCapabilities`.

use tower_lsp_server::ls_types::{ClientCapabilities, PositionEncodingKind};

use crate::analysis::hover::ViewLink;

/// How LSP positions count columns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 bytes (our own unit; chosen when the client offers it).
    Utf8,
    /// UTF-16 code units, the LSP default.
    #[default]
    Utf16,
}

impl Encoding {
    /// The LSP name of the encoding.
    pub fn kind(self) -> PositionEncodingKind {
        match self {
            Encoding::Utf8 => PositionEncodingKind::UTF8,
            Encoding::Utf16 => PositionEncodingKind::UTF16,
        }
    }
}

/// The client capabilities the server acts on.
#[derive(Clone, Copy, Debug, Default)]
pub struct Capabilities {
    /// The negotiated position encoding.
    pub encoding: Encoding,
    /// `workspace/configuration` requests are answered.
    pub configuration: bool,
    /// `workspace/didChangeWatchedFiles` can be registered dynamically.
    pub watch_files: bool,
    /// `window/workDoneProgress/create` is supported.
    pub work_done_progress: bool,
    /// `window/showDocument` is supported.
    pub show_document: bool,
    /// Hovers may link to the protocol view: the client runs `typestar.showProtocol` from a
    /// Markdown command link (`experimental.typestar.showProtocol: true`, sent by the VS Code
    /// extension).
    pub view_link: ViewLink,
    /// The client pulls diagnostics of open documents (`textDocument/diagnostic`); they are then
    /// not pushed, so that no client shows them twice.
    pub pull_diagnostics: bool,
    /// The client re-pulls on `workspace/diagnostic/refresh`.
    pub diagnostic_refresh: bool,
}

impl Capabilities {
    /// Resolves what the client sent in `initialize`.
    pub fn new(client: &ClientCapabilities) -> Capabilities {
        let offers_utf8 = client
            .general
            .as_ref()
            .and_then(|general| general.position_encodings.as_ref())
            .is_some_and(|encodings| encodings.contains(&PositionEncodingKind::UTF8));
        let workspace = client.workspace.as_ref();
        let window = client.window.as_ref();
        Capabilities {
            encoding: if offers_utf8 {
                Encoding::Utf8
            } else {
                Encoding::Utf16
            },
            configuration: workspace.and_then(|w| w.configuration) == Some(true),
            watch_files: workspace
                .and_then(|w| w.did_change_watched_files)
                .and_then(|w| w.dynamic_registration)
                == Some(true),
            work_done_progress: window.and_then(|w| w.work_done_progress) == Some(true),
            show_document: window
                .and_then(|w| w.show_document.as_ref())
                .is_some_and(|s| s.support),
            pull_diagnostics: client
                .text_document
                .as_ref()
                .is_some_and(|t| t.diagnostic.is_some()),
            diagnostic_refresh: workspace
                .and_then(|w| w.diagnostics.as_ref())
                .and_then(|d| d.refresh_support)
                == Some(true),
            view_link: match client
                .experimental
                .as_ref()
                .and_then(|e| e.pointer("/typestar/showProtocol"))
            {
                Some(serde_json::Value::Bool(true)) => ViewLink::Command,
                _ => ViewLink::Omitted,
            },
        }
    }
}
