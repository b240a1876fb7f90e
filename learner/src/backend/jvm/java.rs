//! Finding the JDK and building the agent from the repository's sources (and an experiment's harness sources).
//! The build goes into a cache directory keyed by a hash of those sources.
//! So no jar is ever committed and a changed source is rebuilt on first use.

use std::ffi::OsString;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::atomic::{AtomicU64, Ordering};

use super::error::JvmError;

/// The agent's sources, as the binary ships them ([`crate::shipped`]).
pub fn agent_sources() -> Result<PathBuf, JvmError> {
    Ok(crate::shipped::agent_sources()?)
}

/// The JDK programs the backend runs.
#[derive(Clone, Debug)]
pub struct Jdk {
    /// The `java` launcher.
    pub java: PathBuf,
    /// The `javac` compiler.
    pub javac: PathBuf,
}

impl Jdk {
    /// The JDK of `java_home` (JAVA_HOME's value, if set), else `java` and `javac` on PATH.
    /// Checks that `java` runs.
    pub fn find(java_home: Option<&Path>) -> Result<Jdk, JvmError> {
        let program = |name: &str| -> Result<PathBuf, JvmError> {
            match java_home {
                Some(home) => {
                    let path = home.join("bin").join(name);
                    if path.is_file() {
                        Ok(path)
                    } else {
                        Err(JvmError::BadJavaHome {
                            java_home: home.to_owned(),
                            program: path,
                        })
                    }
                }
                None => Ok(PathBuf::from(name)),
            }
        };
        let jdk = Jdk {
            java: program("java")?,
            javac: program("javac")?,
        };
        let status = Command::new(&jdk.java).arg("-version").output();
        match status {
            Ok(output) if output.status.success() => Ok(jdk),
            Ok(output) => Err(JvmError::JavaNotFound {
                program: jdk.java.display().to_string(),
                reason: format!(
                    "`java -version` failed: {}",
                    String::from_utf8_lossy(&output.stderr).trim()
                ),
            }),
            Err(error) => Err(JvmError::JavaNotFound {
                program: jdk.java.display().to_string(),
                reason: error.to_string(),
            }),
        }
    }

    /// The JDK named by the environment: JAVA_HOME if set, else PATH.
    pub fn from_env() -> Result<Jdk, JvmError> {
        let home = std::env::var_os("JAVA_HOME").filter(|it| !it.is_empty());
        Jdk::find(home.as_deref().map(Path::new))
    }

    /// The agent's class path (agent classes, then JDK harness classes), compiled under
    /// `cache` if it is not there yet.
    pub fn agent_classpath(&self, cache: &Path) -> Result<Vec<PathBuf>, JvmError> {
        let sources = agent_sources()?;
        let main = java_files(&sources.join("core/src/main/java"))?;
        let harness = java_files(&sources.join("core/harness/src/main/java"))?;
        let key = hash_files(main.iter().chain(&harness), &[])?;
        let agent_build_failed = |message| JvmError::AgentBuild {
            sources: sources.clone(),
            message,
        };
        let dir = build_once(cache, &format!("agent-{key:016x}"), |tmp| {
            self.javac(&tmp.join("classes"), &[], &main, agent_build_failed)?;
            self.javac(
                &tmp.join("harness"),
                &[tmp.join("classes")],
                &harness,
                agent_build_failed,
            )
        })?;
        Ok(vec![dir.join("classes"), dir.join("harness")])
    }

    /// An experiment's harness classes (PROTOCOL.md §6): `sources` compiled against
    /// `classpath` (the agent's and the code under study's) under `cache`, if not there yet.
    pub fn harness_classes(
        &self,
        cache: &Path,
        classpath: &[PathBuf],
        sources: &[PathBuf],
    ) -> Result<PathBuf, JvmError> {
        let key = hash_files(sources.iter(), &[join_classpath(classpath).as_bytes()])?;
        let dir = build_once(cache, &format!("harness-{key:016x}"), |tmp| {
            self.javac(tmp, classpath, sources, |message| JvmError::HarnessBuild {
                message,
            })
        })?;
        Ok(dir)
    }

