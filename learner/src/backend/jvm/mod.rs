//! The host-JVM backend: learns real Java classes by running them in agent processes
//! (`agent-android/`), driven over the agent's line-delimited JSON protocol
//! (`agent-android/PROTOCOL.md`).
//!
//! - [`experiment`]: the TOML experiment format (`learner/EXPERIMENTS.md`), checked with
//!   file:line:col locations and converted to the agent's JSON experiment.
//! - [`java`]: finding the JDK and compiling the agent from the repository's sources into a
//!   cache keyed by their hash.
//! - [`process`]: one agent process with its session token, handshake and deadlines.
//! - [`sul`]: a [`crate::oracle::Sul`] over an agent, restarting it after any failure.
//! - [`learn`]: [`learn_class`], which [`crate::backend::learn`] calls for the `jvm` backend.
//! - [`draft`]: [`draft_experiment`], the entry point of `typestar draft`, and [`harness`]: the
//!   harness classes a draft writes for callbacks received by overriding.
//!
//! ```text
//! let experiment = Arc::new(Experiment::load(Path::new("java.util.Timer.toml"))?);
//! let run = learn_class(experiment, &JvmConfig { jobs: 2, ..JvmConfig::default() }, &mut NoProgress).await?;
//! println!("{}", typestates::format::print(&run.typestate.unwrap()));
//! ```

mod draft;
mod error;
pub mod experiment;
mod harness;
pub mod java;
mod learn;
pub mod process;
pub mod sul;
mod wire;

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::{json, Map};

pub(crate) use draft::Description;
pub use draft::{Draft, PublicMethod};
pub use error::JvmError;
pub use experiment::{Experiment, ExperimentError, Fixtures, Location};
pub use harness::HarnessSource;
pub use learn::{learn_class, JvmConfig};
pub(crate) use learn::{learn_on_agents, learn_with, Agents};
use process::{AgentProcess, Answer};
use wire::Reply;
pub(crate) use wire::RunReply;

/// A first experiment file (TOML) for `class`, from the agent's description of its public
/// API, with the harness sources it names; `classpath` holds the jars the class comes from
/// (empty for JDK classes).
pub async fn draft_experiment(class: &str, classpath: &[PathBuf]) -> Result<Draft, JvmError> {
    let config = JvmConfig {
        classpath: classpath.to_vec(),
        ..JvmConfig::default()
    };
    let mut agent = AgentProcess::start(&config.agent_command(&[])?).await?;
    let described = describe(&mut agent, class).await;
    let mut parameter_classes = BTreeMap::new();
    if let Ok(description) = &described {
        for wire in description.parameter_types() {
            // A type the agent cannot describe (not on the class path) gets a placeholder.
            if let Ok(parameter) = describe(&mut agent, &wire).await {
                parameter_classes.insert(wire, parameter);
            }
        }
    }
    agent.shutdown().await;
    Ok(described?.to_draft(&parameter_classes))
}

/// Every public instance method of `class` (its own and inherited ones, as the agent's
/// `describe` lists them), in the agent's order, from an agent started with `config` (its class
/// path holds the jars the class comes from; empty for JDK classes).
pub async fn public_methods(
    class: &str,
    config: &JvmConfig,
) -> Result<Vec<PublicMethod>, JvmError> {
    let mut all = public_methods_of(&config.agent_command(&[])?, &[class]).await?;
    Ok(all.pop().expect("one class asked, one answer"))
}

/// The public instance methods of each of `classes`, in order, from one agent started by
/// `command` (a JVM's, or Robolectric's, whose sandbox is paid once for all the classes).
pub(crate) async fn public_methods_of(
    command: &process::AgentCommand,
    classes: &[&str],
) -> Result<Vec<Vec<PublicMethod>>, JvmError> {
    let mut agent = AgentProcess::start(command).await?;
    let mut all = Vec::with_capacity(classes.len());
    for class in classes {
        match describe(&mut agent, class).await {
            Ok(described) => all.push(described.public_methods()),
            Err(error) => {
                agent.shutdown().await;
                return Err(error);
            }
        }
    }
    agent.shutdown().await;
    Ok(all)
}

/// The agent's `describe` of `class`.
pub(crate) async fn describe(
    agent: &mut AgentProcess,
    class: &str,
) -> Result<Description, JvmError> {
    let mut body = Map::new();
    body.insert("class".into(), json!(class));
    match agent.request("describe", body, 60_000).await? {
        Answer::Reply(Reply::Description(description)) => Ok(*description),
        Answer::Reply(other) => Err(JvmError::AgentFailed {
            what: format!("answered describe with {other:?}"),
            stderr: String::new(),
        }),
        Answer::Error(error) => Err(JvmError::Refused {
            request: format!("describe {class}"),
            code: error.code,
            message: error.message,
        }),
    }
}
