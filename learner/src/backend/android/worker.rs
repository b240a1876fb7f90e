//! A worker: the [`Sul`] the learner drives, running each request on whichever device of the pool
//! it leases, its own when free.
//! The device or its agent may go away mid-query, or another worker may have run on the device
//! meanwhile.
//! Then the worker replays the run so far on the device it leases and goes on.
//! The replayed answers must be the ones already given, else the two devices disagree and the run
//! stops, naming both.
//! Every run is recorded by device, so two devices answering the same inputs differently are
//! reported, never merged.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde_json::{json, Map};

use super::pool::{Lease, Pool, RunState};
use super::AndroidError;
use crate::backend::jvm::sul::{run_request, step_outputs, RunFailure};
use crate::backend::jvm::{Experiment, RunReply};
use crate::closure::{Alphabet, Input, Output};
use crate::oracle::sul::{Sul, SulError};

/// Devices lost in a row within one query before the query fails.
const ATTEMPTS: usize = 4;

/// Two devices that answered the same inputs differently.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceDisagreement {
    /// The inputs, up to the first output that differs.
    pub inputs: Vec<String>,
    /// One device's serial and its outputs for `inputs`.
    pub first: (String, Vec<String>),
    /// The other device's serial and its outputs.
    pub second: (String, Vec<String>),
    /// What running `inputs` once more on each of the two devices showed.
    pub again: Recheck,
}

/// What running a disagreement's inputs once more on each of its two devices showed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Recheck {
    /// Not run again (yet).
    NotRun,
    /// Each device gave its own answer again: the devices differ, and no one model is both's.
    Reproduced,
    /// At least one device answered otherwise this time: a one-off, which the vote of the
    /// learning pipeline settles.
    OneOff {
        /// The serial and outputs of each device this time.
        again: Vec<(String, Vec<String>)>,
    },
    /// It could not run on one of them (gone, or the agent failed), for this reason.
    Unreachable(String),
}

/// The runs of every device, as a tree of inputs, each answer with the device that gave it.
#[derive(Default)]
pub struct DeviceTraces {
    inner: Mutex<Traces>,
}

#[derive(Default)]
struct Traces {
    /// (node, input) to (child node, output, serial); node 0 is the reset.
    edges: HashMap<(usize, Input), (usize, Output, String)>,
    nodes: usize,
    found: Vec<DeviceDisagreement>,
}

impl DeviceTraces {
    /// Records a run of `serial`; a different answer of another device to the same inputs
    /// is a disagreement, returned when it is new.
    fn record(
        &self,
        alphabet: &Alphabet,
        serial: &str,
        run: &[(Input, Output)],
    ) -> Option<DeviceDisagreement> {
        let mut traces = self.inner.lock().expect("trace lock is never poisoned");
        let mut node = 0;
        let mut known: Vec<(Output, String)> = Vec::new();
        for (depth, &(input, output)) in run.iter().enumerate() {
            let next = traces.nodes + 1;
            let (child, seen, by) = traces
                .edges
                .entry((node, input))
                .or_insert_with(|| (next, output, serial.to_owned()))
                .clone();
            if child == next {
                traces.nodes = next;
            }
            if seen != output && by != serial {
                let names = |outputs: Vec<Output>| alphabet.output_names(&outputs);
                let word: Vec<Input> = run[..=depth].iter().map(|(input, _)| *input).collect();
                let inputs = alphabet.input_names(&word);
                if traces.found.iter().any(|it| it.inputs == inputs) {
                    return None;
                }
                let mut theirs: Vec<Output> = known.iter().map(|(it, _)| *it).collect();
                theirs.push(seen);
                let ours: Vec<Output> = run[..=depth].iter().map(|(_, it)| *it).collect();
                let found = DeviceDisagreement {
                    inputs,
                    first: (by, names(theirs)),
                    second: (serial.to_owned(), names(ours)),
                    again: Recheck::NotRun,
                };
                traces.found.push(found.clone());
                return Some(found);
            }
            known.push((seen, by));
            node = child;
        }
        None
    }

