//! Shared setup of the Android backend's tests: fake adb servers whose fake devices run the
//! host JVM agent behind `app_process`, the agent jar pushed to them, and a configuration of
//! the backend that never starts a real adb daemon (`/bin/true` as the adb program).

#![allow(
    dead_code,
    unused_imports,
    reason = "each test binary uses a different part of the support"
)]

pub mod fake_adb;

use std::path::{Path, PathBuf};
use std::process::Command;

use fake_adb::{FakeAdb, FakeAgent, FakeDevice};
use learner::backend::android::{AndroidConfig, Patience};
use learner::backend::jvm::java::Jdk;
use learner::backend::jvm::process::AgentCommand;
use learner::backend::jvm::JvmConfig;

#[path = "../jvm_support/mod.rs"]
pub mod jvm_support;

pub use jvm_support::{experiment, target_dir};

/// A scratch folder for `test`'s devices, emptied.
pub fn scratch(test: &str) -> PathBuf {
    let dir = target_dir().join("fake-devices").join(test);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("target is writable");
    dir
}

/// The host agent with its JDK harnesses in one jar: what the tests push to fake devices,
/// whose `app_process` runs it on the host JVM.
pub fn agent_jar() -> PathBuf {
    let jdk = Jdk::from_env().unwrap_or_else(|error| {
        panic!("the Android backend's tests run the agent on a JDK (11 or later): {error}")
    });
    let cache = target_dir().join("typestar-agent-cache");
    let classes = jdk
        .agent_classpath(&cache)
        .unwrap_or_else(|error| panic!("{error}"));
    let jar = cache.join(format!(
        "pushed-{}.jar",
        classes[0]
            .parent()
            .and_then(Path::file_name)
            .map_or_else(String::new, |it| it.to_string_lossy().into_owned())
    ));
    if !jar.is_file() {
        let partial = jar.with_extension(format!("tmp-{}", std::process::id()));
        let mut command = Command::new(jdk.java.with_file_name("jar"));
        command.arg("--create").arg("--file").arg(&partial);
        for dir in &classes {
            command.arg("-C").arg(dir).arg(".");
        }
        let status = command.status().expect("the JDK has `jar`");
        assert!(status.success(), "jar failed for {}", jar.display());
        std::fs::rename(&partial, &jar).expect("target is writable");
    }
    jar
}

/// What a fake device's `app_process` runs: the host agent.
pub fn host_agent() -> FakeAgent {
    let jdk = Jdk::from_env().unwrap_or_else(|error| panic!("{error}"));
    FakeAgent {
        java: jdk.java,
        jvm_options: Vec::new(),
        classpath: Vec::new(),
        main_class: "dev.typestar.agent.Agent".to_owned(),
    }
}

/// What a fake device's `app_process` runs for Android classes: the agent inside Robolectric,
/// as `command` starts it on the host (`RobolectricConfig::agent_command`).
pub fn robolectric_agent(command: AgentCommand) -> FakeAgent {
    FakeAgent {
        java: command.java,
        jvm_options: command.jvm_options,
        classpath: command.classpath,
        main_class: command.main_class,
    }
}

/// A fake adb server with a device per serial, each running the host agent at API `api`.
pub fn server(scratch: &Path, serials: &[&str], api: u32) -> FakeAdb {
    server_running(scratch, serials, api, &host_agent())
}

/// A fake adb server with a device per serial, each running `agent` at API `api`.
pub fn server_running(scratch: &Path, serials: &[&str], api: u32, agent: &FakeAgent) -> FakeAdb {
    let devices = serials
        .iter()
        .map(|serial| FakeDevice::new(scratch, serial, api, agent.clone()))
        .collect();
    FakeAdb::start(devices)
}

/// The backend's configuration for `servers`, pushing the host agent jar, with short waits
/// for lost devices.
pub fn config(servers: &[&FakeAdb]) -> AndroidConfig {
    AndroidConfig {
        servers: servers.iter().map(|it| it.address()).collect(),
        serials: Vec::new(),
        adb_program: "/bin/true".to_owned(),
        jars: vec![agent_jar()],
        start_ms: 60_000,
        patience: Patience {
            wait_ms: 60_000,
            poll_ms: 100,
        },
        jvm: JvmConfig {
            cache_dir: target_dir().join("typestar-agent-cache"),
            ..JvmConfig::default()
        },
    }
}

/// The host agent with `jars` after the pushed class path: a fake device with its own build of
/// a class (`android_fixtures/variants/`), or the host agent beside a pushed dex, which the
/// host JVM cannot load.
pub fn host_agent_with(jars: Vec<PathBuf>) -> FakeAgent {
    FakeAgent {
        classpath: jars,
        ..host_agent()
    }
}

/// The jar of `android_fixtures/variants/<variant>`, compiled with the JDK's javac under the
/// target directory.
pub fn variant_jar(variant: &str) -> PathBuf {
    let jdk = Jdk::from_env().unwrap_or_else(|error| panic!("{error}"));
    let sources = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/android_fixtures/variants")
        .join(variant);
    let out = target_dir().join("fake-device-variants").join(variant);
    let _ = std::fs::remove_dir_all(&out);
    let classes = out.join("classes");
    std::fs::create_dir_all(&classes).expect("target is writable");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut folders = vec![sources];
    while let Some(folder) = folders.pop() {
        for entry in std::fs::read_dir(&folder)
            .expect("the variant's sources")
            .flatten()
        {
            let path = entry.path();
            if path.is_dir() {
                folders.push(path);
            } else if path.extension().is_some_and(|it| it == "java") {
                files.push(path);
            }
        }
    }
    let javac = Command::new(jdk.java.with_file_name("javac"))
        .args(["--release", "11", "-d"])
        .arg(&classes)
        .args(&files)
        .status()
        .expect("the JDK has javac");
    assert!(javac.success(), "javac failed on {files:?}");
    let jar = out.join(format!("{variant}.jar"));
    let status = Command::new(jdk.java.with_file_name("jar"))
        .arg("--create")
        .arg("--file")
        .arg(&jar)
        .arg("-C")
        .arg(&classes)
        .arg(".")
        .status()
        .expect("the JDK has `jar`");
    assert!(status.success(), "jar failed for {}", jar.display());
    jar
}
