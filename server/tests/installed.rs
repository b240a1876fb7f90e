//! The binary as `cargo install` leaves it: copied to a folder outside the repository and run
//! from there, with a fresh cache, it finds the shipped experiments and the agent's sources
//! inside itself (`learner/src/shipped.rs`), not in the source tree it was built from.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};

use test_tiers::Tier;

/// A copy of `typestar` in a new folder under the system's temporary directory (outside the
/// repository), with an empty cache folder beside it.
struct Installed {
    dir: PathBuf,
}

impl Installed {
    fn new(name: &str) -> Installed {
        let dir =
            std::env::temp_dir().join(format!("typestar-installed-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(dir.join("bin")).expect("a temporary folder");
        std::fs::create_dir_all(dir.join("cache")).expect("a temporary folder");
        let repository = Path::new(env!("CARGO_MANIFEST_DIR"))
            .parent()
            .expect("the workspace");
        assert!(
            !dir.starts_with(repository),
            "{} is inside the repository",
            dir.display()
        );
        std::fs::copy(env!("CARGO_BIN_EXE_typestar"), dir.join("bin/typestar"))
            .expect("copying the binary");
        Installed { dir }
    }

    /// The copy run in its own folder, with the cache (and home) in the temporary folder.
    fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(self.dir.join("bin/typestar"));
        command
            .args(args)
            .current_dir(&self.dir)
            .env("XDG_CACHE_HOME", self.dir.join("cache"))
            .env("HOME", &self.dir)
            .env_remove("TYPESTAR_ROBOLECTRIC_DIR");
        command
    }

    /// Runs [`Installed::command`].
    /// Another test's child may still hold the copy's write handle, inherited between its fork
    /// and its exec (`ExecutableFileBusy`): that passes once the child execs, so try again.
    fn run(&self, args: &[&str]) -> Output {
        let mut tries = 0;
        loop {
            match self.command(args).output() {
                Err(error)
                    if error.kind() == std::io::ErrorKind::ExecutableFileBusy && tries < 100 =>
                {
                    tries += 1;
                    std::thread::sleep(std::time::Duration::from_millis(10));
                }
                started => return started.expect("the installed binary starts"),
            }
        }
    }

    /// The folders of the cache whose names start with `prefix`.
    fn cached(&self, prefix: &str) -> Vec<PathBuf> {
        std::fs::read_dir(self.dir.join("cache/typestar"))
            .map(|entries| {
                entries
                    .filter_map(|entry| entry.ok().map(|it| it.path()))
                    .filter(|path| {
                        path.file_name()
                            .and_then(|it| it.to_str())
                            .is_some_and(|it| it.starts_with(prefix))
                    })
                    .collect()
            })
            .unwrap_or_default()
    }
}

impl Drop for Installed {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn text(output: &Output) -> String {
    format!(
        "{}\n{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    )
}

#[test]
fn an_unknown_experiment_is_refused_naming_the_shipped_ones() {
    let installed = Installed::new("unknown");
    let output = installed.run(&["learn", "--backend", "jvm", "--experiment", "no.such.Class"]);
    let text = text(&output);
    assert!(!output.status.success(), "{text}");
    assert!(
        text.contains("`no.such.Class` is neither an experiment file nor a shipped experiment"),
        "{text}"
    );
    assert!(text.contains("java.util.Timer,"), "{text}");
}

#[test]
#[ignore = "slow tier jvm: TYPESTAR_SLOW=jvm cargo test -- --include-ignored"]
fn the_installed_binary_learns_a_shipped_experiment_on_the_jvm() {
    if !test_tiers::runs(Tier::Jvm) {
        return;
    }
    let installed = Installed::new("jvm");
    let output = installed.run(&[
        "learn",
        "--backend",
        "jvm",
        "--experiment",
        "java.util.Timer",
        "--algorithm",
        "lstar",
        "--bound",
        "1",
        "--states",
        "4",
        "--once",
        "cancel",
    ]);
    let text = text(&output);
    assert!(output.status.success(), "{text}");
    assert!(text.contains("learned; backend jvm"), "{text}");
    // The experiment and the agent came from the binary: unpacked into the fresh cache, and
    // the agent compiled there from that copy.
    let shipped = installed.cached("shipped-");
    assert_eq!(shipped.len(), 1, "{shipped:?}");
    assert!(shipped[0]
        .join("learner/experiments/java.util.Timer.toml")
        .is_file());
    assert!(shipped[0].join("agent-android/core/src/main/java").is_dir());
    assert_eq!(installed.cached("agent-").len(), 1, "{text}");
}

/// Without the Robolectric artifacts, the installed binary names a command it has itself, and
/// that command runs the fetch script shipped inside it (no source tree). Its PATH holds only
/// bash, so the script stops at its first check, Maven missing, before fetching anything.
#[test]
fn missing_robolectric_artifacts_name_a_command_of_the_installed_binary() {
    let installed = Installed::new("robolectric");
    let artifacts = installed.dir.join("cache/typestar/robolectric");
    let output = installed.run(&[
        "learn",
        "--backend",
        "robolectric",
        "--experiment",
        "android.os.CountDownTimer",
    ]);
    let said = text(&output);
    assert!(!output.status.success(), "{said}");
    let command = format!(
        "typestar fetch-robolectric --dest {} --sdk 34",
        artifacts.display()
    );
    assert!(said.contains(&format!("`{command}`")), "{said}");
    assert!(!said.contains("fetch.sh"), "{said}");

    let tools = installed.dir.join("tools");
    std::fs::create_dir_all(&tools).expect("a temporary folder");
    let bash = which("bash");
    std::os::unix::fs::symlink(&bash, tools.join("bash")).expect("a symbolic link");
    let args: Vec<&str> = command.split(' ').skip(1).collect();
    let output = installed
        .command(&args)
        .env("PATH", &tools)
        .output()
        .expect("the installed binary starts");
    let said = text(&output);
    assert_eq!(output.status.code(), Some(2), "{said}");
    assert!(
        said.contains("fetch.sh: mvn (Apache Maven) is not on PATH; install it")
            && said.contains("cannot fetch Robolectric's artifacts")
            && said.contains("help: install Maven"),
        "{said}"
    );
    let shipped = installed.cached("shipped-");
    assert_eq!(shipped.len(), 1, "{shipped:?}");
    assert!(shipped[0].join("learner/robolectric/fetch.sh").is_file());
    assert!(!artifacts.join("robolectric.properties").exists());
}

/// Where `program` is on this machine's PATH.
fn which(program: &str) -> PathBuf {
    std::env::split_paths(&std::env::var_os("PATH").unwrap_or_default())
        .map(|dir| dir.join(program))
        .find(|path| path.is_file())
        .unwrap_or_else(|| panic!("{program} is not on PATH"))
}
