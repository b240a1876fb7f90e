//! Checking many files as one project, lowering each file at most once.
//!
//! [`Project::new`] finds the files worth checking with the [`NameFilter`] text test, lowers
//! them (in parallel), learns the classes they declare and their supertypes, and repeats for
//! files that name a project class found to extend a protocol class, until no new name turns
//! up. [`Project::check`] then analyses one file from its kept IR with the whole project's
//! supertypes, shared by reference.
//!
//! The IR of the analysed files is kept up to [`KEPT_TEXT_BYTES`] of their source text (the
//! IR takes about 13 times the text), spent as files are lowered; the IR of files past it is
//! dropped at once and they are lowered again when checked, which bounds the memory of very
//! large projects at the cost of a second lowering of those files.
//!
//! Parsing a file stops at [`CheckConfig::time_limit`] (tree-sitter's progress callback), as
//! the analysis does: a file whose parse runs out of time is reported as timed out, with no
//! findings, instead of holding a thread and its memory for minutes.
//!
//! A skipped file cannot produce a finding (see [`crate::prefilter`]); it is never parsed,
//! so its syntax errors are not reported either.
//! Its classes are not in [`Project::supertypes`]: they extend no protocol class, and the
//! checker asks the hierarchy only about protocol classes.
//! The results are those of [`crate::check`] with [`crate::project_supertypes`] for every
//! file that is checked.

use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use typestates::library::Library;

use crate::check::{check_lowered, declared_classes};
use crate::ir::SourceIr;
use crate::prefilter::{simple_name, NameFilter};
use crate::protocols::{add_supertypes, Protocols, Supertypes};
use crate::resolve::ClassInfo;
use crate::source::SourceFile;
use crate::{CheckConfig, CheckResult};

/// How much source text the kept IR may stand for (see the module documentation).
pub const KEPT_TEXT_BYTES: usize = 8 << 20;

/// A lowered file and the classes it declares.
struct Lowered {
    /// The IR, unless keeping it would pass the memory budget ([`KEPT_TEXT_BYTES`]).
    ir: Option<SourceIr>,
    classes: Vec<ClassInfo>,
}

/// What the project holds of one file.
enum Slot {
    /// Skipped by the prefilter: no findings.
    Skipped,
    /// Analysed, with its IR.
    Kept(SourceIr),
    /// Analysed, lowered again when checked (past the memory budget).
    Relower,
    /// Parsing ran out of time: reported as timed out, without findings.
    OutOfTime,
    /// Lowering panicked.
    Failed,
}

/// A set of files checked together.
pub struct Project<'a> {
    library: &'a Library,
    files: &'a [SourceFile],
    slots: Vec<Slot>,
    config: CheckConfig,
}

