//! The adb servers and their devices, through `adb_client` (blocking: every call runs under
//! `spawn_blocking`).
//! Its pitfalls are worked around here:
//!
//! - `ADBServer` runs `adb start-server` before talking to a loopback address.
//!   It is given the configured adb program (`/bin/true` in tests, so no daemon ever starts).
//! - `shell_command` drops the exit status: commands end with `; echo typestar-rc=$?`, read back.
//! - `forward` does not read the port of `tcp:0`.
//!   The port is chosen here: a free one, with a retry when another program takes it first.
//! - `push` always creates files with mode 0777: nothing secret is pushed; the session token
//!   goes to the agent's stdin through `exec:`.

use std::io::{Read, Write};
use std::net::{SocketAddrV4, TcpListener, ToSocketAddrs};
use std::path::PathBuf;
use std::sync::mpsc;

use adb_client::server::{ADBServer, DeviceState};
use adb_client::server_device::ADBServerDevice;
use adb_client::ADBDeviceExt;

use super::AndroidError;

/// Tries at forwarding a port another program may take between its choice and the forward.
const FORWARD_TRIES: usize = 5;
/// The marker of the exit status appended to every shell command.
const STATUS_MARK: &str = "typestar-rc=";

/// One adb server (`host:port`): the local one, or a farm's.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AdbServer {
    /// As the user wrote it, for messages.
    pub name: String,
    addr: SocketAddrV4,
    /// The program `adb_client` runs to start a local server.
    program: String,
}

/// A device as its adb server lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// The device's serial.
    pub serial: String,
    /// Its state (`device` when usable).
    pub state: String,
    /// The model the server reports.
    pub model: String,
}

impl AdbServer {
    /// The server at `address` (`host:port`), started with `program` when it is local and
    /// not running.
    pub fn parse(address: &str, program: &str) -> Result<AdbServer, AndroidError> {
        let bad = |reason: String| AndroidError::BadServer {
            server: address.to_owned(),
            reason,
        };
        let addr = address
            .to_socket_addrs()
            .map_err(|error| bad(format!("{error}; expected host:port")))?
            .find_map(|it| match it {
                std::net::SocketAddr::V4(v4) => Some(v4),
                std::net::SocketAddr::V6(_) => None,
            })
            .ok_or_else(|| bad("no IPv4 address (adb servers listen on IPv4)".to_owned()))?;
        Ok(AdbServer {
            name: address.to_owned(),
            addr,
            program: program.to_owned(),
        })
    }

    /// The devices this server sees (`host:devices-l`).
    pub async fn devices(&self) -> Result<Vec<Listed>, AndroidError> {
        let server = self.clone();
        self.blocking(None, "list devices", move || {
            let mut client = ADBServer::new_from_path(server.addr, Some(server.program.clone()));
            let devices = client.devices_long()?;
            Ok(devices
                .into_iter()
                .map(|it| Listed {
                    serial: it.identifier,
                    state: if it.state == DeviceState::Device {
                        "device".to_owned()
                    } else {
                        it.state.to_string()
                    },
                    model: it.model,
                })
                .collect())
        })
        .await
    }

    /// Runs an `adb_client` call on a blocking thread, naming the server, the device and
    /// what was done in its error.
    async fn blocking<T: Send + 'static>(
        &self,
        serial: Option<&str>,
        what: &str,
        call: impl FnOnce() -> Result<T, adb_client::RustADBError> + Send + 'static,
    ) -> Result<T, AndroidError> {
        let error = |message: String| AndroidError::Adb {
            server: self.name.clone(),
            serial: serial.map(str::to_owned),
            what: what.to_owned(),
            message,
        };
        match tokio::task::spawn_blocking(call).await {
            Ok(Ok(value)) => Ok(value),
            Ok(Err(failure)) => Err(error(failure.to_string())),
            Err(join) => Err(error(format!("the adb call panicked: {join}"))),
        }
    }
}

/// What a shell command printed and its exit status.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ShellOutput {
    /// Standard output, without the status line.
    pub stdout: String,
    /// Standard error.
    pub stderr: String,
    /// The exit status.
    pub status: u8,
}

