//! A fake adb *server* on loopback: the smart-socket protocol adb clients (the `adb` command,
//! the `adb_client` crate) speak to an adb server, with emulated devices on this machine.
//!
//! Each device has a root folder (device paths such as `/data/local/tmp/x` live under it); its
//! shell runs `sh -c` there with the root's `bin/` first on PATH, where `getprop` and `pgrep`
//! stand-ins answer from the device's settings. `app_process` started through `exec:` runs
//! the device's [`FakeAgent`] on the host JVM with the pushed class path: the agent speaks
//! the protocol on its stdio, and the fake serves it on the abstract socket name given by
//! `--socket`, which `forward ... localabstract:NAME` reaches.
//!
//! Services: `host:version`, `host:devices`, `host:devices-l`, `host:features`, `host:kill`,
//! `host:transport:S`, `host:transport-any`, `host:tport:serial:S|any`, `host-serial:S:…`,
//! `host:forward` (incl. `tcp:0`), `host:list-forward`, `host:killforward`, `shell:` (v1),
//! `shell,v2,…:` (exit status), `exec:`, `sync:` (STAT, SEND, RECV, LIST, QUIT),
//! `reverse:forward`, `reverse:killforward` (tcp). Tests unplug and plug devices, kill agents, refuse forwards and
//! pushes, and slow a device's answers down.

use std::collections::{BTreeSet, HashMap};
use std::fs;
use std::io::{self, BufRead, BufReader, Read, Write};
use std::net::{Shutdown, SocketAddr, TcpListener, TcpStream};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, LazyLock, Mutex};
use std::thread;
use std::time::Duration;

/// The server protocol version of adb 29 and later; a client that sees another one kills the
/// server and starts its own.
const SERVER_VERSION: u32 = 41;
/// Without `stat_v2`/`ls_v2`, clients use the v1 sync requests.
const FEATURES: &str = "shell_v2,cmd,fixed_push_mkdir,apex,abb,fixed_push_symlink_timestamp";

/// What a fake device's `app_process` runs: a host JVM agent speaking the protocol on stdio.
#[derive(Clone, Debug)]
pub struct FakeAgent {
    /// The `java` launcher.
    pub java: PathBuf,
    /// Options before the class path.
    pub jvm_options: Vec<String>,
    /// Host jars after the pushed class path (Robolectric's, for Android classes).
    pub classpath: Vec<PathBuf>,
    /// The main class: `dev.typestar.agent.Agent`, or the Robolectric entry point.
    pub main_class: String,
}

/// One emulated device.
pub struct FakeDevice {
    /// Its serial.
    pub serial: String,
    /// The model `devices -l` reports.
    pub model: String,
    /// Its API level (`getprop ro.build.version.sdk`).
    pub api: u32,
    root: PathBuf,
    agent: FakeAgent,
    /// Milliseconds the device waits before each answer of its agent.
    latency_ms: AtomicU64,
    /// Milliseconds more per `quiet` output of an answer: the quiescence a device waits out.
    quiet_wait_ms: AtomicU64,
    /// `quiet` outputs its agents answered so far.
    quiet_waits: AtomicU64,
    /// Milliseconds its answers waited so far (latency and quiet waits).
    delayed_ms: AtomicU64,
    /// Answers its agents gave so far.
    answers: AtomicU64,
    /// Device lists its server gave while it was unplugged.
    lists_while_away: AtomicU64,
    plugged: AtomicBool,
    refuse_forwards: AtomicBool,
    refuse_pushes: AtomicBool,
    /// Abstract socket names of running agents, with the local port serving each.
    sockets: Mutex<HashMap<String, u16>>,
    /// Agent processes, to kill them.
    children: Mutex<Vec<Arc<Mutex<Child>>>>,
    /// Connections of this device, shut down when it is unplugged.
    connections: Mutex<Vec<TcpStream>>,
}

