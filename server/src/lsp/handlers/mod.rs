//! One module per LSP request or notification the server handles.
//! Notifications that change state update the session synchronously, before their first `.await`.

pub mod code_action;
pub mod diagnostic;
pub mod did_change;
pub mod did_change_configuration;
pub mod did_change_watched_files;
pub mod did_change_workspace_folders;
pub mod did_close;
pub mod did_open;
pub mod execute_command;
pub mod hover;
pub mod initialize;
pub mod initialized;
pub mod inlay_hint;
pub mod progress_cancel;
pub mod protocol;
