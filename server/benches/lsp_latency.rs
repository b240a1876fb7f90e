//! Latency of `typestar lsp` from `didChange` to the `publishDiagnostics` of that version, on a
//! generated 5,000-line Java file, with the production checker and the real tower-lsp-server
//! service over in-memory pipes (the protocol tests' client). Writes p50/p99 per scenario to
//! `bench/results/lsp-latency.md`.
//!
//! Run: `cargo bench -p server --bench lsp_latency`.

use std::fmt::Write as _;
use std::time::{Duration, Instant};

use serde_json::json;

// The protocol tests' client, shared so the benchmark drives the server the same way; the
// benchmark uses only part of it.
#[allow(dead_code)]
#[path = "../tests/lsp/fake.rs"]
mod fake;
#[allow(dead_code)]
#[path = "../tests/lsp/harness.rs"]
mod harness;

use harness::TestServer;

const LINES: usize = 5_000;
const WARMUP: usize = 10;
const SAMPLES: usize = 200;

/// A class of small methods driving MediaPlayer, one in ten with a protocol bug.
fn java_file() -> String {
    let mut text =
        String::from("package bench;\n\nimport android.media.MediaPlayer;\n\npublic class Big {\n");
    let mut n = 0;
    while text.lines().count() < LINES - 2 {
        let _ = write!(
            text,
            "    // edit here {n}\n    void play{n}(String path) throws Exception {{\n        MediaPlayer player = new MediaPlayer();\n        player.setDataSource(path);\n        player.prepare();\n        player.start();\n{}        player.release();\n    }}\n",
            if n % 10 == 0 { "        player.release();\n" } else { "" }
        );
        n += 1;
    }
    text.push_str("}\n");
    text
}

struct Scenario {
    name: &'static str,
    what: &'static str,
    /// The production checker, or the scripted one (which finds nothing here: the server alone).
    static_checker: bool,
    debounce_ms: u64,
    /// Pause between receiving a publish and sending the next edit.
    pause: Duration,
}

async fn run(scenario: &Scenario, text: &str) -> (Vec<Duration>, usize) {
    let mut builder = TestServer::builder()
        .settings(json!({ "diagnostics": { "debounceMs": scenario.debounce_ms } }));
    if scenario.static_checker {
        builder = builder.static_checker();
    }
    let mut server = builder.build().await;
    let uri = server.open("Big.java", text).await;
    let n_diagnostics = server.await_diagnostics(&uri, Some(1)).await.len();
    let mut latencies = Vec::with_capacity(SAMPLES);
    for i in 0..WARMUP + SAMPLES {
        let version = i as i32 + 2;
        // Type one character into (or delete it from) the first comment: an incremental edit.
        let range = if i % 2 == 0 {
            json!({ "start": { "line": 5, "character": 7 }, "end": { "line": 5, "character": 7 } })
        } else {
            json!({ "start": { "line": 5, "character": 7 }, "end": { "line": 5, "character": 8 } })
        };
        let change = if i % 2 == 0 { "x" } else { "" };
        tokio::time::sleep(scenario.pause).await;
        let sent = Instant::now();
        server
            .notify(
                "textDocument/didChange",
                json!({
                    "textDocument": { "uri": uri, "version": version },
                    "contentChanges": [{ "range": range, "text": change }]
                }),
            )
            .await;
        let diagnostics = server.await_diagnostics(&uri, Some(version)).await;
        let elapsed = sent.elapsed();
        assert_eq!(diagnostics.len(), n_diagnostics, "the edit is in a comment");
        if i >= WARMUP {
            latencies.push(elapsed);
        }
    }
    (latencies, n_diagnostics)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let rank = ((p / 100.0) * sorted.len() as f64).ceil() as usize;
    sorted[rank.clamp(1, sorted.len()) - 1]
}

fn ms(d: Duration) -> String {
    format!("{:.1}", d.as_secs_f64() * 1000.0)
}

