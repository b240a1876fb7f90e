//! `window/workDoneProgress/cancel`: the user pressed cancel on a progress the server started.
//! tower-lsp-server 0.23 has no trait method for it, so it is registered as a custom method.

use tower_lsp_server::ls_types::{NumberOrString, WorkDoneProgressCancelParams};

use crate::lsp::session::Session;

/// The method name.
pub const METHOD: &str = "window/workDoneProgress/cancel";

/// Handles the cancel notification; synchronous.
pub fn handle(session: &Session, params: WorkDoneProgressCancelParams) {
    match params.token {
        NumberOrString::String(token) => session.cancel(&token),
        NumberOrString::Number(token) => session.cancel(&token.to_string()),
    }
}