/// One device of one adb server.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeviceLink {
    /// The server that sees it.
    pub server: AdbServer,
    /// Its serial.
    pub serial: String,
}

impl DeviceLink {
    fn device(&self) -> ADBServerDevice {
        ADBServerDevice::new(self.serial.clone(), Some(self.server.addr))
    }

    async fn blocking<T: Send + 'static>(
        &self,
        what: &str,
        call: impl FnOnce(ADBServerDevice) -> Result<T, adb_client::RustADBError> + Send + 'static,
    ) -> Result<T, AndroidError> {
        let device = self.device();
        self.server
            .blocking(Some(&self.serial), what, move || call(device))
            .await
    }

    /// Runs `command` in the device's shell and returns its output and exit status.
    pub async fn shell(&self, command: &str) -> Result<ShellOutput, AndroidError> {
        let line = format!("{command}; echo \"{STATUS_MARK}$?\"");
        let (stdout, stderr) = self
            .blocking(&format!("run `{command}`"), move |mut device| {
                let (mut stdout, mut stderr) = (Vec::new(), Vec::new());
                device.shell_command(&line, Some(&mut stdout), Some(&mut stderr))?;
                Ok((stdout, stderr))
            })
            .await?;
        let stdout = String::from_utf8_lossy(&stdout).into_owned();
        let (printed, status) = stdout
            .trim_end()
            .rsplit_once(STATUS_MARK)
            .and_then(|(printed, status)| Some((printed, status.trim().parse().ok()?)))
            .ok_or_else(|| AndroidError::Adb {
                server: self.server.name.clone(),
                serial: Some(self.serial.clone()),
                what: format!("run `{command}`"),
                message: format!("the shell ended without an exit status: {stdout:?}"),
            })?;
        Ok(ShellOutput {
            stdout: printed.to_owned(),
            stderr: String::from_utf8_lossy(&stderr).into_owned(),
            status,
        })
    }

    /// Copies the host file `local` to `remote` on the device.
    pub async fn push(&self, local: PathBuf, remote: String) -> Result<(), AndroidError> {
        let what = format!("push {} to {remote}", local.display());
        self.blocking(&what, move |mut device| {
            let file = std::fs::File::open(&local)?;
            device.push(file, &remote)
        })
        .await
    }

    /// Forwards a free local port to `remote` on the device (`localabstract:NAME`) and
    /// returns the port.
    pub async fn forward(&self, remote: &str) -> Result<u16, AndroidError> {
        let mut last = None;
        for _ in 0..FORWARD_TRIES {
            let port = free_port().map_err(|error| AndroidError::Adb {
                server: self.server.name.clone(),
                serial: Some(self.serial.clone()),
                what: "choose a local port".to_owned(),
                message: error.to_string(),
            })?;
            let remote = remote.to_owned();
            let forwarded = self
                .blocking(
                    &format!("forward tcp:{port} to {remote}"),
                    move |mut device| device.forward(remote, format!("tcp:{port}")),
                )
                .await;
            match forwarded {
                Ok(()) => return Ok(port),
                Err(error) => last = Some(error),
            }
        }
        Err(last.expect("at least one try"))
    }

    /// Removes the forward of local port `port`.
    pub async fn remove_forward(&self, port: u16) -> Result<(), AndroidError> {
        self.blocking(
            &format!("remove the forward of tcp:{port}"),
            move |mut device| device.forward_remove(format!("tcp:{port}")),
        )
        .await
    }

    /// Makes the device's `tcp:device_port` reach the host's `tcp:host_port`
    /// (`adb_client`'s `reverse`, the `reverse:forward:` service), replacing an earlier one.
    pub async fn reverse(&self, device_port: u16, host_port: u16) -> Result<(), AndroidError> {
        self.blocking(
            &format!("reverse tcp:{device_port} to the host's tcp:{host_port}"),
            move |mut device| {
                device.reverse(format!("tcp:{device_port}"), format!("tcp:{host_port}"))
            },
        )
        .await
    }

    /// Removes the reverse of the device's `tcp:device_port`.
    pub async fn remove_reverse(&self, device_port: u16) -> Result<(), AndroidError> {
        self.blocking(
            &format!("remove the reverse of tcp:{device_port}"),
            move |mut device| device.reverse_remove(format!("tcp:{device_port}")),
        )
        .await
    }

    /// Starts `command` with `exec:` (no shell protocol, so stdin reaches it), writes
    /// `stdin` to it and keeps its stdin open while the returned [`Started`] lives; dropping
    /// it closes the connection, which ends the command on the device.
    pub fn start(&self, command: &str, stdin: String) -> Started {
        let (sender, output) = mpsc::channel();
        let (stop, stopped) = mpsc::channel::<()>();
        let mut device = self.device();
        let command = command.to_owned();
        let failure = sender.clone();
        let what = format!(
            "{}: device {}: start `{command}`",
            self.server.name, self.serial
        );
        tokio::task::spawn_blocking(move || {
            let mut input = Input {
                line: stdin.into_bytes(),
                stopped,
            };
            if let Err(error) = device.exec(&command, &mut input, Box::new(Output(sender))) {
                let _ = failure.send(Err(format!("{what}: {error}")));
            }
        });
        Started {
            output,
            stop: Stop(stop),
        }
    }
}

