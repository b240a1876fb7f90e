//! Checks a set of paths as one project.
//! It finds the Java and Kotlin files under them and hands them to a [`checker::Project`].
//! That skips the files that name no protocol class or factory, and lowers each other file once.
//! It learns the project's class hierarchy: `new DownloadTask()` counts as an AsyncTask when another file declares `DownloadTask extends AsyncTask`.
//! Then it checks every file, in parallel.
//!
//! Folders of build output are skipped: `build` beside a Gradle build file, `target` beside a `pom.xml`, and `out` holding class files.
//! A Java or Kotlin package of the same name is checked.
//! A folder under which no Java or Kotlin file is found is an error.
//! So a wrong path is not taken for a clean project.
//! A file that is not UTF-8 is read as Latin-1, with a warning.
//! Files are read once to find which can be checked, and again whenever the check needs a text (see [`checker::Project`]).
//! No text is held for the whole run, so the texts do not add up in memory.
//! A file whose text changed in between is reported (`file-changed`), not checked.
//! The walk enters each folder once, however many links lead to it.
//! A file that is not a regular file (a FIFO, socket or device), or is larger than the checker's limit, is reported by name, unread (see [`typestates::files`]).
//!
//! Each file is checked on the API levels of its module ([`crate::sdk`]).
//! Where the library has protocols that change with the level, the project is checked once per
//! range of levels on which the whole library is the same.
//! Each finding says on which of the file's levels it happens.
//! A finding on no level of the file's module is not reported.

use std::collections::BTreeMap;
use std::panic::AssertUnwindSafe;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;

use checker::source::{Encoding, MAX_SOURCE_BYTES};
use checker::Violation;
use checker::{CheckConfig, CheckResult, OnDisk, Project, SourceFile, Sources, Unreleased};
use typestates::files::Visited;
use typestates::library::Library;
use typestates::{ApiLevels, LevelSet};

use crate::sdk::{library_on, merge_finding, AppLevels, LevelBands, SdkReader, SdkSetting};
pub use crate::unchecked::{FileError, FileWarning};

/// Folders never descended into: dependencies and tool state (hidden folders are skipped too).
const SKIPPED_DIRS: &[&str] = &["node_modules", ".git", ".gradle"];

/// Build output folders by name, each with the files beside it that mark its parent as the
/// root of a build of that tool.
const BUILD_OUTPUT: &[(&str, &[&str])] = &[
    ("build", &["build.gradle", "build.gradle.kts"]),
    ("target", &["pom.xml"]),
];

/// One checked file: its findings, and the API levels each happens on.
#[derive(Debug)]
pub struct CheckedFile {
    /// The file, with the lines the report shows.
    pub source: ShownFile,
    /// What the check found.
    pub result: CheckResult,
    /// The API levels of the file's module.
    pub app: AppLevels,
    /// The levels each of `result.violations` happens on, in the same order.
    pub violation_levels: Vec<LevelSet>,
    /// The levels each of `result.unreleased` happens on, in the same order.
    pub unreleased_levels: Vec<LevelSet>,
}

/// What a report shows of a checked file: its path, and the source lines its violations start
/// on (read again after the check).
#[derive(Debug, Clone, Default)]
pub struct ShownFile {
    /// The path.
    pub path: PathBuf,
    /// The lines kept, by number from 1.
    lines: BTreeMap<u32, String>,
}

impl ShownFile {
    /// The file at `path`, with the lines of `text` numbered `wanted` (from 1, as in a span).
    fn new(path: PathBuf, text: &str, wanted: impl IntoIterator<Item = u32>) -> ShownFile {
        let wanted: std::collections::BTreeSet<u32> = wanted.into_iter().collect();
        let last = wanted.last().copied().unwrap_or(0);
        let lines = (1..=last)
            .zip(text.lines())
            .filter(|(number, _)| wanted.contains(number))
            .map(|(number, line)| (number, line.to_owned()))
            .collect();
        ShownFile { path, lines }
    }