impl FakeDevice {
    /// A device under `scratch/<serial>`, running `agent`.
    pub fn new(scratch: &Path, serial: &str, api: u32, agent: FakeAgent) -> Arc<FakeDevice> {
        let root = scratch.join(serial);
        let _ = fs::remove_dir_all(&root);
        for dir in ["data/local/tmp", "bin", "run/agents"] {
            fs::create_dir_all(root.join(dir)).expect("scratch folder is writable");
        }
        let script = |name: &str, text: &str| {
            let path = root.join("bin").join(name);
            fs::write(&path, text).expect("scratch folder is writable");
            let status = Command::new("chmod").arg("755").arg(&path).status();
            assert!(
                status.is_ok_and(|it| it.success()),
                "chmod {}",
                path.display()
            );
        };
        script(
            "getprop",
            &format!("#!/bin/sh\ncase $1 in ro.build.version.sdk) echo {api};; *) echo;; esac\n"),
        );
        // pgrep -f PATTERN: the agents of this device whose command line has PATTERN.
        script(
            "pgrep",
            "#!/bin/sh\nshift\ngrep -l -F -- \"$1\" \"$FAKE_DEVICE_ROOT\"/run/agents/* 2>/dev/null\n",
        );
        Arc::new(FakeDevice {
            serial: serial.to_owned(),
            model: format!("Fake_{}", serial.replace('-', "_")),
            api,
            root,
            agent,
            latency_ms: AtomicU64::new(0),
            quiet_wait_ms: AtomicU64::new(0),
            quiet_waits: AtomicU64::new(0),
            delayed_ms: AtomicU64::new(0),
            answers: AtomicU64::new(0),
            lists_while_away: AtomicU64::new(0),
            plugged: AtomicBool::new(true),
            refuse_forwards: AtomicBool::new(false),
            refuse_pushes: AtomicBool::new(false),
            sockets: Mutex::new(HashMap::new()),
            children: Mutex::new(Vec::new()),
            connections: Mutex::new(Vec::new()),
        })
    }

    /// Makes each answer of the device's agents wait `ms` milliseconds.
    pub fn set_latency(&self, ms: u64) {
        self.latency_ms.store(ms, Ordering::SeqCst);
    }

    /// Makes each answer of the device's agents wait `ms` milliseconds more per `quiet` output
    /// in it: a device waits the quiescence timeout out in real time, where an agent inside
    /// Robolectric only moves its simulated clock.
    pub fn set_quiet_wait(&self, ms: u64) {
        self.quiet_wait_ms.store(ms, Ordering::SeqCst);
    }

    /// How many `quiet` outputs the device's agents answered so far.
    pub fn quiet_waits(&self) -> u64 {
        self.quiet_waits.load(Ordering::SeqCst)
    }

    /// How many milliseconds the device's answers waited so far: the simulated time of the
    /// device, beside the host's work of running its agent.
    pub fn delayed_ms(&self) -> u64 {
        self.delayed_ms.load(Ordering::SeqCst)
    }

    /// Answers later forward requests with `FAIL`.
    pub fn refuse_forwards(&self, refuse: Refusal) {
        self.refuse_forwards
            .store(refuse == Refusal::Refuse, Ordering::SeqCst);
    }

    /// Answers later pushes with `FAIL`.
    pub fn refuse_pushes(&self, refuse: Refusal) {
        self.refuse_pushes
            .store(refuse == Refusal::Refuse, Ordering::SeqCst);
    }

    /// Kills every agent process of the device (the device stays).
    pub fn kill_agents(&self) {
        for child in self.children.lock().unwrap().drain(..) {
            let _ = child.lock().unwrap().kill();
        }
    }

    /// Unplugs the device: it leaves the lists, its agents die and its connections close.
    pub fn unplug(&self) {
        self.plugged.store(false, Ordering::SeqCst);
        self.kill_agents();
        for connection in self.connections.lock().unwrap().drain(..) {
            let _ = connection.shutdown(Shutdown::Both);
        }
        self.sockets.lock().unwrap().clear();
    }

    /// Plugs the device back in.
    pub fn plug(&self) {
        self.plugged.store(true, Ordering::SeqCst);
    }

    /// How many answers the device's agents gave so far.
    pub fn answers(&self) -> u64 {
        self.answers.load(Ordering::SeqCst)
    }

    /// How many device lists left the device out since it was first unplugged.
    pub fn lists_while_away(&self) -> u64 {
        self.lists_while_away.load(Ordering::SeqCst)
    }

    /// Whether an agent of this device runs now.
    pub fn agents_running(&self) -> usize {
        self.sockets.lock().unwrap().len()
    }

    fn is_plugged(&self) -> bool {
        self.plugged.load(Ordering::SeqCst)
    }

    fn track(&self, connection: &TcpStream) {
        if let Ok(clone) = connection.try_clone() {
            self.connections.lock().unwrap().push(clone);
        }
    }

    /// The host path of a device path.
    fn path(&self, device_path: &str) -> PathBuf {
        self.root.join(device_path.trim_start_matches('/'))
    }
}

/// Whether a fake device refuses a kind of request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// Answers it with `FAIL`.
    Refuse,
    /// Serves it.
    Serve,
}

