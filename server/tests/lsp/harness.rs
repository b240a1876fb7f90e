//! The in-memory LSP client: framing, request/response matching, auto-answers to server
//! requests, a notification queue, and strict teardown.

use std::collections::VecDeque;
use std::path::{Path, PathBuf};
use std::str::FromStr;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::Duration;

use serde_json::{json, Value};
use server::analysis::{Checker, StaticChecker};
use server::learning::Learner;
use server::lsp::Engines;
use tokio::io::{
    AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader, DuplexStream, ReadHalf, WriteHalf,
};
use tokio::sync::{mpsc, Mutex};
use tower_lsp_server::ls_types::Uri;

use crate::fake::{FakeChecker, FakeLearner};

/// How long any single expected message may take: a bound on a hang, not a speed. The real
/// learner's backends say nothing while their JVM starts (a Robolectric sandbox takes 10-30 s
/// unloaded, more at a load of 20), so it is well above that.
const TIMEOUT: Duration = Duration::from_secs(120);

/// The bundled CountDownTimer protocol, used as the workspace's `.typestar/` protocol.
pub const COUNTDOWN: &str =
    include_str!("../../../typestates/library/android/os/CountDownTimer.typestate");

/// Builds a [`TestServer`].
pub struct Builder {
    files: Vec<(PathBuf, Vec<u8>)>,
    settings: Value,
    checker: Arc<FakeChecker>,
    static_checker: bool,
    learner: Arc<dyn Learner>,
    capabilities: Value,
}

/// A running server and its client end.
pub struct TestServer {
    /// The workspace folder (deleted on drop).
    pub root: PathBuf,
    /// The scripted checker, to gate and count checks.
    pub checker: Arc<FakeChecker>,
    writer: Arc<Mutex<WriteHalf<DuplexStream>>>,
    incoming: mpsc::UnboundedReceiver<Value>,
    queued: VecDeque<Value>,
    next_id: i64,
    server_requests: Arc<Mutex<Vec<Value>>>,
    /// Whether [`TestServer::close`] ran.
    closed: bool,
}

impl TestServer {
    /// A builder with no files, debounce 0 and a full-featured client.
    pub fn builder() -> Builder {
        Builder {
            files: Vec::new(),
            settings: json!({ "diagnostics": { "debounceMs": 0 } }),
            checker: Arc::new(FakeChecker::default()),
            static_checker: false,
            learner: Arc::new(FakeLearner::default()),
            capabilities: json!({
                "general": { "positionEncodings": ["utf-16"] },
                "workspace": {
                    "configuration": true,
                    "didChangeWatchedFiles": { "dynamicRegistration": true }
                },
                "window": { "workDoneProgress": true, "showDocument": { "support": true } }
            }),
        }
    }
}

impl Builder {
    /// Adds a workspace file.
    pub fn file(self, path: &str, text: &str) -> Builder {
        self.bytes(path, text.as_bytes())
    }

    /// Adds a file of any bytes (not UTF-8, say) under the workspace root.
    pub fn bytes(mut self, path: &str, bytes: &[u8]) -> Builder {
        self.files.push((path.into(), bytes.to_vec()));
        self
    }

    /// Adds the CountDownTimer protocol under `.typestar/`.
    pub fn countdown_protocol(self) -> Builder {
        self.file(".typestar/CountDownTimer.typestate", COUNTDOWN)
    }

    /// Sets the `typestar` settings the client reports.
    pub fn settings(mut self, settings: Value) -> Builder {
        self.settings = settings;
        self
    }

    /// Uses the production checker (`checker::check`) instead of the scripted one.
    pub fn static_checker(mut self) -> Builder {
        self.static_checker = true;
        self
    }

    /// Replaces the learner.
    pub fn learner(mut self, learner: impl Learner) -> Builder {
        self.learner = Arc::new(learner);
        self
    }

    /// Replaces the client capabilities sent in `initialize`.
    pub fn capabilities(mut self, capabilities: Value) -> Builder {
        self.capabilities = capabilities;
        self
    }

