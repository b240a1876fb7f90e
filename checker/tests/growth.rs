//! The flow analysis' memory grows linearly with the number of tracked objects and
//! registrations (fuzz finding F9: it held every object at every program point, so 3 000 locals
//! reached a 6 GB cap and 2 000 listener registrations took 2.5 GB).
//! Each family is checked at `n` and at `4 n` objects, each in a process of its own
//! (`test_tiers::memory`); the peak must grow by less than [`MAX_GROWTH`]: about 4 is linear, 16 quadratic.
//! Slow tier `robustness` (`test-tiers`).

use std::path::Path;

use checker::source::SourceFile;
use test_tiers::Tier;

/// Names the family and size a child process measures (`path:n`); unset in the parent.
const CHILD: &str = "TYPESTAR_GROWTH_CHILD";

/// The most the peak may grow when the input grows 4 times.
const MAX_GROWTH: f64 = 8.0;

/// In the child: checks the family's input of size `n` and prints the peak in KiB.
fn measure(family: &Family, n: usize) {
    let library = typestates::library::Library::bundled();
    let text = (family.text)(n);
    let file = SourceFile::from_bytes(Path::new(family.path), text.into_bytes()).expect("UTF-8");
    // A limit no run here reaches: the peak, not the clock, decides.
    let config = checker::CheckConfig {
        time_limit: std::time::Duration::from_secs(600),
        ..checker::CheckConfig::default()
    };
    test_tiers::memory::report_peak(|| {
        let result = checker::check(&library, &file, &config);
        assert!(!result.timed_out, "{} {n} timed out", family.path);
    });
}

/// In the parent: runs a child on the family's input of size `n`; returns its peak in KiB.
fn peak_kib(family: &Family, n: usize) -> u64 {
    test_tiers::memory::peak_kib(TEST, CHILD, &format!("{}:{n}", family.path))
}

/// A family of inputs: a file name and the text with `n` objects (the shapes of
/// `bench/scale/families.py`, which measures their time and memory at four sizes).
struct Family {
    path: &'static str,
    n: usize,
    text: fn(usize) -> String,
}

const FAMILIES: &[Family] = &[
    // F9's reproducer `java-3000-tracked-locals-quadratic-memory.java` is this at 3000; the
    // sizes here are small enough that a quadratic analysis ends too (in half a gigabyte).
    Family {
        path: "Locals.java",
        n: 300,
        text: |n| {
            let body: String = (0..n)
                .map(|i| format!("    MediaPlayer p{i} = MediaPlayer.create(null, 1);\n"))
                .collect();
            format!(
                "import android.media.MediaPlayer;\nclass A {{\n  void f() {{\n{body}  }}\n}}\n"
            )
        },
    },
    Family {
        path: "Locals.kt",
        n: 300,
        text: |n| {
            let body: String = (0..n)
                .map(|i| format!("    val mp{i} = MediaPlayer.create(null, 1)\n"))
                .collect();
            format!("import android.media.MediaPlayer\nfun f() {{\n{body}}}\n")
        },
    },
    Family {
        path: "Fields.java",
        n: 150,
        text: |n| {
            let fields: String = (0..n)
                .map(|i| format!("MediaPlayer f{i} = new MediaPlayer();\n"))
                .collect();
            let calls: String = (0..n).map(|i| format!("f{i}.start();\n")).collect();
            format!(
                "import android.media.MediaPlayer;\nclass A extends android.app.Activity {{\n\
                 {fields}void onStart() {{\n{calls}}} }}\n"
            )
        },
    },
    Family {
        path: "Aliases.java",
        n: 300,
        text: |n| {
            let chain: String = (1..=n)
                .map(|i| format!("MediaPlayer p{i} = c ? p{} : new MediaPlayer();\n", i - 1))
                .collect();
            format!(
                "import android.media.MediaPlayer;\nclass A {{ void f(boolean c) {{ \
                 MediaPlayer p0 = new MediaPlayer();\n{chain}p{n}.start(); p0.prepare(); }} }}\n"
            )
        },
    },
    Family {
        path: "Listeners.java",
        n: 150,
        text: |n| {
            let lines: String = (0..n)
                .map(|i| {
                    let second = ["pause", "stop"][i % 2];
                    format!(
                        "if (b == null) p.setOnPreparedListener(mp -> {{ p.start(); p.{second}(); }});\n"
                    )
                })
                .collect();
            format!(
                "import android.media.MediaPlayer;\nclass A extends android.app.Activity {{ \
                 MediaPlayer p = new MediaPlayer();\nvoid onCreate(android.os.Bundle b) {{\n\
                 {lines}p.prepareAsync(); }} }}\n"
            )
        },
    },
];

/// The test's name, which a child runs again.
const TEST: &str = "the_flow_analysis_memory_grows_linearly_with_objects_and_registrations";

#[test]
#[ignore = "slow tier robustness: TYPESTAR_SLOW=robustness cargo test -- --include-ignored"]
fn the_flow_analysis_memory_grows_linearly_with_objects_and_registrations() {
    if let Ok(child) = std::env::var(CHILD) {
        let (path, n) = child.split_once(':').expect("path:n");
        let family = FAMILIES.iter().find(|f| f.path == path).expect("a family");
        measure(family, n.parse().expect("a size"));
        return;
    }
    if !test_tiers::runs(Tier::Robustness) {
        return;
    }
    let mut failures = Vec::new();
    for family in FAMILIES {
        let small = peak_kib(family, family.n);
        let large = peak_kib(family, 4 * family.n);
        let growth = large as f64 / small.max(1) as f64;
        eprintln!(
            "{} {} -> {}: peak {small} -> {large} KiB, {growth:.2}x",
            family.path,
            family.n,
            4 * family.n
        );
        if growth >= MAX_GROWTH {
            failures.push(family.path);
        }
    }
    assert!(failures.is_empty(), "superlinear memory: {failures:?}");
}
