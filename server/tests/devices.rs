//! `typestar devices` against the fake adb server of the learner's tests: two servers, their
//! devices with model and API level, and the agent column once an agent runs.
//! Slow tier `device-fake` (`test-tiers`).

#[path = "../../learner/tests/adb_support/mod.rs"]
mod adb_support;

use std::process::Command;

use adb_support::{scratch, server};
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
