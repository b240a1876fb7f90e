//! Opt-in tests of the Android path, run with `--ignored` (`learner/ANDROID.md`, "Tests"):
//!
//! - `opt_in_debian_adb_accepts_the_fake_server`: Debian's `adb` (`apt-get install adb`) as a
//!   second, independent client of the fake adb server the CI tests use, so the fake is
//!   checked against a real client's expectations. No daemon starts: the fake answers first.
//! - `opt_in_learns_on_a_real_device`: the dexed agent on the device `TYPESTAR_ADB_SERIAL` of the
//!   local adb server (or `TYPESTAR_ADB_SERVER`), learning `java.util.ArrayList`'s iterator
//!   there and comparing it with the expected typestate.

mod adb_support;

use std::path::Path;
use std::process::Command;

use adb_support::{experiment, scratch, server};
use learner::backend::android::{dex_jar, learn_on_devices, list_devices, AndroidConfig};
use learner::{End, NoProgress};

/// Runs Debian's adb against the fake server at `port`; returns (status, stdout + stderr).
fn adb(port: u16, args: &[&str]) -> (i32, String) {
    let output = Command::new("adb")
        .arg("-P")
        .arg(port.to_string())
        .args(args)
        .output()
        .expect("Debian's adb is installed (apt-get install adb)");
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&output.stdout),
        String::from_utf8_lossy(&output.stderr)
    );
    (output.status.code().unwrap_or(-1), text)
}

#[test]
#[ignore = "opt-in: needs Debian's adb; run with --ignored"]
fn opt_in_debian_adb_accepts_the_fake_server() {
    let dir = scratch("debian_adb");
    let fake = server(&dir, &["fake-1", "fake-2"], 34);
    let port = fake.addr.port();

    let (status, devices) = adb(port, &["devices", "-l"]);
    assert_eq!(status, 0, "{devices}");
    assert!(
        devices.contains("fake-1") && devices.contains("model:Fake_fake_1"),
        "{devices}"
    );
    assert!(devices.contains("fake-2"), "{devices}");

    let (status, shell) = adb(
        port,
        &["-s", "fake-1", "shell", "echo hi; echo err >&2; exit 4"],
    );
    assert_eq!((status, shell.as_str()), (4, "hi\nerr\n"));

    let blob = dir.join("blob.bin");
    let bytes: Vec<u8> = (0..300_000u32).map(|it| (it % 251) as u8).collect();
    std::fs::write(&blob, &bytes).unwrap();
    let (status, pushed) = adb(
        port,
        &[
            "-s",
            "fake-1",
            "push",
            blob.to_str().unwrap(),
            "/data/local/tmp/blob.bin",
        ],
    );
    assert_eq!(status, 0, "{pushed}");
    assert_eq!(
        std::fs::read(dir.join("fake-1/data/local/tmp/blob.bin")).unwrap(),
        bytes
    );
    let back = dir.join("back.bin");
    let (status, pulled) = adb(
        port,
        &[
            "-s",
            "fake-1",
            "pull",
            "/data/local/tmp/blob.bin",
            back.to_str().unwrap(),
        ],
    );
    assert_eq!(status, 0, "{pulled}");
    assert_eq!(std::fs::read(&back).unwrap(), bytes);

    let (status, forwarded) = adb(port, &["-s", "fake-2", "forward", "tcp:0", "tcp:9"]);
    assert_eq!(status, 0, "{forwarded}");
    assert!(
        forwarded.trim().parse::<u16>().is_ok(),
        "adb printed no port: {forwarded}"
    );

    let (status, reversed) = adb(port, &["-s", "fake-2", "reverse", "tcp:18081", "tcp:18081"]);
    assert_eq!(status, 0, "{reversed}");
    let (status, raw) = adb(port, &["-s", "fake-2", "exec-out", "echo raw"]);
    assert_eq!((status, raw.as_str()), (0, "raw\n"));
}

#[test]
#[ignore = "opt-in: needs a device; set TYPESTAR_ADB_SERIAL and run with --ignored"]
fn opt_in_learns_on_a_real_device() {
    let serial = std::env::var("TYPESTAR_ADB_SERIAL")
        .expect("TYPESTAR_ADB_SERIAL names the device to learn on (adb devices lists it)");
    let mut config = AndroidConfig {
        serials: vec![serial.clone()],
        jars: vec![dex_jar().unwrap_or_else(|error| panic!("{error}"))],
        ..AndroidConfig::default()
    };
    if let Ok(server) = std::env::var("TYPESTAR_ADB_SERVER") {
        config.servers = vec![server];
    }
    let runtime = tokio::runtime::Runtime::new().unwrap();
    let devices = runtime
        .block_on(list_devices(&config))
        .unwrap_or_else(|error| panic!("{error}"));
    let device = devices
        .iter()
        .find(|it| it.serial == serial)
        .expect("the device is listed");
    eprintln!("{device:?}");
    let run = runtime
        .block_on(learn_on_devices(
            experiment("java.util.ArrayList-iterator.toml"),
            &config,
            &mut NoProgress,
        ))
        .unwrap_or_else(|error| panic!("{error}"));
    assert!(
        matches!(run.outcome.end, End::Learned),
        "{:?}",
        run.outcome.end
    );
    let expected_path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/jvm_expected/java.util.ArrayList-iterator.typestate");
    let text = std::fs::read_to_string(&expected_path).unwrap();
    let expected = typestates::format::parse("expected", &text).expect("it parses");
    let learned = run.typestate.as_ref().expect("a typestate");
    assert!(typestates::diff::diff(learned, &expected, 3).is_equivalent());
    eprintln!("{}", typestates::format::print(learned));
}
