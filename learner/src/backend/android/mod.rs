//! The Android backend: classes learned on Android devices over adb, as DroidStar learned them.
//! It uses any number of devices across any number of adb servers.
//! A server is `host:port`: the local server, or a device farm's such as DeviceFarmer/STF.
//!
//! - [`adb`]: the adb servers and devices, through `adb_client`, its pitfalls worked around.
//! - `agent`: the dexed agent pushed and started by `app_process` with its session token on stdin.
//!   It is reached through a forward of its abstract socket and loaded with the experiment.
//! - `pool`: the run's devices, leased by workers a run of queries at a time.
//!   Lost devices are set aside and taken back when their server lists them again.
//! - `worker`: the [`crate::oracle::Sul`] of one worker.
//!   It survives a device that goes away mid-query by replaying the run on the next device it
//!   leases.
//!   It records every run by device so that devices that disagree are reported.
//!
//! Everything else (experiments, the learning pipeline with its shared query cache and journal, the
//! report) is the JVM backend's.
//! `learner/ANDROID.md` is the user's guide.

pub mod adb;
mod agent;
mod pool;
mod worker;

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use thiserror::Error;
use typestates::{Backend, Code, LearningRun};

pub use adb::{AdbServer, DeviceLink};
pub use agent::{AgentSetup, Reverse, DEVICE_DIR, MAIN_CLASS};
pub use pool::{DeviceUse, Patience};
pub use worker::{DeviceDisagreement, Recheck};

use crate::backend::fixtures::FixtureServer;
use crate::backend::jvm::{learn_with, Agents, Experiment, JvmConfig, JvmError};
use crate::cost::CostModel;
use crate::learn::{End, Progress};
use crate::oracle::nondeterminism::{Disagreement, NonDeterminism};
use crate::session::{Details, Learned, Origin};
use pool::Pool;
use worker::{rerun_on, DeviceTraces, DeviceWorker};

/// The local adb server, as the `adb` command finds it: `127.0.0.1` at
/// `$ANDROID_ADB_SERVER_PORT`, else 5037.
pub fn default_server() -> String {
    let port = std::env::var("ANDROID_ADB_SERVER_PORT")
        .ok()
        .filter(|it| !it.is_empty())
        .unwrap_or_else(|| "5037".to_owned());
    format!("127.0.0.1:{port}")
}

