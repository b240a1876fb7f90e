//! Data-driven tests of `checker::check`: each fixture under `tests/fixtures/{java,kotlin}`
//! in `protocols/` and `checks/` carries its expected findings as
//! `// ^^^ definite: Class.callin in State, State` under the offending call, many per file.
//!
//! `protocols/<Class>.{java,kt}` holds the cases of one library protocol: true positives
//! first, then, after a `// near misses` line, code that must stay silent.
//! [`every_protocol_has_a_true_positive_and_a_near_miss`] enumerates the library and fails
//! for a class without both, unless [`WITHOUT_TRUE_POSITIVE`] says why it has none.
//! `restricted/` holds a made-up protocol, loaded as a project's `.typestar/` folder, beside its
//! client: restrictions of the experiment are unknown, not forbidden.

mod support;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use checker::{check, CheckConfig, SourceFile, Violation};
use support::{annotations, assert_annotations, Annotation};
use typestates::library::Library;
use typestates::model::{CallinId, StateId, Step, Typestate};

/// The marker that starts the near misses of a protocol fixture.
const NEAR_MISSES: &str = "// near misses";

fn render(violation: &Violation) -> String {
    let class = violation
        .class
        .rsplit('.')
        .next()
        .unwrap_or(&violation.class);
    format!(
        "{}: {class}.{} in {}",
        violation.kind.name(),
        violation.callin,
        violation.offending_states.join(", ")
    )
}

#[track_caller]
fn check_fixture(path: &Path) {
    check_fixture_with(&Library::bundled(), path);
}

#[track_caller]
fn check_fixture_with(library: &Library, path: &Path) {
    let bytes = std::fs::read(path).expect("fixture is readable");
    let file = SourceFile::from_bytes(path, bytes).expect("fixture is checkable");
    let result = check(library, &file, &CheckConfig::default());
    assert!(
        result.syntax_errors.is_empty(),
        "{}: syntax errors at {:?}",
        path.display(),
        result.syntax_errors
    );
    assert!(!result.timed_out, "{}: timed out", path.display());
    let actual = result
        .violations
        .iter()
        .map(|v| Annotation {
            line: v.span.start.line,
            cols: (v.span.start.col, v.span.end.col),
            text: render(v),
        })
        .collect();
    assert_annotations(path, &file.text, actual);
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

#[test]
fn protocol_fixtures() {
    check_all("protocols");
}

#[test]
fn check_fixtures() {
    check_all("checks");
}

/// A restricted call is never reported, and leaves the object in any state: the next call that
/// works narrows it again (`restricted/Gate.java`).
#[test]
fn restricted_calls_are_unknown_not_forbidden() {
    let dir = Path::new("tests/fixtures/restricted");
    let mut library = Library::bundled();
    library
        .add_dir(dir)
        .unwrap_or_else(|errors| panic!("{errors:?}"));
    check_fixture_with(&library, &dir.join("Gate.java"));
}

/// The library protocols with no true positive, each with the reason: a client calling only
/// the class's own methods reaches no error and no ignored call ([`can_go_wrong`]). The test
/// fails when a listed class can go wrong, so the list stays honest.
const WITHOUT_TRUE_POSITIVE: &[(&str, &str)] = &[];

#[test]
fn every_protocol_has_a_true_positive_and_a_near_miss() {
    let files = fixtures("protocols");
    let mut missing = Vec::new();
    for entry in Library::bundled().iter() {
        let simple = entry.typestate.simple_name();
        let Some(path) = files
            .iter()
            .find(|p| p.file_stem().and_then(|s| s.to_str()) == Some(simple))
        else {
            missing.push(format!(
                "{}: no fixture protocols/{simple}.*",
                entry.class()
            ));
            continue;
        };
        let text = std::fs::read_to_string(path).expect("fixture is readable");
        let Some((positives, near_misses)) = text.split_once(NEAR_MISSES) else {
            missing.push(format!("{}: no `{NEAR_MISSES}` section", path.display()));
            continue;
        };
        let tag = format!("{simple}.");
        let has_positive = annotations(positives).iter().any(|a| a.text.contains(&tag));
        let exempt = WITHOUT_TRUE_POSITIVE
            .iter()
            .any(|(class, _)| *class == entry.class());
        match (can_go_wrong(&entry.typestate), exempt) {
            (true, false) if !has_positive => {
                missing.push(format!("{}: no true positive on {simple}", path.display()));
            }
            (true, true) => missing.push(format!(
                "{}: can go wrong, so it needs a true positive, not a place in WITHOUT_TRUE_POSITIVE",
                entry.class()
            )),
            (false, false) => missing.push(format!(
                "{}: a client of its own methods reaches no error: list it in WITHOUT_TRUE_POSITIVE with the reason",
                entry.class()
            )),
            _ => {}
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

/// Whether a client calling only the class's own methods can reach an error or an ignored
/// call: from the creators' states, through callins bound to methods of the class itself
/// and wait outcomes. A call is a method, which may be several callins (SQLiteOpenHelper's
/// four opens are `getWritableDatabase()`): it goes wrong where every one of them is an error
/// or ignored, as the checker reports it, and never at a restriction of the experiment.
fn can_go_wrong(ts: &Typestate) -> bool {
    let mut methods: BTreeMap<&str, Vec<CallinId>> = BTreeMap::new();
    for callin in ts.input_callins() {
        let binding = &ts.callin(callin).binding;
        if binding.methods.iter().all(|m| m.class.is_none()) {
            for method in &binding.methods {
                methods.entry(&method.name).or_default().push(callin);
            }
        }
    }
    let mut seen = vec![false; ts.states.len()];
    let mut todo: Vec<StateId> = ts.callins.iter().filter_map(|c| c.creates).collect();
    todo.push(ts.initial);
    while let Some(state) = todo.pop() {
        if std::mem::replace(&mut seen[state.index()], true) {
            continue;
        }
        for callins in methods.values() {
            let steps: Vec<&Step> = callins.iter().map(|&c| ts.step(state, c)).collect();
            if steps
                .iter()
                .all(|s| matches!(s, Step::Error { .. } | Step::Enabled { ignored: true, .. }))
            {
                return true;
            }
            todo.extend(steps.iter().filter_map(|s| s.target()));
        }
        todo.extend(ts.state(state).on_wait.target());
    }
    false
}
