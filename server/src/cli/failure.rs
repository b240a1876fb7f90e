//! The closed set of failures the command line reports, each with what to do next.
//! A command wraps the error that ended it in one [`Failure`] (`anyhow::Context::context`).
//! [`render`] prints the failure's title, the chain of causes, and a `help:` line.
//! An error with no [`Failure`] is a usage error and prints as one line.

use std::fmt;
use std::path::PathBuf;

/// What the command was doing when it failed.
#[derive(Debug)]
pub enum Failure {
    /// Reading an experiment file.
    LoadExperiment(PathBuf),
    /// Learning with agents (JVM, Robolectric or devices) before learning could end.
    RunAgents {
        /// The backend's name on the command line.
        backend: &'static str,
    },
    /// Learning ran and ended on an error.
    Learning,
    /// Resuming from or writing to a learning journal.
    Journal(PathBuf),
    /// Building the dexed agent for Android devices.
    BuildDex,
    /// Listing the devices of the adb servers.
    ListDevices,
    /// Fetching the Robolectric backend's artifacts.
    FetchRobolectric,
    /// Describing a class in an agent to draft its experiment.
    Draft(String),
    /// Loading a folder of `.typestate` files over the bundled library.
    LoadTypestates(PathBuf),
    /// Writing an output file.
    Write(PathBuf),
}

impl Failure {
    /// One line saying what failed.
    fn title(&self) -> String {
        match self {
            Failure::LoadExperiment(file) => {
                format!("cannot load the experiment {}", file.display())
            }
            Failure::RunAgents { backend } => format!("cannot learn on the {backend} backend"),
            Failure::Learning => "learning failed".to_owned(),
            Failure::Journal(file) => format!("cannot use the journal {}", file.display()),
            Failure::BuildDex => "cannot build the agent for Android devices".to_owned(),
            Failure::ListDevices => "cannot list the Android devices".to_owned(),
            Failure::FetchRobolectric => "cannot fetch Robolectric's artifacts".to_owned(),
            Failure::Draft(class) => format!("cannot draft an experiment for {class}"),
            Failure::LoadTypestates(folder) => {
                format!("cannot load the typestates in {}", folder.display())
            }
            Failure::Write(file) => format!("cannot write {}", file.display()),
        }
    }

    /// What the user can do next.
    fn help(&self) -> &'static str {
        match self {
            Failure::LoadExperiment(_) => {
                "check the path, or fix the place the cause names; learner/EXPERIMENTS.md describes every key"
            }
            Failure::RunAgents { .. } => {
                "the cause says what is missing; README.md, \"Prerequisites\", lists what learning needs"
            }
            Failure::Learning => {
                "learn with --journal FILE, and rerun with the same journal to resume without repeating queries"
            }
            Failure::Journal(_) => {
                "give a new --journal path to start afresh; learner/JOURNAL.md describes the format"
            }
            Failure::BuildDex => {
                "run agent-android/android/build-dex.sh to see the whole error; it needs a JDK and Maven Central"
            }
            Failure::ListDevices => {
                "check that the adb server runs (`adb start-server`) and that --adb-server names it as host:port"
            }
            Failure::FetchRobolectric => {
                "install Maven (`mvn`, Debian: apt-get install maven) and a JDK 17, with Maven Central reachable"
            }
            Failure::Draft(_) => {
                "put the class on --classpath; Android classes need a hand-written experiment (learner/EXPERIMENTS.md)"
            }
            Failure::LoadTypestates(_) => {
                "fix the files at the places listed; typestates/FORMAT.md describes the format"
            }
            Failure::Write(_) => "check that the folder exists and is writable",
        }
    }
}

impl fmt::Display for Failure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.title())
    }
}

/// The text `typestar` prints for an error that ended a command.
/// A cause whose text the one before it already holds is printed once.
/// The lines of a cause after its first are indented under it.
pub fn render(error: &anyhow::Error) -> String {
    let Some(failure) = error.downcast_ref::<Failure>() else {
        return format!("error: {error:#}\n");
    };
    let mut text = format!("error: {failure}\n");
    let mut shown = failure.to_string();
    for cause in error.chain().skip(1) {
        let cause = cause.to_string();
        if !shown.contains(&cause) {
            text.push_str(&format!("  caused by: {}\n", cause.replace('\n', "\n    ")));
        }
        shown = cause;
    }
    text.push_str(&format!("help: {}\n", failure.help()));
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use anyhow::Context;

    #[test]
    fn a_failure_prints_its_causes_once_and_what_to_do() {
        let io = std::io::Error::new(std::io::ErrorKind::NotFound, "No such file");
        let error = Err::<(), _>(io)
            .context("x.toml: cannot read the experiment: No such file")
            .context(Failure::LoadExperiment(PathBuf::from("x.toml")))
            .unwrap_err();
        expect_test::expect![[r#"
            error: cannot load the experiment x.toml
              caused by: x.toml: cannot read the experiment: No such file
            help: check the path, or fix the place the cause names; learner/EXPERIMENTS.md describes every key
        "#]]
        .assert_eq(&render(&error));
    }

    #[test]
    fn a_usage_error_prints_as_one_line() {
        let error = anyhow::anyhow!("--jobs does not apply");
        assert_eq!(render(&error), "error: --jobs does not apply\n");
    }
}