/// A failure of the Android backend.
#[derive(Debug, Error)]
pub enum AndroidError {
    /// An adb server address that does not parse or resolve.
    #[error("adb server `{server}`: {reason}")]
    BadServer {
        /// As given.
        server: String,
        /// Why it is not usable.
        reason: String,
    },
    /// An adb request failed (the server's `FAIL` message, or the connection's error).
    #[error("adb server {server}{}: cannot {what}: {message}", serial.as_ref().map(|it| format!(", device {it}")).unwrap_or_default())]
    Adb {
        /// The server asked.
        server: String,
        /// The device, for device requests.
        serial: Option<String>,
        /// What was asked.
        what: String,
        /// What went wrong.
        message: String,
    },
    /// Something on a device went wrong (the agent would not start or listen).
    #[error("device {serial}: {message}")]
    Device {
        /// The device.
        serial: String,
        /// What went wrong.
        message: String,
    },
    /// No usable device on the servers, or not the ones asked for.
    #[error("{0}")]
    NoDevices(String),
    /// Every device was gone for longer than the run waits.
    #[error("no device became available within {waited_ms} ms: {why}")]
    NoDevice {
        /// How long the worker waited.
        waited_ms: u64,
        /// Why each device is unavailable.
        why: String,
    },
    /// The dexed agent could not be built.
    #[error("cannot build the agent for devices with {}: {message}", script.display())]
    Dex {
        /// The build script.
        script: PathBuf,
        /// Its exit status and last lines.
        message: String,
    },
    /// The experiment's fixture files cannot be served.
    #[error(transparent)]
    Fixtures(#[from] crate::backend::fixtures::FixtureError),
    /// The experiment needs something devices do not run yet.
    #[error("{0}")]
    Unsupported(String),
    /// The agent or the experiment failed as on the host JVM.
    #[error(transparent)]
    Agent(Box<JvmError>),
}

impl AndroidError {
    /// Whether the experiment, not a device, failed: no other device would do better.
    fn is_experiment(&self) -> bool {
        matches!(self, AndroidError::Agent(error)
            if matches!(**error, JvmError::Experiment(_) | JvmError::Refused { .. }))
    }
}

/// Where the Android backend finds devices and what it runs on them.
#[derive(Clone, Debug)]
pub struct AndroidConfig {
    /// The adb servers to look for devices on (`host:port`).
    pub servers: Vec<String>,
    /// The devices to use (serials); all usable ones when empty.
    pub serials: Vec<String>,
    /// The program that starts a local adb server when none runs (`adb`).
    pub adb_program: String,
    /// The dexed agent (`agent-android/android/build-dex.sh`) and further dexed jars.
    pub jars: Vec<PathBuf>,
    /// Deadline of an agent's start on a device, from the command to the loaded experiment.
    pub start_ms: u64,
    /// How long workers wait for a lost device to return.
    pub patience: Patience,
    /// What the JVM backend's pipeline takes: the journal and the user's choices.
    pub jvm: JvmConfig,
}

impl Default for AndroidConfig {
    fn default() -> AndroidConfig {
        AndroidConfig {
            servers: vec![default_server()],
            serials: Vec::new(),
            adb_program: "adb".to_owned(),
            jars: Vec::new(),
            start_ms: 60_000,
            patience: Patience {
                wait_ms: 600_000,
                poll_ms: 2_000,
            },
            jvm: JvmConfig::default(),
        }
    }
}

/// The dexed agent, built (or found in its cache) by `agent-android/android/build-dex.sh`
/// with javac, Maven and D8 from Maven Central.
pub fn dex_jar() -> Result<PathBuf, AndroidError> {
    let script = crate::backend::jvm::java::agent_sources()
        .map_err(|error| AndroidError::Agent(Box::new(error)))?
        .join("android/build-dex.sh");
    let failed = |message: String| AndroidError::Dex {
        script: script.clone(),
        message,
    };
    let output = std::process::Command::new(&script)
        .output()
        .map_err(|error| failed(error.to_string()))?;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let path = PathBuf::from(stdout.trim());
    if !output.status.success() || !path.is_file() {
        let stderr = String::from_utf8_lossy(&output.stderr);
        let tail: Vec<&str> = stderr.lines().rev().take(20).collect();
        return Err(failed(format!(
            "{} ({}):\n{}",
            output.status,
            stdout.trim(),
            tail.into_iter().rev().collect::<Vec<_>>().join("\n")
        )));
    }
    Ok(path)
}

/// A device the adb servers see, for `typestar devices`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceInfo {
    /// Its serial.
    pub serial: String,
    /// The server that sees it.
    pub server: String,
    /// Its state (`device` when usable, else `offline`, `unauthorized`, ...).
    pub state: String,
    /// Its model, as the server reports it.
    pub model: String,
    /// Its API level (`ro.build.version.sdk`), when it is usable.
    pub api: Option<u32>,
    /// Whether a typestar agent runs on it.
    pub agent_running: bool,
}

/// The devices every server of `config` sees, with their API levels and whether an agent
/// runs there. A server that cannot be reached is an error naming it.
pub async fn list_devices(config: &AndroidConfig) -> Result<Vec<DeviceInfo>, AndroidError> {
    let mut found = Vec::new();
    for server in servers(config)? {
        for listed in server.devices().await? {
            let link = DeviceLink {
                server: server.clone(),
                serial: listed.serial.clone(),
            };
            let (api, agent_running) = if listed.state == "device" {
                let api = link.shell("getprop ro.build.version.sdk").await?;
                let running = link.shell(&format!("pgrep -f {MAIN_CLASS}")).await?;
                (api.stdout.trim().parse().ok(), running.status == 0)
            } else {
                (None, false)
            };
            found.push(DeviceInfo {
                serial: listed.serial,
                server: server.name.clone(),
                state: listed.state,
                model: listed.model,
                api,
                agent_running,
            });
        }
    }
    Ok(found)
}