    /// Starts the server, initializes it and waits for the startup workspace check to finish.
    pub async fn build(self) -> TestServer {
        let root = temp_dir();
        for (path, text) in &self.files {
            let path = root.join(path);
            std::fs::create_dir_all(path.parent().unwrap()).unwrap();
            std::fs::write(path, text).unwrap();
        }
        let checker: Arc<dyn Checker> = if self.static_checker {
            Arc::new(StaticChecker::default())
        } else {
            self.checker.clone()
        };
        let engines = Engines {
            checker,
            learner: self.learner,
        };
        let (client_end, server_end) = tokio::io::duplex(1 << 16);
        let (server_read, server_write) = tokio::io::split(server_end);
        tokio::spawn(server::lsp::serve(server_read, server_write, engines));
        let (client_read, client_write) = tokio::io::split(client_end);
        let writer = Arc::new(Mutex::new(client_write));
        let (sender, incoming) = mpsc::unbounded_channel();
        let server_requests = Arc::new(Mutex::new(Vec::new()));
        tokio::spawn(read_loop(
            client_read,
            writer.clone(),
            sender,
            self.settings.clone(),
            server_requests.clone(),
        ));
        let mut server = TestServer {
            root,
            checker: self.checker,
            writer,
            incoming,
            queued: VecDeque::new(),
            next_id: 0,
            server_requests,
            closed: false,
        };
        let root_uri = server.uri("");
        let reply = server
            .request(
                "initialize",
                json!({
                    "capabilities": self.capabilities,
                    "initializationOptions": self.settings,
                    "workspaceFolders": [{ "uri": root_uri, "name": "ws" }],
                }),
            )
            .await;
        assert!(reply.get("result").is_some(), "initialize failed: {reply}");
        server.notify("initialized", json!({})).await;
        server.await_progress_end("typestar/workspaceCheck/").await;
        server
    }
}

impl TestServer {
    /// The `file:` URI of a workspace path.
    pub fn uri(&self, path: &str) -> String {
        Uri::from_file_path(self.root.join(path))
            .unwrap()
            .as_str()
            .to_string()
    }

    /// Writes a workspace file.
    pub fn write(&self, path: &str, text: &str) {
        let path = self.root.join(path);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(path, text).unwrap();
    }

    /// Sends raw bytes (for malformed traffic).
    pub async fn send_raw(&self, bytes: &[u8]) {
        let mut writer = self.writer.lock().await;
        writer.write_all(bytes).await.unwrap();
        writer.flush().await.unwrap();
    }

    /// Sends one framed JSON-RPC message.
    pub async fn send(&self, message: &Value) {
        send(&self.writer, message).await;
    }

    /// Sends a notification.
    pub async fn notify(&self, method: &str, params: Value) {
        self.send(&json!({ "jsonrpc": "2.0", "method": method, "params": params }))
            .await;
    }

    /// Sends a request and returns the whole response (with `result` or `error`).
    pub async fn request(&mut self, method: &str, params: Value) -> Value {
        let id = self.send_request(method, params).await;
        self.await_response(id).await
    }

    /// Sends a request without waiting; its id.
    pub async fn send_request(&mut self, method: &str, params: Value) -> i64 {
        self.next_id += 1;
        let id = self.next_id;
        self.send(&json!({ "jsonrpc": "2.0", "id": id, "method": method, "params": params }))
            .await;
        id
    }

    /// Waits for the response to request `id`.
    pub async fn await_response(&mut self, id: i64) -> Value {
        self.await_message(|m| m.get("id") == Some(&json!(id)) && m.get("method").is_none())
            .await
    }

    /// Waits for a notification `method` whose params satisfy `accept`.
    pub async fn await_notification(
        &mut self,
        method: &str,
        accept: impl Fn(&Value) -> bool,
    ) -> Value {
        let message = self
            .await_message(|m| m["method"] == method && accept(&m["params"]))
            .await;
        message["params"].clone()
    }

    /// Waits for any message satisfying `accept`.
    pub async fn await_any(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        self.await_message(accept).await
    }

    /// Waits for diagnostics of `uri` published for `version` (`None`: without a version).
    pub async fn await_diagnostics(&mut self, uri: &str, version: Option<i32>) -> Vec<Value> {
        let params = self
            .await_notification("textDocument/publishDiagnostics", |p| {
                p["uri"] == uri
                    && p.get("version").and_then(Value::as_i64) == version.map(i64::from)
            })
            .await;
        params["diagnostics"]
            .as_array()
            .cloned()
            .unwrap_or_default()
    }

    /// Waits until a progress whose token starts with `prefix` ends.
    pub async fn await_progress_end(&mut self, prefix: &str) -> Value {
        self.await_notification("$/progress", |p| {
            p["token"].as_str().is_some_and(|t| t.starts_with(prefix))
                && p["value"]["kind"] == "end"
        })
        .await
    }

    /// Opens a document at version 1, Kotlin when `path` ends in `.kt`, else Java.
    pub async fn open(&self, path: &str, text: &str) -> String {
        let uri = self.uri(path);
        let language = if path.ends_with(".kt") {
            "kotlin"
        } else {
            "java"
        };
        self.notify(
            "textDocument/didOpen",
            json!({ "textDocument": { "uri": uri, "languageId": language, "version": 1, "text": text } }),
        )
        .await;
        uri
    }

    /// Replaces the whole text of a document at `version`.
    pub async fn change(&self, uri: &str, version: i32, text: &str) {
        self.notify(
            "textDocument/didChange",
            json!({ "textDocument": { "uri": uri, "version": version }, "contentChanges": [{ "text": text }] }),
        )
        .await;
    }