/// A running fake adb server; its threads are detached and end with the test process.
pub struct FakeAdb {
    /// Where it listens.
    pub addr: SocketAddr,
    devices: Arc<Vec<Arc<FakeDevice>>>,
    log: Arc<Mutex<Vec<String>>>,
}

impl FakeAdb {
    /// Serves `devices` on a free loopback port.
    pub fn start(devices: Vec<Arc<FakeDevice>>) -> FakeAdb {
        let listener = TcpListener::bind("127.0.0.1:0").expect("a loopback port");
        let addr = listener.local_addr().expect("a bound address");
        let devices = Arc::new(devices);
        let log = Arc::new(Mutex::new(Vec::new()));
        let server = Server {
            devices: Arc::clone(&devices),
            log: Arc::clone(&log),
        };
        thread::spawn(move || {
            for connection in listener.incoming().flatten() {
                let server = server.clone();
                thread::spawn(move || server.serve(connection));
            }
        });
        FakeAdb { addr, devices, log }
    }

    /// `host:port` of the server.
    pub fn address(&self) -> String {
        self.addr.to_string()
    }

    /// The device `serial`.
    pub fn device(&self, serial: &str) -> &Arc<FakeDevice> {
        self.devices
            .iter()
            .find(|it| it.serial == serial)
            .unwrap_or_else(|| panic!("no fake device {serial}"))
    }

    /// Every request so far, as `serial|service` (`-` before a transport is chosen).
    pub fn requests(&self) -> Vec<String> {
        self.log.lock().unwrap().clone()
    }
}

#[derive(Clone)]
struct Server {
    devices: Arc<Vec<Arc<FakeDevice>>>,
    log: Arc<Mutex<Vec<String>>>,
}

fn read_request(stream: &mut TcpStream) -> io::Result<String> {
    let mut length = [0u8; 4];
    stream.read_exact(&mut length)?;
    let length = std::str::from_utf8(&length)
        .ok()
        .and_then(|it| usize::from_str_radix(it, 16).ok())
        .ok_or_else(|| io::Error::other("bad request length"))?;
    let mut request = vec![0; length];
    stream.read_exact(&mut request)?;
    Ok(String::from_utf8_lossy(&request).into_owned())
}

fn okay_with(stream: &mut TcpStream, body: &str) -> io::Result<()> {
    stream.write_all(format!("OKAY{:04x}{body}", body.len()).as_bytes())
}

fn fail(stream: &mut TcpStream, message: &str) -> io::Result<()> {
    stream.write_all(format!("FAIL{:04x}{message}", message.len()).as_bytes())
}

impl Server {
    fn plugged(&self) -> Vec<Arc<FakeDevice>> {
        self.devices
            .iter()
            .filter(|it| it.is_plugged())
            .cloned()
            .collect()
    }

    /// The lines of `host:devices` (`-l` when `long`); each device left out counts the list.
    fn list(&self, long: bool) -> String {
        for away in self.devices.iter().filter(|it| !it.is_plugged()) {
            away.lists_while_away.fetch_add(1, Ordering::SeqCst);
        }
        self.listing(long)
    }

    fn find(&self, serial: Option<&str>) -> Result<Arc<FakeDevice>, String> {
        let plugged = self.plugged();
        match serial {
            Some(serial) => plugged
                .into_iter()
                .find(|it| it.serial == serial)
                .ok_or_else(|| format!("device '{serial}' not found")),
            None if plugged.len() == 1 => Ok(Arc::clone(&plugged[0])),
            None if plugged.is_empty() => Err("no devices/emulators found".to_owned()),
            None => Err("more than one device/emulator".to_owned()),
        }
    }

    fn transport_id(&self, device: &FakeDevice) -> u64 {
        self.devices
            .iter()
            .position(|it| it.serial == device.serial)
            .map_or(0, |it| it as u64 + 1)
    }

    fn serve(&self, mut stream: TcpStream) {
        let _ = self.serve_requests(&mut stream);
        // Closes it for good, although the device keeps a clone to close on unplug.
        let _ = stream.shutdown(Shutdown::Both);
    }