    /// Line `number` (from 1), if kept.
    pub fn line(&self, number: u32) -> Option<&str> {
        self.lines.get(&number).map(String::as_str)
    }
}

/// The outcome of checking a project.
#[derive(Debug, Default)]
pub struct ProjectResult {
    /// Each checked file with its findings, in path order.
    pub files: Vec<CheckedFile>,
    /// Files that could not be checked.
    pub errors: Vec<FileError>,
    /// Files checked with a caveat (read as Latin-1), and why.
    pub warnings: Vec<FileWarning>,
}

impl ProjectResult {
    /// Number of findings over all files.
    pub fn n_violations(&self) -> usize {
        self.files
            .iter()
            .map(|f| f.result.violations.len() + f.result.unreleased.len())
            .sum()
    }

    /// How many findings are violations the code handles (`typestate-violation-handled`).
    pub fn n_handled(&self) -> usize {
        self.files
            .iter()
            .flat_map(|f| &f.result.violations)
            .filter(|v| v.kind == checker::ViolationKind::Handled)
            .count()
    }
}

/// The Java and Kotlin files named by `paths` (files as given, folders searched), sorted.
/// A path that does not exist, or a named file that is not Java or Kotlin, is an error.
pub fn collect(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<FileError>) {
    let mut files = Vec::new();
    let mut errors = Vec::new();
    let mut visited = Visited::default();
    for path in paths {
        if path.is_dir() {
            let before = files.len();
            walk(path, &mut files, &mut errors, &mut visited);
            if files.len() == before {
                errors.push(FileError::NoSources { path: path.clone() });
            }
        } else if path.exists() {
            // Read, or refused by name when it is not a regular file.
            files.push(path.clone());
        } else {
            errors.push(FileError::NoSuchPath { path: path.clone() });
        }
    }
    files.sort();
    files.dedup();
    (files, errors)
}

fn walk(dir: &Path, files: &mut Vec<PathBuf>, errors: &mut Vec<FileError>, visited: &mut Visited) {
    if !visited.first_visit(dir) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(err) => {
            errors.push(FileError::UnreadableFolder {
                path: dir.to_owned(),
                reason: err.to_string(),
            });
            return;
        }
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        let name = name.to_string_lossy();
        if path.is_dir() {
            if !SKIPPED_DIRS.contains(&name.as_ref())
                && !name.starts_with('.')
                && !is_build_output(&path, &name)
            {
                walk(&path, files, errors, visited);
            }
        } else if matches!(
            path.extension().and_then(|e| e.to_str()),
            Some("java" | "kt" | "kts")
        ) {
            files.push(path);
        }
    }
}

/// Whether the folder `dir`, named `name`, holds build output rather than sources: `build`
/// beside a Gradle build file, `target` beside a `pom.xml`, or `out` with class files in it.
fn is_build_output(dir: &Path, name: &str) -> bool {
    if name == "out" {
        return holds_class_files(dir);
    }
    let parent = dir.parent().unwrap_or(dir);
    BUILD_OUTPUT
        .iter()
        .filter(|(output, _)| *output == name)
        .any(|(_, markers)| markers.iter().any(|m| parent.join(m).is_file()))
}

/// Whether a `.class` file lies anywhere under `dir` (IntelliJ's and javac's `out`).
fn holds_class_files(dir: &Path) -> bool {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return false;
    };
    entries.flatten().any(|entry| {
        let path = entry.path();
        if entry.file_type().is_ok_and(|t| t.is_dir()) {
            holds_class_files(&path)
        } else {
            path.extension().is_some_and(|ext| ext == "class")
        }
    })
}

/// Reads the source file at `path`: a regular file within the checker's size limit.
pub fn read_source(path: &Path) -> std::io::Result<Vec<u8>> {
    let limit = u64::try_from(MAX_SOURCE_BYTES).unwrap_or(u64::MAX);
    typestates::files::read_regular(path, limit)
}

