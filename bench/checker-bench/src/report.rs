//! The markdown report: the command, the machine, the corpus, one row per measured job and
//! thread count, and the ratios issue 5 sets targets for.

use std::fmt::Write as _;
use std::path::Path;
use std::process::Command;

use crate::corpus::{Counts, Source};
use crate::measure::{summarise, Job, Run, Summary};
use crate::phase::Phase;
use crate::Config;

/// The measurements of one job at one thread count.
#[derive(Debug, Clone)]
pub struct Row {
    /// The job.
    pub job: Job,
    /// Threads given to it.
    pub threads: usize,
    /// Its runs.
    pub runs: Vec<Run>,
    /// Their summary.
    pub summary: Summary,
}

impl Row {
    /// Summarises `runs`.
    pub fn new(job: Job, threads: usize, runs: Vec<Run>) -> Row {
        let summary = summarise(&runs);
        Row {
            job,
            threads,
            runs,
            summary,
        }
    }

    fn output(&self) -> String {
        let Some(last) = self.runs.last() else {
            return String::new();
        };
        match (&self.job, &last.tally, last.matches) {
            (Job::Checker(phase), Some(t), _) => {
                let mut s = format!("{} {}", t.units, phase.unit());
                if t.with_errors > 0 {
                    let _ = write!(s, "; {} files with syntax errors", t.with_errors);
                }
                if t.timed_out > 0 {
                    let _ = write!(s, "; {} files timed out", t.timed_out);
                }
                if t.refused > 0 {
                    let _ = write!(s, "; {} files refused", t.refused);
                }
                s
            }
            (_, _, Some(m)) => format!("{m} matches"),
            _ => String::new(),
        }
    }
}

/// Everything the report shows.
pub struct Report<'a> {
    /// The command that produced it.
    pub command: String,
    /// The options.
    pub config: &'a Config,
    /// The corpus sources.
    pub sources: &'a [Source],
    /// The corpus totals.
    pub total: &'a Counts,
    /// The measurements.
    pub rows: &'a [Row],
    /// `/proc/loadavg` before and after the runs.
    pub load: (&'a str, &'a str),
    /// `ast-grep --version`, if ast-grep was measured.
    pub ast_grep_version: Option<String>,
}

/// The first line `binary --version` prints.
pub fn tool_version(binary: &Path) -> Option<String> {
    let out = Command::new(binary).arg("--version").output().ok()?;
    let text = String::from_utf8_lossy(&out.stdout);
    text.lines().next().map(|l| l.trim().to_owned())
}

/// The short hash of the checked-out commit, or `unknown`.
pub fn git_commit() -> String {
    git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into())
}

fn git(args: &[&str]) -> Option<String> {
    let out = Command::new("git").args(args).output().ok()?;
    out.status
        .success()
        .then(|| String::from_utf8_lossy(&out.stdout).trim().to_owned())
}

/// Today's date in UTC as `YYYY-MM-DD` (Howard Hinnant's civil-from-days).
pub fn today() -> String {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_secs());
    let z = (secs / 86_400) as i64 + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

fn cpu_model() -> String {
    std::fs::read_to_string("/proc/cpuinfo")
        .ok()
        .and_then(|s| {
            s.lines()
                .find(|l| l.starts_with("model name"))
                .and_then(|l| l.split_once(':'))
                .map(|(_, v)| v.trim().to_owned())
        })
        .unwrap_or_else(|| "unknown CPU".to_owned())
}

fn kloc(n: usize) -> String {
    format!("{:.1}", n as f64 / 1000.0)
}

/// Whether the wall and the CPU ratio are within `target`.
fn met(wall: f64, cpu: f64, target: f64) -> String {
    let yes = |r: f64| {
        if r.is_finite() && r <= target {
            "yes"
        } else {
            "no"
        }
    };
    format!("{}, {}", yes(wall), yes(cpu))
}

/// `a / b` with two decimals, or `n/a` when `b` is too small to measure.
fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "n/a".to_owned()
    }
}

fn find(rows: &[Row], want: impl Fn(&Job) -> bool, threads: usize) -> Option<&Row> {
    rows.iter().find(|r| r.threads == threads && want(&r.job))
}

