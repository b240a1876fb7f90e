//! Workspace-wide work: loading the `.typestar/` folders into the library and indexing the class hierarchy of the workspace.
//! It also checks every Java and Kotlin file with `$/progress`, at startup and whenever a typestate file changes.
//!
//! Open documents are left to `diagnostics`: their results carry versions.
//! A newer refresh supersedes a running one, which stops at its next file.

use std::collections::{BTreeMap, HashSet};
use std::path::{Path, PathBuf};
use std::sync::{Arc, PoisonError};

use tower_lsp_server::ls_types::{Diagnostic, MessageType, NumberOrString, Uri};
use tower_lsp_server::{Bounded, NotCancellable, OngoingProgress};

use super::session::Session;
use super::{diagnostics, tasks, to_proto};
use typestates::library::LibraryError;

use crate::analysis::{DocumentCache, Language, Library, SourceFile, WORKSPACE_DIR};
use crate::unchecked::FileError;

/// The most source files one workspace check reads.
const MAX_FILES: usize = 20_000;

/// Reloads the library, indexes the workspace, rechecks the open documents, then checks every
/// other source file.
pub async fn refresh(session: &Arc<Session>) {
    let generation = session.next_workspace_check();
    let roots = session.roots();
    let loaded = tasks::blocking(session, "loading .typestar/ folders", move || {
        let (library, errors) = load_library(&roots);
        (library, errors, source_files(&roots))
    })
    .await;
    let Some((library, errors, files)) = loaded else {
        return;
    };
    session.set_library(library);

    let mut reported = HashSet::new();
    for (path, diagnostics) in load_error_diagnostics(&errors) {
        if let Some(uri) = Uri::from_file_path(&path) {
            publish(session, generation, &uri, diagnostics, &mut reported).await;
        }
    }

    let progress = Progress::begin(session, generation, files.len()).await;
    let Some((sources, unread)) = index(session, files).await else {
        progress.end("indexing failed; see the log").await;
        return;
    };
    for error in unread {
        let message = format!(
            "typestar: [{}] {error}; {}",
            error.code(),
            error.next_step()
        );
        session.log(MessageType::WARNING, message).await;
    }
    diagnostics::schedule_all(session);
    for (done, file) in sources.into_iter().enumerate() {
        if !session.is_current_workspace_check(generation) {
            progress.end("superseded by a newer check").await;
            return;
        }
        let uri = file.path.as_ref().and_then(Uri::from_file_path);
        if let Some(uri) = uri.filter(|uri| !session.documents.is_open(uri)) {
            let diagnostics = check_file(session, &uri, file).await;
            publish(session, generation, &uri, diagnostics, &mut reported).await;
        }
        progress.report(done + 1).await;
    }
    clear_unreported(session, generation, reported).await;
    progress.end("done").await;
}

/// The bundled protocols plus each root's `.typestar/` folder, and the errors of the files that
/// did not load (the other files of their folder still load).
pub fn load_library(roots: &[PathBuf]) -> (Library, Vec<LibraryError>) {
    let mut library = Library::bundled();
    let mut errors = Vec::new();
    for folder in roots.iter().map(|root| root.join(WORKSPACE_DIR)) {
        if folder.is_dir() {
            errors.extend(library.add_dir_skipping_errors(&folder));
        }
    }
    (library, errors)
}

/// Reads the source files and lets the checker index them (class hierarchies across files);
/// also returns why each file that could not be read was left out.
async fn index(
    session: &Session,
    files: Vec<(PathBuf, Language)>,
) -> Option<(Vec<SourceFile>, Vec<FileError>)> {
    let checker = session.engines.checker.clone();
    let library = session.library();
    tasks::blocking(session, "indexing the workspace", move || {
        let mut sources = Vec::new();
        let mut unread = Vec::new();
        for (path, language) in files {
            match read_text(&path) {
                Ok(text) => sources.push(SourceFile {
                    path: Some(path),
                    language,
                    text: text.into(),
                }),
                Err(error) => unread.push(error),
            }
        }
        checker.index(&library, &sources);
        (sources, unread)
    })
    .await
}

/// The UTF-8 text of the source file at `path`.
fn read_text(path: &Path) -> Result<String, FileError> {
    let bytes = crate::project::read_source(path).map_err(|err| FileError::of_read(path, &err))?;
    String::from_utf8(bytes).map_err(|err| FileError::NotUtf8 {
        path: path.to_owned(),
        offset: err.utf8_error().valid_up_to(),
    })
}