/// A command started with [`DeviceLink::start`].
pub struct Started {
    /// What it prints, as it comes; an `Err` when adb refused it; closed when it ended.
    pub output: mpsc::Receiver<Result<Vec<u8>, String>>,
    /// Ends the command when dropped.
    pub stop: Stop,
}

/// Keeps a started command's adb session open; dropping it closes the session.
pub struct Stop(#[allow(dead_code, reason = "held for its drop")] mpsc::Sender<()>);

/// The stdin of a started command: one line, then open until the command is stopped.
struct Input {
    line: Vec<u8>,
    stopped: mpsc::Receiver<()>,
}

impl Read for Input {
    fn read(&mut self, buffer: &mut [u8]) -> std::io::Result<usize> {
        if self.line.is_empty() {
            // Blocks until the Started is dropped, then ends the input.
            let _ = self.stopped.recv();
            return Ok(0);
        }
        let n = buffer.len().min(self.line.len());
        buffer[..n].copy_from_slice(&self.line[..n]);
        self.line.drain(..n);
        Ok(n)
    }
}

/// The output of an `exec:` command, sent on as it comes.
struct Output(mpsc::Sender<Result<Vec<u8>, String>>);

impl Write for Output {
    fn write(&mut self, bytes: &[u8]) -> std::io::Result<usize> {
        self.0
            .send(Ok(bytes.to_vec()))
            .map_err(|_| std::io::Error::from(std::io::ErrorKind::BrokenPipe))?;
        Ok(bytes.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// A local port free right now.
fn free_port() -> std::io::Result<u16> {
    Ok(TcpListener::bind("127.0.0.1:0")?.local_addr()?.port())
}

/// Reads what a started command printed until a whole line is there or `deadline` passes.
pub(crate) fn first_line(
    output: &mpsc::Receiver<Result<Vec<u8>, String>>,
    deadline: std::time::Duration,
) -> Result<String, String> {
    let until = std::time::Instant::now() + deadline;
    let mut text = Vec::new();
    loop {
        if let Some(end) = text.iter().position(|&byte| byte == b'\n') {
            return Ok(String::from_utf8_lossy(&text[..end]).into_owned());
        }
        let left = until.saturating_duration_since(std::time::Instant::now());
        match output.recv_timeout(left) {
            Ok(Ok(bytes)) => text.extend_from_slice(&bytes),
            Ok(Err(refused)) => return Err(refused),
            Err(mpsc::RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "printed no line within {} ms: {:?}",
                    deadline.as_millis(),
                    String::from_utf8_lossy(&text)
                ))
            }
            Err(mpsc::RecvTimeoutError::Disconnected) => {
                return Err(format!(
                    "ended before it listened: {:?}",
                    String::from_utf8_lossy(&text)
                ))
            }
        }
    }
}
