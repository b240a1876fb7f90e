//! The device path's benchmark (`bench/android/run.sh`): learns one class on 1, 2, 4 and 8
//! fake devices, each answer of a device delayed by a simulated latency, and writes the wall
//! times and the speed-up per device added to `bench/results/android.md`. Opt-in
//! (`--ignored`): it takes minutes and measures wall time.

mod adb_support;

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use adb_support::{config, experiment, scratch, server};
use learner::backend::android::learn_on_devices;
use learner::{Details, End, NoProgress};

/// The class learned: a JDK class with callbacks and real quiescence waits, the closest the
/// host JVM agent comes to a device class (MediaPlayer needs a device or Robolectric).
const CLASS: &str = "java.util.Timer";
/// Milliseconds each answer of a fake device waits (`TYPESTAR_BENCH_LATENCY_MS`).
const LATENCY_MS: u64 = 50;

#[test]
#[ignore = "benchmark: run bench/android/run.sh"]
fn devices_speed_up() {
    let latency: u64 = std::env::var("TYPESTAR_BENCH_LATENCY_MS")
        .ok()
        .and_then(|it| it.parse().ok())
        .unwrap_or(LATENCY_MS);
    let counts: Vec<usize> = std::env::var("TYPESTAR_BENCH_DEVICES")
        .unwrap_or_else(|_| "1,2,4,8".to_owned())
        .split(',')
        .map(|it| it.trim().parse().expect("device counts are numbers"))
        .collect();
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
        let adb = server(&dir, &names, 34);
        for serial in &names {
            adb.device(serial).set_latency(latency);
        }
        let config = config(&[&adb]);
        let started = Instant::now();
        let run = runtime
            .block_on(learn_on_devices(
                experiment(&format!("{CLASS}.toml")),
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
        writeln!(
            rows,
            "| {count} | {:.1} | {:.2} | {} | {} ({}) | {} |",
            wall_ms as f64 / 1000.0,
            first as f64 / wall_ms as f64,
            run.statistics.states,
            run.statistics.mq_asked,
            run.statistics.mq_executed,
            runs.join(" / ")
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
         Each row learns `{CLASS}` (`learner/experiments/{CLASS}.toml`) with `learn_on_devices` on that many fake devices of one fake adb server (`learner/tests/adb_support/fake_adb.rs`), each answer of a device's agent delayed by {latency} ms, the simulated cost of a device and its USB link.\n\
         The fake devices run the host JVM agent behind `app_process`; the pushing, starting, forwarding and the learning pipeline are the real backend's.\n\
         **time** is the whole run's wall time, the agents' starts included; **speed-up** is the one-device time over this time; **runs per device** are the resets each device served.\n\
         Not MediaPlayer: its Table 1 alphabet needs a device or the Robolectric agent in every fake device (a JVM with a 15-30 s sandbox each, too many for these two cores); DroidStar needed 71 minutes on one device for it.\n\n\
         | devices | time (s) | speed-up | states | MQ asked (executed) | runs per device |\n\
         | --- | --- | --- | --- | --- | --- |\n{rows}",
        cores = std::thread::available_parallelism().map_or(0, usize::from),
    );
    let out = Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/results/android.md");
    std::fs::write(&out, report).expect("bench/results is writable");
    eprintln!("wrote {}", out.display());
}
