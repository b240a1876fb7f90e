//! The Robolectric backend: Android framework classes learned with no device, by the agent
//! core running inside Robolectric (`agent-android/robolectric/`), one long-lived JVM per
//! worker.
//!
//! Callins run on the paused main looper's thread, as an app's main-thread calls do.
//! A `wait` advances the looper's simulated clock, so a quiet wait costs no real time.
//! The SDK level is chosen per run.
//! Robolectric, JUnit and the Android jars come from Maven Central through
//! `learner/robolectric/fetch.sh` into a cache folder (never committed), and run offline.
//! `typestar fetch-robolectric` runs the copy of that script the binary ships.
//! Everything else (experiments, agent processes, the watchdog of each request, restarts, the
//! learning pipeline) is the JVM backend's.
//! This module only says how to start the agent and what the provenance says.
//! The provenance names the SDK level.
//! It also says what ran, from the agent's `describe`.
//! That is AOSP framework code, a library's jar by its Maven coordinates, or the host JDK's code.
//! Or it is Robolectric's simulation: its shadows.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use serde_json::Value;
use typestates::{Backend, Code, LearningRun};

use crate::backend::jvm::java::{
    agent_sources, build_once, cache_dir_in, hash_files, java_files, join_classpath, Jdk,
};
use crate::backend::jvm::process::AgentCommand;
use crate::backend::jvm::sul::Launcher;
use crate::backend::jvm::{
    describe, learn_on_agents, public_methods_of, Agents, Experiment, JvmConfig, JvmError,
    PublicMethod,
};
use crate::cost::CostModel;
use crate::learn::Progress;
use crate::session::{Learned, Origin};

/// The SDK level learned on when none is named: Android 14.
pub const DEFAULT_SDK: u32 = 34;
/// Deadline of the handshake: the JVM's start plus Robolectric's sandbox (15-30 s measured on
/// two loaded cores; generous, since a first run also loads the SDK jar from disk).
const HANDSHAKE_MS: u64 = 240_000;

/// Where the Robolectric backend finds its artifacts, the JDK and the code under study.
#[derive(Clone, Debug)]
pub struct RobolectricConfig {
    /// The Android SDK level (API level) to run the class on (`--sdk`).
    pub sdk: u32,
    /// The folder `learner/robolectric/fetch.sh` filled.
    pub artifacts: PathBuf,
    /// What the JVM backend needs too: extra jars of the code under study (an Android
    /// library's), agent JVMs run in parallel (each pays the sandbox's start once), the
    /// journal, the JDK (Robolectric 4.16.1 needs 17 or later) and the build cache.
    pub jvm: JvmConfig,
}

impl Default for RobolectricConfig {
    fn default() -> RobolectricConfig {
        RobolectricConfig {
            sdk: DEFAULT_SDK,
            artifacts: default_artifacts_dir(),
            jvm: JvmConfig::default(),
        }
    }
}

/// `$TYPESTAR_ROBOLECTRIC_DIR`, else `robolectric` in the user's cache directory
/// (`$XDG_CACHE_HOME/typestar/robolectric`, where `fetch.sh` puts the artifacts by default), so
/// that an installed binary finds them without a source tree.
pub fn default_artifacts_dir() -> PathBuf {
    artifacts_dir_in(|name| std::env::var_os(name))
}

/// [`default_artifacts_dir`] with the environment read through `var`.
fn artifacts_dir_in(var: impl Fn(&str) -> Option<std::ffi::OsString>) -> PathBuf {
    var("TYPESTAR_ROBOLECTRIC_DIR")
        .filter(|it| !it.is_empty())
        .map(PathBuf::from)
        .unwrap_or_else(|| cache_dir_in(var).join("robolectric"))
}

/// The script that fetches the artifacts: `fetch.sh [--dest DIR] [--sdk N]...`.
pub fn fetch_script() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("robolectric/fetch.sh")
}

/// The cached artifacts of one SDK level, as `fetch.sh` recorded them.
struct Artifacts {
    /// Robolectric's version.
    robolectric: String,
    /// Robolectric, JUnit and their dependencies.
    deps: Vec<PathBuf>,
    /// The plain android-all jar (compile and outer class path).
    android_all: PathBuf,
    /// The folder of android-all-instrumented jars (`robolectric.dependency.dir`).
    sdk_dir: PathBuf,
}

