//! `typestar devices` and `typestar learn --backend android` against the fake adb server of the
//! learner's tests: two servers, their devices with model and API level, and a class learned
//! through the binary with the real dexed agent pushed.
//! Slow tier `device-fake` (`test-tiers`).

#[path = "../../learner/tests/adb_support/mod.rs"]
mod adb_support;

use std::path::Path;
use std::process::Command;

use adb_support::fake_adb::{FakeAdb, FakeDevice};
use adb_support::{agent_jar, host_agent_with, scratch, server, target_dir};
use test_tiers::Tier;

fn devices(servers: &[&str]) -> (i32, String) {
    let mut command = Command::new(env!("CARGO_BIN_EXE_typestar"));
    command.args(["devices", "--adb", "/bin/true"]);
    for server in servers {
        command.args(["--adb-server", server]);
    }
    let output = command.output().expect("typestar runs");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

#[test]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
fn devices_lists_every_servers_devices_with_their_api_levels() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let dir = scratch("cli_devices");
    let first = server(&dir, &["emulator-5554"], 34);
    let second = server(&dir, &["farm-1", "farm-2"], 29);
    let (a, b) = (first.address(), second.address());
    let (status, text) = devices(&[&a, &b]);
    assert_eq!(status, 0, "{text}");
    let expected = format!(
        "| serial | adb server | state | model | API | agent |\n\
         | --- | --- | --- | --- | --- | --- |\n\
         | emulator-5554 | {a} | device | Fake_emulator_5554 | 34 | - |\n\
         | farm-1 | {b} | device | Fake_farm_1 | 29 | - |\n\
         | farm-2 | {b} | device | Fake_farm_2 | 29 | - |\n"
    );
    assert_eq!(text, expected);

    second.device("farm-2").unplug();
    let (status, text) = devices(&[&b]);
    assert_eq!(status, 0, "{text}");
    assert!(!text.contains("farm-2"), "{text}");
}

/// `typestar learn --backend android` through the binary, on two fake devices behind two adb
/// servers given with `--adb-server`: the binary builds the real dexed agent
/// (`agent-android/android/build-dex.sh`) and pushes it, and each fake device's `app_process`
/// runs the host agent beside it (the host JVM cannot load a dex).
/// The learned typestate, the report's device lines and the progress bar on a terminal are
/// checked.
#[test]
#[ignore = "slow tier device-fake: TYPESTAR_SLOW=device-fake cargo test -- --include-ignored"]
fn learn_on_fake_devices_through_the_cli_with_the_real_dex() {
    if !test_tiers::runs(Tier::DeviceFake) {
        return;
    }
    let dir = scratch("cli_learn");
    let beside_the_dex = host_agent_with(vec![agent_jar()]);
    let first = FakeAdb::start(vec![FakeDevice::new(
        &dir,
        "emulator-5554",
        34,
        beside_the_dex.clone(),
    )]);
    let second = FakeAdb::start(vec![FakeDevice::new(&dir, "farm-1", 29, beside_the_dex)]);
    let (a, b) = (first.address(), second.address());
    let output = dir.join("Iterator.typestate");
    let report = dir.join("report.md");
    let mut learn = Command::new(env!("CARGO_BIN_EXE_typestar"));
    learn
        .args(["learn", "--backend", "android"])
        .args(["--experiment", "java.util.ArrayList-iterator"])
        .args(["--adb", "/bin/true", "--adb-server", &a, "--adb-server", &b])
        .arg("-o")
        .arg(&output)
        .arg("--report")
        .arg(&report)
        // The shipped sources and the dex built from them are cached here, not in ~/.cache.
        .env("XDG_CACHE_HOME", target_dir().join("cli-android-cache"));
    // On a terminal (util-linux's `script` gives it one), the progress bar draws on stderr.
    test_tiers::require_tool("script", "apt-get install bsdutils");
    let shell_line = std::iter::once(learn.get_program())
        .chain(learn.get_args())
        .map(|it| shell_quote(&it.to_string_lossy()))
        .collect::<Vec<_>>()
        .join(" ");
    let mut on_a_terminal = Command::new("script");
    on_a_terminal
        .args(["--quiet", "--return", "--command", &shell_line, "/dev/null"])
        .envs(
            learn
                .get_envs()
                .filter_map(|(key, value)| Some((key, value?))),
        );
    let ran = on_a_terminal.output().expect("script runs");
    let terminal = String::from_utf8_lossy(&ran.stdout);
    assert!(ran.status.success(), "{}\n{terminal}", ran.status);
    assert!(
        terminal.contains("states · exploring") || terminal.contains("states · checking"),
        "no progress bar on the terminal:\n{terminal}"
    );

    let learned = std::fs::read_to_string(&output).expect("the typestate is written");
    let learned = typestates::format::parse("learned", &learned).expect("it parses");
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("../learner/tests/jvm_expected/java.util.ArrayList-iterator.typestate");
    let expected = std::fs::read_to_string(&expected_path).expect("expected typestate");
    let expected = typestates::format::parse("expected", &expected).expect("it parses");
    let diff = typestates::diff::diff(&learned, &expected, 3);
    assert!(diff.is_equivalent(), "{diff:#?}");
    let platform = learned.provenance.platform.clone().unwrap_or_default();
    assert!(platform.contains("emulator-5554, farm-1"), "{platform}");

    let report = std::fs::read_to_string(&report).expect("the report is written");
    assert!(
        report.starts_with(
            "# typestar learn: java.util.Iterator\n\n\
             learned; backend android (java.util.ArrayList-iterator), "
        ),
        "{report}"
    );
    for (serial, server) in [("emulator-5554", &a), ("farm-1", &b)] {
        let line = report
            .lines()
            .find(|it| it.starts_with(&format!("- {serial} ({server}): ")))
            .unwrap_or_else(|| panic!("{serial} is not in the report:\n{report}"));
        let runs: u64 = line
            .split(": ")
            .nth(1)
            .and_then(|it| it.split(' ').next())
            .and_then(|it| it.parse().ok())
            .unwrap_or_else(|| panic!("no run count in {line:?}"));
        assert!(runs > 0, "{line}");
    }
    assert!(
        report.contains("(non-determinism across devices, never merged): 0\n"),
        "{report}"
    );

    // What the binary pushed is the dexed agent, not the host jar the fake devices run.
    let pushed =
        std::fs::read(dir.join("emulator-5554/data/local/tmp/typestar/0-typestar-agent.dex.jar"))
            .expect("the dexed agent was pushed");
    let names = String::from_utf8_lossy(&pushed);
    assert!(names.contains("classes.dex"), "not a dex jar");
    assert!(
        !names.contains(".class"),
        "the pushed jar holds class files"
    );
}

/// `text` as one word of `sh`.
fn shell_quote(text: &str) -> String {
    format!("'{}'", text.replace('\'', "'\\''"))
}
