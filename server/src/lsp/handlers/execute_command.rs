//! `workspace/executeCommand`: `typestar.learnClass` drafts the experiment for the class under the
//! cursor (`.typestar/experiments/CLASS.toml`) and opens it for review.
//! Run again, it learns the class on the configured backend with cancellable progress, writes the
//! typestate into `.typestar/` and refreshes.
//! The model backend needs no experiment and learns at once.
//! A class the library already has is never replaced.
//! The result goes to `.typestar/learned/`, which is not loaded.
//! It comes with `typestar diff` against the library's protocol, opened for review.
//! Cancelling, by the progress' button or `$/cancelRequest`, stops the learner and ends the
//! progress.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Instant;

use tower_lsp_server::jsonrpc;
use tower_lsp_server::ls_types::{
    notification, ExecuteCommandParams, LSPAny, MessageType, NumberOrString, ProgressParams,
    ProgressParamsValue, ShowDocumentParams, Uri, WorkDoneProgress, WorkDoneProgressEnd,
};
use typestates::library::{Entry, LEARNED_DIR};

use crate::analysis::text::{self, LineIndex};
use crate::analysis::WORKSPACE_DIR;
use crate::compare;
use crate::learning::{LearnError, LearnProgress, LearnRequest};
use crate::lsp::ext::{self, LearnClassArgs, LearnClassResult};
use crate::lsp::session::Session;
use crate::lsp::{from_proto, tasks, workspace};

/// Handles `executeCommand`.
pub async fn handle(
    session: &Arc<Session>,
    params: ExecuteCommandParams,
) -> jsonrpc::Result<Option<LSPAny>> {
    if params.command != ext::LEARN_CLASS {
        return Err(jsonrpc::Error::invalid_params(format!(
            "unknown command `{}`; this server runs {:?}",
            params.command,
            ext::COMMANDS
        )));
    }
    let args: LearnClassArgs = params
        .arguments
        .into_iter()
        .next()
        .and_then(|arg| serde_json::from_value(arg).ok())
        .ok_or_else(|| {
            jsonrpc::Error::invalid_params(format!(
                "{} takes one argument: {{ textDocument: {{ uri }}, position }}",
                ext::LEARN_CLASS
            ))
        })?;
    let result = learn_class(session, args).await?;
    serde_json::to_value(result)
        .map(Some)
        .map_err(|_| jsonrpc::Error::internal_error())
}

async fn learn_class(
    session: &Arc<Session>,
    args: LearnClassArgs,
) -> jsonrpc::Result<LearnClassResult> {
    let uri = args.text_document.uri;
    let snapshot = session
        .documents
        .snapshot(&uri)
        .ok_or_else(|| jsonrpc::Error::invalid_params(format!("{} is not open", uri.as_str())))?;
    let index = LineIndex::new(&snapshot.file.text);
    let pos = from_proto::pos(&index, session.encoding(), args.position);
    let (word, _) = text::word_at(&snapshot.file.text, pos)
        .ok_or_else(|| jsonrpc::Error::invalid_params("no class name under the cursor"))?;
    let library = session.library();
    let class = library.find(word).map_or_else(
        |_| {
            let folder = snapshot.file.path.as_deref().and_then(Path::parent);
            text::qualify(&snapshot.file.text, word, |name| {
                folder.is_some_and(|folder| declared_beside(folder, name))
            })
        },
        |entry| entry.class().to_string(),
    );
    let folder = typestar_folder(session, snapshot.file.path.as_deref()).ok_or_else(|| {
        jsonrpc::Error::invalid_params("no workspace folder to write .typestar/ into")
    })?;
    let settings = session.settings();
    let request = LearnRequest {
        experiment: folder.join("experiments").join(format!("{class}.toml")),
        class: class.clone(),
        reference: library.get(&class).map(|entry| entry.typestate.clone()),
        settings: settings.learning.clone(),
    };
    if request.settings.backend.needs_experiment() && !request.experiment.exists() {
        let learner = session.engines.learner.clone();
        let drafting = request.clone();
        let draft = tasks::request(session, "drafting the experiment", move || {
            learner.draft(&drafting)
        })
        .await?;
        return match draft {
            Ok(draft) => {
                write(&request.experiment, &draft.experiment)?;
                let folder = request.experiment.parent().unwrap_or(Path::new(""));
                for harness in &draft.harnesses {
                    write(&folder.join(&harness.file_name), &harness.source)?;
                }
                open_for_review(session, &request.experiment).await;
                Ok(LearnClassResult::Drafted {
                    class,
                    draft: request.experiment,
                })
            }
            Err(err) => finish(session, &folder, class, None, Err(err)).await,
        };
    }
    let known = library.get(&class).cloned();
    let outcome = run_learner(session, request).await?;
    finish(session, &folder, class, known.as_ref(), outcome).await
}