impl Artifacts {
    /// Reads `dir/robolectric.properties` and checks that what it names is there for `sdk`.
    fn open(dir: &Path, sdk: u32) -> Result<Artifacts, JvmError> {
        let missing = |what: String| JvmError::RobolectricArtifacts {
            dir: dir.to_owned(),
            what,
            sdk,
        };
        let properties = dir.join("robolectric.properties");
        let text = std::fs::read_to_string(&properties)
            .map_err(|error| missing(format!("cannot read {}: {error}", properties.display())))?;
        let value = |key: &str| {
            text.lines()
                .filter_map(|line| line.split_once('='))
                .find(|(name, _)| name.trim() == key)
                .map(|(_, value)| value.trim().to_owned())
                .ok_or_else(|| missing(format!("{} has no `{key}`", properties.display())))
        };
        let robolectric = value("robolectric")?;
        let android_all = dir.join(value("android_all")?);
        let sdks = value("sdks")?;
        if !sdks.split_whitespace().any(|it| it == sdk.to_string()) {
            return Err(missing(format!(
                "SDK {sdk} is not cached (cached: {})",
                if sdks.is_empty() { "none" } else { &sdks }
            )));
        }
        if !android_all.is_file() {
            return Err(missing(format!("{} does not exist", android_all.display())));
        }
        let deps_dir = dir.join("deps");
        let mut deps: Vec<PathBuf> = std::fs::read_dir(&deps_dir)
            .map_err(|error| missing(format!("cannot read {}: {error}", deps_dir.display())))?
            .filter_map(|entry| entry.ok().map(|it| it.path()))
            .filter(|path| path.extension().is_some_and(|it| it == "jar"))
            .collect();
        deps.sort();
        let robolectric_jar = deps_dir.join(format!("robolectric-{robolectric}.jar"));
        if !robolectric_jar.is_file() {
            return Err(missing(format!(
                "{} does not exist",
                robolectric_jar.display()
            )));
        }
        Ok(Artifacts {
            robolectric,
            deps,
            android_all,
            sdk_dir: dir.join("sdk"),
        })
    }
}

impl RobolectricConfig {
    /// Checks the artifacts, finds the JDK, builds the agent with its Robolectric entry point,
    /// the Android harnesses and the experiment's `harness` sources if needed, and says how to
    /// start it.
    pub fn agent_command(&self, harness: &[PathBuf]) -> Result<AgentCommand, JvmError> {
        let sdk = self.sdk;
        let artifacts = Artifacts::open(&self.artifacts, sdk)?;
        let jdk = Jdk::find(self.jvm.java_home.as_deref())?;
        let cache = &self.jvm.cache_dir;
        let core = jdk.agent_classpath(cache)?;
        let mut libraries = artifacts.deps.clone();
        libraries.push(artifacts.android_all.clone());
        let entry = entry_classes(&jdk, cache, &core, &libraries)?;
        let mut classpath = entry;
        classpath.extend(core);
        classpath.extend(libraries);
        classpath.extend(self.jvm.classpath.iter().cloned());
        if !harness.is_empty() {
            let classes = jdk.harness_classes(cache, &classpath, harness)?;
            classpath.push(classes);
        }
        let dependency_dir = artifacts.sdk_dir.display();
        Ok(AgentCommand {
            java: jdk.java,
            jvm_options: vec![
                // ParcelFileDescriptor (and Robolectric's shadows of file descriptors) reach
                // into java.io.FileDescriptor's private field, as on Android.
                "--add-opens=java.base/java.io=ALL-UNNAMED".to_owned(),
                format!("-Drobolectric.enabledSdks={sdk}"),
                "-Drobolectric.offline=true".to_owned(),
                format!("-Drobolectric.dependency.dir={dependency_dir}"),
                format!("-Dtypestar.robolectric.version={}", artifacts.robolectric),
            ],
            classpath,
            main_class: "dev.typestar.agent.RobolectricMain".to_owned(),
            handshake_ms: HANDSHAKE_MS,
            runs_on: format!("Robolectric (SDK {sdk})"),
        })
    }
}

/// The Robolectric entry point and the Android harnesses (`agent-android/robolectric/`),
/// compiled against the core and `libraries` under `cache` if not there yet.
fn entry_classes(
    jdk: &Jdk,
    cache: &Path,
    core: &[PathBuf],
    libraries: &[PathBuf],
) -> Result<Vec<PathBuf>, JvmError> {
    let sources = agent_sources()?.join("robolectric");
    let entry = java_files(&sources.join("src/main/java"))?;
    let harness = java_files(&sources.join("harness/src/main/java"))?;
    let mut classpath = core.to_vec();
    classpath.extend(libraries.iter().cloned());
    let key = hash_files(
        entry.iter().chain(&harness),
        &[join_classpath(&classpath).as_bytes()],
    )?;
    let failed = |message| JvmError::AgentBuild {
        sources: sources.clone(),
        message,
    };
    let dir = build_once(cache, &format!("robolectric-{key:016x}"), |tmp| {
        jdk.javac(&tmp.join("classes"), &classpath, &entry, failed)?;
        let mut with_entry = vec![tmp.join("classes")];
        with_entry.extend(classpath.iter().cloned());
        jdk.javac(&tmp.join("harness"), &with_entry, &harness, failed)
    })?;
    Ok(vec![dir.join("classes"), dir.join("harness")])
}