fn main() {
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(2)
        .enable_all()
        .build()
        .expect("a runtime");
    let text = java_file();
    let library = typestates::library::Library::bundled();
    let file = checker::SourceFile {
        path: "Big.java".into(),
        language: checker::ir::Language::Java,
        text: text.clone(),
    };
    let mut check_alone: Vec<Duration> = (0..30)
        .map(|_| {
            let started = Instant::now();
            checker::check(&library, &file, &checker::CheckConfig::default());
            started.elapsed()
        })
        .collect();
    check_alone.sort();
    let n_violations = checker::check(&library, &file, &checker::CheckConfig::default())
        .violations
        .len();

    let scenarios = [
        Scenario {
            name: "edit after a pause",
            what: "default settings (debounce 150 ms); each edit 200 ms after the previous publish, as when typing one key and looking",
            static_checker: true,
            debounce_ms: 150,
            pause: Duration::from_millis(200),
        },
        Scenario {
            name: "back-to-back, no debounce",
            what: "`debounceMs: 0`; the next edit right after each publish",
            static_checker: true,
            debounce_ms: 0,
            pause: Duration::ZERO,
        },
        Scenario {
            name: "back-to-back, default debounce",
            what: "default settings; the next edit right after each publish, so an edit less than 150 ms after the previous one waits out the window (by design), one after a slower check does not",
            static_checker: true,
            debounce_ms: 150,
            pause: Duration::ZERO,
        },
        Scenario {
            name: "server alone",
            what: "`debounceMs: 0`, back-to-back, a scripted checker that finds nothing in this file: transport, store, scheduling, conversion and publishing without the analysis",
            static_checker: false,
            debounce_ms: 0,
            pause: Duration::ZERO,
        },
    ];
    let mut table = String::from(
        "| scenario | samples | p50 ms | p99 ms | max ms | what it measures |\n|---|---:|---:|---:|---:|---|\n",
    );
    let mut n_diagnostics = 0;
    for scenario in &scenarios {
        let (mut latencies, n) = runtime.block_on(run(scenario, &text));
        if scenario.static_checker {
            n_diagnostics = n;
        }
        latencies.sort();
        let line = format!(
            "| {} | {} | {} | {} | {} | {} |\n",
            scenario.name,
            latencies.len(),
            ms(percentile(&latencies, 50.0)),
            ms(percentile(&latencies, 99.0)),
            ms(*latencies.last().unwrap()),
            scenario.what
        );
        print!("{line}");
        table.push_str(&line);
    }
    let report = format!(
        "# `typestar lsp` latency: didChange to publishDiagnostics\n\n\
         Produced by `cargo bench -p server --bench lsp_latency` (release build) on a generated {LINES}-line Java file \
         ({} bytes, {} methods driving `MediaPlayer`, {n_diagnostics} diagnostics), with the production checker, \
         the real tower-lsp-server service over in-memory pipes, and one-character incremental edits in a comment.\n\
         Each sample is the time from sending `didChange` to receiving the `publishDiagnostics` of that version; \
         {WARMUP} warm-up edits are discarded.\n\
         `checker::check` alone on the same file, 30 runs: p50 {} ms, max {} ms ({n_violations} violations).\n\n\
         Target: p99 at most 50 ms for an edit after a pause.\n\n{table}\n\
         The server's own share is the last row; the rest of every other row is `checker::check` on the whole file, \
         which the server runs once per edit (the checker has no incremental mode).\n\n\
         Machine: {} logical CPUs shared with other builds (load average {} while this ran); a 2-worker tokio runtime.\n",
        text.len(),
        text.matches("    void play").count(),
        ms(percentile(&check_alone, 50.0)),
        ms(*check_alone.last().unwrap()),
        std::thread::available_parallelism().map_or(0, usize::from),
        std::fs::read_to_string("/proc/loadavg")
            .ok()
            .and_then(|l| l.split_whitespace().next().map(str::to_string))
            .unwrap_or_else(|| "unknown".to_string()),
    );
    let path =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../bench/results/lsp-latency.md");
    std::fs::write(&path, report).expect("bench/results is writable");
    println!("wrote {}", path.display());
}
