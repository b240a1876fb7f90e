//! The device path's benchmark (`bench/android/run.sh`): learns MediaPlayer with DroidStar's
//! Table 1 alphabet (`learner/experiments/android.media.MediaPlayer.toml`) on 1, 2, 4 and 8
//! fake devices whose `app_process` runs the agent inside Robolectric, each device's answers
//! delayed as a device's would be, and writes the wall times and the speed-up per device added
//! to `bench/results/android.md`. Opt-in (`--ignored`): it takes many minutes and measures wall
//! time.

mod adb_support;
mod robolectric_support;

/// For `robolectric_support`, which reads it from the crate root.
use adb_support::jvm_support;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use adb_support::fake_adb::FakeAdb;
use adb_support::{config, experiment, robolectric_agent, scratch, server_running};
use learner::backend::android::learn_on_devices;
use learner::{Details, End, NoProgress};

/// The experiment learned.
const EXPERIMENT: &str = "android.media.MediaPlayer.toml";
/// Milliseconds each answer of a fake device waits (`TYPESTAR_BENCH_LATENCY_MS`): the round trip
/// over adb and USB, and the calls into the device's media server.
const LATENCY_MS: u64 = 20;
/// DroidStar's wall time for MediaPlayer on one device (Table 1 of the DroidStar paper), in seconds.
const DROIDSTAR_S: u64 = 4262;

/// The number in environment variable `name`, or `default`.
fn setting(name: &str, default: u64) -> u64 {
    std::env::var(name)
        .ok()
        .map(|it| {
            it.parse()
                .unwrap_or_else(|_| panic!("{name}={it} is not a number"))
        })
        .unwrap_or(default)
}

