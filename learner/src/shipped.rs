//! What the learner ships inside the binary, so an installed `typestar` (no source tree beside it) finds it.
//! That is the agent's Java sources and device build script, the script fetching Robolectric's artifacts, and the shipped experiments with their harnesses and fixtures.
//! `build.rs` embeds them.
//! The first use unpacks them under the cache directory (`$XDG_CACHE_HOME/typestar/shipped-HASH`, laid out as in the repository).
//! There javac, the scripts and an experiment's relative harness paths find them as ordinary files.
//! A changed file gives another hash, so a stale copy is never used.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::OnceLock;

include!(concat!(env!("OUT_DIR"), "/shipped.rs"));

/// Where the shipped experiments sit in the unpacked tree.
const EXPERIMENTS: &str = "learner/experiments";

/// The shipped files could not be unpacked.
#[derive(Debug, thiserror::Error)]
#[error("cannot unpack typestar's shipped agent sources and experiments into {}: {what}: {source}", dir.display())]
pub struct ShippedError {
    /// The folder they were to go to.
    pub dir: PathBuf,
    /// What was being done.
    pub what: String,
    /// What the system said.
    #[source]
    pub source: std::io::Error,
}

/// The folder holding the unpacked files (`agent-android/...`, `learner/experiments/...`),
/// unpacked on first use.
pub fn root() -> Result<&'static Path, ShippedError> {
    static ROOT: OnceLock<PathBuf> = OnceLock::new();
    if let Some(root) = ROOT.get() {
        return Ok(root);
    }
    let dir = crate::backend::jvm::java::default_cache_dir().join(format!("shipped-{HASH:016x}"));
    if !dir.is_dir() {
        unpack(&dir)?;
    }
    Ok(ROOT.get_or_init(|| dir))
}

/// The agent's sources (`agent-android` of the repository).
pub fn agent_sources() -> Result<PathBuf, ShippedError> {
    Ok(root()?.join("agent-android"))
}

/// The script that fetches the Robolectric backend's artifacts from Maven Central:
/// `fetch.sh [--dest DIR] [--sdk N]...` (`learner/robolectric/fetch.sh` of the repository).
pub fn robolectric_fetch_script() -> Result<PathBuf, ShippedError> {
    Ok(root()?.join("learner/robolectric/fetch.sh"))
}

/// The names of the shipped experiments (file names without `.toml`), sorted.
pub fn experiment_names() -> Vec<&'static str> {
    let prefix = format!("{EXPERIMENTS}/");
    let mut names: Vec<&str> = FILES
        .iter()
        .filter_map(|(path, _)| path.strip_prefix(prefix.as_str())?.strip_suffix(".toml"))
        .filter(|name| !name.contains('/'))
        .collect();
    names.sort_unstable();
    names
}

/// The shipped experiment `name` (`java.util.Timer`, or a variant such as
/// `android.graphics.Canvas-api23`) as a file, unpacked with its harnesses and fixtures; `None`
/// when none has that name.
pub fn experiment(name: &str) -> Result<Option<PathBuf>, ShippedError> {
    if !experiment_names().contains(&name) {
        return Ok(None);
    }
    Ok(Some(root()?.join(EXPERIMENTS).join(format!("{name}.toml"))))
}

/// The text of the shipped experiment `name`, without unpacking anything.
pub fn experiment_text(name: &str) -> Option<&'static str> {
    let path = format!("{EXPERIMENTS}/{name}.toml");
    FILES
        .iter()
        .find(|(file, _)| *file == path)
        .and_then(|(_, bytes)| std::str::from_utf8(bytes).ok())
}

/// Writes every file under a scratch folder renamed to `dir`, so a folder that exists is
/// whole; a process that loses the race to rename keeps the winner's identical copy.
fn unpack(dir: &Path) -> Result<(), ShippedError> {
    static UNPACKS: AtomicU64 = AtomicU64::new(0);
    let tmp = dir.with_extension(format!(
        "tmp-{}-{}",
        std::process::id(),
        UNPACKS.fetch_add(1, Ordering::Relaxed)
    ));
    let failed = |what: String| {
        let dir = dir.to_owned();
        move |source| ShippedError { dir, what, source }
    };
    let written = (|| {
        for (path, bytes) in FILES {
            let file = tmp.join(path);
            let parent = file.parent().unwrap_or(&tmp);
            std::fs::create_dir_all(parent)
                .map_err(failed(format!("creating {}", parent.display())))?;
            std::fs::write(&file, bytes).map_err(failed(format!("writing {}", file.display())))?;
            if path.ends_with(".sh") {
                make_executable(&file)
                    .map_err(failed(format!("marking {} executable", file.display())))?;
            }
        }
        Ok(())
    })();
    if written.is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        return written;
    }
    if std::fs::rename(&tmp, dir).is_err() {
        let _ = std::fs::remove_dir_all(&tmp);
        if !dir.is_dir() {
            return Err(ShippedError {
                dir: dir.to_owned(),
                what: format!("renaming {} into place", tmp.display()),
                source: std::io::Error::other("the folder is still missing"),
            });
        }
    }
    Ok(())
}

#[cfg(unix)]
fn make_executable(file: &Path) -> std::io::Result<()> {
    use std::os::unix::fs::PermissionsExt;
    std::fs::set_permissions(file, std::fs::Permissions::from_mode(0o755))
}

#[cfg(not(unix))]
fn make_executable(_: &Path) -> std::io::Result<()> {
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The list of shipped experiments is the folder's, file for file.
    #[test]
    fn every_experiment_in_the_folder_is_shipped() {
        let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("experiments");
        let mut on_disk: Vec<String> = std::fs::read_dir(&folder)
            .expect("the experiments folder")
            .filter_map(|entry| {
                let name = entry.ok()?.file_name().into_string().ok()?;
                Some(name.strip_suffix(".toml")?.to_owned())
            })
            .collect();
        on_disk.sort_unstable();
        assert_eq!(experiment_names(), on_disk);
        let timer = experiment_text("java.util.Timer").expect("Timer is shipped");
        assert!(timer.contains("class = \"java.util.Timer\""), "{timer}");
        assert_eq!(experiment_text("no.such.Class"), None);
    }
}