/// What a run on Robolectric costs: resets and steps take a few milliseconds and a quiet wait
/// only moves the simulated clock; real background work (AsyncTask's) is the exception.
const COST: CostModel = CostModel {
    reset_ms: 3,
    callin_ms: 1,
    callback_wait_ms: 2,
    quiet_wait_ms: 2,
};

/// Learns the typestate of `experiment`'s class by running it in agents inside Robolectric at
/// `config.sdk`, as [`crate::backend::jvm::learn_class`] does on the host JVM. The provenance
/// names the backend, Robolectric's version, the SDK level and what ran: AOSP framework code, a
/// library's jar, the host JDK's code or Robolectric's simulation.
pub async fn learn_class(
    experiment: Arc<Experiment>,
    config: &RobolectricConfig,
    progress: &mut dyn Progress,
) -> Result<Learned, JvmError> {
    let started = Instant::now();
    let launcher = Launcher {
        command: config.agent_command(&experiment.harness_sources())?,
        experiment,
    };
    let mut first = launcher.start().await?;
    let class = launcher.experiment.class().to_owned();
    let described = describe(&mut first, &class).await?;
    let provenance = provenance(
        &class,
        &first.java_version,
        first.platform.as_ref(),
        described.implementation.as_ref(),
    )?;
    let agents = Agents::of(&config.jvm, COST, started);
    learn_on_agents(launcher, first, &agents, provenance, progress).await
}

/// The public instance methods of each of `classes` (own and inherited, as the agent's
/// `describe` lists them from the android-all jar of `config.sdk`), in order, from one agent
/// inside Robolectric.
pub async fn public_methods(
    classes: &[&str],
    config: &RobolectricConfig,
) -> Result<Vec<Vec<PublicMethod>>, JvmError> {
    public_methods_of(&config.agent_command(&[])?, classes).await
}

/// The provenance of a class learned on Robolectric, from the agent's `hello` platform and its
/// `describe` implementation (PROTOCOL.md §3, §4.1).
fn provenance(
    class: &str,
    java: &str,
    platform: Option<&Value>,
    implementation: Option<&Value>,
) -> Result<Origin, JvmError> {
    let (Some(platform), Some(implementation)) = (platform, implementation) else {
        return Err(JvmError::AgentFailed {
            what: "did not report its platform or the class's implementation (is it the \
                   Robolectric agent?)"
                .to_owned(),
            stderr: String::new(),
        });
    };
    let text = |value: &Value, key: &str| {
        value
            .get(key)
            .map(|it| it.as_str().map_or_else(|| it.to_string(), str::to_owned))
            .unwrap_or_else(|| "?".to_owned())
    };
    let platform_text = format!(
        "backend robolectric: Robolectric {}, Android SDK {} (Android {}), Java {java}",
        text(platform, "robolectric"),
        text(platform, "sdk"),
        text(platform, "release"),
    );
    let code = text(implementation, "code");
    let shadows: Vec<String> = implementation
        .get("shadows")
        .and_then(Value::as_array)
        .into_iter()
        .flatten()
        .filter_map(|shadow| {
            let methods: Vec<&str> = shadow
                .get("methods")?
                .as_array()?
                .iter()
                .filter_map(Value::as_str)
                .collect();
            let name = text(shadow, "shadow");
            let simple = name.rsplit('.').next().unwrap_or(&name).to_owned();
            (!methods.is_empty()).then(|| format!("{simple} ({})", methods.join(", ")))
        })
        .collect();
    let ran = ran_as(class, implementation.get("origin"))?;
    let label = match code.as_str() {
        "real" => {
            format!("code real: {class} ran as {ran}; no Robolectric shadow method intercepts it")
        }
        "calls-through" => format!(
            "code calls-through: {class} ran as {ran}; Robolectric's shadow methods {} \
             intercept it and call through",
            shadows.join(", ")
        ),
        _ => format!(
            "code simulated: {class} is simulated by Robolectric; this protocol is that of its \
             shadow methods {}, not of {ran}",
            shadows.join(", ")
        ),
    };
    Ok(Origin {
        platform: platform_text,
        sources: vec![label],
        run: Some(LearningRun {
            backend: Backend::Robolectric,
            sdk: platform
                .get("sdk")
                .and_then(Value::as_u64)
                .and_then(|it| u32::try_from(it).ok()),
            code: Some(match code.as_str() {
                "real" => Code::Real,
                "calls-through" => Code::CallsThrough,
                _ => Code::Simulated,
            }),
            date: None,
        }),
    })
}