    /// The disagreements found so far.
    pub fn disagreements(&self) -> Vec<DeviceDisagreement> {
        let traces = self.inner.lock().expect("trace lock is never poisoned");
        traces.found.clone()
    }
}

/// Runs `inputs` from a reset on the device `serial`, once learning is over, and returns its
/// outputs; an error says why it could not.
pub async fn rerun_on(
    pool: &Pool,
    experiment: &Experiment,
    alphabet: &Alphabet,
    serial: &str,
    inputs: &[String],
) -> Result<Vec<String>, String> {
    // No learning worker has this number: the device's agent holds no worker's run after it.
    let worker = usize::MAX;
    let mut lease = match pool.acquire_device(serial, worker).await {
        None => return Err(format!("{serial} is gone or busy")),
        Some(Err(error)) => return Err(error.to_string()),
        Some(Ok(lease)) => lease,
    };
    let timeout = experiment.longest_request_ms() + 5_000;
    let agent = &mut lease.agent.as_mut().expect("a lease has an agent").agent;
    let ran = async {
        run_request(agent, "reset", Map::new(), timeout).await?;
        let mut body = Map::new();
        body.insert("inputs".into(), json!(inputs));
        let reply = run_request(agent, "step", body, timeout).await?;
        step_outputs(alphabet, &reply, inputs.len()).map_err(RunFailure::Answered)
    }
    .await;
    match ran {
        Ok(outputs) => {
            lease.runs += 1;
            pool.release(lease, worker).await;
            Ok(alphabet.output_names(&outputs))
        }
        Err(failure) => {
            let message = format!("{serial}: {}", failure.message());
            pool.lose(lease.index, lease.agent.take(), &message).await;
            Err(message)
        }
    }
}

/// One worker of a run.
pub struct DeviceWorker {
    pool: Arc<Pool>,
    experiment: Arc<Experiment>,
    alphabet: Arc<Alphabet>,
    traces: Arc<DeviceTraces>,
    lease: Option<Lease>,
    /// This worker's number, which is also the device it prefers first.
    id: usize,
    /// The device this worker's run prefers: the next one at each reset, so the same inputs
    /// run on several devices and a difference between them shows.
    preferred: usize,
    /// The run since the last reset, with its answers.
    run: Vec<(Input, Output)>,
    /// The device that gave the last answer.
    answered_by: Option<String>,
}

impl DeviceWorker {
    /// Worker `id` of `pool`, preferring device `id`.
    pub fn new(
        pool: Arc<Pool>,
        experiment: Arc<Experiment>,
        alphabet: Arc<Alphabet>,
        traces: Arc<DeviceTraces>,
        id: usize,
    ) -> DeviceWorker {
        DeviceWorker {
            pool,
            experiment,
            alphabet,
            traces,
            lease: None,
            id,
            preferred: id,
            answered_by: None,
            run: Vec::new(),
        }
    }

    /// Gives the device back to the pool, its agent holding this worker's run.
    async fn release(&mut self) {
        if let Some(lease) = self.lease.take() {
            self.pool.release(lease, self.id).await;
        }
    }

    /// Leases a device, starting its agent, and returns what the agent runs on (its
    /// `platform`); an experiment the agent refuses fails here.
    pub async fn platform(&mut self) -> Result<serde_json::Value, AndroidError> {
        let lease = self.pool.acquire(self.id, self.id).await?;
        let platform = lease
            .agent
            .as_ref()
            .and_then(|it| it.agent.platform.clone())
            .unwrap_or_default();
        self.lease = Some(lease);
        self.release().await;
        Ok(platform)
    }