#[test]
#[ignore = "benchmark: run bench/android/run.sh"]
fn opt_in_devices_speed_up() {
    let latency = setting("TYPESTAR_BENCH_LATENCY_MS", LATENCY_MS);
    let experiment = experiment(EXPERIMENT);
    // Milliseconds each `quiet` output adds to its answer: a device waits the quiescence
    // timeout out in real time, where the agent inside Robolectric only moves its simulated
    // clock.
    let quiet = setting("TYPESTAR_BENCH_QUIET_MS", experiment.quiescence_ms());
    let counts: Vec<usize> = std::env::var("TYPESTAR_BENCH_DEVICES")
        .unwrap_or_else(|_| "1,2,4,8".to_owned())
        .split(',')
        .map(|it| it.trim().parse().expect("device counts are numbers"))
        .collect();
    let robolectric = robolectric_support::config();
    let agent = robolectric_agent(
        robolectric
            .agent_command(&[])
            .unwrap_or_else(|error| panic!("{error}")),
    );
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .unwrap();
    let mut rows = String::new();
    let mut first_ms = None;
    for count in counts {
        let dir = scratch(&format!("bench-{count}"));
        let serials: Vec<String> = (1..=count).map(|it| format!("bench-{it}")).collect();
        let names: Vec<&str> = serials.iter().map(String::as_str).collect();
        let adb = server_running(&dir, &names, 34, &agent);
        for serial in &names {
            adb.device(serial).set_latency(latency);
            adb.device(serial).set_quiet_wait(quiet);
        }
        let mut config = config(&[&adb]);
        // Each fake device starts a Robolectric sandbox: tens of seconds on a busy machine.
        config.start_ms = 900_000;
        config.jvm = robolectric.jvm.clone();
        let started = Instant::now();
        let run = runtime
            .block_on(learn_on_devices(
                std::sync::Arc::clone(&experiment),
                &config,
                &mut NoProgress,
            ))
            .unwrap_or_else(|error| panic!("{error}"));
        let wall_ms = started.elapsed().as_millis() as u64;
        assert!(
            matches!(run.outcome.end, End::Learned),
            "{:?}",
            run.outcome.end
        );
        let first = *first_ms.get_or_insert(wall_ms);
        let Details::Devices { uses, .. } = &run.details else {
            panic!("a run on devices reports its devices: {:?}", run.details)
        };
        let runs: Vec<String> = uses.iter().map(|it| it.runs.to_string()).collect();
        let quiet_waits = quiet_waits(&adb, &names);
        let busiest_ms = names
            .iter()
            .map(|serial| adb.device(serial).delayed_ms())
            .max()
            .unwrap_or(0);
        let speed_up = first as f64 / wall_ms as f64;
        writeln!(
            rows,
            "| {count} | {:.1} | {:.1} | {speed_up:.2} | {:.2} | {} | {} ({}) | {quiet_waits} | {} | {} |",
            wall_ms as f64 / 1000.0,
            busiest_ms as f64 / 1000.0,
            speed_up / count as f64,
            run.statistics.states,
            run.statistics.mq_asked,
            run.statistics.mq_executed,
            runs.join(" / "),
            load_average()
        )
        .unwrap();
        eprintln!("{count} devices: {wall_ms} ms");
    }
    let java = std::process::Command::new("java")
        .arg("-version")
        .output()
        .map(|it| {
            String::from_utf8_lossy(&it.stderr)
                .lines()
                .next()
                .unwrap_or("")
                .to_owned()
        })
        .unwrap_or_default();
    let report = format!(
        "# Android device path benchmark\n\n\
         Produced by `bench/android/run.sh` on {cores} cores shared with other work, {java}.\n\
         Each row learns `android.media.MediaPlayer` with DroidStar's Table 1 alphabet (`learner/experiments/{EXPERIMENT}`) with `learn_on_devices` on that many fake devices of one fake adb server (`learner/tests/adb_support/fake_adb.rs`).\n\
         Each fake device's `app_process` runs the agent inside Robolectric (SDK 34), so the class is ShadowMediaPlayer's simulation (18 states, where a device has 10), not a device's MediaPlayer.\n\
         Simulated device latencies: each answer of a device's agent waits {latency} ms, plus {quiet} ms per `quiet` output in it (the experiment's quiescence timeout, DroidStar's beta: a device waits it out in real time; inside Robolectric a wait only moves the simulated clock).\n\
         The pushing, starting, forwarding, fixture reverses and the learning pipeline are the real backend's.\n\
         **time** is the whole run's wall time, the Robolectric agents' starts included (a sandbox each, tens of seconds on this machine, where an agent starts in about a second on a device); **device time** is the simulated time of the busiest device (the delays its answers waited), which a real device would spend; the rest of the wall time is the host's: the learner, the adb traffic and the Robolectric agents, all on this machine's cores; **speed-up** is the one-device time over this time, and **per device** the speed-up over the devices used; **quiet waits** are the `quiet` answers of all devices; **runs per device** the resets each device served; **load** is the machine's one-minute load average when the row ended (`/proc/loadavg`), since other work shares these cores.\n\
         DroidStar needed {DROIDSTAR_S} s (71 minutes) on one device for MediaPlayer, 2372 runs executed (Table 1 of the DroidStar paper).\n\n\
         | devices | time (s) | device time (s) | speed-up | per device | states | MQ asked (executed) | quiet waits | runs per device | load |\n\
         | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n{rows}",
        cores = std::thread::available_parallelism().map_or(0, usize::from),
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/results/android.md");
    std::fs::write(&out, report).expect("bench/results is writable");
    eprintln!("wrote {}", out.display());
}

/// The machine's one-minute load average, or `?` where `/proc/loadavg` cannot be read.
fn load_average() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .ok()
        .and_then(|it| it.split_whitespace().next().map(str::to_owned))
        .unwrap_or_else(|| "?".to_owned())
}

/// The `quiet` answers of `serials` on `adb`.
fn quiet_waits(adb: &FakeAdb, serials: &[&str]) -> u64 {
    serials
        .iter()
        .map(|serial| adb.device(serial).quiet_waits())
        .sum()
}
