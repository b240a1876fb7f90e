//! One timed phase over the whole corpus, run inside a child process so that its peak memory
//! is its own: each file is read, accepted as a [`SourceFile`] and processed, then dropped.
//!
//! Phases:
//! - `parse`: tree-sitter parsing only, through `checker::lang::parse` (the checker's own
//!   grammar versions and parser set-up);
//! - `frontend`: the checker's passes that exist so far: lowering to the IR, name and type
//!   resolution against the bundled library, and a control-flow graph per method and
//!   initializer body;
//! - `check`: the full `checker::check` with the bundled library, file by file, without
//!   cross-file supertypes (`CheckConfig::default()`, which only parses the files the name
//!   prefilter rules out);
//! - `check-project`: what `typestar check DIR` does (`server/src/project.rs`): every file
//!   read once and remembered by path ([`checker::OnDisk`]), a `checker::Project` over them
//!   (the name prefilter, then one lowering of each remaining file, split over the threads,
//!   and the project's supertypes, reading each text again when a pass needs it), then
//!   `Project::check` of each file.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use checker::source::{Encoding, SourceFile};
use checker::CheckConfig;
use checker::OnDisk;
use typestates::library::Library;

/// The phases a child can run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Phase {
    /// tree-sitter parsing only.
    Parse,
    /// Lowering, resolution and CFG construction.
    Frontend,
    /// The full check, file by file.
    Check,
    /// The project pre-pass for supertypes, then the full check.
    CheckProject,
}

impl Phase {
    /// The phases in report order.
    pub const ALL: [Phase; 4] = [
        Phase::Parse,
        Phase::Frontend,
        Phase::Check,
        Phase::CheckProject,
    ];

    /// The command-line name.
    pub fn name(self) -> &'static str {
        match self {
            Phase::Parse => "parse",
            Phase::Frontend => "frontend",
            Phase::Check => "check",
            Phase::CheckProject => "check-project",
        }
    }

    /// The phase named `name`.
    pub fn from_name(name: &str) -> Option<Phase> {
        Phase::ALL.into_iter().find(|p| p.name() == name)
    }

    /// What the per-file count of [`Tally::units`] means for this phase.
    pub fn unit(self) -> &'static str {
        match self {
            Phase::Parse => "syntax nodes",
            Phase::Frontend => "IR expressions",
            Phase::Check | Phase::CheckProject => "violations",
        }
    }
}

/// What a phase saw, summed over files.
#[derive(Debug, Clone, Default)]
pub struct Tally {
    /// Files processed.
    pub files: usize,
    /// Files the checker refused (not UTF-8, too large) or could not read.
    pub refused: usize,
    /// Files whose tree has syntax errors (parse and frontend only).
    pub with_errors: usize,
    /// Files whose check hit `CheckConfig::time_limit` (check phases only).
    pub timed_out: usize,
    /// The phase's own count, see [`Phase::unit`].
    pub units: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        self.files += other.files;
        self.refused += other.refused;
        self.with_errors += other.with_errors;
        self.timed_out += other.timed_out;
        self.units += other.units;
    }

    /// The line a child prints for its parent.
    pub fn to_line(&self, elapsed_s: f64) -> String {
        format!(
            "files={} refused={} with_errors={} timed_out={} units={} elapsed_s={elapsed_s:.6}",
            self.files, self.refused, self.with_errors, self.timed_out, self.units
        )
    }

    /// Parses a line written by [`Tally::to_line`].
    pub fn from_line(line: &str) -> Option<(Tally, f64)> {
        let mut tally = Tally::default();
        let mut elapsed = None;
        for pair in line.split_whitespace() {
            let (key, value) = pair.split_once('=')?;
            match key {
                "files" => tally.files = value.parse().ok()?,
                "refused" => tally.refused = value.parse().ok()?,
                "with_errors" => tally.with_errors = value.parse().ok()?,
                "timed_out" => tally.timed_out = value.parse().ok()?,
                "units" => tally.units = value.parse().ok()?,
                "elapsed_s" => elapsed = value.parse().ok(),
                _ => {}
            }
        }
        Some((tally, elapsed?))
    }
}