    /// Sends one run request on the leased device, leasing one and replaying the run so far
    /// on it when the device or its agent went away.
    async fn request(
        &mut self,
        kind: &str,
        body: Map<String, serde_json::Value>,
    ) -> Result<RunReply, SulError> {
        let timeout = self.experiment.longest_request_ms() + 5_000;
        let mut losses = Vec::new();
        loop {
            if self.lease.is_none() {
                let lease = self
                    .pool
                    .acquire(self.id, self.preferred)
                    .await
                    .map_err(|error| self.error(&error.to_string()))?;
                let intact = lease.run == RunState::Intact;
                self.lease = Some(lease);
                if kind != "reset" && !intact {
                    if let Err(failure) = self.replay(timeout).await {
                        match failure {
                            RunFailure::Lost(message) => {
                                self.lost(&message, &mut losses).await?;
                                continue;
                            }
                            RunFailure::Answered(message) => {
                                let error = self.error(&message);
                                self.drop_lease(&message).await;
                                return Err(error);
                            }
                        }
                    }
                }
            }
            let lease = self.lease.as_mut().expect("leased above");
            let agent = &mut lease.agent.as_mut().expect("a lease has an agent").agent;
            match run_request(agent, kind, body.clone(), timeout).await {
                Ok(reply) => {
                    self.answered_by = Some(lease.link.serial.clone());
                    if kind == "reset" {
                        self.lease.as_mut().expect("leased above").runs += 1;
                    }
                    if reply.restart_required {
                        self.drop_lease("the agent asked for a restart").await;
                    } else {
                        self.release().await;
                    }
                    return Ok(reply);
                }
                Err(RunFailure::Lost(message)) => self.lost(&message, &mut losses).await?,
                Err(RunFailure::Answered(message)) => {
                    let error = self.error(&message);
                    self.drop_lease(&message).await;
                    return Err(error);
                }
            }
        }
    }

    /// Notes that the leased device or its agent went away; fails after too many losses.
    async fn lost(&mut self, message: &str, losses: &mut Vec<String>) -> Result<(), SulError> {
        let serial = self
            .lease
            .as_ref()
            .map_or_else(String::new, |it| it.link.serial.clone());
        losses.push(format!("{serial}: {message}"));
        let error = self.error(&format!(
            "lost the device {} times in one query: {}",
            losses.len(),
            losses.join("; ")
        ));
        self.drop_lease(message).await;
        if losses.len() >= ATTEMPTS {
            return Err(error);
        }
        Ok(())
    }

    async fn drop_lease(&mut self, why: &str) {
        if let Some(mut lease) = self.lease.take() {
            let agent = lease.agent.take();
            self.pool.lose(lease.index, agent, why).await;
        }
    }

    /// Runs the run so far again on a newly leased device; its answers must be the ones given.
    async fn replay(&mut self, timeout: u64) -> Result<(), RunFailure> {
        let lease = self.lease.as_mut().expect("leased");
        let agent = &mut lease.agent.as_mut().expect("a lease has an agent").agent;
        run_request(agent, "reset", Map::new(), timeout).await?;
        if self.run.is_empty() {
            return Ok(());
        }
        let names: Vec<&str> = self
            .run
            .iter()
            .map(|(input, _)| self.alphabet.signature.input_name(*input))
            .collect();
        let mut body = Map::new();
        body.insert("inputs".into(), json!(names));
        let reply = run_request(agent, "step", body, timeout).await?;
        let outputs =
            step_outputs(&self.alphabet, &reply, self.run.len()).map_err(RunFailure::Answered)?;
        let given: Vec<Output> = self.run.iter().map(|(_, it)| *it).collect();
        if outputs != given {
            let serial = lease.link.serial.clone();
            let replayed: Vec<(Input, Output)> = self
                .run
                .iter()
                .map(|(input, _)| *input)
                .zip(outputs)
                .collect();
            self.traces.record(&self.alphabet, &serial, &replayed);
            return Err(RunFailure::Answered(format!(
                "replayed on {serial} after a lost device, the run answered differently \
                 (see the per-device disagreements)"
            )));
        }
        Ok(())
    }

    /// The error that stops learning when two devices answered the same inputs differently:
    /// the vote of the learning pipeline would run on whichever devices its workers hold, and
    /// learn a mix of both. The backend then runs the inputs again on each device.
    fn differ(&self, found: &DeviceDisagreement) -> SulError {
        SulError::new(format!(
            "{}: devices {} and {} answered `{}` differently: {} and {}",
            self.experiment.class(),
            found.first.0,
            found.second.0,
            found.inputs.join(" "),
            found.first.1.join(" "),
            found.second.1.join(" ")
        ))
    }