/// Writes a learned typestate and refreshes, or, when the library has the class (`known`),
/// writes it beside the library's with the differences and opens them; or reports why there is
/// no typestate.
async fn finish(
    session: &Arc<Session>,
    folder: &Path,
    class: String,
    known: Option<&Entry>,
    outcome: Result<typestates::Typestate, LearnError>,
) -> jsonrpc::Result<LearnClassResult> {
    match (outcome, known) {
        (Ok(typestate), None) => {
            let path = folder.join(typestates::library::path_for_class(&class));
            write(&path, &typestates::format::print(&typestate))?;
            let session = session.clone();
            tokio::spawn(async move { workspace::refresh(&session).await });
            Ok(LearnClassResult::Learned {
                class,
                typestate: path,
                diff: None,
            })
        }
        (Ok(typestate), Some(known)) => {
            let learned = folder.join(LEARNED_DIR);
            let path = learned.join(typestates::library::path_for_class(&class));
            write(&path, &typestates::format::print(&typestate))?;
            let diff = typestates::diff::diff(&known.typestate, &typestate, DIFF_WITNESSES);
            let report = format!(
                "# {class}: learned again\n\nThe library's protocol ({library}) stays in use.\n\
                 The new one is {new}; move it into .typestar/ to use it instead.\n\n\
                 `typestar diff {library} {new}`:\n\n```text\n{text}```\n",
                library = known.source,
                new = path.display(),
                text = compare::describe(
                    &diff,
                    &known.source.to_string(),
                    &path.display().to_string()
                ),
            );
            let diff_path = learned.join(format!("{class}.diff.md"));
            write(&diff_path, &report)?;
            open_for_review(session, &diff_path).await;
            Ok(LearnClassResult::Learned {
                class,
                typestate: path,
                diff: Some(diff_path),
            })
        }
        (Err(LearnError::Cancelled), _) => Ok(LearnClassResult::Cancelled { class }),
        (Err(err), _) if err.needs_setup() => {
            let reason = err.message();
            session
                .client
                .show_message(MessageType::WARNING, format!("typestar: {reason}"))
                .await;
            Ok(LearnClassResult::Unavailable { class, reason })
        }
        (Err(err), _) => Err(jsonrpc::Error {
            code: jsonrpc::ErrorCode::InternalError,
            message: format!("typestar: {}", err.message()).into(),
            data: None,
        }),
    }
}

/// Whether `folder` holds the source of class `name` (`Name.java` or `Name.kt`): Java names a
/// class of the same package without an import, and a public class lives in its own file.
fn declared_beside(folder: &Path, name: &str) -> bool {
    ["java", "kt"]
        .iter()
        .any(|ext| folder.join(format!("{name}.{ext}")).is_file())
}

/// How many traces of differences the review of a class learned again lists at most.
const DIFF_WITNESSES: usize = 10;