    fn serve_requests(&self, stream: &mut TcpStream) -> io::Result<()> {
        let mut selected: Option<Arc<FakeDevice>> = None;
        loop {
            let request = read_request(stream)?;
            let who = selected.as_ref().map_or("-", |it| it.serial.as_str());
            self.log.lock().unwrap().push(format!("{who}|{request}"));
            let (request, target) = match request.strip_prefix("host-serial:") {
                Some(rest) => {
                    let Some((serial, service)) = rest.split_once(':') else {
                        return fail(stream, "bad host-serial request");
                    };
                    match self.find(Some(serial)) {
                        Ok(device) => (format!("host:{service}"), Some(device)),
                        Err(message) => return fail(stream, &message),
                    }
                }
                None => (request, selected.clone()),
            };
            match request.as_str() {
                "host:version" => return okay_with(stream, &format!("{SERVER_VERSION:04x}")),
                "host:kill" => return stream.write_all(b"OKAY"),
                "host:features" => return okay_with(stream, FEATURES),
                "host:devices" | "host:devices-l" => {
                    return okay_with(stream, &self.list(request.ends_with("-l")))
                }
                "host:list-forward" => return okay_with(stream, ""),
                "host:transport-any" => match self.find(None) {
                    Ok(device) => {
                        stream.write_all(b"OKAY")?;
                        selected = Some(device);
                    }
                    Err(message) => return fail(stream, &message),
                },
                tport if tport.starts_with("host:tport:") => {
                    let serial = tport.strip_prefix("host:tport:serial:");
                    match self.find(serial) {
                        Ok(device) => {
                            stream.write_all(b"OKAY")?;
                            stream.write_all(&self.transport_id(&device).to_le_bytes())?;
                            selected = Some(device);
                        }
                        Err(message) => return fail(stream, &message),
                    }
                }
                transport if transport.starts_with("host:transport:") => {
                    match self.find(Some(&transport["host:transport:".len()..])) {
                        Ok(device) => {
                            stream.write_all(b"OKAY")?;
                            selected = Some(device);
                        }
                        Err(message) => return fail(stream, &message),
                    }
                }
                forward if forward.starts_with("host:forward:") => {
                    let Some(device) = target else {
                        return fail(stream, "no device selected");
                    };
                    let spec = forward["host:forward:".len()..].trim_start_matches("norebind:");
                    return forward_request(stream, &device, spec);
                }
                kill if kill.starts_with("host:killforward") => {
                    return stream.write_all(b"OKAYOKAY")
                }
                host if host.starts_with("host:") => {
                    return fail(stream, &format!("unknown host service '{host}'"))
                }
                service => {
                    let Some(device) = selected else {
                        return fail(stream, "no device selected: send host:transport first");
                    };
                    device.track(stream);
                    return device_service(stream, &device, service);
                }
            }
        }
    }

    fn listing(&self, long: bool) -> String {
        self.plugged()
            .iter()
            .map(|device| {
                if long {
                    format!(
                        "{:<22} device product:fake model:{} device:fake transport_id:{}\n",
                        device.serial,
                        device.model,
                        self.transport_id(device)
                    )
                } else {
                    format!("{}\tdevice\n", device.serial)
                }
            })
            .collect()
    }
}

/// `host:forward:LOCAL;REMOTE`: listens on LOCAL (`tcp:0` picks a port, answered after the
/// second OKAY) and connects each accepted connection to REMOTE on the device.
fn forward_request(stream: &mut TcpStream, device: &Arc<FakeDevice>, spec: &str) -> io::Result<()> {
    if device.refuse_forwards.load(Ordering::SeqCst) {
        return fail(stream, "cannot bind listener: refused by the test");
    }
    let Some((local, remote)) = spec.split_once(';') else {
        return fail(stream, "malformed forward spec");
    };
    let Some(port) = local.strip_prefix("tcp:") else {
        return fail(stream, "fake adb: local must be tcp:N");
    };
    let listener = match TcpListener::bind(format!("127.0.0.1:{port}")) {
        Ok(listener) => listener,
        Err(error) => return fail(stream, &format!("cannot bind listener: {error}")),
    };
    let bound = listener.local_addr()?.port();
    let device = Arc::clone(device);
    let remote = remote.to_owned();
    thread::spawn(move || {
        for connection in listener.incoming().flatten() {
            // A real adb server drops the forwards of a device that went away.
            if !device.is_plugged() {
                return;
            }
            let target = if let Some(name) = remote.strip_prefix("localabstract:") {
                device.sockets.lock().unwrap().get(name).copied()
            } else {
                remote.strip_prefix("tcp:").and_then(|it| it.parse().ok())
            };
            let Some(target) = target.and_then(|port| TcpStream::connect(("127.0.0.1", port)).ok())
            else {
                continue; // nothing listens there: the connection closes at once
            };
            device.track(&connection);
            device.track(&target);
            pipe(connection, target);
        }
    });
    stream.write_all(b"OKAYOKAY")?;
    if port == "0" {
        let port = bound.to_string();
        stream.write_all(format!("{:04x}{port}", port.len()).as_bytes())?;
    }
    Ok(())
}