impl<'a> Project<'a> {
    /// Prepares `files` for checking against `library` with `config` (whose supertypes are
    /// extended by the project's own classes), using up to `jobs` threads.
    pub fn new(
        library: &'a Library,
        files: &'a [SourceFile],
        mut config: CheckConfig,
        jobs: usize,
    ) -> Project<'a> {
        let mut filter = NameFilter::new(library);
        let library_only = Protocols::new(library, Supertypes::new());
        let mut lowered: Vec<Option<Lowered>> = (0..files.len()).map(|_| None).collect();
        let mut failed = vec![false; files.len()];
        let mut out_of_time = vec![false; files.len()];
        let mut todo: Vec<usize> = (0..files.len())
            .filter(|&i| filter.matches(&files[i].text))
            .collect();
        // Supertypes learnt so far, and the classes not yet known to extend a protocol class.
        let mut interim = config.supertypes.clone();
        let mut pending: Vec<String> = Vec::new();
        // The budget is spent as files are lowered, so that the IR of the files past it is
        // dropped at once rather than held until every file is lowered.
        let budget = AtomicUsize::new(KEPT_TEXT_BYTES);
        while !todo.is_empty() {
            let limit = config.time_limit;
            let lowering = Lowering {
                files,
                library_only: &library_only,
                limit,
                budget: &budget,
            };
            for (i, result) in lowering.all(&todo, jobs) {
                match result {
                    Outcome::Lowered(file) => {
                        let file = *file;
                        for info in &file.classes {
                            add_supertypes(&mut interim, &info.fqn, &info.supertypes);
                            pending.push(info.fqn.clone());
                        }
                        lowered[i] = Some(file);
                    }
                    Outcome::OutOfTime => out_of_time[i] = true,
                    Outcome::Panicked => failed[i] = true,
                }
            }
            let mut new_names = NameFilter::default();
            {
                let protocols = Protocols::with_project(library, &interim);
                pending.retain(|fqn| {
                    if protocols.protocol_of(fqn).is_none() {
                        return true;
                    }
                    let name = simple_name(fqn);
                    if filter.add(name) {
                        new_names.add(name);
                    }
                    false
                });
            }
            todo = if new_names.is_empty() {
                Vec::new()
            } else {
                (0..files.len())
                    .filter(|&i| lowered[i].is_none() && !failed[i] && !out_of_time[i])
                    .filter(|&i| new_names.matches(&files[i].text))
                    .collect()
            };
        }
        for file in lowered.iter().flatten() {
            for info in &file.classes {
                add_supertypes(&mut config.supertypes, &info.fqn, &info.supertypes);
            }
        }
        let slots = lowered
            .into_iter()
            .zip(failed.iter().zip(&out_of_time))
            .map(|(lowered, (&failed, &out_of_time))| match lowered {
                Some(Lowered { ir: Some(ir), .. }) => Slot::Kept(ir),
                Some(Lowered { ir: None, .. }) => Slot::Relower,
                None if failed => Slot::Failed,
                None if out_of_time => Slot::OutOfTime,
                None => Slot::Skipped,
            })
            .collect();
        Project {
            library,
            files,
            slots,
            config,
        }
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the project has no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether file `index` is analysed (its text names something a protocol object can come
    /// from, and it was parsed in time); the others have no findings.
    pub fn is_analysed(&self, index: usize) -> bool {
        matches!(self.slots.get(index), Some(Slot::Kept(_) | Slot::Relower))
    }

    /// Whether lowering file `index` failed with an internal error.
    pub fn failed(&self, index: usize) -> bool {
        matches!(self.slots.get(index), Some(Slot::Failed))
    }

    /// The supertypes of the project's analysed classes (and of the configuration's).
    pub fn supertypes(&self) -> &Supertypes {
        &self.config.supertypes
    }

    /// Checks file `index` (an empty result for a skipped file or an index out of range).
    pub fn check(&self, index: usize) -> CheckResult {
        match (self.files.get(index), self.slots.get(index)) {
            (Some(file), Some(Slot::Kept(ir))) => {
                check_lowered(self.library, &file.text, ir, &self.config, None).0
            }
            (Some(file), Some(Slot::Relower)) => match lower_within(file, self.config.time_limit) {
                Some(ir) => check_lowered(self.library, &file.text, &ir, &self.config, None).0,
                None => timed_out(),
            },
            (Some(_), Some(Slot::OutOfTime)) => timed_out(),
            _ => CheckResult::default(),
        }
    }
}

/// The result of a file that ran out of time: no findings, marked as cut short.
fn timed_out() -> CheckResult {
    CheckResult {
        timed_out: true,
        ..CheckResult::default()
    }
}

/// Parses `file`, giving up when parsing takes longer than `limit`, and lowers it; `None`
/// when parsing ran out of time.
pub(crate) fn lower_within(file: &SourceFile, limit: Duration) -> Option<SourceIr> {
    crate::lang::lower_within(file.language, &file.text, Instant::now().checked_add(limit)).ok()
}

/// What lowering one file gave.
enum Outcome {
    /// The IR and the classes the file declares.
    Lowered(Box<Lowered>),
    /// Parsing ran out of time.
    OutOfTime,
    /// Lowering panicked.
    Panicked,
}

/// What lowering a round of files needs.
struct Lowering<'f, 'p, 'l> {
    files: &'f [SourceFile],
    library_only: &'p Protocols<'l>,
    /// How long parsing one file may take.
    limit: Duration,
    /// The source bytes whose IR may still be kept.
    budget: &'f AtomicUsize,
}

impl Lowering<'_, '_, '_> {
    /// Lowers the files `todo` names and resolves their class declarations, on up to `jobs`
    /// threads, parsing each within the limit and keeping its IR while the budget lasts.
    fn all(&self, todo: &[usize], jobs: usize) -> Vec<(usize, Outcome)> {
        let jobs = jobs.clamp(1, todo.len().max(1));
        if jobs == 1 {
            return todo.iter().map(|&i| (i, self.one(i))).collect();
        }
        let next = AtomicUsize::new(0);
        let out = Mutex::new(Vec::with_capacity(todo.len()));
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                scope.spawn(|| {
                    let mut mine = Vec::new();
                    while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        mine.push((i, self.one(i)));
                    }
                    out.lock().unwrap_or_else(|e| e.into_inner()).extend(mine);
                });
            }
        });
        out.into_inner().unwrap_or_else(|e| e.into_inner())
    }

    fn one(&self, i: usize) -> Outcome {
        let file = &self.files[i];
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            lower_within(file, self.limit).map(|ir| {
                let classes = declared_classes(&ir, self.library_only);
                let len = file.text.len();
                let kept = self
                    .budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                        left.checked_sub(len)
                    })
                    .is_ok();
                Lowered {
                    ir: kept.then_some(ir),
                    classes,
                }
            })
        }))
        .map_or(Outcome::Panicked, |lowered| {
            lowered.map_or(Outcome::OutOfTime, |file| Outcome::Lowered(Box::new(file)))
        })
    }
}
