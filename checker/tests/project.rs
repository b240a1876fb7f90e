//! `checker::Project`: the name prefilter skips only files that cannot have findings, follows
//! chains of project subclasses across files, and finds exactly what the per-file check with
//! `project_config` finds; the per-file check's own prefilter (`skip_unrelated`) changes
//! nothing either.

mod support;

use std::path::Path;

use checker::{check, project_config, CheckConfig, Project, SourceFile};
use support::{assert_annotations, leaks, violations};
use typestates::library::Library;

fn file(path: &str, text: &str) -> SourceFile {
    SourceFile::from_bytes(Path::new(path), text.as_bytes().to_vec()).expect("checkable")
}

/// `Base` extends AsyncTask, `Task` extends `Base` without naming anything of the library,
/// and `Use` runs a `Task` twice, naming only `Task`: each file comes in only once the
/// previous one's class is known to be a protocol subclass.
fn chain() -> Vec<SourceFile> {
    vec![
        file(
            "a/Base.java",
            "package a;\nimport android.os.AsyncTask;\n\
             public abstract class Base extends AsyncTask<String, Void, Void> {}\n",
        ),
        file(
            "a/Task.java",
            "package a;\npublic class Task extends Base {\n\
             protected Void doInBackground(String... s) { return null; }\n}\n",
        ),
        file(
            "a/Use.java",
            "package a;\nclass Use {\n  void twice() {\n    Task t = new Task();\n    \
             t.execute(\"x\");\n    t.execute(\"y\");\n  }\n}\n",
        ),
        file(
            "a/Unrelated.kt",
            "package a\nclass Unrelated { fun f(x: Int) = x + 1 }\n",
        ),
        file("a/Broken.java", "class Broken { void f( { }\n"),
    ]
}

#[test]
fn subclass_chains_are_followed_across_files() {
    let library = Library::bundled();
    let files = chain();
    let project = Project::new(&library, &files, CheckConfig::default(), 2);
    assert!(project.is_analysed(0) && project.is_analysed(1) && project.is_analysed(2));
    assert!(!project.is_analysed(3) && !project.is_analysed(4));
    let found = project.check(2);
    assert_eq!(found.violations.len(), 1, "{:?}", found.violations);
    assert_eq!(found.violations[0].span.start.line, 6);
    assert_eq!(project.check(4), checker::CheckResult::default());
    assert_eq!(project.check(99), checker::CheckResult::default());
}

/// `Sink` keeps a player; `Engine` holds a `Sink` and names nothing of the library; `Job`
/// makes an `Engine` and runs it once: the sink's methods are driven by their clients
/// (`checker/src/clients.rs`), which the project finds by following the callers up the chain.
fn wrapper_chain() -> Vec<SourceFile> {
    vec![
        file(
            "w/Sink.java",
            "package w;\nimport android.media.MediaPlayer;\npublic class Sink {\n  \
             private final MediaPlayer p = MediaPlayer.create(null, 1);\n  \
             public void play() { p.start(); }\n  public void close() { p.release(); }\n}\n",
        ),
        file(
            "w/Engine.java",
            "package w;\nclass Engine {\n  private final Sink sink;\n  \
             Engine(Sink sink) { this.sink = sink; }\n  \
             void run() { sink.play(); sink.close(); }\n}\n",
        ),
        file(
            "w/Job.java",
            "package w;\nclass Job {\n  void go() { new Engine(new Sink()).run(); }\n}\n",
        ),
    ]
}

#[test]
fn wrapper_clients_are_followed_across_files() {
    let library = Library::bundled();
    let files = wrapper_chain();
    let project = Project::new(&library, &files, CheckConfig::default(), 2);
    // The engine and the job name no library class, but they name the sink, whose protocol is
    // derived: they are checked against it (`checker/src/wrappers.rs`), and call it in order.
    assert!(project.is_analysed(0) && project.is_analysed(1) && project.is_analysed(2));
    assert_eq!(project.check(1).violations, vec![]);
    assert_eq!(
        project.check(0).violations,
        vec![],
        "the engine drives the sink"
    );
    let config = checker::project_config(&library, &files, CheckConfig::default());
    assert_eq!(check(&library, &files[0], &config).violations, vec![]);
    // Alone, only code outside calls the sink: `close()` ends it (its player is released
    // for good), and what the outside calls after that is the outside's misuse.
    let alone = check(&library, &files[0], &CheckConfig::default());
    assert_eq!(alone.violations, vec![]);
    // Without the job, nothing calls the engine: it runs any time, so `play()` may follow
    // `close()`. That order is the engine's, checked at the engine against the sink's derived
    // protocol, where the sink comes from a parameter, in an unknown state: not reported (a
    // known miss). Inside the sink, `play()` alone never fails.
    let first_two = &files[..2];
    let project = Project::new(&library, &first_two, CheckConfig::default(), 1);
    assert_eq!(project.check(0).violations, vec![]);
    assert_eq!(project.check(1).violations, vec![]);
}

