//! The JVM system under learning: one supervised agent process running an experiment.
//! It is driven with the agent's `reset` and `step` requests, one `step` for the rest of a query.
//!
//! Every failure (a `crash`, `hang` or `unexpected` status, a dead or silent process) kills the
//! agent and surfaces as a [`SulError`] naming the run.
//! The next `reset` starts a fresh agent, so a learner is never stuck on a broken process.

use std::sync::Arc;

use serde_json::{json, Map};

use super::error::JvmError;
use super::experiment::{Experiment, ExperimentError};
use super::process::{AgentCommand, AgentProcess, Answer};
use super::wire::{Reply, RunReply};
use crate::closure::{Alphabet, Input, Output};
use crate::oracle::sul::{Sul, SulError};

/// Starts agents with an experiment loaded.
#[derive(Clone, Debug)]
pub struct Launcher {
    /// How to start the process.
    pub command: AgentCommand,
    /// What to load into it.
    pub experiment: Arc<Experiment>,
}

impl Launcher {
    /// A fresh agent with the experiment loaded. The agent's objections to the experiment
    /// name the experiment file's line and field.
    pub async fn start(&self) -> Result<AgentProcess, JvmError> {
        load(&self.experiment, AgentProcess::start(&self.command).await?).await
    }
}

/// Loads `experiment` into `agent`. The agent's objections to the experiment name the
/// experiment file's line and field.
pub(crate) async fn load(
    experiment: &Experiment,
    mut agent: AgentProcess,
) -> Result<AgentProcess, JvmError> {
    let mut body = Map::new();
    body.insert("experiment".into(), experiment.agent_json().clone());
    let timeout = experiment.longest_request_ms() + 30_000;
    match agent.request("load", body, timeout).await? {
        Answer::Reply(Reply::Loaded { inputs, outputs }) => {
            check_alphabet(experiment, &inputs, &outputs)?;
            Ok(agent)
        }
        Answer::Reply(other) => Err(JvmError::AgentFailed {
            what: format!("answered load with {other:?}"),
            stderr: String::new(),
        }),
        Answer::Error(error) => Err(match error.field {
            Some(field) if field.starts_with("experiment") => {
                let (location, field) = experiment.locate(&field);
                ExperimentError::Invalid {
                    location,
                    field,
                    message: format!("{} ({})", error.message, error.code),
                }
                .into()
            }
            _ => JvmError::Refused {
                request: "load".to_owned(),
                code: error.code,
                message: error.message,
            },
        }),
    }
}

fn check_alphabet(
    experiment: &Experiment,
    inputs: &[String],
    outputs: &[String],
) -> Result<(), JvmError> {
    let alphabet = experiment.alphabet();
    let expected_inputs = alphabet.input_names(&alphabet.inputs);
    let mut expected_outputs = experiment.callbacks();
    expected_outputs.extend(["quiet", "eps", "err"].map(str::to_owned));
    if inputs == expected_inputs && outputs == expected_outputs {
        return Ok(());
    }
    Err(JvmError::AgentFailed {
        what: format!(
            "loaded the experiment with inputs {inputs:?} and outputs {outputs:?}, \
             expected {expected_inputs:?} and {expected_outputs:?}"
        ),
        stderr: String::new(),
    })
}

/// One instance of the class, in its own agent process.
pub struct JvmSul {
    launcher: Launcher,
    alphabet: Arc<Alphabet>,
    agent: Option<AgentProcess>,
    /// The inputs given since the last reset, for error messages.
    run: Vec<String>,
}

impl JvmSul {
    /// An instance that starts its agent on first use.
    pub fn new(launcher: Launcher, alphabet: Arc<Alphabet>) -> JvmSul {
        JvmSul {
            launcher,
            alphabet,
            agent: None,
            run: Vec::new(),
        }
    }

    /// An instance over an agent already started by `launcher`.
    pub fn with_agent(launcher: Launcher, alphabet: Arc<Alphabet>, agent: AgentProcess) -> JvmSul {
        JvmSul {
            agent: Some(agent),
            ..JvmSul::new(launcher, alphabet)
        }
    }

    /// Stops the agent, if one runs.
    pub async fn shutdown(&mut self) {
        if let Some(agent) = self.agent.take() {
            agent.shutdown().await;
        }
    }

