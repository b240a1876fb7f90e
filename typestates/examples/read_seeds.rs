//! Times what the fuzz targets `typestate_text` and `typestate_json` do with each file, without libFuzzer.
//!
//! `MODE=text|json REPS=N cargo run --release -p typestates --example read_seeds -- FILE...`
//! Without `MODE`, a file ending in `.json` is read as JSON, any other as text.
//! Prints the microseconds per run, the size and the nanoseconds per byte of each file.
//! Used for `bench/results/fuzz.md`, session 25.

use std::time::Instant;

use typestates::format::{from_json, parse, print, to_json};

/// The text target's work: read, and on success print and read again.
fn text_target(text: &str) {
    if let Ok(typestate) = parse("fuzz.typestate", text) {
        let printed = print(&typestate);
        let _ = parse("printed.typestate", &printed);
    }
}

/// The JSON target's work: read, and on success print and export, and read both again.
fn json_target(text: &str) {
    if let Ok(typestate) = from_json("fuzz.json", text) {
        let printed = print(&typestate);
        let _ = parse("printed.typestate", &printed);
        let exported = to_json(&typestate);
        let _ = from_json("exported.json", &exported);
    }
}

fn main() {
    let reps: u32 = std::env::var("REPS")
        .ok()
        .and_then(|reps| reps.parse().ok())
        .unwrap_or(50)
        .max(1);
    let mode = std::env::var("MODE").ok();
    for path in std::env::args().skip(1) {
        // The targets skip what is not UTF-8.
        let Ok(text) = std::fs::read_to_string(&path) else {
            continue;
        };
        let json = match mode.as_deref() {
            Some("json") => true,
            Some("text") => false,
            _ => path.ends_with(".json"),
        };
        let target = if json { json_target } else { text_target };
        let start = Instant::now();
        for _ in 0..reps {
            target(&text);
        }
        let micros = start.elapsed().as_secs_f64() * 1e6 / f64::from(reps);
        let per_byte = micros * 1000.0 / text.len().max(1) as f64;
        println!(
            "{micros:>10.1} us {:>7} B {per_byte:>8.1} ns/B {path}",
            text.len()
        );
    }
}
