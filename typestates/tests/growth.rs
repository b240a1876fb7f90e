//! The readers' memory grows linearly with the file (fuzz finding F13: a model held one step
//! per state and callin, so a 250 KB file of 5 000 states and 5 000 callins took 1.4 GB).
//! Each family is read at `n` and at `4 n` states and callins, one step per state, each in a
//! process of its own (`test_tiers::memory`); the peak must grow by less than [`MAX_GROWTH`]:
//! about 4 is linear, 16 quadratic (the file grows 4 times, the old dense model 16).
//! Slow tier `robustness` (`test-tiers`).

mod sparse;

use test_tiers::Tier;
use typestates::format::{from_droidstar_dot, from_json, parse};
use typestates::Typestate;

/// Names the family and size a child process measures (`name:n`); unset in the parent.
const CHILD: &str = "TYPESTAR_MODEL_GROWTH_CHILD";

/// The most the peak may grow when the file grows 4 times.
const MAX_GROWTH: f64 = 8.0;

/// The test's name, which a child runs again.
const TEST: &str = "the_readers_memory_grows_linearly_with_the_file";

/// A family of files: a name, the reader, and the file with `n` states and `n` callins.
struct Family {
    name: &'static str,
    read: fn(&str) -> Typestate,
    text: fn(usize) -> String,
}

const FAMILIES: &[Family] = &[
    // The shape of `typestate-sparse-5000-dense-model.typestate`.
    Family {
        name: "typestate",
        read: |text| parse("sparse.typestate", text).expect("parses"),
        text: sparse::text,
    },
    // The shape of `dot-sparse-2500-dense-model.gv`.
    Family {
        name: "dot",
        read: |text| from_droidstar_dot("sparse.gv", text, "a.B").expect("imports"),
        text: sparse::dot,
    },
    Family {
        name: "json",
        read: |text| from_json("sparse.json", text).expect("loads"),
        text: sparse::json,
    },
];

/// The size the small run reads: 1 000 states of 1 000 callins were 56 MB densely.
const N: usize = 1_000;

#[test]
#[ignore = "slow tier robustness: TYPESTAR_SLOW=robustness cargo test -- --include-ignored"]
fn the_readers_memory_grows_linearly_with_the_file() {
    if let Ok(child) = std::env::var(CHILD) {
        let (name, n) = child.split_once(':').expect("name:n");
        let family = FAMILIES.iter().find(|f| f.name == name).expect("a family");
        let text = (family.text)(n.parse().expect("a size"));
        test_tiers::memory::report_peak(|| {
            let model = (family.read)(&text);
            assert_eq!(model.states.len(), n.parse::<usize>().expect("a size"));
        });
        return;
    }
    if !test_tiers::runs(Tier::Robustness) {
        return;
    }
    let mut failures = Vec::new();
    for family in FAMILIES {
        let peak =
            |n: usize| test_tiers::memory::peak_kib(TEST, CHILD, &format!("{}:{n}", family.name));
        let (small, large) = (peak(N), peak(4 * N));
        let growth = large as f64 / small.max(1) as f64;
        eprintln!(
            "{} {N} -> {}: peak {small} -> {large} KiB, {growth:.2}x",
            family.name,
            4 * N
        );
        if growth >= MAX_GROWTH {
            failures.push(family.name);
        }
    }
    assert!(failures.is_empty(), "superlinear memory: {failures:?}");
}
