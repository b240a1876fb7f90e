//! The learning boundary of the server: what `typestar.learnClass` asks of a learner, as plain
//! data, and [`Learners`], the production learner over the `learner` crate's backends:
//! - `jvm`: `learner::backend::jvm`: the experiment is drafted by an agent on the host JVM
//!   (`draft_experiment`) for review, then learned in agent processes;
//! - `robolectric`: `learner::backend::robolectric`: the agent inside Robolectric at the
//!   configured SDK level;
//!   - its experiment is one the repository ships (`learner/experiments/`) or one the user
//!     wrote (drafting needs the host JVM, which has no Android classes);
//! - `model`: a class of the library re-learned on a simulated device;
//! - `android`: the agent on Android devices over adb (experiments are written by hand).
//!
//! Every backend learns through the learner's one entry point, `learner::backend::learn`.
//!
//! A run may not start for want of configuration: a class not on the classpath, an Android class on the host JVM, Robolectric's artifacts missing, no JDK.
//! The error then says what to set.
//!
//! Learners run on a blocking thread.
//! The async learner futures are driven there and dropped (killing the agents) when the user
//! cancels.
//! The protocol tests plug in a scripted learner.

use std::path::PathBuf;
use std::time::Duration;

use std::future::Future;
use std::sync::Arc;

use learner::backend::android::AndroidConfig;
pub use learner::backend::jvm::Draft;
use learner::backend::jvm::{self, Experiment, JvmError};
use learner::{End, Progress, ProgressUpdate, Request};
use typestates::Typestate;

/// Where membership queries run: the learner's one list of backends.
pub use learner::backend::BackendKind as Backend;

/// One learning run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnRequest {
    /// The fully qualified class to learn.
    pub class: String,
    /// The class's protocol in the library, if it has one (what the model backend simulates).
    pub reference: Option<Typestate>,
    /// The experiment file (`learner/EXPERIMENTS.md`), for the backends that need one.
    pub experiment: PathBuf,
    /// How and where to learn (the `typestar.*` learning settings).
    pub settings: LearnSettings,
}

/// How and where learning runs: the learning part of the server's settings.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnSettings {
    /// Where queries run.
    pub backend: Backend,
    /// Jars and folders holding the classes to learn.
    pub classpath: Vec<PathBuf>,
    /// The device, for the Android backend.
    pub device_serial: Option<String>,
    /// The adb servers the Android backend finds devices on; empty for the server's own.
    pub adb_servers: Vec<String>,
    /// The Android SDK level, for the Robolectric backend.
    pub sdk: u32,
    /// How long a wait lasts before it counts as quiet.
    pub quiescence: Duration,
    /// Timeout of one membership query.
    pub query_timeout: Duration,
    /// Timeout of the whole run.
    pub learn_timeout: Duration,
    /// Parallel queries.
    pub jobs: usize,
}

/// A progress report of a running learner.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LearnProgress {
    /// What the learner is doing: "round 2: 41 membership queries".
    pub message: String,
    /// How far along, when the learner can tell.
    pub percentage: Option<u32>,
}

/// Why a run produced no typestate: a closed set, each with what to do next
/// ([`LearnError::help`]).
/// [`LearnError::message`] is what the user reads: what failed, its causes, and the next step.
#[derive(Debug)]
pub enum LearnError {
    /// The user cancelled.
    Cancelled,
    /// An Android framework class, asked of the host JVM, which does not have it.
    AndroidOnHost {
        /// The class.
        class: String,
    },
    /// The agent did not find the class on the learning class path.
    NotOnClasspath {
        /// The class.
        class: String,
        /// `typestar.classpath`.
        classpath: Vec<PathBuf>,
        /// The agent's answer.
        cause: Box<JvmError>,
    },
    /// The host lacks what the backend runs on: a JDK, a valid JAVA_HOME, Robolectric's
    /// artifacts.
    Host(Box<JvmError>),
    /// The experiment file cannot be used.
    Experiment(Box<JvmError>),
    /// The Robolectric backend needs an experiment for the class, and none ships.
    NoExperiment {
        /// The class.
        class: String,
        /// Where the user's experiment would be.
        experiment: PathBuf,
    },
    /// This backend drafts no experiment.
    NoDraft(Backend),
    /// The model backend simulates only protocols the library has, and the class has none.
    NoReference {
        /// The class.
        class: String,
    },
    /// The learner's run failed.
    Run(Box<learner::LearnError>),
    /// The run ended without a typestate.
    Stopped(Box<End>),
}

