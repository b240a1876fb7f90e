//! The agent on one device.
//! The dex jar is pushed to `/data/local/tmp/typestar/` and started by `app_process` with the session token on its stdin.
//! It is reached through a forward of its abstract socket, greeted and loaded with the experiment.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::Value;
use tokio::net::TcpStream;

use super::adb::{first_line, DeviceLink, Stop};
use super::AndroidError;
use crate::backend::jvm::process::{session_token, AgentProcess};
use crate::backend::jvm::sul::load;
use crate::backend::jvm::{Experiment, JvmError};

/// Where the agent's files go on a device.
pub const DEVICE_DIR: &str = "/data/local/tmp/typestar";
/// The entry point `app_process` runs.
pub const MAIN_CLASS: &str = "dev.typestar.agent.AndroidMain";
/// Lines of the agent's stderr kept for error messages.
const STDERR_LINES: usize = 20;

/// How agents start on devices.
#[derive(Clone, Debug)]
pub struct AgentSetup {
    /// Jars pushed and put on the agent's class path: the dexed agent first, then dexed
    /// harnesses and code under study.
    pub jars: Vec<PathBuf>,
    /// Deadline of the start, from the command to the handshake.
    pub start_ms: u64,
    /// The device port reversed to the host's fixture server, if the experiment has fixtures.
    pub reverse: Option<Reverse>,
}

/// `adb reverse tcp:DEVICE_PORT tcp:HOST_PORT`: the class fetches the experiment's fixtures
/// from the device's `127.0.0.1:DEVICE_PORT`, served on the host's `HOST_PORT`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reverse {
    /// The port the experiment names, on the device.
    pub device_port: u16,
    /// The fixture server's port on the host.
    pub host_port: u16,
}

impl AgentSetup {
    /// The device paths of the jars.
    fn remote_jars(&self) -> Vec<String> {
        self.jars
            .iter()
            .enumerate()
            .map(|(index, jar)| {
                let name = jar
                    .file_name()
                    .map_or_else(|| "classes.jar".into(), |it| it.to_string_lossy());
                format!("{DEVICE_DIR}/{index}-{name}")
            })
            .collect()
    }

    /// Copies the jars to the device.
    pub async fn push(&self, link: &DeviceLink) -> Result<(), AndroidError> {
        let made = link.shell(&format!("mkdir -p {DEVICE_DIR}")).await?;
        if made.status != 0 {
            return Err(AndroidError::Device {
                serial: link.serial.clone(),
                message: format!("cannot create {DEVICE_DIR}: {}", made.stderr.trim()),
            });
        }
        for (jar, remote) in self.jars.iter().zip(self.remote_jars()) {
            link.push(jar.clone(), remote).await?;
        }
        Ok(())
    }

    /// Starts an agent on the device (whose jars were pushed) and loads `experiment`.
    pub async fn start(
        &self,
        link: &DeviceLink,
        experiment: &Experiment,
    ) -> Result<DeviceAgent, AndroidError> {
        if let Some(reverse) = self.reverse {
            // A reconnected device lost its reverses; setting it again replaces a stale one.
            link.reverse(reverse.device_port, reverse.host_port).await?;
        }
        let token = session_token()?;
        let socket = format!("typestar-{}", &session_token()?[..16]);
        let command = format!(
            "CLASSPATH={} exec app_process /system/bin {MAIN_CLASS} --socket {socket}",
            self.remote_jars().join(":")
        );
        let started = link.start(&command, format!("{token}\n"));
        let deadline = Duration::from_millis(self.start_ms);
        let (started, line) = tokio::task::spawn_blocking(move || {
            let line = first_line(&started.output, deadline);
            (started, line)
        })
        .await
        .map_err(|error| AndroidError::Device {
            serial: link.serial.clone(),
            message: format!("waiting for the agent: {error}"),
        })?;
        let agent_failed = |message: String| AndroidError::Device {
            serial: link.serial.clone(),
            message: format!("the agent ({command}) {message}"),
        };
        let line = line.map_err(agent_failed)?;
        let listening: Value = serde_json::from_str(&line)
            .map_err(|_| agent_failed(format!("printed {line:?} instead of its socket")))?;
        if listening.get("socket").and_then(Value::as_str) != Some(socket.as_str()) {
            return Err(agent_failed(format!("listens elsewhere: {line}")));
        }
        let stderr = collect_output(started.output);
        let port = link.forward(&format!("localabstract:{socket}")).await?;
        let stream = TcpStream::connect(("127.0.0.1", port))
            .await
            .map_err(|error| agent_failed(format!("cannot be reached on tcp:{port}: {error}")))?;
        let agent = AgentProcess::over_stream(stream, token, stderr, self.start_ms).await?;
        let agent = load(experiment, agent).await?;
        Ok(DeviceAgent {
            agent,
            port,
            reversed: self.reverse.map(|it| it.device_port),
            _session: started.stop,
        })
    }
}

/// A running agent on a device, with the adb session that keeps it alive.
pub struct DeviceAgent {
    /// The agent, loaded with the experiment.
    pub agent: AgentProcess,
    /// The local port forwarded to its socket.
    pub port: u16,
    /// The device port reversed to the fixture server, removed with the agent.
    reversed: Option<u16>,
    /// The `exec:` session the agent runs in: dropping it ends the agent.
    _session: Stop,
}

impl DeviceAgent {
    /// Asks the agent to stop and removes its forward and reverse.
    pub async fn shutdown(self, link: &DeviceLink) {
        self.agent.shutdown().await;
        let _ = link.remove_forward(self.port).await;
        if let Some(device_port) = self.reversed {
            let _ = link.remove_reverse(device_port).await;
        }
    }
}

/// The last lines of the agent's output after its listening line (its stderr, as `exec:`
/// merges them), for error messages, collected until the output ends.
fn collect_output(
    output: std::sync::mpsc::Receiver<Result<Vec<u8>, String>>,
) -> Arc<Mutex<VecDeque<String>>> {
    let lines = Arc::new(Mutex::new(VecDeque::new()));
    let tail = Arc::clone(&lines);
    std::thread::spawn(move || {
        let mut pending = Vec::new();
        while let Ok(Ok(bytes)) = output.recv() {
            pending.extend_from_slice(&bytes);
            while let Some(end) = pending.iter().position(|&byte| byte == b'\n') {
                let line = String::from_utf8_lossy(&pending[..end]).into_owned();
                pending.drain(..=end);
                let mut tail = tail.lock().expect("stderr lock is never poisoned");
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        }
    });
    lines
}

impl From<JvmError> for AndroidError {
    fn from(error: JvmError) -> AndroidError {
        AndroidError::Agent(Box::new(error))
    }
}