    /// Hovers at zero-based `line`, `character`; the `result`.
    pub async fn hover(&mut self, uri: &str, line: u32, character: u32) -> Value {
        let reply = self
            .request(
                "textDocument/hover",
                json!({ "textDocument": { "uri": uri }, "position": { "line": line, "character": character } }),
            )
            .await;
        reply["result"].clone()
    }

    /// The server-to-client requests seen so far.
    pub async fn server_requests(&self) -> Vec<Value> {
        self.server_requests.lock().await.clone()
    }

    /// The notifications received and not yet consumed.
    pub async fn drain(&mut self) -> Vec<Value> {
        while let Ok(message) = self.incoming.try_recv() {
            self.queued.push_back(message);
        }
        self.queued.drain(..).collect()
    }

    async fn await_message(&mut self, accept: impl Fn(&Value) -> bool) -> Value {
        if let Some(at) = self.queued.iter().position(&accept) {
            return self.queued.remove(at).unwrap();
        }
        loop {
            match tokio::time::timeout(TIMEOUT, self.incoming.recv()).await {
                Ok(Some(message)) if accept(&message) => return message,
                Ok(Some(message)) => self.queued.push_back(message),
                Ok(None) => panic!(
                    "the server closed the connection; unread: {:#?}",
                    self.queued
                ),
                Err(_) => panic!("timed out; unread messages: {:#?}", self.queued),
            }
        }
    }
}

impl TestServer {
    /// Sends `shutdown` and `exit`, checks the reply and that no error log was left unread.
    /// Drop does it on a multi-threaded runtime; a test on one thread (a paused clock) calls it.
    pub async fn close(mut self) {
        self.shut_down().await;
    }

    async fn shut_down(&mut self) {
        self.closed = true;
        let reply = self.request("shutdown", Value::Null).await;
        assert_eq!(reply["result"], Value::Null, "shutdown failed: {reply}");
        assert!(reply.get("error").is_none(), "shutdown failed: {reply}");
        self.notify("exit", Value::Null).await;
    }
}

impl Drop for TestServer {
    fn drop(&mut self) {
        if std::thread::panicking() {
            let _ = std::fs::remove_dir_all(&self.root);
            return;
        }
        if !self.closed {
            tokio::task::block_in_place(|| {
                tokio::runtime::Handle::current().block_on(self.shut_down());
            });
        }
        let errors: Vec<Value> = self
            .queued
            .iter()
            .filter(|m| m["method"] == "window/logMessage" && m["params"]["type"] == 1)
            .cloned()
            .collect();
        let _ = std::fs::remove_dir_all(&self.root);
        assert!(errors.is_empty(), "unexpected error logs: {errors:#?}");
    }
}

async fn send(writer: &Mutex<WriteHalf<DuplexStream>>, message: &Value) {
    let body = message.to_string();
    let mut writer = writer.lock().await;
    writer
        .write_all(format!("Content-Length: {}\r\n\r\n{body}", body.len()).as_bytes())
        .await
        .unwrap();
    writer.flush().await.unwrap();
}

/// Reads framed messages; answers server requests; forwards everything else.
async fn read_loop(
    reader: ReadHalf<DuplexStream>,
    writer: Arc<Mutex<WriteHalf<DuplexStream>>>,
    sender: mpsc::UnboundedSender<Value>,
    settings: Value,
    server_requests: Arc<Mutex<Vec<Value>>>,
) {
    let mut reader = BufReader::new(reader);
    loop {
        let mut length = None;
        loop {
            let mut header = String::new();
            if reader.read_line(&mut header).await.unwrap_or(0) == 0 {
                return;
            }
            let header = header.trim_end();
            if header.is_empty() {
                break;
            }
            if let Some(value) = header.strip_prefix("Content-Length: ") {
                length = Some(usize::from_str(value).unwrap());
            }
        }
        let mut body = vec![0; length.expect("a Content-Length header")];
        reader.read_exact(&mut body).await.unwrap();
        let message: Value = serde_json::from_slice(&body).unwrap();
        if message.get("id").is_some() && message.get("method").is_some() {
            server_requests.lock().await.push(message.clone());
            let result = match message["method"].as_str() {
                Some("workspace/configuration") => json!([settings]),
                Some("window/showDocument") => json!({ "success": true }),
                _ => Value::Null,
            };
            send(
                &writer,
                &json!({ "jsonrpc": "2.0", "id": message["id"], "result": result }),
            )
            .await;
        } else if sender.send(message).is_err() {
            return;
        }
    }
}

fn temp_dir() -> PathBuf {
    static COUNTER: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "typestar-lsp-test-{}-{}",
        std::process::id(),
        COUNTER.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir.canonicalize().unwrap()
}

/// Whether `path` exists under the test workspace.
pub fn exists(root: &Path, path: &str) -> bool {
    root.join(path).exists()
}
