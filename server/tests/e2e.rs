//! End-to-end test with a real editor client: Neovim headless (Debian's 0.7.2 and its built-in
//! LSP client) starts `typestar lsp` on the example Android app, opens a Java file, and prints
//! the diagnostics and one hover (`tests/e2e/lsp_e2e.lua`).
//!
//! Slow tier `editor` (`test-tiers`): skipped unless asked for or in CI.
//! When it runs, a missing `nvim` fails it; `server/tests/e2e/install-neovim.sh` installs one.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use test_tiers::Tier;

const TIMEOUT: Duration = Duration::from_secs(60);

#[test]
fn neovim_shows_diagnostics_and_a_hover() {
    if !test_tiers::runs(Tier::Editor) {
        return;
    }
    test_tiers::require_tool("nvim", "install it with server/tests/e2e/install-neovim.sh");
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    let project = manifest.join("../examples/android-app");
    let file = project.join("app/src/main/java/com/example/typestar/PlayerActivity.java");
    let script = manifest.join("tests/e2e/lsp_e2e.lua");
    let child = Command::new("nvim")
        .args(["--headless", "--clean", "-c"])
        .arg(format!("luafile {}", script.display()))
        .arg(&file)
        .env("TS_LSP", env!("CARGO_BIN_EXE_typestar"))
        .env("TS_ROOT", project.canonicalize().unwrap())
        // `    private MediaPlayer player;`: the class name on line 9.
        .env("TS_HOVER_LINE", "8")
        .env("TS_HOVER_COL", "14")
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("nvim starts");
    let pid = child.id();
    let (sender, receiver) = mpsc::channel();
    std::thread::spawn(move || sender.send(child.wait_with_output()));
    let Ok(output) = receiver.recv_timeout(TIMEOUT) else {
        let _ = Command::new("kill").arg(pid.to_string()).status();
        panic!("nvim did not finish within {TIMEOUT:?}");
    };
    let output = output.expect("nvim ran");
    let status = output.status;
    let stdout = String::from_utf8_lossy(&output.stdout);
    let stderr = String::from_utf8_lossy(&output.stderr);
    println!("{stdout}");
    assert!(
        status.success(),
        "nvim failed ({status}):\n{stdout}\n{stderr}"
    );
    assert!(stdout.contains("diagnostics: 1\n"), "{stdout}");
    assert!(
        stdout.contains("PlayerActivity.java:21:16: [typestar] `start()` on MediaPlayer `player` may be in state End"),
        "{stdout}"
    );
    assert!(
        stdout.contains("### `android.media.MediaPlayer` protocol"),
        "{stdout}"
    );
    assert!(stdout.contains("bundled with typestar"), "{stdout}");
}
