//! The server's state: open documents, the protocol library, settings, workspace roots and what the
//! client can do.
//! Shared as `Arc<Session>` by handlers and background tasks.
//!
//! Everything here is updated synchronously (std locks held for a copy, never across an `.await`).
//! Readers clone the `Arc`s they need and work on those.

use std::collections::HashSet;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex, OnceLock, PoisonError, RwLock};

use dashmap::DashMap;
use tower_lsp_server::ls_types::{MessageType, Uri};
use tower_lsp_server::Client;

use super::capabilities::{Capabilities, Encoding};
use super::documents::Documents;
use super::settings::Settings;
use crate::analysis::{Checker, Library};
use crate::learning::Learner;
use crate::sdk::LevelLibraries;

/// The analysis engines the server runs: the production ones, or scripted ones in tests.
#[derive(Clone)]
pub struct Engines {
    /// Checks files.
    pub checker: Arc<dyn Checker>,
    /// Learns classes.
    pub learner: Arc<dyn Learner>,
}

/// The state of one server.
pub struct Session {
    /// Talks to the client.
    pub client: Client,
    /// The open documents.
    pub documents: Documents,
    /// The analysis engines.
    pub engines: Engines,
    /// Held while deciding to publish and publishing, so a result checked as current is sent
    /// before any later one.
    pub publish: tokio::sync::Mutex<()>,
    /// Files that have workspace-check diagnostics or `.typestate` errors published, so a later
    /// check can clear the ones it no longer reports.
    pub published: Mutex<HashSet<Uri>>,
    library: RwLock<Arc<LevelLibraries>>,
    settings: RwLock<Arc<Settings>>,
    roots: RwLock<Arc<Vec<PathBuf>>>,
    capabilities: OnceLock<Capabilities>,
    cancellations: DashMap<String, Arc<AtomicBool>>,
    workspace_checks: AtomicU64,
    /// Set by `shutdown`; read by [`super::serve`] for the exit status.
    pub shutdown: Arc<AtomicBool>,
}

impl Session {
    /// A session before `initialize`.
    pub fn new(client: Client, engines: Engines) -> Session {
        Session {
            client,
            documents: Documents::default(),
            engines,
            publish: tokio::sync::Mutex::new(()),
            published: Mutex::default(),
            library: RwLock::default(),
            settings: RwLock::default(),
            roots: RwLock::default(),
            capabilities: OnceLock::new(),
            cancellations: DashMap::new(),
            workspace_checks: AtomicU64::new(0),
            shutdown: Arc::new(AtomicBool::new(false)),
        }
    }

    /// The current protocol library.
    pub fn library(&self) -> Arc<Library> {
        read(&self.library).whole().clone()
    }

    /// The current protocol library and its restrictions to API levels, which checks use.
    /// It is the same `Arc` until [`Session::set_library`].
    pub fn levels(&self) -> Arc<LevelLibraries> {
        read(&self.library)
    }

    /// Replaces the library; checks use new `Arc`s from now on.
    pub fn set_library(&self, library: Library) {
        write(&self.library, LevelLibraries::new(library));
    }

    /// The current settings.
    pub fn settings(&self) -> Arc<Settings> {
        read(&self.settings)
    }

    /// Replaces the settings.
    pub fn set_settings(&self, settings: Settings) {
        write(&self.settings, settings);
    }

    /// The workspace root folders.
    pub fn roots(&self) -> Arc<Vec<PathBuf>> {
        read(&self.roots)
    }

    /// Records the `shutdown` request.
    pub fn shut_down(&self) {
        self.shutdown.store(true, Ordering::Relaxed);
    }

    /// Sets the workspace root folders.
    pub fn set_roots(&self, roots: Vec<PathBuf>) {
        write(&self.roots, roots);
    }

    /// What the client can do (defaults before `initialize`).
    pub fn capabilities(&self) -> Capabilities {
        self.capabilities.get().copied().unwrap_or_default()
    }

    /// Records the client's capabilities; only the first `initialize` counts.
    pub fn set_capabilities(&self, capabilities: Capabilities) {
        let _ = self.capabilities.set(capabilities);
    }

    /// The negotiated position encoding.
    pub fn encoding(&self) -> Encoding {
        self.capabilities().encoding
    }

    /// Starts a cancellable operation under a progress token; the flag turns true on cancel.
    pub fn cancellable(&self, token: &str) -> Arc<AtomicBool> {
        let flag = Arc::new(AtomicBool::new(false));
        self.cancellations.insert(token.to_string(), flag.clone());
        flag
    }

    /// Cancels the operation under `token`, if one runs.
    pub fn cancel(&self, token: &str) {
        if let Some(flag) = self.cancellations.get(token) {
            flag.store(true, Ordering::Relaxed);
        }
    }

    /// Forgets a finished operation.
    pub fn finish_cancellable(&self, token: &str) {
        self.cancellations.remove(token);
    }

    /// Starts a workspace check, superseding any running one; its generation.
    pub fn next_workspace_check(&self) -> u64 {
        self.workspace_checks.fetch_add(1, Ordering::Relaxed) + 1
    }

    /// Whether workspace check `generation` is still the latest.
    pub fn is_current_workspace_check(&self, generation: u64) -> bool {
        self.workspace_checks.load(Ordering::Relaxed) == generation
    }

    /// Logs to stderr and to the client's log (`window/logMessage`).
    pub async fn log(&self, level: MessageType, message: String) {
        if level == MessageType::ERROR {
            tracing::error!("{message}");
        } else {
            tracing::info!("{message}");
        }
        self.client.log_message(level, message).await;
    }
}

fn read<T>(lock: &RwLock<Arc<T>>) -> Arc<T> {
    lock.read().unwrap_or_else(PoisonError::into_inner).clone()
}

fn write<T>(lock: &RwLock<Arc<T>>, value: T) {
    *lock.write().unwrap_or_else(PoisonError::into_inner) = Arc::new(value);
}