impl LearnError {
    /// Whether the run could not start for want of configuration (as opposed to a run that was
    /// cancelled or failed).
    pub fn needs_setup(&self) -> bool {
        match self {
            LearnError::AndroidOnHost { .. }
            | LearnError::NotOnClasspath { .. }
            | LearnError::Host(_)
            | LearnError::Experiment(_)
            | LearnError::NoExperiment { .. }
            | LearnError::NoDraft(_)
            | LearnError::NoReference { .. } => true,
            LearnError::Run(error) => matches!(**error, learner::LearnError::Missing(..)),
            LearnError::Cancelled | LearnError::Stopped(_) => false,
        }
    }

    /// What the user can do next.
    pub fn help(&self) -> String {
        match self {
            LearnError::Cancelled => "run `typestar.learnClass` again to start over".to_owned(),
            LearnError::AndroidOnHost { .. } => {
                format!(
                    "set `typestar.backend` to `robolectric` (its artifacts: {ROBOLECTRIC_SETUP})"
                )
            }
            LearnError::NotOnClasspath { class, .. } => format!(
                "build the project and add the folders or jars of its compiled classes (e.g. \
                 app/build/intermediates/javac/debug/classes) to `typestar.classpath`; if {class} \
                 is or extends an Android class, also set `typestar.backend` to `robolectric` \
                 ({ROBOLECTRIC_SETUP})"
            ),
            LearnError::Host(error) if matches!(**error, JvmError::RobolectricArtifacts { .. }) => {
                ROBOLECTRIC_SETUP.to_owned()
            }
            LearnError::Host(_) => "install a JDK (11 or later), or set JAVA_HOME in the \
                 editor's environment to one, then restart the server"
                .to_owned(),
            LearnError::Experiment(_) => "fix the experiment where the cause says \
                 (learner/EXPERIMENTS.md describes every key), then learn again"
                .to_owned(),
            LearnError::NoExperiment { experiment, .. } => format!(
                "write {} (learner/EXPERIMENTS.md says how), then learn again",
                experiment.display()
            ),
            LearnError::NoDraft(Backend::Android) => "write the experiment by hand \
                 (learner/EXPERIMENTS.md), then learn on android"
                .to_owned(),
            LearnError::NoDraft(_) => "learn the class without drafting".to_owned(),
            LearnError::NoReference { .. } => "set `typestar.backend` to `jvm`, `robolectric` \
                 or `android` to learn it from its code"
                .to_owned(),
            LearnError::Run(_) => "README.md, \"Prerequisites\", lists what learning needs; \
                 `typestar learn --journal FILE` resumes a run that failed midway"
                .to_owned(),
            LearnError::Stopped(end) if matches!(**end, End::NonDeterministic(_)) => {
                "the class answered the same \
                 inputs differently even after a vote of three runs: make its experiment \
                 deterministic, or learn with `typestar learn --majority 5 --confirm 5` to \
                 outvote more frequent one-off answers"
                    .to_owned()
            }
            LearnError::Stopped(end) if matches!(**end, End::Failed(_)) => {
                "`typestar learn --journal FILE` resumes \
                 the run without repeating its queries"
                    .to_owned()
            }
            LearnError::Stopped(_) => "learn with `typestar learn`, whose report says how \
                 far the run got and which guarantee (`--states`, `--bound`) to change"
                .to_owned(),
        }
    }