/// Renders the report.
pub fn render(r: &Report<'_>) -> String {
    let mut s = String::new();
    let c = r.config;
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    let _ = writeln!(s, "# Checker benchmark\n");
    let _ = writeln!(s, "Produced by `{}`", r.command);
    let _ = writeln!(
        s,
        "on {} at commit {}, {} repetitions per row, each in a fresh child process.",
        today(),
        git(&["rev-parse", "--short", "HEAD"]).unwrap_or_else(|| "unknown".into()),
        c.reps
    );
    let _ = writeln!(
        s,
        "Machine: {} logical cores ({}); load average before `{}`, after `{}`.",
        cores,
        cpu_model(),
        r.load.0,
        r.load.1
    );
    if let Some(v) = &r.ast_grep_version {
        let _ = writeln!(s, "ast-grep: `{v}`, rules `{}`.", c.sg_config.display());
    }
    let _ = writeln!(s, "\n## Corpus\n");
    let _ = writeln!(
        s,
        "`{}`: {} files, {} kLOC (non-blank lines), {:.1} MB.\n",
        c.corpus.display(),
        r.total.files(),
        kloc(r.total.loc()),
        r.total.bytes as f64 / 1e6
    );
    let _ = writeln!(
        s,
        "| source | fetched from | Java files | Kotlin files | Java kLOC | Kotlin kLOC |"
    );
    let _ = writeln!(s, "|---|---|---:|---:|---:|---:|");
    for src in r.sources {
        let k = &src.counts;
        let _ = writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} |",
            src.name,
            src.spec.as_deref().unwrap_or("-"),
            k.java_files,
            k.kotlin_files,
            kloc(k.java_loc),
            kloc(k.kotlin_loc)
        );
    }
    let t = r.total;
    let _ = writeln!(
        s,
        "| **total** | | {} | {} | {} | {} |",
        t.java_files,
        t.kotlin_files,
        kloc(t.java_loc),
        kloc(t.kotlin_loc)
    );
    let _ = writeln!(s, "\n## Results\n");
    let _ = writeln!(
        s,
        "Wall time is spawn to exit of the child (process start, file reading and the work); \
         CPU is user + system time and peak RSS the maximum resident set, both from GNU time."
    );
    let _ = writeln!(
        s,
        "On a loaded machine (see the load average above) wall time includes waiting for a core \
         and CPU time does not, so compare CPU times when the load exceeds the core count."
    );
    let _ = writeln!(
        s,
        "\n| job | threads | wall median (s) | wall min (s) | CPU median (s) | peak RSS (MiB) | output |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---:|---|");
    for row in r.rows {
        let m = &row.summary;
        let _ = writeln!(
            s,
            "| {} | {} | {:.3} | {:.3} | {:.3} | {:.1} | {} |",
            row.job.label(),
            row.threads,
            m.wall_median,
            m.wall_min,
            m.cpu_median,
            m.max_rss_mib,
            row.output()
        );
    }
    ratios(&mut s, r);
    s
}

/// The ratios against the targets of issue 5: check at most 2x parse, no slower than
/// ast-grep, under 200 MB peak memory.
fn ratios(s: &mut String, r: &Report<'_>) {
    let mut subjects: Vec<Phase> = [Phase::Check, Phase::CheckProject]
        .into_iter()
        .filter(|p| r.config.phases.contains(p))
        .collect();
    if subjects.is_empty() {
        subjects.push(Phase::Frontend);
    }
    let is = |p: Phase| move |j: &Job| *j == Job::Checker(p);
    let is_sg = |j: &Job| matches!(j, Job::AstGrep { .. });
    let _ = writeln!(s, "\n## Ratios and targets\n");
    if subjects == [Phase::Frontend] {
        let _ = writeln!(
            s,
            "**The full check is not measured** here; the ratios below use the front end \
             (lowering, resolution, CFGs), a lower bound on the check's cost.\n"
        );
    }
    let _ = writeln!(
        s,
        "| ratio | threads | wall median | wall min | CPU median | target | met (wall median, CPU median) |"
    );
    let _ = writeln!(s, "|---|---:|---:|---:|---:|---|---|");
    for &subject in &subjects {
        for &threads in &r.config.threads {
            let Some(subj) = find(r.rows, is(subject), threads) else {
                continue;
            };
            for (name, other, target) in [
                ("parse", find(r.rows, is(Phase::Parse), threads), 2.0),
                ("ast-grep", find(r.rows, is_sg, threads), 1.0),
            ] {
                let Some(other) = other else { continue };
                let (a, b) = (&subj.summary, &other.summary);
                let _ = writeln!(
                    s,
                    "| {} / {} | {} | {} | {} | {} | ≤ {:.0}x | {} |",
                    subject.name(),
                    name,
                    threads,
                    ratio(a.wall_median, b.wall_median),
                    ratio(a.wall_min, b.wall_min),
                    ratio(a.cpu_median, b.cpu_median),
                    target,
                    met(
                        a.wall_median / b.wall_median,
                        a.cpu_median / b.cpu_median,
                        target
                    )
                );
            }
        }
    }
    let _ = writeln!(s);
    for &subject in &subjects {
        let peak = r
            .rows
            .iter()
            .filter(|row| row.job == Job::Checker(subject))
            .map(|row| row.summary.max_rss_mib)
            .fold(0.0, f64::max);
        let _ = writeln!(
            s,
            "Peak memory of `{}`: {:.1} MiB ({:.1} MB) over all thread counts; target < 200 MB: {}.",
            subject.name(),
            peak,
            peak * 1.048_576,
            if peak * 1.048_576 < 200.0 { "met" } else { "not met" }
        );
    }
}
