//! Data-driven tests of `checker::check`: each fixture under `tests/fixtures/{java,kotlin}`
//! in `protocols/` and `checks/` carries its expected findings as
//! `// ^^^ definite: Class.callin in State, State` under the offending call, many per file.
//!
//! `protocols/<Class>.{java,kt}` holds the cases of one library protocol: true positives
//! first, then, after a `// near misses` line, code that must stay silent.
//! [`every_protocol_has_a_true_positive_and_a_near_miss`] enumerates the library and fails
//! for a class without both.
//! `restricted/` holds a made-up protocol, loaded as a project's `.typestar/` folder, beside its
//! client: restrictions of the experiment are unknown, not forbidden; `accessors/` holds one
//! whose getters and setters are callins, which Kotlin clients use as properties.

mod support;

use std::path::{Path, PathBuf};

use checker::{check, CheckConfig, SourceFile};
use support::{annotations, assert_annotations, leaks, unconverged, violations};
use typestates::library::Library;

/// The marker that starts the near misses of a protocol fixture.
const NEAR_MISSES: &str = "// near misses";

#[track_caller]
fn check_fixture(path: &Path) {
    check_fixture_with(&Library::bundled(), path);
}

#[track_caller]
fn check_fixture_with(library: &Library, path: &Path) {
    let bytes = std::fs::read(path).expect("fixture is readable");
    let file = SourceFile::from_bytes(path, bytes).expect("fixture is checkable");
    let result = check(library, &file, &support::unhurried());
    assert!(
        result.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        result.syntax_errors
    );
    assert!(!result.timed_out, "{}: timed out", path.display());
    assert_annotations(path, &file.text, violations(&result.violations));
}

fn fixtures(dir: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    for language in ["java", "kotlin"] {
        let dir = Path::new("tests/fixtures").join(language).join(dir);
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        out.extend(entries.map(|e| e.expect("fixture directory entry").path()));
    }
    out.sort();
    out
}

/// Checks every fixture of `dir`, then fails naming each one that differs.
#[track_caller]
fn check_all(dir: &str) {
    let failures: Vec<String> = fixtures(dir)
        .iter()
        .filter_map(|path| {
            let res = std::panic::catch_unwind(|| check_fixture(path));
            res.err().map(|panic| {
                panic
                    .downcast_ref::<String>()
                    .cloned()
                    .unwrap_or_else(|| format!("{}: panicked", path.display()))
            })
        })
        .collect();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// Each fixture of `unconverged/` has a class whose dataflow stops at the solver's visit cap,
/// or whose event model stops at its round cap: its violations and leaks are withheld and the
/// body (or the class) is named; the other classes are checked.
#[test]
fn unconverged_fixtures() {
    let paths = fixtures("unconverged");
    assert!(!paths.is_empty(), "no fixtures in unconverged/");
    let config = CheckConfig {
        report_unreleased: true,
        ..support::unhurried()
    };
    for path in paths {
        let bytes = std::fs::read(&path).expect("fixture is readable");
        let file = SourceFile::from_bytes(&path, bytes).expect("fixture is checkable");
        let result = check(&Library::bundled(), &file, &config);
        assert!(!result.timed_out, "{}: timed out", path.display());
        let mut found = violations(&result.violations);
        found.extend(leaks(&result.unreleased));
        found.extend(unconverged(&result.unconverged));
        assert_annotations(&path, &file.text, found);
    }
}

#[test]
fn protocol_fixtures() {
    check_all("protocols");
}

#[test]
fn check_fixtures() {
    check_all("checks");
}

/// A restricted call is never reported, and leaves the object in any state, even one the
/// protocol does not name: the next call that works narrows it to a guess, on which nothing
/// is reported (`restricted/Gate.java`, `restricted/Gate.kt`).
/// It forgets the state on its own path only: a finding another path reaches is kept.
#[test]
fn restricted_calls_are_unknown_not_forbidden() {
    let dir = Path::new("tests/fixtures/restricted");
    let mut library = Library::bundled();
    library
        .add_dir(dir)
        .unwrap_or_else(|errors| panic!("{errors:?}"));
    check_fixture_with(&library, &dir.join("Gate.java"));
    check_fixture_with(&library, &dir.join("Gate.kt"));
}

/// Kotlin reads a Java getter as a property and assigns a setter as one: on a protocol object
/// they are the calls (`accessors/Player.kt`); Java's `player.duration` stays a field
/// (`accessors/Player.java`).
#[test]
fn kotlin_properties_are_accessor_calls() {
    let dir = Path::new("tests/fixtures/accessors");
    let mut library = Library::bundled();
    library
        .add_dir(dir)
        .unwrap_or_else(|errors| panic!("{errors:?}"));
    check_fixture_with(&library, &dir.join("Player.kt"));
    check_fixture_with(&library, &dir.join("Player.java"));
}

/// Every protocol has a violation fixture in `protocols/`, except one whose calls never fail
/// (SoundPool): its obligation is all there is to check, so its fixture is a leak in
/// `unreleased/`.
#[test]
fn every_protocol_has_a_true_positive_and_a_near_miss() {
    let violations = fixtures("protocols");
    let leaks = fixtures("unreleased");
    let named = |files: &[PathBuf], simple: &str| {
        files
            .iter()
            .find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(simple))
            .cloned()
    };
    let mut missing = Vec::new();
    for entry in Library::bundled().iter() {
        let simple = entry.typestate.simple_name();
        let found = match named(&violations, simple) {
            Some(path) => Some((path, format!("{simple}."))),
            None if !entry.typestate.obligations.is_empty() => {
                named(&leaks, simple).map(|path| (path, format!("{simple} in ")))
            }
            None => None,
        };
        let Some((path, tag)) = found else {
            missing.push(format!(
                "{}: no fixture protocols/{simple}.* (or unreleased/{simple}.* for a protocol \
                 with an obligation)",
                entry.class()
            ));
            continue;
        };
        let text = std::fs::read_to_string(&path).expect("fixture is readable");
        let Some((positives, near_misses)) = text.split_once(NEAR_MISSES) else {
            missing.push(format!("{}: no `{NEAR_MISSES}` section", path.display()));
            continue;
        };
        let has_positive = annotations(positives).iter().any(|a| a.text.contains(&tag));
        if !has_positive {
            missing.push(format!("{}: no true positive on {simple}", path.display()));
        }
        if !annotations(near_misses).is_empty() || !near_misses.contains("(") {
            missing.push(format!(
                "{}: the near misses must be calls without annotations",
                path.display()
            ));
        }
    }
    assert!(missing.is_empty(), "{}", missing.join("\n"));
}