    /// What failed, its chain of causes, and what to do next, on one line.
    pub fn message(&self) -> String {
        let mut message = self.to_string();
        let mut cause = std::error::Error::source(self);
        while let Some(error) = cause {
            let text = error.to_string();
            // A cause whose text its error already shows adds nothing.
            if !message.contains(&text) {
                message.push_str(": ");
                message.push_str(&text);
            }
            cause = error.source();
        }
        format!("{message}; {}", self.help())
    }
}

impl std::fmt::Display for LearnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LearnError::Cancelled => f.write_str("cancelled"),
            LearnError::AndroidOnHost { class } => write!(
                f,
                "{class} is an Android framework class, which the host JVM does not have"
            ),
            LearnError::NotOnClasspath {
                class, classpath, ..
            } => {
                let classpath: Vec<String> = classpath
                    .iter()
                    .map(|path| path.display().to_string())
                    .collect();
                write!(
                    f,
                    "{class} is not on the learning class path (`typestar.classpath`: [{}])",
                    classpath.join(", ")
                )
            }
            LearnError::Host(_) => f.write_str("learning cannot start on this host"),
            LearnError::Experiment(_) => f.write_str("the experiment cannot be used"),
            LearnError::NoExperiment { class, .. } => write!(
                f,
                "the robolectric backend needs an experiment for {class}, and none ships with typestar"
            ),
            LearnError::NoDraft(Backend::Android) => f.write_str(
                "experiments are drafted on the host JVM, which lacks Android's classes",
            ),
            LearnError::NoDraft(backend) => write!(f, "the {backend} backend needs no experiment"),
            LearnError::NoReference { class } => write!(
                f,
                "the model backend simulates a protocol the library already has, and {class} has none"
            ),
            LearnError::Run(_) => f.write_str("learning failed"),
            LearnError::Stopped(end) => write!(f, "learning stopped: {}", describe(end)),
        }
    }
}

impl std::error::Error for LearnError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            LearnError::NotOnClasspath { cause, .. }
            | LearnError::Host(cause)
            | LearnError::Experiment(cause) => Some(&**cause),
            LearnError::Run(cause) => Some(&**cause),
            LearnError::Stopped(end) => match &**end {
                End::Failed(cause) => Some(cause),
                _ => None,
            },
            _ => None,
        }
    }
}

/// How a run ended without a typestate, in words.
fn describe(end: &End) -> String {
    match end {
        End::Learned => "learned, but no typestate was made of the model".to_owned(),
        End::NonDeterministic(report) => report.to_string(),
        End::Failed(_) => "the backend failed".to_owned(),
        End::RoundLimit => "every equivalence query up to the round limit found a counterexample"
            .to_owned(),
        End::StateBoundExceeded { states, bound } => format!(
            "a hypothesis has {states} states, more than the state bound {bound} (error sink included)"
        ),
        End::StateBoundRefuted { bound, checked, .. } => format!(
            "the system has more states than the state bound {bound}: the check for systems of {checked} states found a counterexample"
        ),
        End::GrowthLimitExceeded { states, limit } => format!(
            "a hypothesis has {states} states, more than {limit} (error sink included), with no state bound to stop it"
        ),
    }
}

/// Drafts experiments and runs learning; called on a blocking thread of the runtime.
pub trait Learner: Send + Sync + 'static {
    /// A first experiment file for `request.class`, with the harness sources it names, for the
    /// user to review.
    fn draft(&self, request: &LearnRequest) -> Result<Draft, LearnError>;

    /// Learns `request.class`, reporting progress; stops soon after `cancelled` turns true.
    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut (dyn FnMut(LearnProgress) + Send),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError>;
}

/// The production learner: the `learner` crate's backends.
#[derive(Clone, Debug, Default)]
pub struct Learners {
    /// The Android backend's adb servers, adb program and pushed jars (by default: the local
    /// adb server, `adb`, the dexed agent); `typestar.deviceSerial` picks among the devices.
    pub android: AndroidConfig,
}