/// Each folder under `tests/fixtures/projects` is one project, whose files carry their
/// expected findings as `// ^^^ kind: Class.callin in State` annotations and their leak
/// reports as `// ^^^ code (definite): Class in State`: what the project check finds with
/// leak reports on, and what the per-file check with `project_config` finds too.
#[test]
fn project_fixtures() {
    let library = Library::bundled();
    let root = Path::new("tests/fixtures/projects");
    let mut projects: Vec<_> = std::fs::read_dir(root)
        .expect("fixture projects")
        .map(|entry| entry.expect("fixture project").path())
        .collect();
    projects.sort();
    assert!(!projects.is_empty());
    for dir in projects {
        let mut paths: Vec<_> = std::fs::read_dir(&dir)
            .expect("fixture project is readable")
            .map(|entry| entry.expect("fixture file").path())
            .collect();
        paths.sort();
        let files: Vec<SourceFile> = paths
            .iter()
            .map(|path| {
                let bytes = std::fs::read(path).expect("fixture is readable");
                SourceFile::from_bytes(path, bytes).expect("fixture is checkable")
            })
            .collect();
        let with_leaks = CheckConfig {
            report_unreleased: true,
            ..CheckConfig::default()
        };
        let project = Project::new(&library, &files, with_leaks.clone(), 2);
        let config = project_config(&library, &files, with_leaks);
        for (i, file) in files.iter().enumerate() {
            let found = project.check(i);
            let mut actual = violations(&found.violations);
            actual.extend(leaks(&found.unreleased));
            assert_annotations(&file.path, &file.text, actual);
            let alone = check(&library, file, &config);
            let path = file.path.display();
            assert_eq!(alone.violations, found.violations, "{path}");
            assert_eq!(alone.unreleased, found.unreleased, "{path}");
        }
    }
}

#[test]
fn project_check_matches_the_per_file_check() {
    let library = Library::bundled();
    let mut files = chain();
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../examples/android-app");
    let mut todo = vec![root];
    while let Some(dir) = todo.pop() {
        for entry in std::fs::read_dir(&dir).expect("readable").flatten() {
            let path = entry.path();
            if path.is_dir() {
                todo.push(path);
            } else if let Ok(f) =
                SourceFile::from_bytes(&path, std::fs::read(&path).expect("readable"))
            {
                files.push(f);
            }
        }
    }
    let config = project_config(
        &library,
        &files,
        CheckConfig {
            skip_unrelated: false,
            ..CheckConfig::default()
        },
    );
    let filtered = CheckConfig {
        skip_unrelated: true,
        ..config.clone()
    };
    let project = Project::new(&library, &files, CheckConfig::default(), 1);
    let mut n = 0;
    for (i, f) in files.iter().enumerate() {
        let plain = check(&library, f, &config);
        // The prefilter of the per-file check changes nothing, syntax errors included.
        assert_eq!(check(&library, f, &filtered), plain, "{}", f.path.display());
        let new = project.check(i);
        assert_eq!(plain.violations, new.violations, "{}", f.path.display());
        if project.is_analysed(i) {
            assert_eq!(plain.syntax_errors, new.syntax_errors);
        }
        n += new.violations.len();
    }
    assert!(n > 5, "the example app has findings");
}

/// The per-file time limit covers parsing: a file too large to parse within the limit is
/// reported as timed out and not analysed, instead of being parsed and lowered in full.
#[test]
fn parsing_stops_at_the_time_limit() {
    let method = "    void m() { MediaPlayer p = new MediaPlayer(); p.release(); p.start(); }\n";
    let big = format!(
        "import android.media.MediaPlayer;\nclass Big {{\n{}}}\n",
        method.repeat(40_000)
    );
    let files = [file("Big.java", &big)];
    let library = Library::bundled();
    let config = CheckConfig {
        time_limit: std::time::Duration::from_millis(1),
        ..CheckConfig::default()
    };
    let project = Project::new(&library, &files, config, 1);
    let result = project.check(0);
    assert!(result.timed_out, "the cut is reported");
    assert!(result.violations.is_empty());
    assert!(!project.is_analysed(0), "parsing stopped before lowering");
    // With the default limit the same code is parsed and checked.
    let small = [file(
        "Small.java",
        &format!("import android.media.MediaPlayer;\nclass Small {{\n{method}}}\n"),
    )];
    let project = Project::new(&library, &small, CheckConfig::default(), 1);
    assert!(project.is_analysed(0));
    assert_eq!(project.check(0).violations.len(), 1);
}

/// Each file of `tests/project/` (F18: two classes of one name, as while a file is edited)
/// gets the same violations and unreleased objects from `Project` (the command line's path),
/// from the per-file check with `project_config`, and from the per-file check alone (the
/// editor's path before it knows the project).
#[test]
fn every_path_finds_the_same_in_tricky_files() {
    let library = Library::bundled();
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/project");
    let mut paths: Vec<_> = std::fs::read_dir(&dir)
        .expect("readable")
        .map(|entry| entry.expect("readable").path())
        .collect();
    paths.sort();
    assert!(!paths.is_empty());
    for path in paths {
        let files = [
            SourceFile::from_bytes(&path, std::fs::read(&path).expect("readable"))
                .expect("checkable"),
        ];
        let alone = CheckConfig {
            report_unreleased: true,
            ..CheckConfig::default()
        };
        let with_project = project_config(&library, &files, alone.clone());
        let expected = check(&library, &files[0], &alone);
        let project = Project::new(&library, &files, alone, 1).check(0);
        let per_file = check(&library, &files[0], &with_project);
        for (name, found) in [
            ("Project", &project),
            ("check with project_config", &per_file),
        ] {
            assert_eq!(
                (&found.violations, &found.unreleased),
                (&expected.violations, &expected.unreleased),
                "{}: {name} differs from check alone",
                path.display()
            );
        }
    }
}