async fn check_file(session: &Session, uri: &Uri, file: SourceFile) -> Vec<Diagnostic> {
    let checker = session.engines.checker.clone();
    let library = session.levels();
    let settings = session.settings();
    let what = format!("checking {}", uri.as_str());
    let text = file.text.clone();
    let analysis = tasks::blocking(session, &what, move || {
        let cache = DocumentCache::default();
        diagnostics::check_on_levels(checker.as_ref(), &library, &settings, &file, &cache)
    })
    .await;
    analysis.map_or_else(Vec::new, |analysis| {
        diagnostics::to_diagnostics(session, uri, &text, &analysis)
    })
}

async fn publish(
    session: &Session,
    generation: u64,
    uri: &Uri,
    diagnostics: Vec<Diagnostic>,
    reported: &mut HashSet<Uri>,
) {
    if diagnostics.is_empty() {
        return;
    }
    let _publishing = session.publish.lock().await;
    if session.is_current_workspace_check(generation) && !session.documents.is_open(uri) {
        reported.insert(uri.clone());
        // At once, not only at the end of the check: a document opened meanwhile clears it.
        session
            .published
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .insert(uri.clone());
        session
            .client
            .publish_diagnostics(uri.clone(), diagnostics, None)
            .await;
    }
}

/// Clears files the previous check reported and this one did not.
async fn clear_unreported(session: &Session, generation: u64, reported: HashSet<Uri>) {
    let _publishing = session.publish.lock().await;
    if !session.is_current_workspace_check(generation) {
        return;
    }
    let previous = std::mem::replace(
        &mut *session
            .published
            .lock()
            .unwrap_or_else(PoisonError::into_inner),
        reported.clone(),
    );
    for uri in previous.difference(&reported) {
        if !session.documents.is_open(uri) {
            session
                .client
                .publish_diagnostics(uri.clone(), Vec::new(), None)
                .await;
        }
    }
}

fn load_error_diagnostics(errors: &[LibraryError]) -> BTreeMap<PathBuf, Vec<Diagnostic>> {
    let mut by_file: BTreeMap<PathBuf, Vec<Diagnostic>> = BTreeMap::new();
    for error in errors {
        let (path, diagnostic) = to_proto::library_error(error);
        by_file.entry(path).or_default().push(diagnostic);
    }
    by_file
}

/// The Java and Kotlin files under the roots (the same walk as `typestar check`), at most
/// [`MAX_FILES`]; folders that cannot be read are left out.
fn source_files(roots: &[PathBuf]) -> Vec<(PathBuf, Language)> {
    let (paths, _unreadable) = crate::project::collect(roots);
    paths
        .into_iter()
        .filter_map(|path| language_of(&path).map(|language| (path, language)))
        .take(MAX_FILES)
        .collect()
}

fn language_of(path: &Path) -> Option<Language> {
    Language::from_id(path.extension()?.to_str()?)
}

/// `$/progress` of a workspace check, when the client supports it.
struct Progress {
    ongoing: Option<OngoingProgress<Bounded, NotCancellable>>,
    total: usize,
}

impl Progress {
    async fn begin(session: &Session, generation: u64, total: usize) -> Progress {
        let mut progress = Progress {
            ongoing: None,
            total,
        };
        if !session.capabilities().work_done_progress {
            return progress;
        }
        let token = NumberOrString::String(format!("typestar/workspaceCheck/{generation}"));
        if session
            .client
            .create_work_done_progress(token.clone())
            .await
            .is_ok()
        {
            let ongoing = session
                .client
                .progress(token, "typestar: checking the workspace")
                .with_message(format!("{total} files"))
                .with_percentage(0)
                .begin()
                .await;
            progress.ongoing = Some(ongoing);
        }
        progress
    }

    /// Reports `done` files, when the percentage moved.
    async fn report(&self, done: usize) {
        let Some(ongoing) = &self.ongoing else {
            return;
        };
        let percent = |n: usize| (n * 100 / self.total.max(1)) as u32;
        if percent(done) != percent(done - 1) {
            ongoing
                .report_with_message(format!("{done}/{} files", self.total), percent(done))
                .await;
        }
    }

    async fn end(self, message: &str) {
        if let Some(ongoing) = self.ongoing {
            ongoing.finish_with_message(message).await;
        }
    }
}