fn servers(config: &AndroidConfig) -> Result<Vec<AdbServer>, AndroidError> {
    config
        .servers
        .iter()
        .map(|it| AdbServer::parse(it, &config.adb_program))
        .collect()
}

/// The usable devices of `config`: the serials it names (each must be usable on some
/// server), or every usable device.
async fn devices(config: &AndroidConfig) -> Result<Vec<DeviceLink>, AndroidError> {
    let mut usable = Vec::new();
    let mut seen = Vec::new();
    for server in servers(config)? {
        for listed in server.devices().await? {
            seen.push(format!(
                "{} ({}, {})",
                listed.serial, server.name, listed.state
            ));
            if listed.state == "device"
                && !usable
                    .iter()
                    .any(|it: &DeviceLink| it.serial == listed.serial)
            {
                usable.push(DeviceLink {
                    server: server.clone(),
                    serial: listed.serial,
                });
            }
        }
    }
    let seen = if seen.is_empty() {
        "none".to_owned()
    } else {
        seen.join(", ")
    };
    if !config.serials.is_empty() {
        let missing: Vec<&String> = config
            .serials
            .iter()
            .filter(|serial| !usable.iter().any(|it| &&it.serial == serial))
            .collect();
        if !missing.is_empty() {
            return Err(AndroidError::NoDevices(format!(
                "no usable device {} on the adb servers {}; they see: {seen}",
                missing
                    .iter()
                    .map(|it| it.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
                config.servers.join(", ")
            )));
        }
        usable.retain(|it| config.serials.contains(&it.serial));
    }
    if usable.is_empty() {
        return Err(AndroidError::NoDevices(format!(
            "no usable device on the adb servers {}; they see: {seen}",
            config.servers.join(", ")
        )));
    }
    Ok(usable)
}

/// The cost of a device run: a reset and each callin cross adb, and a quiet `wait` lasts
/// t_max.
fn cost_model(experiment: &Experiment) -> CostModel {
    CostModel {
        reset_ms: 30,
        callin_ms: 10,
        callback_wait_ms: 10,
        quiet_wait_ms: experiment.quiescence_ms(),
    }
}

/// Learns `experiment`'s class on the devices of `config`, one worker per device, all
/// sharing one query cache and journal.
///
/// Fails before learning if no device is usable or the first agent does not start (a bad
/// experiment names its line). A device lost during learning is waited for as
/// `config.patience` says while the others go on.
pub async fn learn_on_devices(
    experiment: Arc<Experiment>,
    config: &AndroidConfig,
    progress: &mut dyn Progress,
) -> Result<Learned, AndroidError> {
    let started = Instant::now();
    if !experiment.harness_sources().is_empty() {
        return Err(AndroidError::Unsupported(format!(
            "{} names harness sources; harnesses are not dexed for devices yet, so this \
             experiment runs on --backend jvm or robolectric only",
            experiment.file().display()
        )));
    }
    let links = devices(config).await?;
    // One host server for every device; each device reaches it through its own reverse.
    let served = experiment
        .fixtures()
        .map(|it| FixtureServer::start(&it.dir, 0).map(|server| (it.port, server)))
        .transpose()?;
    let setup = AgentSetup {
        jars: config.jars.clone(),
        start_ms: config.start_ms,
        reverse: served.as_ref().map(|(device, server)| Reverse {
            device_port: *device,
            host_port: server.port(),
        }),
    };
    let pool = Arc::new(Pool::new(
        links.clone(),
        setup,
        Arc::clone(&experiment),
        config.patience,
    ));
    let alphabet = Arc::new(experiment.alphabet());
    let traces = Arc::new(DeviceTraces::default());
    let mut workers: Vec<DeviceWorker> = (0..links.len())
        .map(|index| {
            DeviceWorker::new(
                Arc::clone(&pool),
                Arc::clone(&experiment),
                Arc::clone(&alphabet),
                Arc::clone(&traces),
                index,
            )
        })
        .collect();
    // The first agent starts now, so a bad experiment fails here with its location.
    let platform = workers[0].platform().await?;
    let agents = Agents::of(&config.jvm, cost_model(&experiment), started);
    let origin = Origin {
        platform: describe_platform(&platform, &links),
        sources: Vec::new(),
        run: Some(LearningRun {
            backend: Backend::Android,
            sdk: platform
                .get("sdk")
                .and_then(Value::as_u64)
                .map(|it| it as u32),
            code: Some(Code::Real),
            date: None,
        }),
    };
    let run = learn_with(
        Arc::clone(&experiment),
        Arc::clone(&alphabet),
        workers,
        &agents,
        origin,
        progress,
    )
    .await;
    let mut run = match run {
        Ok(run) => run,
        Err(error) => {
            pool.shutdown().await;
            return Err(error.into());
        }
    };
    let mut disagreements = traces.disagreements();
    for disagreement in &mut disagreements {
        disagreement.again = recheck(&pool, &experiment, &alphabet, disagreement).await;
    }
    // A disagreement stopped learning (`End::Failed`, the worker's error) or was met on the
    // way; where each device repeats its own answer, that is the run's end.
    if let Some(differ) = disagreements
        .iter()
        .find(|it| it.again == Recheck::Reproduced)
    {
        run.outcome.end = End::NonDeterministic(Box::new(devices_differ(&alphabet, differ)));
    }
    let uses = pool.uses().await;
    pool.shutdown().await;
    drop(served);
    Ok(Learned {
        details: Details::Devices {
            uses,
            disagreements,
        },
        ..run
    })
}

/// Runs a disagreement's inputs once more on each of its two devices.
/// A one-off of one device is the learning pipeline's to settle; two devices that each
/// repeat their own answer differ, and a model learned on both would be neither's.
async fn recheck(
    pool: &Pool,
    experiment: &Experiment,
    alphabet: &crate::closure::Alphabet,
    disagreement: &DeviceDisagreement,
) -> Recheck {
    let mut again = Vec::new();
    for (serial, outputs) in [&disagreement.first, &disagreement.second] {
        match rerun_on(pool, experiment, alphabet, serial, &disagreement.inputs).await {
            Ok(now) => again.push((serial.clone(), now, outputs)),
            Err(why) => return Recheck::Unreachable(why),
        }
    }
    if again.iter().all(|(_, now, before)| now == *before) {
        Recheck::Reproduced
    } else {
        Recheck::OneOff {
            again: again
                .into_iter()
                .map(|(serial, now, _)| (serial, now))
                .collect(),
        }
    }
}

/// The stop of a run whose devices differ: both traces, each given twice by its device.
fn devices_differ(
    alphabet: &crate::closure::Alphabet,
    differ: &DeviceDisagreement,
) -> NonDeterminism {
    let word: Vec<_> = differ
        .inputs
        .iter()
        .filter_map(|it| alphabet.input_named(it))
        .collect();
    let outputs = |names: &[String]| -> Vec<_> {
        names
            .iter()
            .filter_map(|it| alphabet.output_named(it))
            .collect()
    };
    let (first, first_outputs) = &differ.first;
    let (second, second_outputs) = &differ.second;
    let (first_outputs, second_outputs) = (outputs(first_outputs), outputs(second_outputs));
    let description = format!(
        "devices {first} and {second} answer `{}` differently, each twice: {first} `{}`, \
         {second} `{}`; no one model is both devices', so learn on each alone (--device SERIAL)",
        alphabet.render_word(&word),
        alphabet.render_trace(&word, &first_outputs),
        alphabet.render_trace(&word, &second_outputs),
    );
    NonDeterminism {
        disagreement: Disagreement {
            prefix: word,
            votes: vec![(first_outputs, 2), (second_outputs, 2)],
            reruns: 2,
        },
        description,
    }
}

/// "Android 14 (API 34), Pixel 7, on devices A, B".
fn describe_platform(platform: &Value, links: &[DeviceLink]) -> String {
    let text = |key: &str| platform.get(key).and_then(Value::as_str).unwrap_or("?");
    let serials: Vec<&str> = links.iter().map(|it| it.serial.as_str()).collect();
    format!(
        "Android {} (API {}), {}, on device{} {}",
        text("release"),
        platform.get("sdk").and_then(Value::as_u64).unwrap_or(0),
        text("model"),
        if serials.len() == 1 { "" } else { "s" },
        serials.join(", ")
    )
}
