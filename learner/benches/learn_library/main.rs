//! The learner benchmark (issue 3, point 8): learns every typestate of the bundled library
//! through the model backend, checks each result is equivalent to its model, and writes
//! `bench/results/learner.md`: per class our executed MQ, resets, symbols, waits, simulated
//! device time and EQ rounds, beside DroidStar's Table 1 and beside AALpy (L*, KV, L# behind
//! the same two filters, on the same models exported in the DOT contract), with the ratios.
//! A Table 1 class is learned projected onto DroidStar's inputs (`table1::Row::inputs`), so
//! callins a library file adds from the class's source do not change the comparison; the
//! other classes are learned whole.
//!
//! Run: `bench/learner/run.sh` (or `cargo bench -p learner --bench learn_library`).
//! Set `TYPESTAR_BENCH_NO_AALPY=1` to skip the AALpy column, and
//! `TYPESTAR_BENCH_ONLY=BluetoothAdapter,MediaCodec` to measure only those classes (printed,
//! without AALpy, and not written to the results file).

mod aalpy;
mod report;
mod table1;

use std::path::Path;

use learner::backend::model::ModelConfig;
use learner::equivalence::Suite;
use learner::oracle::filter::QueryFilter;
use learner::simulation::{
    learn_simulated, runs_lower_bound, state_bound, EquivalenceChoice, SimulatedRun,
};
use learner::{Algorithm, Alphabet, Choices, Session};
use typestates::library::Library;
use typestates::Typestate;

use report::{Measured, Variant};

/// The reference configuration (`typestar learn --states model`) and the alternatives measured beside it.
fn variants(states: usize) -> [Variant; 8] {
    [
        Variant::new(Algorithm::default(), EquivalenceChoice::StateBound(states)),
        Variant::new(Algorithm::LStar, EquivalenceChoice::StateBound(states)),
        Variant::new(Algorithm::LStar, EquivalenceChoice::WMethod(states)),
        Variant::new(
            Algorithm::default(),
            EquivalenceChoice::DistinguisherBound(2),
        ),
        Variant::new(
            Algorithm::default(),
            EquivalenceChoice::DistinguisherBound(2),
        )
        .with_suite(Suite::MaximalWords),
        Variant::new(Algorithm::KTails, EquivalenceChoice::DistinguisherBound(2)),
        Variant::new(
            Algorithm::default(),
            EquivalenceChoice::DistinguisherBound(2),
        )
        .with_suite(Suite::Chained),
        Variant::new(
            Algorithm::default(),
            EquivalenceChoice::DistinguisherBound(2),
        )
        .with_suite(Suite::ChainedKnown),
    ]
}

async fn learn(
    typestate: &Typestate,
    variant: &Variant,
    filters: Vec<QueryFilter>,
) -> SimulatedRun {
    let choices = Choices {
        filters,
        suite: variant.suite,
        ..Choices::of(variant.algorithm, variant.equivalence)
    };
    learn_simulated(typestate, &Session::new(choices), ModelConfig::default())
        .await
        .expect("no journal, so no journal error")
}

/// The model the benchmark learns: a Table 1 class projected onto DroidStar's inputs, any
/// other class whole.
fn droidstar_model(typestate: &Typestate, row: Option<&table1::Row>) -> Typestate {
    match row {
        Some(row) => typestate
            .project_onto(row.inputs)
            .unwrap_or_else(|error| panic!("table1.rs, {}: {error}", row.class)),
        None => typestate.clone(),
    }
}

#[tokio::main(flavor = "current_thread")]
async fn main() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("the learner crate sits in the workspace");
    let library = Library::bundled();
    let mut typestates: Vec<&Typestate> = library.iter().map(|entry| &entry.typestate).collect();
    typestates.sort_by_key(|it| (table1::lookup(&it.class).is_none(), it.simple_name()));

    let models = root.join("bench/work/learner-models");
    let _ = std::fs::remove_dir_all(&models);
    std::fs::create_dir_all(&models).expect("bench/work/learner-models is writable");

    let mut measured = Vec::new();
    let only = std::env::var("TYPESTAR_BENCH_ONLY").ok();
    let selected = |name: &str| {
        only.as_deref()
            .is_none_or(|list| list.split(',').any(|it| it.trim() == name))
    };
    // A class is named by its simple name, or, when a class before it (Table 1's first) has
    // that name, by its qualified name with `_` for `.`: names are file names and table rows.
    let mut names = std::collections::HashSet::new();
    for typestate in typestates
        .into_iter()
        .filter(|it| selected(it.simple_name()))
    {
        let name = match names.insert(typestate.simple_name().to_owned()) {
            true => typestate.simple_name().to_owned(),
            false => typestate.class.replace('.', "_"),
        };
        let row = table1::lookup(&typestate.class);
        let model = droidstar_model(typestate, row);
        aalpy::export(
            &models,
            &model,
            &name,
            row.map_or(name.as_str(), |it| it.class),
        )
        .expect("the model export is writable");
        let mut runs = Vec::new();
        for variant in variants(state_bound(&model)) {
            let run = learn(&model, &variant, Vec::new()).await;
            let exact = run.is_equivalent_to(&model);
            runs.push((variant, run, exact));
        }
        let under_purpose = match row {
            Some(row) if !row.purpose.runs_every_query() => {
                let alphabet = Alphabet::of(model.signature());
                let run = learn(&model, &runs[0].0, row.purpose.filters(&alphabet)).await;
                let exact = run.is_equivalent_to(&row.purpose.shown(&model));
                Some((run, exact))
            }
            _ => None,
        };
        eprintln!("learned {name}");
        measured.push(Measured {
            name,
            states: model.n_minimal_states(),
            runs_lower_bound: runs_lower_bound(&model),
            table1: row,
            runs,
            under_purpose,
        });
    }

    let aalpy = if only.is_some() {
        Err("skipped (TYPESTAR_BENCH_ONLY)".to_owned())
    } else if std::env::var_os("TYPESTAR_BENCH_NO_AALPY").is_some() {
        Err("skipped (TYPESTAR_BENCH_NO_AALPY)".to_owned())
    } else {
        eprintln!("running AALpy on {}", models.display());
        aalpy::compare(root, &models, &[])
    };
    let text = report::markdown(&measured, &aalpy);
    print!("{text}");
    if only.is_some() {
        // A subset is for quick measurements; the results file always holds every class.
        return;
    }
    let out = root.join("bench/results/learner.md");
    std::fs::write(&out, text).expect("bench/results/learner.md is writable");
}