impl Learners {
    /// The Android backend's configuration for `settings`: their device, and their adb
    /// servers in place of these learners' own when they name any.
    fn android_config(&self, settings: &LearnSettings) -> AndroidConfig {
        let servers = if settings.adb_servers.is_empty() {
            self.android.servers.clone()
        } else {
            settings.adb_servers.clone()
        };
        AndroidConfig {
            servers,
            serials: settings.device_serial.iter().cloned().collect(),
            ..self.android.clone()
        }
    }
}

impl Learner for Learners {
    fn draft(&self, request: &LearnRequest) -> Result<Draft, LearnError> {
        match request.settings.backend {
            Backend::Jvm => {
                refuse_android_on_the_host(request)?;
                tokio::runtime::Handle::current()
                    .block_on(jvm::draft_experiment(
                        &request.class,
                        &request.settings.classpath,
                    ))
                    .map_err(|err| setup_error(err, request))
            }
            Backend::Robolectric => shipped_experiment(request),
            Backend::Model | Backend::Android => Err(LearnError::NoDraft(request.settings.backend)),
        }
    }

    fn learn(
        &self,
        request: &LearnRequest,
        report: &mut (dyn FnMut(LearnProgress) + Send),
        cancelled: &dyn Fn() -> bool,
    ) -> Result<Typestate, LearnError> {
        let settings = &request.settings;
        let mut learn = Request::new(settings.backend);
        learn.session.jobs = settings.jobs;
        match settings.backend {
            Backend::Model => {
                let Some(reference) = &request.reference else {
                    return Err(LearnError::NoReference {
                        class: request.class.clone(),
                    });
                };
                report(LearnProgress {
                    message: format!("learning {} on a simulated device", request.class),
                    percentage: None,
                });
                learn.model = Some(reference.clone());
                learn.device.quiescence_timeout_ms = settings.quiescence.as_millis() as u64;
            }
            Backend::Jvm | Backend::Robolectric | Backend::Android => {
                if settings.backend == Backend::Jvm {
                    refuse_android_on_the_host(request)?;
                }
                let experiment = Experiment::load(&request.experiment)
                    .map_err(|err| setup_error(err.into(), request))?;
                learn.experiment = Some(Arc::new(experiment));
                learn.classpath = settings.classpath.clone();
                learn.sdk = Some(settings.sdk);
                learn.android = self.android_config(settings);
            }
        }
        let mut progress = Reports(report);
        let run = until_cancelled(learner::learn_request(learn, &mut progress), cancelled)?
            .map_err(|err| match err {
                learner::LearnError::Jvm(err) => setup_error(err, request),
                err => LearnError::Run(Box::new(err)),
            })?;
        match (run.outcome.end, run.typestate) {
            (End::Learned, Some(typestate)) => Ok(typestate),
            (end, _) => Err(LearnError::Stopped(Box::new(end))),
        }
    }
}

/// Android framework classes are not on the host JVM: learning them there cannot start.
fn refuse_android_on_the_host(request: &LearnRequest) -> Result<(), LearnError> {
    if !request.class.starts_with("android.") {
        return Ok(());
    }
    Err(LearnError::AndroidOnHost {
        class: request.class.clone(),
    })
}

/// What to set up for the Robolectric backend.
const ROBOLECTRIC_SETUP: &str =
    "run `typestar fetch-robolectric --sdk N` (it needs Maven's `mvn`) \
     for the SDK level of `typestar.sdk`, or point the server's TYPESTAR_ROBOLECTRIC_DIR at a \
     folder it filled";

/// The experiment the repository ships for the class, as the draft to review: drafting asks
/// an agent on the host JVM to describe the class, which cannot load Android classes.
fn shipped_experiment(request: &LearnRequest) -> Result<Draft, LearnError> {
    match learner::shipped::experiment_text(&request.class) {
        Some(experiment) => Ok(Draft {
            experiment: experiment.to_owned(),
            harnesses: Vec::new(),
        }),
        None => Err(LearnError::NoExperiment {
            class: request.class.clone(),
            experiment: request.experiment.clone(),
        }),
    }
}

