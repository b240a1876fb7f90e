//! End-to-end tests with real editor clients on the example Android app, each against the real
//! `typestar lsp`:
//! - Neovim headless (Debian's 0.7.2 and its built-in LSP client) opens a Java file and prints
//!   the diagnostics and one hover (`tests/e2e/lsp_e2e.lua`);
//! - Emacs in batch mode (Debian's 28.2 with ELPA's eglot 1.9) opens a Java and a Kotlin file
//!   with the set-up of `editors/README.md` and prints the diagnostics Flymake shows and one
//!   hover (`tests/e2e/eglot_e2e.el`).
//!
//! Slow tier `editor` (`test-tiers`): skipped unless asked for or in CI.
//! When it runs, a missing editor fails it; `server/tests/e2e/install-editors.sh` installs both.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use test_tiers::Tier;

const TIMEOUT: Duration = Duration::from_secs(60);
const INSTALL: &str = "install it with server/tests/e2e/install-editors.sh";

/// The example app and its source folder.
fn example() -> (PathBuf, PathBuf) {
    let project = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../examples/android-app")
        .canonicalize()
        .unwrap();
    let sources = project.join("app/src/main/java/com/example/typestar");
    (project, sources)
}

/// Runs `editor` with the server, the example's root and a hover position in its environment
/// (`TS_LSP`, `TS_ROOT`, `TS_HOVER_LINE`, `TS_HOVER_COL`); its standard output, once it has
/// exited successfully within `TIMEOUT`.
fn run(mut editor: Command, hover: (u32, u32)) -> String {
    let child = editor
        .env("TS_LSP", env!("CARGO_BIN_EXE_typestar"))
        .env("TS_ROOT", example().0)
        .env("TS_HOVER_LINE", hover.0.to_string())
        .env("TS_HOVER_COL", hover.1.to_string())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the editor starts");
    let pid = child.id();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    let Ok(output) = receiver.recv_timeout(TIMEOUT) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("{editor:?} did not finish within {TIMEOUT:?}");
    };
    let output = output.expect("the editor ran");
    let status = output.status;
    let stdout = String::from_utf8_lossy(&output.stdout).into_owned();
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        status.success(),
        "{editor:?} failed ({status}):\n{stdout}\n{stderr}"
    );
    stdout
}

/// `    private MediaPlayer player;` in PlayerActivity.java: the class name, zero-based.
const PLAYER_HOVER: (u32, u32) = (8, 14);

/// What both editors must show of PlayerActivity.java's hover.
fn assert_player_hover(stdout: &str) {
    assert!(
        stdout.contains("### `android.media.MediaPlayer` protocol"),
        "{stdout}"
    );
    assert!(stdout.contains("bundled with typestar"), "{stdout}");
}

#[test]
#[ignore = "slow tier editor: TYPESTAR_SLOW=editor cargo test -- --include-ignored"]
fn neovim_shows_diagnostics_and_a_hover() {
    if !test_tiers::runs(Tier::Editor) {
        return;
    }
    test_tiers::require_tool("nvim", INSTALL);
    let (_, sources) = example();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/lsp_e2e.lua");
    let mut nvim = Command::new("nvim");
    nvim.args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .arg(sources.join("PlayerActivity.java"));
    let stdout = run(nvim, PLAYER_HOVER);
    assert!(stdout.contains("diagnostics: 1\n"), "{stdout}");
    assert!(
        stdout.contains("PlayerActivity.java:21:16: [typestar] `start()` on MediaPlayer `player` may be in state End"),
        "{stdout}"
    );
    assert_player_hover(&stdout);
}

#[test]
#[ignore = "slow tier editor: TYPESTAR_SLOW=editor cargo test -- --include-ignored"]
fn emacs_eglot_shows_java_and_kotlin_diagnostics_and_a_hover() {
    if !test_tiers::runs(Tier::Editor) {
        return;
    }
    test_tiers::require_tool("emacs", INSTALL);
    let (_, sources) = example();
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/e2e/eglot_e2e.el");
    let mut emacs = Command::new("emacs");
    emacs
        .arg("--batch")
        .arg("-l")
        .arg(script)
        .arg(sources.join("PlayerActivity.java"))
        .arg(sources.join("StreamActivity.kt"));
    let stdout = run(emacs, PLAYER_HOVER);
    assert!(
        stdout.contains("PlayerActivity.java diagnostics: 1\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("PlayerActivity.java:21:16: typestar [typestate-violation]: `start()` on MediaPlayer `player` may be in state End"),
        "{stdout}"
    );
    assert!(
        stdout.contains("StreamActivity.kt diagnostics: 1\n"),
        "{stdout}"
    );
    assert!(
        stdout.contains("StreamActivity.kt:15:16: typestar [typestate-violation]: `start()` on MediaPlayer `player` in state Preparing"),
        "{stdout}"
    );
    assert_player_hover(&stdout);
}