fn device_service(
    stream: &mut TcpStream,
    device: &Arc<FakeDevice>,
    service: &str,
) -> io::Result<()> {
    if let Some(rest) = service.strip_prefix("shell") {
        let (options, command) = rest.split_once(':').unwrap_or(("", rest));
        stream.write_all(b"OKAY")?;
        return if options.split(',').any(|it| it == "v2") {
            shell_v2(stream, device, command)
        } else {
            raw(stream, device, command)
        };
    }
    if let Some(command) = service.strip_prefix("exec:") {
        stream.write_all(b"OKAY")?;
        return match app_process(command) {
            Some(start) => run_agent(stream, device, start),
            None => raw(stream, device, command),
        };
    }
    if service == "sync:" {
        stream.write_all(b"OKAY")?;
        return sync(stream, device);
    }
    if let Some(spec) = service.strip_prefix("reverse:forward:") {
        return reverse(stream, device, spec.trim_start_matches("norebind:"));
    }
    if let Some(remote) = service.strip_prefix("reverse:killforward:") {
        let mut reverses = REVERSES.lock().expect("lock");
        let held = reverses
            .get_mut(remote)
            .is_some_and(|it| it.holders.remove(&device.serial));
        if !held {
            return fail(stream, &format!("listener '{remote}' not found"));
        }
        let last = reverses.get(remote).is_some_and(|it| it.holders.is_empty());
        let removed = if last { reverses.remove(remote) } else { None };
        drop(reverses);
        return match removed {
            Some(Relay {
                target, accepting, ..
            }) => {
                // Wakes the relay, which sees the reverse is gone and closes its listener
                // before the reply, so that the port is free again.
                drop(target);
                let port = remote.trim_start_matches("tcp:");
                let _ = TcpStream::connect(format!("127.0.0.1:{port}"));
                let _ = accepting.join();
                stream.write_all(b"OKAYOKAY")
            }
            None => stream.write_all(b"OKAYOKAY"),
        };
    }
    fail(stream, &format!("unknown device service '{service}'"))
}

fn shell(device: &FakeDevice, command: &str) -> Command {
    let root = device.root.display().to_string();
    let command = command.replace("/data/local/tmp", &format!("{root}/data/local/tmp"));
    let mut shell = Command::new("sh");
    shell.arg("-c").arg(command).current_dir(&device.root);
    let path = std::env::var("PATH").unwrap_or_default();
    shell.env("PATH", format!("{root}/bin:{path}"));
    shell.env("FAKE_DEVICE_ROOT", &root);
    shell
}