/// Reads and checks `paths` against `library`, using up to `jobs` threads, on the API levels
/// of each file's module, with `sdk` for the modules that do not say.
pub fn check_paths(
    library: &Library,
    paths: &[PathBuf],
    config: CheckConfig,
    jobs: usize,
    sdk: SdkSetting,
) -> ProjectResult {
    let (found, mut errors) = collect(paths);
    let mut warnings = Vec::new();
    let mut sources = OnDisk::default();
    let mut bands = LevelBands::new(library);
    for path in found {
        let read = read_source(&path)
            .map_err(|err| FileError::of_read(&path, &err))
            .and_then(|bytes| {
                SourceFile::decode(&path, bytes).map_err(|err| FileError::of_source(&err))
            });
        match read {
            Ok((source, encoding)) => {
                if encoding == Encoding::Latin1 {
                    warnings.push(FileWarning::Latin1 { path });
                }
                bands.read(&source.text);
                sources.add(&source, encoding);
            }
            Err(error) => errors.push(error),
        }
    }
    let mut reader = SdkReader::new(sdk);
    let apps: Vec<AppLevels> = sources.paths().map(|p| reader.levels_of(p)).collect();
    warnings.extend(
        reader
            .warnings
            .into_iter()
            .map(|(path, message)| FileWarning::LevelSetting { path, message }),
    );
    let jobs = jobs.max(1);
    let limit = config.time_limit;
    let results = check_on_levels(library, &sources, &bands.bands(), &apps, config, jobs);
    let mut files = Vec::new();
    for (index, (app, result)) in apps.into_iter().zip(results).enumerate() {
        let path = sources.path(index).to_owned();
        let checked = match result {
            Ok(checked) => checked,
            Err(Lost::Internal) => {
                errors.push(FileError::Internal { path });
                continue;
            }
            Err(Lost::Changed) => {
                errors.push(FileError::Changed { path });
                continue;
            }
        };
        errors.extend(FileError::incomplete(&path, &checked.result, limit));
        let wanted: Vec<u32> = checked
            .result
            .violations
            .iter()
            .map(|v| v.span.start.line)
            .collect();
        let source = if wanted.is_empty() {
            ShownFile {
                path,
                lines: BTreeMap::new(),
            }
        } else {
            // The report shows these lines: read the text again, as it was checked.
            match sources.text(index) {
                Some(text) => ShownFile::new(path, &text, wanted),
                None => {
                    errors.push(FileError::Changed { path });
                    continue;
                }
            }
        };
        files.push(CheckedFile {
            source,
            result: checked.result,
            app,
            violation_levels: checked.violation_levels,
            unreleased_levels: checked.unreleased_levels,
        });
    }
    ProjectResult {
        files,
        errors,
        warnings,
    }
}

/// Why a file has no result.
#[derive(Debug, Clone, Copy)]
enum Lost {
    /// The checker failed on it (it panicked).
    Internal,
    /// Its text changed or went away while it was checked.
    Changed,
}

/// A file's result with the levels of its findings.
struct OnLevels {
    result: CheckResult,
    violation_levels: Vec<LevelSet>,
    unreleased_levels: Vec<LevelSet>,
}

