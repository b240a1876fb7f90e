//! Learns every typestate of the bundled library through the model backend and writes a
//! table of executed queries, resets, steps and simulated device time beside DroidStar's
//! Table 1 (paper 001) to `bench/results/learner.md`.
//!
//! Run: `cargo bench -p learner --bench learn_library`.

use std::path::{Path, PathBuf};

use learner::backend::model::ModelConfig;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice};
use learner::{Algorithm, PipelineConfig};

/// DroidStar's Table 1: class, MQ executed.
const DROIDSTAR_EXECUTED: [(&str, u64); 16] = [
    ("AsyncTask", 94),
    ("BluetoothAdapter", 157),
    ("CountDownTimer", 61),
    ("DownloadManager", 43),
    ("FileObserver", 189),
    ("ImageLoader", 113),
    ("MediaCodec", 871),
    ("MediaPlayer", 2372),
    ("MediaRecorder", 721),
    ("MediaScannerConnection", 161),
    ("OkHttpCall", 166),
    ("RequestQueue", 117),
    ("SpeechRecognizer", 293),
    ("SpellCheckerSession", 213),
    ("SQLiteOpenHelper", 228),
    ("VelocityTracker", 403),
];

fn typestate_files(dir: &Path, found: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            typestate_files(&path, found);
        } else if path.extension().is_some_and(|it| it == "typestate") {
            found.push(path);
        }
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    let mut files = Vec::new();
    typestate_files(&root.join("typestates/library"), &mut files);
    files.sort();
    let mut table = String::from(
        "| class | states | oracle | exact | EQ | MQ executed | resets | steps | device time (s) | DroidStar MQ executed | ratio |\n| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |\n",
    );
    for file in files {
        let text = std::fs::read_to_string(&file).expect("library files are readable");
        let typestate = match typestates::format::parse(&file.display().to_string(), &text) {
            Ok(it) => it,
            Err(errors) => {
                eprintln!("skipping {}: {errors:?}", file.display());
                continue;
            }
        };
        let name = typestate.simple_name().to_owned();
        let states = state_bound(&typestate);
        for oracle in [
            EquivalenceChoice::DistinguisherBound(2),
            EquivalenceChoice::WMethod(states),
        ] {
            let run = learn_simulated(
                &typestate,
                Algorithm::default(),
                oracle,
                &PipelineConfig::default(),
                ModelConfig::default(),
                1,
            )
            .await
            .expect("no journal");
            let droidstar = DROIDSTAR_EXECUTED.iter().find(|(class, _)| *class == name);
            table.push_str(&format!(
                "| {name} | {} | {oracle:?} | {} | {} | {} | {} | {} | {} | {} | {} |\n",
                typestate.n_minimal_states(),
                run.is_equivalent_to(&typestate),
                run.outcome.rounds,
                run.executed.queries,
                run.executed.resets,
                run.executed.steps(),
                run.simulated_ms / 1000,
                droidstar.map_or("-".to_owned(), |it| it.1.to_string()),
                droidstar.map_or("-".to_owned(), |it| {
                    format!("{:.2}", run.executed.queries as f64 / it.1 as f64)
                }),
            ));
        }
    }
    let report = format!(
        "# Learner benchmark\n\nProduced by `cargo bench -p learner --bench learn_library`: every typestate of `typestates/library`, learned with the default algorithm through the model backend (default `ModelConfig`, one instance).\nThe distinguisher bound 2 is DroidStar's guarantee; the W-method is given the exact number of states.\n\n{table}"
    );
    print!("{report}");
    let out = root.join("bench/results/learner.md");
    std::fs::create_dir_all(out.parent().expect("has a parent")).expect("bench/results");
    std::fs::write(&out, report).expect("bench/results/learner.md is writable");
}