/// `shell:` (v1) and `exec:`: the socket is the command's stdin, its output goes back raw.
fn raw(stream: &mut TcpStream, device: &FakeDevice, command: &str) -> io::Result<()> {
    let mut child = shell(device, command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take().expect("piped");
    let mut input = stream.try_clone()?;
    thread::spawn(move || relay(&mut input, &mut stdin));
    let out = Arc::new(Mutex::new(stream.try_clone()?));
    let stdout = copy_to(child.stdout.take().expect("piped"), Arc::clone(&out), None);
    let stderr = copy_to(child.stderr.take().expect("piped"), out, None);
    let _ = stdout.join();
    let _ = stderr.join();
    child.wait()?;
    stream.shutdown(Shutdown::Both)
}

/// Copies a child's output to the socket, as shell-protocol packets of `id` if given.
fn copy_to(
    mut from: impl Read + Send + 'static,
    to: Arc<Mutex<TcpStream>>,
    id: Option<u8>,
) -> thread::JoinHandle<()> {
    thread::spawn(move || {
        let mut buffer = [0u8; 16384];
        while let Ok(n @ 1..) = from.read(&mut buffer) {
            let mut packet = Vec::with_capacity(n + 5);
            if let Some(id) = id {
                packet.push(id);
                packet.extend_from_slice(&(n as u32).to_le_bytes());
            }
            packet.extend_from_slice(&buffer[..n]);
            if to.lock().unwrap().write_all(&packet).is_err() {
                return;
            }
        }
    })
}

/// `shell,v2:`: packets of (id, little-endian length, data): 0 stdin, 1 stdout, 2 stderr,
/// 3 exit status, 4 close stdin.
fn shell_v2(stream: &mut TcpStream, device: &FakeDevice, command: &str) -> io::Result<()> {
    let mut child = shell(device, command)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let mut stdin = child.stdin.take();
    let mut input = stream.try_clone()?;
    thread::spawn(move || loop {
        let mut header = [0u8; 5];
        if input.read_exact(&mut header).is_err() {
            return;
        }
        let length = u32::from_le_bytes(header[1..5].try_into().expect("4 bytes")) as usize;
        let mut data = vec![0; length];
        if input.read_exact(&mut data).is_err() {
            return;
        }
        match header[0] {
            0 => {
                if let Some(stdin) = stdin.as_mut() {
                    let _ = stdin.write_all(&data);
                }
            }
            4 => stdin = None,
            _ => {}
        }
    });
    let out = Arc::new(Mutex::new(stream.try_clone()?));
    let stdout = copy_to(
        child.stdout.take().expect("piped"),
        Arc::clone(&out),
        Some(1),
    );
    let stderr = copy_to(
        child.stderr.take().expect("piped"),
        Arc::clone(&out),
        Some(2),
    );
    let _ = stdout.join();
    let _ = stderr.join();
    let status = child.wait()?.code().unwrap_or(255) as u8;
    out.lock().unwrap().write_all(&[3, 1, 0, 0, 0, status])?;
    stream.shutdown(Shutdown::Both)
}

/// An `app_process` command line: `[NAME=VALUE ...] [exec] app_process DIR CLASS ARGS...`.
struct AppProcess {
    classpath: Vec<String>,
    /// The class and its arguments, as given.
    command: String,
    socket: Option<String>,
}

fn app_process(command: &str) -> Option<AppProcess> {
    let mut words = command.split_whitespace().peekable();
    let mut classpath = Vec::new();
    while let Some(word) = words.peek() {
        match word.split_once('=') {
            Some(("CLASSPATH", value)) => classpath = value.split(':').map(str::to_owned).collect(),
            Some(_) => {}
            None => break,
        }
        words.next();
    }
    if words.peek() == Some(&"exec") {
        words.next();
    }
    if words.next() != Some("app_process") {
        return None;
    }
    let _directory = words.next();
    let rest: Vec<&str> = words.collect();
    let socket = rest
        .iter()
        .position(|it| *it == "--socket")
        .and_then(|at| rest.get(at + 1))
        .map(|it| (*it).to_owned());
    Some(AppProcess {
        classpath,
        command: rest.join(" "),
        socket,
    })
}

/// Runs the device's agent for an `app_process` command: the session token is the first line
/// of the exec's input, the agent's stdio is served on the abstract socket name, and its
/// stderr comes back on the exec stream after the listening line.
fn run_agent(
    stream: &mut TcpStream,
    device: &Arc<FakeDevice>,
    start: AppProcess,
) -> io::Result<()> {
    let Some(socket) = start.socket.clone() else {
        stream.write_all(b"usage: app_process ... --socket NAME\n")?;
        return stream.shutdown(Shutdown::Both);
    };
    let mut token = String::new();
    BufReader::new(stream.try_clone()?).read_line(&mut token)?;
    let classpath: Vec<String> = start
        .classpath
        .iter()
        .map(|it| device.path(it).display().to_string())
        .chain(
            device
                .agent
                .classpath
                .iter()
                .map(|it| it.display().to_string()),
        )
        .collect();
    let child = Command::new(&device.agent.java)
        .args(&device.agent.jvm_options)
        .arg("-cp")
        .arg(classpath.join(":"))
        .arg(&device.agent.main_class)
        .env("TYPESTAR_AGENT_TOKEN", token.trim())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()?;
    let child = Arc::new(Mutex::new(child));
    device.children.lock().unwrap().push(Arc::clone(&child));
    let (stdin, stdout, stderr) = {
        let mut child = child.lock().unwrap();
        (
            child.stdin.take().expect("piped"),
            child.stdout.take().expect("piped"),
            child.stderr.take().expect("piped"),
        )
    };
    let listener = TcpListener::bind("127.0.0.1:0")?;
    device
        .sockets
        .lock()
        .unwrap()
        .insert(socket.clone(), listener.local_addr()?.port());
    let marker = device.root.join("run/agents").join(&socket);
    fs::write(&marker, format!("{}\n", start.command))?;
    let served = Arc::clone(device);
    thread::spawn(move || {
        // One session per agent, as on a device.
        if let Ok((connection, _)) = listener.accept() {
            served.track(&connection);
            serve_stdio(connection, stdin, stdout, &served);
        }
    });
    stream.write_all(format!("{{\"type\":\"listening\",\"socket\":\"{socket}\"}}\n").as_bytes())?;
    // The exec stream closing (the client went away) ends the agent, as adbd does.
    let mut closed = stream.try_clone()?;
    let watched = Arc::clone(&child);
    thread::spawn(move || {
        let mut sink = [0u8; 256];
        while let Ok(1..) = closed.read(&mut sink) {}
        let _ = watched.lock().unwrap().kill();
    });
    relay(&mut BufReader::new(stderr), stream);
    let _ = child.lock().unwrap().wait();
    device.sockets.lock().unwrap().remove(&socket);
    let _ = fs::remove_file(marker);
    stream.shutdown(Shutdown::Both)
}

/// Carries one session between a socket and an agent's stdio, each answer after the device's
/// latency and its quiet waits.
fn serve_stdio(
    connection: TcpStream,
    mut stdin: std::process::ChildStdin,
    stdout: std::process::ChildStdout,
    device: &Arc<FakeDevice>,
) {
    let mut requests = match connection.try_clone() {
        Ok(it) => it,
        Err(_) => return,
    };
    thread::spawn(move || relay(&mut requests, &mut stdin));
    let mut answers = connection;
    let slow = Arc::clone(device);
    thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            let Ok(line) = line else { break };
            let quiet = quiet_outputs(&line);
            slow.quiet_waits.fetch_add(quiet, Ordering::SeqCst);
            let latency = slow.latency_ms.load(Ordering::SeqCst)
                + slow.quiet_wait_ms.load(Ordering::SeqCst) * quiet;
            if latency > 0 {
                slow.delayed_ms.fetch_add(latency, Ordering::SeqCst);
                thread::sleep(Duration::from_millis(latency));
            }
            if answers.write_all(format!("{line}\n").as_bytes()).is_err() {
                break;
            }
            slow.answers.fetch_add(1, Ordering::SeqCst);
        }
        let _ = answers.shutdown(Shutdown::Both);
    });
}