/// Runs the learner on a blocking thread, forwarding its progress and the user's cancel.
async fn run_learner(
    session: &Arc<Session>,
    request: LearnRequest,
) -> jsonrpc::Result<Result<typestates::Typestate, LearnError>> {
    let token = format!("typestar/learn/{}", request.class);
    let cancelled = session.cancellable(&token);
    // `$/cancelRequest` drops this future: the learner then stops too, and the progress ends.
    let mut dropped = StopOnDrop {
        session: session.clone(),
        token: token.clone(),
        flag: cancelled.clone(),
        progress: None,
    };
    let ongoing = if session.capabilities().work_done_progress
        && session
            .client
            .create_work_done_progress(NumberOrString::String(token.clone()))
            .await
            .is_ok()
    {
        Some(
            session
                .client
                .progress(
                    NumberOrString::String(token.clone()),
                    format!("typestar: learning {}", request.class),
                )
                .with_percentage(0)
                .with_cancel_button()
                .begin()
                .await,
        )
    } else {
        None
    };
    dropped.progress = ongoing
        .is_some()
        .then(|| NumberOrString::String(token.clone()));
    let (reports, mut received) = tokio::sync::mpsc::unbounded_channel::<LearnProgress>();
    let learner = session.engines.learner.clone();
    let flag = cancelled.clone();
    let run = tasks::request(session, "learning", move || {
        let started = Instant::now();
        let mut report = |progress| {
            let _ = reports.send(progress);
        };
        let stop =
            || flag.load(Ordering::Relaxed) || started.elapsed() > request.settings.learn_timeout;
        learner.learn(&request, &mut report, &stop)
    });
    tokio::pin!(run);
    let outcome = loop {
        tokio::select! {
            outcome = &mut run => break outcome,
            Some(progress) = received.recv() => {
                if let Some(ongoing) = &ongoing {
                    ongoing
                        .report_with_message(progress.message, progress.percentage.unwrap_or(0), None)
                        .await;
                }
            }
        }
    };
    dropped.progress = None;
    drop(dropped);
    if let Some(ongoing) = ongoing {
        while let Ok(progress) = received.try_recv() {
            ongoing
                .report_with_message(progress.message, progress.percentage.unwrap_or(0), None)
                .await;
        }
        let message = match &outcome {
            Ok(Ok(_)) => "learned".to_string(),
            Ok(Err(err)) => err.to_string(),
            Err(_) => "failed".to_string(),
        };
        ongoing.finish_with_message(message).await;
    }
    outcome
}

/// Stops a learning run whose request was dropped (cancelled) and ends its progress; once the
/// run is over, it only forgets the run's cancellation flag.
struct StopOnDrop {
    session: Arc<Session>,
    token: String,
    flag: Arc<AtomicBool>,
    /// The progress still to end.
    progress: Option<NumberOrString>,
}

impl Drop for StopOnDrop {
    fn drop(&mut self) {
        self.session.finish_cancellable(&self.token);
        let Some(token) = self.progress.take() else {
            return;
        };
        self.flag.store(true, Ordering::Relaxed);
        let client = self.session.client.clone();
        tokio::spawn(async move {
            let end = WorkDoneProgress::End(WorkDoneProgressEnd {
                message: Some("cancelled".to_string()),
            });
            client
                .send_notification::<notification::Progress>(ProgressParams {
                    token,
                    value: ProgressParamsValue::WorkDone(end),
                })
                .await;
        });
    }
}

/// The `.typestar/` folder of the workspace root holding `file`, else of the first root.
fn typestar_folder(session: &Session, file: Option<&Path>) -> Option<PathBuf> {
    let roots = session.roots();
    let root = file
        .and_then(|file| roots.iter().find(|root| file.starts_with(root)))
        .or_else(|| roots.first())?;
    Some(root.join(WORKSPACE_DIR))
}

fn write(path: &Path, text: &str) -> jsonrpc::Result<()> {
    let written = path
        .parent()
        .map_or(Ok(()), std::fs::create_dir_all)
        .and_then(|()| std::fs::write(path, text));
    written.map_err(|err| jsonrpc::Error {
        code: jsonrpc::ErrorCode::InternalError,
        message: format!("cannot write {}: {err}", path.display()).into(),
        data: None,
    })
}

async fn open_for_review(session: &Session, path: &Path) {
    let Some(uri) = Uri::from_file_path(path) else {
        return;
    };
    if session.capabilities().show_document {
        let params = ShowDocumentParams {
            uri,
            external: None,
            take_focus: Some(true),
            selection: None,
        };
        if let Err(err) = session.client.show_document(params).await {
            tracing::warn!("cannot open the draft: {err}");
        }
    } else {
        session
            .client
            .show_message(
                MessageType::INFO,
                format!("typestar: review the experiment draft {}", path.display()),
            )
            .await;
    }
}