/// Checks `sources` once per range of levels on which the library is the same (once in all
/// when no protocol depends on the level), keeping each finding on the levels of its file's
/// module (`apps`, in the order of `sources`) where it happens.
fn check_on_levels(
    library: &Library,
    sources: &OnDisk,
    bands: &[ApiLevels],
    apps: &[AppLevels],
    config: CheckConfig,
    jobs: usize,
) -> Vec<Result<OnLevels, Lost>> {
    let mut merged: Vec<Option<Result<OnLevels, Lost>>> =
        (0..sources.len()).map(|_| None).collect();
    for &band in bands {
        if !apps.iter().any(|app| app.range().overlaps(band)) {
            continue;
        }
        let band_library = library_on(library, band);
        let project = Project::new(&band_library, sources, config.clone(), jobs);
        let results = check_all(&project, sources, jobs);
        for ((slot, app), result) in merged.iter_mut().zip(apps).zip(results) {
            let levels = band.intersect(app.range());
            if levels.is_empty() {
                continue;
            }
            match (slot.as_mut(), result) {
                (Some(Err(_)), _) => {}
                (_, Err(lost)) => *slot = Some(Err(lost)),
                (None, Ok(result)) => {
                    let mut on = OnLevels {
                        result: CheckResult {
                            violations: Vec::new(),
                            unreleased: Vec::new(),
                            ..result.clone()
                        },
                        violation_levels: Vec::new(),
                        unreleased_levels: Vec::new(),
                    };
                    on.add(result, levels);
                    *slot = Some(Ok(on));
                }
                (Some(Ok(on)), Ok(result)) => on.add(result, levels),
            }
        }
    }
    merged
        .into_iter()
        .map(|slot| slot.expect("every file's levels overlap some range of levels"))
        .collect()
}

impl OnLevels {
    /// Adds the findings of one range of levels, merging those found on other levels already.
    fn add(&mut self, result: CheckResult, levels: ApiLevels) {
        // What one band left unchecked stays said, whichever band came first.
        self.result.timed_out |= result.timed_out;
        for unconverged in result.unconverged {
            if !self.result.unconverged.contains(&unconverged) {
                self.result.unconverged.push(unconverged);
            }
        }
        for violation in result.violations {
            merge_finding(
                &mut self.result.violations,
                &mut self.violation_levels,
                violation,
                levels,
            );
        }
        for unreleased in result.unreleased {
            merge_finding(
                &mut self.result.unreleased,
                &mut self.unreleased_levels,
                unreleased,
                levels,
            );
        }
        sort_by_place(
            &mut self.result.violations,
            &mut self.violation_levels,
            |v: &Violation| (v.span.start.line, v.span.start.col),
        );
        sort_by_place(
            &mut self.result.unreleased,
            &mut self.unreleased_levels,
            |u: &Unreleased| (u.span.start.line, u.span.start.col),
        );
    }
}

/// Orders findings (and their levels alike) by place, stably.
fn sort_by_place<T, K: Ord>(found: &mut Vec<T>, on: &mut Vec<LevelSet>, key: impl Fn(&T) -> K) {
    let mut pairs: Vec<(T, LevelSet)> = found.drain(..).zip(on.drain(..)).collect();
    pairs.sort_by_key(|(finding, _)| key(finding));
    for (finding, levels) in pairs {
        found.push(finding);
        on.push(levels);
    }
}

/// Checks each source on a small pool of scoped threads; results keep the sources' order.
/// A panic inside the checker is caught and becomes that file's error, so one bad file never
/// takes the others down.
fn check_all(
    project: &Project<'_>,
    sources: &OnDisk,
    jobs: usize,
) -> Vec<Result<CheckResult, Lost>> {
    let next = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<Result<CheckResult, Lost>>>> =
        Mutex::new(vec![None; sources.len()]);
    std::thread::scope(|scope| {
        for _ in 0..jobs.min(sources.len()) {
            scope.spawn(|| loop {
                let index = next.fetch_add(1, Ordering::Relaxed);
                if index >= sources.len() {
                    break;
                }
                let result = if project.failed(index) {
                    Err(Lost::Internal)
                } else {
                    std::panic::catch_unwind(AssertUnwindSafe(|| project.check(index)))
                        .map_err(|_| Lost::Internal)
                        .and_then(|result| match project.unread(index) {
                            true => Err(Lost::Changed),
                            // The states at each call are for editors: no report shows them,
                            // and kept for every file they would grow with the project.
                            false => Ok(CheckResult {
                                calls: Vec::new(),
                                ..result
                            }),
                        })
                };
                results.lock().unwrap_or_else(|e| e.into_inner())[index] = Some(result);
            });
        }
    });
    results
        .into_inner()
        .unwrap_or_else(|e| e.into_inner())
        .into_iter()
        .map(|r| r.expect("every source was checked"))
        .collect()
}