/// How many `quiet` outputs an agent's answer (`answer`, `stepped`) has.
fn quiet_outputs(line: &str) -> u64 {
    let answer: serde_json::Value = serde_json::from_str(line).unwrap_or_default();
    answer["outputs"].as_array().map_or(0, |outputs| {
        outputs.iter().filter(|it| *it == "quiet").count() as u64
    })
}

/// `reverse:forward:tcp:R;tcp:L`: the device's port R reaches the host's port L. The device
/// is this machine, so its port R is the host's: a relay listens there while the reverse
/// lasts (`reverse:killforward:tcp:R` ends it; a new reverse of R replaces its target).
/// Fake devices share this machine's loopback, so a port reversed on several of them is one
/// relay, to the target the last of them set, held until the last of them removes it.
fn reverse(stream: &mut TcpStream, device: &FakeDevice, spec: &str) -> io::Result<()> {
    let Some((remote, local)) = spec.split_once(';') else {
        return fail(stream, "malformed reverse spec");
    };
    let (Some(port), Some(local)) = (remote.strip_prefix("tcp:"), local.strip_prefix("tcp:"))
    else {
        return fail(stream, "fake adb: reverse supports tcp: only");
    };
    let mut reverses = REVERSES.lock().expect("lock");
    if let Some(relay) = reverses.get_mut(remote) {
        *relay.target.lock().expect("lock") = local.to_owned();
        relay.holders.insert(device.serial.clone());
        return stream.write_all(b"OKAYOKAY");
    }
    let listener = match TcpListener::bind(format!("127.0.0.1:{port}")) {
        Ok(listener) => listener,
        Err(error) => return fail(stream, &format!("cannot bind '{remote}': {error}")),
    };
    let target = Arc::new(Mutex::new(local.to_owned()));
    let relay = Arc::downgrade(&target);
    let accepting = thread::spawn(move || {
        for connection in listener.incoming().flatten() {
            // Removed: the listener closes with this thread.
            let Some(target) = relay.upgrade() else { break };
            let local = target.lock().expect("lock").clone();
            drop(target);
            if let Ok(host) = TcpStream::connect(format!("127.0.0.1:{local}")) {
                pipe(connection, host);
            }
        }
    });
    let holders = BTreeSet::from([device.serial.clone()]);
    reverses.insert(
        remote.to_owned(),
        Relay {
            target,
            accepting,
            holders,
        },
    );
    stream.write_all(b"OKAYOKAY")
}

/// Reverses by device port (`tcp:R`), of every fake device of this process.
static REVERSES: LazyLock<Mutex<HashMap<String, Relay>>> = LazyLock::new(Mutex::default);

struct Relay {
    /// The host port it relays to, now.
    target: Arc<Mutex<String>>,
    accepting: thread::JoinHandle<()>,
    /// The serials of the devices that set it and have not removed it.
    holders: BTreeSet<String>,
}

