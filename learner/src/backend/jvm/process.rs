//! One agent process, spawned with a fresh random session token and greeted per the protocol's
//! handshake.
//! It is asked one request at a time, each with a deadline.
//! A process that dies, answers nonsense or misses its deadline is killed and reported; it is never
//! waited on forever.

use std::collections::VecDeque;
use std::path::PathBuf;
use std::process::Stdio;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Map, Value};
use tokio::io::{AsyncBufReadExt, AsyncRead, AsyncWrite, AsyncWriteExt, BufReader, Lines};
use tokio::process::{Child, Command};

use super::error::JvmError;
use super::java::join_classpath;
use super::wire::{ErrorReply, Reply, PROTOCOL};

/// Lines of the agent's stderr kept for error messages.
const STDERR_LINES: usize = 20;
/// Deadline of the host agent's handshake, which includes the JVM's start.
const HANDSHAKE_MS: u64 = 30_000;

/// How to start an agent.
#[derive(Clone, Debug)]
pub struct AgentCommand {
    /// The `java` launcher.
    pub java: PathBuf,
    /// Options before the class path (`-Dname=value`).
    pub jvm_options: Vec<String>,
    /// Agent classes, harnesses and the code under study.
    pub classpath: Vec<PathBuf>,
    /// The agent's main class: `dev.typestar.agent.Agent` on the host JVM.
    pub main_class: String,
    /// Deadline of the handshake, which includes the JVM's start (and Robolectric's sandbox).
    pub handshake_ms: u64,
    /// Where the code under study runs, for messages: "the JVM", "Robolectric (SDK 34)".
    pub runs_on: String,
}

impl AgentCommand {
    /// The host agent on `java` with `classpath`.
    pub fn host(java: PathBuf, classpath: Vec<PathBuf>) -> AgentCommand {
        AgentCommand {
            java,
            jvm_options: Vec::new(),
            classpath,
            main_class: "dev.typestar.agent.Agent".to_owned(),
            handshake_ms: HANDSHAKE_MS,
            runs_on: "the JVM".to_owned(),
        }
    }
}

/// The protocol stream's halves: a process's stdin and stdout, or a socket's.
type Writer = Box<dyn AsyncWrite + Send + Unpin>;
type Reader = Lines<BufReader<Box<dyn AsyncRead + Send + Unpin>>>;

/// A running, authenticated agent.
pub struct AgentProcess {
    /// The agent's process when it runs on this machine; a device's agent is reached over a
    /// socket and ends when it closes.
    child: Option<Child>,
    stdin: Writer,
    stdout: Reader,
    token: String,
    next_id: u64,
    stderr: Arc<Mutex<VecDeque<String>>>,
    /// The JVM's version, from `hello`.
    pub java_version: String,
    /// What the agent runs on beyond the JVM, from `hello` (PROTOCOL.md §3).
    pub platform: Option<Value>,
}

/// The outcome of a request the agent answered.
pub(crate) enum Answer {
    /// A reply of the expected kind, or another non-error reply.
    Reply(Reply),
    /// An `error` reply.
    Error(ErrorReply),
}

impl AgentProcess {
    /// Starts an agent and performs the handshake.
    pub async fn start(command: &AgentCommand) -> Result<AgentProcess, JvmError> {
        let token = session_token()?;
        let mut child = Command::new(&command.java)
            .args(&command.jvm_options)
            .arg("-cp")
            .arg(join_classpath(&command.classpath))
            .arg(&command.main_class)
            .env("TYPESTAR_AGENT_TOKEN", &token)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .kill_on_drop(true)
            .spawn()
            .map_err(|error| JvmError::JavaNotFound {
                program: command.java.display().to_string(),
                reason: error.to_string(),
            })?;
        let stdin: Writer = Box::new(child.stdin.take().expect("stdin is piped"));
        let stdout: Box<dyn AsyncRead + Send + Unpin> =
            Box::new(child.stdout.take().expect("stdout is piped"));
        let stderr = Arc::new(Mutex::new(VecDeque::new()));
        let mut errors = BufReader::new(child.stderr.take().expect("stderr is piped")).lines();
        let tail = Arc::clone(&stderr);
        tokio::spawn(async move {
            while let Ok(Some(line)) = errors.next_line().await {
                let mut tail = tail.lock().expect("stderr lock is never poisoned");
                if tail.len() == STDERR_LINES {
                    tail.pop_front();
                }
                tail.push_back(line);
            }
        });
        let mut agent = AgentProcess {
            child: Some(child),
            stdin,
            stdout: BufReader::new(stdout).lines(),
            token,
            next_id: 1,
            stderr,
            java_version: String::new(),
            platform: None,
        };
        agent.handshake(command.handshake_ms).await?;
        Ok(agent)
    }