/// An error of the JVM or Robolectric backend: what to set when configuration is missing,
/// else a failed run.
fn setup_error(err: JvmError, request: &LearnRequest) -> LearnError {
    match err {
        JvmError::Refused { ref code, .. } if code == "class-not-found" => {
            LearnError::NotOnClasspath {
                class: request.class.clone(),
                classpath: request.settings.classpath.clone(),
                cause: Box::new(err),
            }
        }
        JvmError::RobolectricArtifacts { .. }
        | JvmError::JavaNotFound { .. }
        | JvmError::BadJavaHome { .. } => LearnError::Host(Box::new(err)),
        JvmError::Experiment(_) => LearnError::Experiment(Box::new(err)),
        err => LearnError::Run(Box::new(learner::LearnError::Jvm(err))),
    }
}

/// Drives `run` on this blocking thread, dropping it when `cancelled` turns true (checked
/// every 50 ms).
fn until_cancelled<T>(
    run: impl Future<Output = T>,
    cancelled: &dyn Fn() -> bool,
) -> Result<T, LearnError> {
    tokio::runtime::Handle::current().block_on(async {
        tokio::pin!(run);
        let mut tick = tokio::time::interval(std::time::Duration::from_millis(50));
        loop {
            tokio::select! {
                done = &mut run => return Ok(done),
                _ = tick.tick() => if cancelled() {
                    return Err(LearnError::Cancelled);
                },
            }
        }
    })
}

/// The learner's phase changes as progress reports.
struct Reports<'a>(&'a mut (dyn FnMut(LearnProgress) + Send));

impl Progress for Reports<'_> {
    fn update(&mut self, update: ProgressUpdate) {
        (self.0)(LearnProgress {
            message: format!(
                "round {}: {:?}, {} states so far",
                update.rounds, update.phase, update.n_states
            ),
            percentage: None,
        });
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `typestar.adbServers` replaces the learners' servers; without it they stay.
    #[test]
    fn the_editors_adb_servers_and_device_reach_the_android_backend() {
        let learners = Learners {
            android: AndroidConfig {
                servers: vec!["127.0.0.1:5037".to_owned()],
                ..AndroidConfig::default()
            },
        };
        let mut settings = crate::lsp::settings::Settings::default().learning;
        assert_eq!(
            learners.android_config(&settings).servers,
            ["127.0.0.1:5037"]
        );
        settings.adb_servers = vec!["farm-a:5037".to_owned(), "farm-b:5037".to_owned()];
        settings.device_serial = Some("farm-1".to_owned());
        let config = learners.android_config(&settings);
        assert_eq!(config.servers, ["farm-a:5037", "farm-b:5037"]);
        assert_eq!(config.serials, ["farm-1"]);
    }

    /// What the editor shows of an error: what failed, each cause once, and the next step.
    #[test]
    fn a_message_shows_what_failed_its_causes_once_and_what_to_do() {
        let broken = std::io::Error::new(std::io::ErrorKind::BrokenPipe, "the pipe broke");
        let cases: Vec<(LearnError, &[&str])> = vec![
            (
                LearnError::Run(Box::new(learner::LearnError::Jvm(JvmError::Io {
                    what: "reading the agent's answer".to_owned(),
                    source: broken,
                }))),
                &[
                    "learning failed: reading the agent's answer: the pipe broke; ",
                    "README.md, \"Prerequisites\"",
                ],
            ),
            (
                LearnError::Stopped(Box::new(End::StateBoundExceeded {
                    states: 9,
                    bound: 5,
                })),
                &[
                    "learning stopped: a hypothesis has 9 states, more than the state bound 5",
                    "`--states`",
                ],
            ),
            (
                LearnError::NoReference {
                    class: "a.B".to_owned(),
                },
                &["and a.B has none; set `typestar.backend`"],
            ),
        ];
        for (error, parts) in cases {
            let message = error.message();
            for part in parts {
                assert!(message.contains(part), "{part:?} not in {message:?}");
            }
            assert!(message.matches("the pipe broke").count() <= 1, "{message}");
        }
    }
}