fn sync(stream: &mut TcpStream, device: &FakeDevice) -> io::Result<()> {
    loop {
        let mut header = [0u8; 8];
        if stream.read_exact(&mut header).is_err() {
            return Ok(()); // adb_client hangs up without QUIT
        }
        let length = u32::from_le_bytes(header[4..8].try_into().expect("4 bytes")) as usize;
        let mut argument = vec![0; length];
        stream.read_exact(&mut argument)?;
        let argument = String::from_utf8_lossy(&argument).into_owned();
        match &header[0..4] {
            b"QUIT" => return Ok(()),
            b"STAT" => {
                use std::os::unix::fs::MetadataExt;
                let (mode, size, time) = fs::metadata(device.path(&argument))
                    .map_or((0, 0, 0), |it| {
                        (it.mode(), it.size() as u32, it.mtime() as u32)
                    });
                let mut reply = b"STAT".to_vec();
                for value in [mode, size, time] {
                    reply.extend_from_slice(&value.to_le_bytes());
                }
                stream.write_all(&reply)?;
            }
            b"SEND" => {
                let path = argument
                    .rsplit_once(',')
                    .map_or(argument.as_str(), |it| it.0);
                let mut data = Vec::new();
                loop {
                    let mut packet = [0u8; 8];
                    stream.read_exact(&mut packet)?;
                    let n = u32::from_le_bytes(packet[4..8].try_into().expect("4 bytes")) as usize;
                    match &packet[0..4] {
                        b"DATA" => {
                            let mut chunk = vec![0; n];
                            stream.read_exact(&mut chunk)?;
                            data.extend_from_slice(&chunk);
                        }
                        b"DONE" => break, // n is the mtime
                        _ => return sync_fail(stream, "bad SEND packet"),
                    }
                }
                if device.refuse_pushes.load(Ordering::SeqCst) {
                    return sync_fail(stream, "Read-only file system (refused by the test)");
                }
                let target = device.path(path);
                if let Some(parent) = target.parent() {
                    fs::create_dir_all(parent)?;
                }
                fs::write(&target, &data)?;
                stream.write_all(b"OKAY\0\0\0\0")?;
            }
            b"RECV" => match fs::read(device.path(&argument)) {
                Ok(bytes) => {
                    for chunk in bytes.chunks(65536) {
                        stream.write_all(b"DATA")?;
                        stream.write_all(&(chunk.len() as u32).to_le_bytes())?;
                        stream.write_all(chunk)?;
                    }
                    stream.write_all(b"DONE\0\0\0\0")?;
                }
                Err(error) => return sync_fail(stream, &error.to_string()),
            },
            b"LIST" => {
                use std::os::unix::fs::MetadataExt;
                for entry in fs::read_dir(device.path(&argument))?.flatten() {
                    let Ok(metadata) = entry.metadata() else {
                        continue;
                    };
                    let name = entry.file_name().to_string_lossy().into_owned();
                    let mut dent = b"DENT".to_vec();
                    for value in [
                        metadata.mode(),
                        metadata.size() as u32,
                        metadata.mtime() as u32,
                        name.len() as u32,
                    ] {
                        dent.extend_from_slice(&value.to_le_bytes());
                    }
                    dent.extend_from_slice(name.as_bytes());
                    stream.write_all(&dent)?;
                }
                stream.write_all(b"DONE")?;
                stream.write_all(&[0u8; 16])?;
            }
            _ => return sync_fail(stream, "unsupported sync request"),
        }
    }
}

fn sync_fail(stream: &mut TcpStream, message: &str) -> io::Result<()> {
    stream.write_all(b"FAIL")?;
    stream.write_all(&(message.len() as u32).to_le_bytes())?;
    stream.write_all(message.as_bytes())
}

/// Copies `from` to `to` until either ends, a write at a time. Not `io::copy`: on Linux it
/// splices sockets into pipes, and data spliced into a child's stdin was seen to stall there.
fn relay(from: &mut impl Read, to: &mut impl Write) {
    let mut buffer = [0u8; 16384];
    while let Ok(n @ 1..) = from.read(&mut buffer) {
        if to
            .write_all(&buffer[..n])
            .and_then(|()| to.flush())
            .is_err()
        {
            return;
        }
    }
}

/// Copies both ways between two connections until either closes.
fn pipe(a: TcpStream, b: TcpStream) {
    for (mut from, mut to) in [
        (a.try_clone(), b.try_clone()),
        (b.try_clone(), a.try_clone()),
    ]
    .into_iter()
    .filter_map(|(from, to)| Some((from.ok()?, to.ok()?)))
    {
        thread::spawn(move || {
            relay(&mut from, &mut to);
            let _ = to.shutdown(Shutdown::Both);
        });
    }
}
