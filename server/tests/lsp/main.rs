//! Protocol tests of `typestar lsp`, in memory: the real tower-lsp-server service on
//! `tokio::io::duplex` pipes, driven by [`harness::TestServer`].
//!
//! Build a server with `TestServer::builder()`, add workspace files with `.file(path, text)` and
//! settings with `.settings(json)`, then `.build().await`: the harness sends `initialize`, waits
//! for its reply, and only then sends `initialized` (tower-lsp-server drops anything earlier).
//! It answers the server's own requests (`workspace/configuration`, progress creation,
//! registrations) and queues notifications for `await_notification`. On drop it sends
//! `shutdown` and `exit`, checks the reply, and fails if an error log was left unread.
//!
//! Most tests use [`fake::FakeChecker`], which replays `timer.<callin>();` lines against the
//! CountDownTimer protocol, so they exercise the server and can gate or crash a check at will;
//! `checker.rs` runs the production checker (a `checker::Incremental` per document) through the
//! same protocol.

#[path = "../../../learner/tests/adb_support/mod.rs"]
mod adb_support;
mod bad_traffic;
mod checker;
mod code_actions;
mod conventions;
mod devices;
mod documents;
mod fake;
mod harness;
mod hover;
mod leaks;
mod learn;
mod workspace;