    fn error(&self, message: &str) -> SulError {
        let run: Vec<&str> = self
            .run
            .iter()
            .map(|(input, _)| self.alphabet.signature.input_name(*input))
            .collect();
        let serial = self
            .lease
            .as_ref()
            .map_or_else(|| "no device".to_owned(), |it| it.link.serial.clone());
        SulError::new(format!(
            "{} on device {serial}, after `reset {}`: {message}",
            self.experiment.class(),
            run.join(" ")
        ))
    }
}

impl Sul for DeviceWorker {
    async fn reset(&mut self) -> Result<(), SulError> {
        self.run.clear();
        self.preferred = (self.preferred + 1) % self.pool.size().max(1);
        self.request("reset", Map::new()).await.map(drop)
    }

    async fn step(&mut self, input: Input) -> Result<Output, SulError> {
        let mut outputs = self.steps(&[input]).await?;
        Ok(outputs.pop().expect("a step answers its input"))
    }

    async fn steps(&mut self, inputs: &[Input]) -> Result<Vec<Output>, SulError> {
        let names: Vec<&str> = inputs
            .iter()
            .map(|&input| self.alphabet.signature.input_name(input))
            .collect();
        let mut body = Map::new();
        body.insert("inputs".into(), json!(names));
        let reply = self.request("step", body).await?;
        let outputs = step_outputs(&self.alphabet, &reply, inputs.len())
            .map_err(|message| self.error(&message))?;
        self.run
            .extend(inputs.iter().copied().zip(outputs.iter().copied()));
        // Recorded with its last answers, which often differ (an `err` ends a run).
        if let Some(serial) = &self.answered_by {
            if let Some(found) = self.traces.record(&self.alphabet, serial, &self.run) {
                return Err(self.differ(&found));
            }
        }
        Ok(outputs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typestates::library::Library;

    fn timer() -> Alphabet {
        let typestate = Library::bundled()
            .find("CountDownTimer")
            .expect("bundled")
            .typestate
            .clone();
        Alphabet::of(typestate.signature())
    }

    fn run(alphabet: &Alphabet, steps: &[(&str, &str)]) -> Vec<(Input, Output)> {
        steps
            .iter()
            .map(|(input, output)| {
                (
                    alphabet.input_named(input).expect("an input"),
                    alphabet.output_named(output).expect("an output"),
                )
            })
            .collect()
    }

    #[test]
    fn two_devices_answering_the_same_inputs_differently_are_reported_with_both_traces() {
        let alphabet = timer();
        let traces = DeviceTraces::default();
        let wait = alphabet
            .signature
            .input_name(*alphabet.inputs.last().unwrap());
        assert_eq!(wait, "wait");
        let start = alphabet.signature.input_name(alphabet.inputs[0]).to_owned();
        traces.record(&alphabet, "A", &run(&alphabet, &[(&start, "eps")]));
        // The same device again, and another device agreeing on the shared prefix: nothing.
        traces.record(
            &alphabet,
            "A",
            &run(&alphabet, &[(&start, "eps"), ("wait", "quiet")]),
        );
        traces.record(&alphabet, "B", &run(&alphabet, &[(&start, "eps")]));
        assert_eq!(traces.disagreements(), []);
        // B answers the longer query differently: reported once, naming both devices.
        let differently = run(&alphabet, &[(&start, "err"), ("wait", "err")]);
        traces.record(&alphabet, "B", &differently);
        traces.record(&alphabet, "B", &differently);
        assert_eq!(
            traces.disagreements(),
            [DeviceDisagreement {
                inputs: vec![start.clone()],
                first: ("A".to_owned(), vec!["eps".to_owned()]),
                second: ("B".to_owned(), vec!["err".to_owned()]),
                again: Recheck::NotRun,
            }]
        );
        // One device disagreeing with itself is the pipeline's non-determinism check's.
        traces.record(
            &alphabet,
            "A",
            &run(&alphabet, &[(&start, "eps"), ("wait", "eps")]),
        );
        assert_eq!(traces.disagreements().len(), 1);
    }
}