    pub(crate) fn javac(
        &self,
        out: &Path,
        classpath: &[PathBuf],
        files: &[PathBuf],
        failed: impl FnOnce(String) -> JvmError,
    ) -> Result<(), JvmError> {
        std::fs::create_dir_all(out)
            .map_err(JvmError::io(format!("creating {}", out.display())))?;
        let mut command = Command::new(&self.javac);
        command.args(["--release", "11", "-encoding", "UTF-8", "-nowarn", "-d"]);
        command.arg(out);
        if !classpath.is_empty() {
            command.arg("-cp").arg(join_classpath(classpath));
        }
        command.args(files);
        let output = command.output().map_err(|error| JvmError::JavaNotFound {
            program: self.javac.display().to_string(),
            reason: error.to_string(),
        })?;
        if output.status.success() {
            return Ok(());
        }
        Err(failed(String::from_utf8_lossy(&output.stderr).into_owned()))
    }
}

/// `cache/name`, built by `build` into a scratch folder renamed into place unless it exists.
pub(crate) fn build_once(
    cache: &Path,
    name: &str,
    build: impl FnOnce(&Path) -> Result<(), JvmError>,
) -> Result<PathBuf, JvmError> {
    let dir = cache.join(name);
    if !dir.is_dir() {
        // One scratch folder per build, even for builds racing in one process (tests run on
        // several threads): the process id alone is not unique.
        static BUILDS: AtomicU64 = AtomicU64::new(0);
        let tmp = cache.join(format!(
            "{name}.tmp-{}-{}",
            std::process::id(),
            BUILDS.fetch_add(1, Ordering::Relaxed)
        ));
        let _ = std::fs::remove_dir_all(&tmp);
        let built = build(&tmp);
        if built.is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
        built?;
        // Another process may have won the race; its build is as good as ours.
        if std::fs::rename(&tmp, &dir).is_err() {
            let _ = std::fs::remove_dir_all(&tmp);
        }
    }
    Ok(dir)
}

/// A class path string of `entries`, with the platform's separator.
pub fn join_classpath(entries: &[PathBuf]) -> String {
    std::env::join_paths(entries)
        .map(|it| it.to_string_lossy().into_owned())
        .unwrap_or_else(|_| {
            entries
                .iter()
                .map(|it| it.display().to_string())
                .collect::<Vec<_>>()
                .join(":")
        })
}

/// The `.java` files under `dir`, sorted.
pub(crate) fn java_files(dir: &Path) -> Result<Vec<PathBuf>, JvmError> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_owned()];
    while let Some(dir) = pending.pop() {
        let entries =
            std::fs::read_dir(&dir).map_err(JvmError::io(format!("reading {}", dir.display())))?;
        for entry in entries {
            let path = entry
                .map_err(JvmError::io(format!("reading {}", dir.display())))?
                .path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|it| it == "java") {
                files.push(path);
            }
        }
    }
    files.sort();
    Ok(files)
}

/// FNV-1a over the files' names and contents, then `extra`: stable across runs and Rust
/// versions.
pub(crate) fn hash_files<'a>(
    files: impl Iterator<Item = &'a PathBuf>,
    extra: &[&[u8]],
) -> Result<u64, JvmError> {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash ^= u64::from(*byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    for file in files {
        let name = file.file_name().map(|it| it.to_string_lossy().into_owned());
        feed(name.unwrap_or_default().as_bytes());
        feed(&std::fs::read(file).map_err(JvmError::io(format!("reading {}", file.display())))?);
    }
    for bytes in extra {
        feed(bytes);
    }
    Ok(hash)
}

/// The default cache directory: `$XDG_CACHE_HOME/typestar`, else `~/.cache/typestar`, else
/// the system's temporary directory.
pub fn default_cache_dir() -> PathBuf {
    cache_dir_in(|name| std::env::var_os(name))
}

/// [`default_cache_dir`] with the environment read through `var`.
pub(crate) fn cache_dir_in(var: impl Fn(&str) -> Option<OsString>) -> PathBuf {
    let base = var("XDG_CACHE_HOME")
        .filter(|it| !it.is_empty())
        .map(PathBuf::from)
        .or_else(|| var("HOME").map(|home| PathBuf::from(home).join(".cache")))
        .unwrap_or_else(std::env::temp_dir);
    base.join("typestar")
}