    /// Performs the handshake with an agent already started elsewhere (on a device) with
    /// `token`, over `stream`; `stderr` is where its diagnostics are collected.
    pub(crate) async fn over_stream<S>(
        stream: S,
        token: String,
        stderr: Arc<Mutex<VecDeque<String>>>,
        handshake_ms: u64,
    ) -> Result<AgentProcess, JvmError>
    where
        S: AsyncRead + AsyncWrite + Send + 'static,
    {
        let (reader, writer) = tokio::io::split(stream);
        let reader: Box<dyn AsyncRead + Send + Unpin> = Box::new(reader);
        let mut agent = AgentProcess {
            child: None,
            stdin: Box::new(writer),
            stdout: BufReader::new(reader).lines(),
            token,
            next_id: 1,
            stderr,
            java_version: String::new(),
            platform: None,
        };
        agent.handshake(handshake_ms).await?;
        Ok(agent)
    }

    async fn handshake(&mut self, timeout_ms: u64) -> Result<(), JvmError> {
        match self.read("hello", timeout_ms).await? {
            Reply::Hello {
                protocol,
                java,
                platform,
            } if protocol == PROTOCOL => {
                self.java_version = java;
                self.platform = platform;
            }
            Reply::Hello { protocol, .. } => {
                return Err(self.failed(format!(
                    "speaks protocol {protocol}; this learner speaks {PROTOCOL}"
                )))
            }
            other => return Err(self.failed(format!("greeted with {other:?} instead of hello"))),
        }
        let auth = json!({"type": "auth", "protocol": PROTOCOL, "token": self.token});
        self.write(&auth).await?;
        match self.read("auth", timeout_ms).await? {
            Reply::Ready => Ok(()),
            Reply::Error(error) => Err(self.failed(format!(
                "refused the handshake: {}: {}",
                error.code, error.message
            ))),
            other => Err(self.failed(format!("answered auth with {other:?}"))),
        }
    }

    /// Sends a request (`body` holds its own keys) and waits at most `timeout_ms` for the reply.
    pub(crate) async fn request(
        &mut self,
        kind: &str,
        body: Map<String, Value>,
        timeout_ms: u64,
    ) -> Result<Answer, JvmError> {
        let mut message = Map::new();
        message.insert("type".into(), json!(kind));
        message.insert("id".into(), json!(self.next_id));
        message.insert("token".into(), json!(self.token));
        message.extend(body);
        self.next_id += 1;
        self.write(&Value::Object(message)).await?;
        Ok(match self.read(kind, timeout_ms).await? {
            Reply::Error(error) if error.fatal => {
                return Err(self.failed(format!(
                    "closed the session on `{kind}`: {}: {}",
                    error.code, error.message
                )))
            }
            Reply::Error(error) => Answer::Error(error),
            reply => Answer::Reply(reply),
        })
    }

    /// Asks the agent to shut down and reaps it; a stuck agent is killed.
    pub async fn shutdown(mut self) {
        let stopped = self.request("shutdown", Map::new(), 5_000).await.is_ok();
        if let Some(child) = self.child.as_mut() {
            if stopped {
                let _ = tokio::time::timeout(Duration::from_secs(5), child.wait()).await;
            }
            let _ = child.kill().await;
        }
    }

    async fn write(&mut self, message: &Value) -> Result<(), JvmError> {
        let mut line = message.to_string();
        line.push('\n');
        if self.stdin.write_all(line.as_bytes()).await.is_err() || self.stdin.flush().await.is_err()
        {
            return Err(self.died().await);
        }
        Ok(())
    }

    async fn read(&mut self, request: &str, timeout_ms: u64) -> Result<Reply, JvmError> {
        let line = tokio::time::timeout(Duration::from_millis(timeout_ms), self.stdout.next_line());
        match line.await {
            Err(_elapsed) => {
                if let Some(child) = self.child.as_mut() {
                    let _ = child.kill().await;
                }
                Err(JvmError::Timeout {
                    request: request.to_owned(),
                    timeout_ms,
                    stderr: self.stderr_tail(),
                })
            }
            Ok(Ok(Some(line))) => serde_json::from_str(&line).map_err(|error| {
                self.failed(format!(
                    "sent a line this client cannot read ({error}): {line}"
                ))
            }),
            Ok(_) => Err(self.died().await),
        }
    }

    async fn died(&mut self) -> JvmError {
        let status = match self.child.as_mut() {
            Some(child) => tokio::time::timeout(Duration::from_secs(2), child.wait())
                .await
                .ok(),
            None => None,
        };
        // Let the stderr reader catch up with the last lines.
        tokio::time::sleep(Duration::from_millis(50)).await;
        let what = match status {
            Some(Ok(status)) => format!("exited ({status})"),
            _ => "closed its output".to_owned(),
        };
        self.failed(what)
    }

    fn failed(&self, what: String) -> JvmError {
        JvmError::AgentFailed {
            what,
            stderr: self.stderr_tail(),
        }
    }

    fn stderr_tail(&self) -> String {
        let tail = self.stderr.lock().expect("stderr lock is never poisoned");
        tail.iter().cloned().collect::<Vec<_>>().join("\n")
    }
}

/// 128 random bits from the operating system, in hex.
pub(crate) fn session_token() -> Result<String, JvmError> {
    let mut bytes = [0u8; 16];
    getrandom::fill(&mut bytes).map_err(|error| JvmError::Io {
        what: "drawing a session token".to_owned(),
        source: std::io::Error::other(error.to_string()),
    })?;
    Ok(bytes.iter().map(|it| format!("{it:02x}")).collect())
}