    /// Sends a run request; on any failure the agent is dropped (killed) and the error says
    /// what the run was.
    async fn run_request(
        &mut self,
        kind: &str,
        body: Map<String, serde_json::Value>,
    ) -> Result<RunReply, SulError> {
        if self.agent.is_none() {
            let agent = self
                .launcher
                .start()
                .await
                .map_err(|it| self.error(&it.to_string()))?;
            self.agent = Some(agent);
        }
        let timeout = self.launcher.experiment.longest_request_ms() + 5_000;
        let agent = self.agent.as_mut().expect("started above");
        match run_request(agent, kind, body, timeout).await {
            Ok(reply) => {
                if reply.restart_required {
                    self.agent = None;
                }
                Ok(reply)
            }
            Err(failure) => Err(self.fail(failure.message())),
        }
    }

    /// Drops the agent (a restart at the next reset) and describes the failure.
    fn fail(&mut self, message: &str) -> SulError {
        self.agent = None;
        self.error(message)
    }

    fn error(&self, message: &str) -> SulError {
        let run = if self.run.is_empty() {
            "reset".to_owned()
        } else {
            format!("reset {}", self.run.join(" "))
        };
        SulError::new(format!(
            "{} on {}, after `{run}`: {message}",
            self.launcher.experiment.class(),
            self.launcher.command.runs_on
        ))
    }
}

impl Sul for JvmSul {
    async fn reset(&mut self) -> Result<(), SulError> {
        self.run.clear();
        self.run_request("reset", Map::new()).await.map(drop)
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        let mut outputs = self.steps(&[input]).await?;
        Ok(outputs.pop().expect("a step answers its input"))
    }

    /// One `step` request for all of `inputs`: the agent runs them back to back.
    async fn steps(&mut self, inputs: &[Input]) -> Result<Vec<Output>, SulError> {
        let names: Vec<String> = inputs
            .iter()
            .map(|&input| self.alphabet.signature.input_name(input).to_owned())
            .collect();
        self.run.extend(names.iter().cloned());
        let mut body = Map::new();
        body.insert("inputs".into(), json!(names));
        let reply = self.run_request("step", body).await?;
        step_outputs(&self.alphabet, &reply, inputs.len()).map_err(|message| self.fail(&message))
    }
}

/// Why a run request failed.
#[derive(Debug)]
pub(crate) enum RunFailure {
    /// The agent answered, but not with a run that went well (a crash, hang or unexpected
    /// exception of the class, a refusal, a reply out of protocol).
    Answered(String),
    /// The agent is gone: its stream ended or it missed the deadline.
    Lost(String),
}

impl RunFailure {
    /// The failure, for the user.
    pub(crate) fn message(&self) -> &str {
        match self {
            RunFailure::Answered(message) | RunFailure::Lost(message) => message,
        }
    }
}

/// Sends a `reset` or `step` request; any answer but a run reply with status `ok` is a
/// failure, described for the user.
pub(crate) async fn run_request(
    agent: &mut AgentProcess,
    kind: &str,
    body: Map<String, serde_json::Value>,
    timeout_ms: u64,
) -> Result<RunReply, RunFailure> {
    let answered = RunFailure::Answered;
    let reply = match agent.request(kind, body, timeout_ms).await {
        Ok(Answer::Reply(Reply::Started(reply) | Reply::Stepped(reply))) => reply,
        Ok(Answer::Reply(other)) => {
            return Err(answered(format!(
                "the agent answered `{kind}` with {other:?}"
            )))
        }
        Ok(Answer::Error(error)) => {
            return Err(answered(format!(
                "the agent refused `{kind}`: {}: {}",
                error.code, error.message
            )))
        }
        Err(error) => return Err(RunFailure::Lost(error.to_string())),
    };
    if reply.status != "ok" {
        let hint = if reply.status == "unexpected" {
            "; if this exception is part of the protocol, list it in [errors] exceptions"
        } else {
            ""
        };
        return Err(answered(format!(
            "status {}: {}{hint}",
            reply.status,
            reply.failure_message()
        )));
    }
    Ok(reply)
}

/// The outputs of a `step` reply for `asked` inputs, up to the first `err`.
pub(crate) fn step_outputs(
    alphabet: &Alphabet,
    reply: &RunReply,
    asked: usize,
) -> Result<Vec<Output>, String> {
    if reply.outputs.len() != asked {
        return Err(format!(
            "the agent answered {} outputs for {asked} inputs",
            reply.outputs.len()
        ));
    }
    let mut outputs = Vec::with_capacity(asked);
    for name in &reply.outputs {
        let output = alphabet
            .output_named(name)
            .ok_or_else(|| format!("the agent answered the unknown output `{name}`"))?;
        outputs.push(output);
        if output == Output::Err {
            break;
        }
    }
    Ok(outputs)
}
