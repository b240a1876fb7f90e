//! What can go wrong when learning on a host JVM, each with the words a user needs to act.

use std::path::PathBuf;

use thiserror::Error;

use super::experiment::ExperimentError;

/// A failure of the JVM backend.
#[derive(Debug, Error)]
pub enum JvmError {
    /// No Java runtime or compiler could be found.
    #[error("cannot run `{program}`: {reason}; install a JDK (11 or later) or set JAVA_HOME")]
    JavaNotFound {
        /// The program looked for (`java`, `javac`).
        program: String,
        /// Why it was not found.
        reason: String,
    },
    /// JAVA_HOME names a directory without the program.
    #[error("JAVA_HOME is {}, but {} does not exist; fix or unset JAVA_HOME", java_home.display(), program.display())]
    BadJavaHome {
        /// The value of JAVA_HOME.
        java_home: PathBuf,
        /// The program expected under it.
        program: PathBuf,
    },
    /// The Robolectric backend's cached Maven artifacts are missing or incomplete.
    #[error(
        "the Robolectric backend's artifacts are missing: {what}; fetch them with \
         `typestar fetch-robolectric --dest {} --sdk {sdk}` (it runs Maven's `mvn`), or point \
         TYPESTAR_ROBOLECTRIC_DIR at a folder it filled",
        dir.display()
    )]
    RobolectricArtifacts {
        /// The artifact folder looked in.
        dir: PathBuf,
        /// What is missing.
        what: String,
        /// The SDK level asked for.
        sdk: u32,
    },
    /// Compiling the agent from its sources failed.
    #[error("building the agent from {} failed: {message}", sources.display())]
    AgentBuild {
        /// The agent's source directory.
        sources: PathBuf,
        /// What went wrong, with the compiler's output.
        message: String,
    },
    /// Compiling an experiment's harness sources failed.
    #[error("compiling the experiment's harness failed (javac says where):\n{message}")]
    HarnessBuild {
        /// The compiler's output, with file:line of each error.
        message: String,
    },
    /// The experiment is wrong: read from the file, or rejected by the agent at `load`.
    #[error(transparent)]
    Experiment(#[from] ExperimentError),
    /// The agent answered a request with an error that names no experiment field.
    #[error("the agent refused `{request}`: {code}: {message}")]
    Refused {
        /// The request type.
        request: String,
        /// The agent's error code (PROTOCOL.md §9).
        code: String,
        /// The agent's message.
        message: String,
    },
    /// The agent process ended or broke the protocol.
    #[error("the agent {what}{}", stderr_tail(stderr))]
    AgentFailed {
        /// What happened.
        what: String,
        /// The end of the agent's stderr.
        stderr: String,
    },
    /// The agent did not answer in time; it has been killed.
    #[error(
        "the agent did not answer `{request}` within {timeout_ms} ms and was killed{}",
        stderr_tail(stderr)
    )]
    Timeout {
        /// The request type.
        request: String,
        /// How long the client waited.
        timeout_ms: u64,
        /// The end of the agent's stderr.
        stderr: String,
    },
    /// The learned typestate is not of the shape `[learn] creators` needs; the run's result
    /// is in the message, so nothing learned is lost.
    #[error("{location}: `learn.creators`: {source}; the learned typestate is:\n{learned}")]
    Creators {
        /// Where `[learn] creators` is written.
        location: super::experiment::Location,
        /// Why the rewrite was refused.
        #[source]
        source: Box<crate::creators::CreatorsError>,
        /// The learned typestate, printed, as it was before the rewrite.
        learned: String,
    },
    /// The journal could not be opened or replayed.
    #[error(transparent)]
    Journal(#[from] crate::oracle::JournalError),
    /// The shipped agent sources could not be unpacked.
    #[error(transparent)]
    Shipped(#[from] crate::shipped::ShippedError),
    /// Reading or writing a file or pipe failed.
    #[error("{what}: {source}")]
    Io {
        /// What was being done.
        what: String,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
}

fn stderr_tail(stderr: &str) -> String {
    if stderr.trim().is_empty() {
        String::new()
    } else {
        format!("; its stderr ends with:\n{}", stderr.trim_end())
    }
}

impl JvmError {
    pub(crate) fn io(what: impl Into<String>) -> impl FnOnce(std::io::Error) -> JvmError {
        let what = what.into();
        move |source| JvmError::Io { what, source }
    }
}