/// Runs `phase` over `files` on `threads` threads and returns the tally and the seconds spent.
pub fn run(phase: Phase, files: &[PathBuf], threads: usize) -> (Tally, f64) {
    let start = Instant::now();
    let library = Library::bundled();
    let cx = Context::new(phase, &library);
    let (sources, index) = if phase == Phase::CheckProject {
        load(files)
    } else {
        (OnDisk::default(), Vec::new())
    };
    let project = (phase == Phase::CheckProject)
        .then(|| checker::Project::new(&library, &sources, CheckConfig::default(), threads));
    let cx = Context {
        project: project.as_ref().map(|p| (p, index)),
        ..cx
    };
    let next = AtomicUsize::new(0);
    let total = Mutex::new(Tally::default());
    std::thread::scope(|scope| {
        for _ in 0..threads.max(1) {
            scope.spawn(|| {
                let mut tally = Tally::default();
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(path) = files.get(i) else { break };
                    cx.file(i, path, &mut tally);
                }
                total
                    .lock()
                    .unwrap_or_else(|poisoned| poisoned.into_inner())
                    .add(&tally);
            });
        }
    });
    let tally = total
        .into_inner()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    (tally, start.elapsed().as_secs_f64())
}

/// Reads `path` and accepts it as a source file.
fn read(path: &Path) -> Option<SourceFile> {
    std::fs::read(path)
        .ok()
        .and_then(|bytes| SourceFile::from_bytes(path, bytes).ok())
}

/// Reads every file once; the accepted ones remembered in order, and for each path its index
/// among them.
fn load(paths: &[PathBuf]) -> (OnDisk, Vec<Option<usize>>) {
    let mut accepted = OnDisk::default();
    let index = paths
        .iter()
        .map(|p| Some(accepted.add(&read(p)?, Encoding::Utf8)))
        .collect();
    (accepted, index)
}

/// What a phase needs besides the file: the bundled library, loaded once.
struct Context<'p> {
    phase: Phase,
    known: std::collections::HashSet<String>,
    library: &'p Library,
    /// For `check-project`: the project, and for each path its index in the project.
    project: Option<(&'p checker::Project<'p>, Vec<Option<usize>>)>,
}

impl<'p> Context<'p> {
    fn new(phase: Phase, library: &'p Library) -> Context<'p> {
        Context {
            phase,
            known: library.iter().map(|e| e.class().to_owned()).collect(),
            library,
            project: None,
        }
    }

    fn file(&self, index: usize, path: &Path, tally: &mut Tally) {
        tally.files += 1;
        if let Some((project, paths)) = &self.project {
            match paths.get(index).copied().flatten() {
                Some(i) => Self::tally(&project.check(i), tally),
                None => tally.refused += 1,
            }
            return;
        }
        let Some(file) = read(path) else {
            tally.refused += 1;
            return;
        };
        match self.phase {
            Phase::Parse => {
                let Some(tree) = checker::lang::parse(file.language, &file.text) else {
                    tally.refused += 1;
                    return;
                };
                let root = tree.root_node();
                tally.units += root.descendant_count() as u64;
                tally.with_errors += usize::from(root.has_error());
            }
            Phase::Frontend => {
                let ir = checker::lang::lower(file.language, &file.text);
                let res = checker::resolve::resolve(&ir, &self.known);
                std::hint::black_box(&res);
                let mut n_nodes = 0usize;
                for class in &ir.classes {
                    n_nodes += cfg_nodes(class, file.language);
                }
                std::hint::black_box(n_nodes);
                tally.units += u64::from(ir.n_exprs);
                tally.with_errors += usize::from(!ir.syntax_errors.is_empty());
            }
            Phase::Check | Phase::CheckProject => {
                self.check(&file, &CheckConfig::default(), tally);
            }
        }
    }

    fn check(&self, file: &SourceFile, config: &CheckConfig, tally: &mut Tally) {
        Self::tally(&checker::check(self.library, file, config), tally);
    }

    fn tally(res: &checker::CheckResult, tally: &mut Tally) {
        tally.units += res.violations.len() as u64;
        tally.with_errors += usize::from(!res.syntax_errors.is_empty());
        tally.timed_out += usize::from(res.timed_out);
    }
}

/// Builds the control-flow graph of every method and initializer body of `class` and its
/// nested classes; returns the number of graph nodes.
fn cfg_nodes(class: &checker::ir::Class, language: checker::ir::Language) -> usize {
    let mut n = 0;
    for body in class
        .methods
        .iter()
        .filter_map(|m| m.body.as_ref())
        .chain(&class.initializers)
    {
        n += checker::cfg::Cfg::build(body, language).nodes.len();
    }
    n + class
        .classes
        .iter()
        .map(|nested| cfg_nodes(nested, language))
        .sum::<usize>()
}