/// Whose bytecode `class` is, from the `origin` of the agent's `describe` (PROTOCOL.md §4.1):
/// AOSP framework code, a module of the host JDK, or a library's jar named by its Maven
/// coordinates where a POM lies beside it.
fn ran_as(class: &str, origin: Option<&Value>) -> Result<String, JvmError> {
    let field = |key: &str| origin.and_then(|it| it.get(key)).and_then(Value::as_str);
    let unexpected = || JvmError::AgentFailed {
        what: format!("did not say where the bytecode of {class} comes from: {origin:?}"),
        stderr: String::new(),
    };
    Ok(match (field("kind"), field("jar")) {
        (Some("framework"), Some(jar)) => format!("AOSP framework code (Robolectric's {jar})"),
        (Some("jdk"), _) => format!(
            "the host JDK's code (module {}), not AOSP code",
            field("module").ok_or_else(unexpected)?
        ),
        (Some("library"), Some(jar)) => match field("maven") {
            Some(maven) => format!("the bytecode of {maven} ({jar}), not AOSP code"),
            None => format!("the bytecode of {jar} (no Maven POM beside it), not AOSP code"),
        },
        (Some("library"), None) => format!(
            "the bytecode at {}, not AOSP code",
            field("url").ok_or_else(unexpected)?
        ),
        _ => return Err(unexpected()),
    })
}

#[cfg(test)]
mod tests {
    use std::ffi::OsString;
    use std::path::PathBuf;

    use serde_json::json;

    use super::{artifacts_dir_in, ran_as};

    #[test]
    fn the_origin_says_whose_bytecode_ran() {
        let cases = [
            (
                json!({"kind": "framework", "jar": "android-all-instrumented-14.jar"}),
                "AOSP framework code (Robolectric's android-all-instrumented-14.jar)",
            ),
            (
                json!({"kind": "jdk", "module": "java.base"}),
                "the host JDK's code (module java.base), not AOSP code",
            ),
            (
                json!({"kind": "library", "jar": "l-1.jar", "maven": "g:l:1"}),
                "the bytecode of g:l:1 (l-1.jar), not AOSP code",
            ),
            (
                json!({"kind": "library", "jar": "l-1.jar", "maven": null}),
                "the bytecode of l-1.jar (no Maven POM beside it), not AOSP code",
            ),
            (
                json!({"kind": "library", "url": "file:/c/", "maven": null}),
                "the bytecode at file:/c/, not AOSP code",
            ),
        ];
        for (origin, expected) in cases {
            assert_eq!(ran_as("C", Some(&origin)).unwrap(), expected, "{origin}");
        }
        for origin in [
            None,
            Some(json!({"kind": "jdk"})),
            Some(json!({"kind": "x"})),
        ] {
            let error = ran_as("C", origin.as_ref()).unwrap_err().to_string();
            assert!(
                error.contains("where the bytecode of C comes from"),
                "{error}"
            );
        }
    }

    /// The artifacts folder for an environment given as `NAME=VALUE` pairs.
    fn artifacts_dir(environment: &[(&str, &str)]) -> PathBuf {
        artifacts_dir_in(|name| {
            environment
                .iter()
                .find(|(key, _)| *key == name)
                .map(|(_, value)| OsString::from(value))
        })
    }

    #[test]
    fn the_artifacts_default_to_the_user_cache_and_the_variable_overrides_them() {
        let cases: &[(&[(&str, &str)], &str)] = &[
            (
                &[("XDG_CACHE_HOME", "/c"), ("HOME", "/h")],
                "/c/typestar/robolectric",
            ),
            (&[("HOME", "/h")], "/h/.cache/typestar/robolectric"),
            (
                &[("XDG_CACHE_HOME", ""), ("HOME", "/h")],
                "/h/.cache/typestar/robolectric",
            ),
            (&[("TYPESTAR_ROBOLECTRIC_DIR", "/r"), ("HOME", "/h")], "/r"),
            (
                &[("TYPESTAR_ROBOLECTRIC_DIR", ""), ("HOME", "/h")],
                "/h/.cache/typestar/robolectric",
            ),
        ];
        for (environment, expected) in cases {
            assert_eq!(
                artifacts_dir(environment),
                PathBuf::from(expected),
                "{environment:?}"
            );
        }
    }
}
