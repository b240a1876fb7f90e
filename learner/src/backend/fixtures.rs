//! The fixture files of an experiment (media, HTTP responses), served from the host over HTTP.
//! The class under study fetches them from `http://127.0.0.1:PORT/NAME` wherever it runs.
//! The agents on the host reach the server directly, devices through
//! `adb reverse tcp:PORT tcp:HOST_PORT`.
//! So no experiment needs an external URL.
//!
//! The server answers `GET` and `HEAD` of a file of the folder (no `..`, no folders), 404
//! otherwise, one thread per connection.
//! It stops when dropped.

use std::io::{self, BufRead, BufReader, Write};
use std::net::{Shutdown, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::{self, JoinHandle};

use thiserror::Error;

/// Why the fixtures cannot be served.
#[derive(Debug, Error)]
#[error("cannot serve the fixtures of {} on 127.0.0.1:{port}: {reason}", dir.display())]
pub struct FixtureError {
    /// The fixture folder.
    pub dir: PathBuf,
    /// The host port asked for (0 for any).
    pub port: u16,
    /// What went wrong.
    pub reason: String,
}

/// A running fixture server; dropping it stops it.
pub struct FixtureServer {
    port: u16,
    stop: Arc<AtomicBool>,
    accepting: Option<JoinHandle<()>>,
}

impl FixtureServer {
    /// Serves the files of `dir` on 127.0.0.1:`port` (any free port for 0).
    pub fn start(dir: &Path, port: u16) -> Result<FixtureServer, FixtureError> {
        let failed = |reason: String| FixtureError {
            dir: dir.to_owned(),
            port,
            reason,
        };
        if !dir.is_dir() {
            return Err(failed("expected a folder of fixture files".to_owned()));
        }
        let listener = TcpListener::bind(("127.0.0.1", port))
            .map_err(|error| failed(format!("{error} (is another run serving it?)")))?;
        let bound = listener
            .local_addr()
            .map_err(|error| failed(error.to_string()))?
            .port();
        let stop = Arc::new(AtomicBool::new(false));
        let stopping = Arc::clone(&stop);
        let dir = dir.to_owned();
        let accepting = thread::spawn(move || {
            for connection in listener.incoming() {
                if stopping.load(Ordering::SeqCst) {
                    break;
                }
                if let Ok(connection) = connection {
                    let dir = dir.clone();
                    thread::spawn(move || {
                        let _ = answer(connection, &dir);
                    });
                }
            }
        });
        Ok(FixtureServer {
            port: bound,
            stop,
            accepting: Some(accepting),
        })
    }

    /// The host port it listens on.
    pub fn port(&self) -> u16 {
        self.port
    }
}

impl Drop for FixtureServer {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        // Wakes the accepting thread, which then sees the stop.
        let _ = TcpStream::connect(("127.0.0.1", self.port));
        if let Some(accepting) = self.accepting.take() {
            let _ = accepting.join();
        }
    }
}

/// Answers one HTTP/1.x request and closes the connection.
fn answer(connection: TcpStream, dir: &Path) -> io::Result<()> {
    let mut reader = BufReader::new(connection.try_clone()?);
    let mut request = String::new();
    reader.read_line(&mut request)?;
    loop {
        let mut header = String::new();
        if reader.read_line(&mut header)? == 0 || header.trim().is_empty() {
            break;
        }
    }
    let mut words = request.split_whitespace();
    let (method, target) = (words.next().unwrap_or(""), words.next().unwrap_or(""));
    let mut out = connection;
    let body = match (method, file(dir, target)) {
        ("GET" | "HEAD", Some(path)) => std::fs::read(path).ok(),
        _ => None,
    };
    match body {
        Some(body) => {
            write!(
                out,
                "HTTP/1.1 200 OK\r\nContent-Type: application/octet-stream\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n",
                body.len()
            )?;
            if method == "GET" {
                out.write_all(&body)?;
            }
        }
        None => {
            let text = format!("no fixture {target}\n");
            write!(
                out,
                "HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\
                 Content-Length: {}\r\nConnection: close\r\n\r\n{text}",
                text.len()
            )?;
        }
    }
    out.flush()?;
    out.shutdown(Shutdown::Write)
}

/// The file of `dir` a request target names: plain names only, no `..`, no query.
fn file(dir: &Path, target: &str) -> Option<PathBuf> {
    let path = target.split(['?', '#']).next()?.strip_prefix('/')?;
    let plain = |segment: &str| !segment.is_empty() && segment != "." && segment != "..";
    if !path.split('/').all(plain) {
        return None;
    }
    let file = dir.join(path);
    file.is_file().then_some(file)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    fn get(port: u16, target: &str) -> String {
        let mut stream = TcpStream::connect(("127.0.0.1", port)).expect("the server listens");
        write!(stream, "GET {target} HTTP/1.1\r\nHost: x\r\n\r\n").expect("sent");
        let mut reply = String::new();
        stream.read_to_string(&mut reply).expect("read");
        reply
    }

    #[test]
    fn serves_files_of_its_folder_only() {
        let dir = std::env::temp_dir().join(format!("typestar-fixtures-{}", std::process::id()));
        std::fs::create_dir_all(dir.join("sub")).expect("made");
        std::fs::write(dir.join("hello.txt"), "hello").expect("written");
        let server = FixtureServer::start(&dir, 0).expect("starts");
        let port = server.port();
        let found = get(port, "/hello.txt?x=1");
        assert!(found.starts_with("HTTP/1.1 200"), "{found}");
        assert!(found.ends_with("\r\n\r\nhello"), "{found}");
        for target in ["/missing", "/../hello.txt", "/sub", "/", "hello.txt"] {
            let reply = get(port, target);
            assert!(reply.starts_with("HTTP/1.1 404"), "{target}: {reply}");
        }
        drop(server);
        assert!(TcpStream::connect(("127.0.0.1", port)).is_err(), "stopped");
        std::fs::remove_dir_all(dir).expect("removed");
    }

    #[test]
    fn a_missing_folder_is_named() {
        let error = FixtureServer::start(Path::new("/no/such/fixtures"), 0)
            .err()
            .expect("refused");
        assert_eq!(
            error.to_string(),
            "cannot serve the fixtures of /no/such/fixtures on 127.0.0.1:0: expected a folder of fixture files"
        );
    }
}
