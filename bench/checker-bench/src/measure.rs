//! Runs each measured job as a child process under GNU time (`/usr/bin/time`), which gives
//! the child's user and system CPU time and its peak resident set size; the wall time is
//! taken here, around spawn and wait.

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::Instant;

use crate::phase::{Phase, Tally};

/// What is measured in one child process.
#[derive(Debug, Clone, PartialEq)]
pub enum Job {
    /// A phase of this binary (`checker-bench phase …`).
    Checker(Phase),
    /// `ast-grep scan` with the rules of `config`.
    AstGrep {
        /// The ast-grep binary.
        binary: PathBuf,
        /// The `sgconfig.yml` naming the rule folder.
        config: PathBuf,
    },
}

impl Job {
    /// The row label.
    pub fn label(&self) -> String {
        match self {
            Job::Checker(phase) => format!("typestar {}", phase.name()),
            Job::AstGrep { .. } => "ast-grep scan".to_owned(),
        }
    }
}

/// One run of one job.
#[derive(Debug, Clone)]
pub struct Run {
    /// Wall-clock seconds, spawn to exit.
    pub wall_s: f64,
    /// User plus system CPU seconds of the child.
    pub cpu_s: f64,
    /// Peak resident set size of the child, in KiB.
    pub max_rss_kib: u64,
    /// What a checker phase reported (`None` for ast-grep).
    pub tally: Option<Tally>,
    /// Matches reported by ast-grep (`None` for checker phases).
    pub matches: Option<usize>,
}

/// Runs `job` once over `corpus` on `threads` threads.
pub fn run(job: &Job, corpus: &Path, threads: usize, time: &Path) -> Result<Run, String> {
    let stats = std::env::temp_dir().join(format!(
        "checker-bench-time-{}-{}.txt",
        std::process::id(),
        threads
    ));
    let mut cmd = Command::new(time);
    cmd.arg("-f").arg("%U %S %M").arg("-o").arg(&stats);
    match job {
        Job::Checker(phase) => {
            let me = std::env::current_exe().map_err(|e| format!("current_exe: {e}"))?;
            cmd.arg(me)
                .arg("phase")
                .arg(phase.name())
                .arg("--threads")
                .arg(threads.to_string())
                .arg("--corpus")
                .arg(corpus);
        }
        Job::AstGrep { binary, config } => {
            cmd.arg(binary).arg("scan");
            // The corpus lives under a gitignored folder: read every file regardless.
            for kind in ["hidden", "dot", "exclude", "global", "parent", "vcs"] {
                cmd.arg("--no-ignore").arg(kind);
            }
            cmd.arg("--threads")
                .arg(threads.to_string())
                .arg("--config")
                .arg(config)
                .arg("--json=stream")
                .arg(corpus);
        }
    }
    cmd.stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    let start = Instant::now();
    let out = cmd
        .output()
        .map_err(|e| format!("cannot run {}: {e}", time.display()))?;
    let wall_s = start.elapsed().as_secs_f64();
    let stats_text = std::fs::read_to_string(&stats).unwrap_or_default();
    let _ = std::fs::remove_file(&stats);
    let stdout = String::from_utf8_lossy(&out.stdout);
    // ast-grep exits 1 when an error-severity rule matches; our rules are warnings, but a
    // non-zero exit with JSON output is still a completed scan.
    let completed_scan = matches!(job, Job::AstGrep { .. }) && !stdout.is_empty();
    if !out.status.success() && !completed_scan {
        return Err(format!(
            "{} failed ({}): {}",
            job.label(),
            out.status,
            String::from_utf8_lossy(&out.stderr).trim()
        ));
    }
    let fields: Vec<&str> = stats_text
        .lines()
        .last()
        .unwrap_or("")
        .split_whitespace()
        .collect();
    let parse = |i: usize| fields.get(i).and_then(|s| s.parse::<f64>().ok());
    let (Some(user), Some(sys), Some(rss)) = (parse(0), parse(1), parse(2)) else {
        return Err(format!(
            "unexpected output of {}: {stats_text:?}",
            time.display()
        ));
    };
    let (tally, matches) = match job {
        Job::Checker(_) => {
            let line = stdout.lines().last().unwrap_or("");
            let (tally, _) = Tally::from_line(line)
                .ok_or_else(|| format!("unexpected output of the phase child: {line:?}"))?;
            (Some(tally), None)
        }
        Job::AstGrep { .. } => (
            None,
            Some(stdout.lines().filter(|l| !l.trim().is_empty()).count()),
        ),
    };
    Ok(Run {
        wall_s,
        cpu_s: user + sys,
        max_rss_kib: rss as u64,
        tally,
        matches,
    })
}

/// Summary statistics of several runs of one job.
#[derive(Debug, Clone)]
pub struct Summary {
    /// Median wall seconds.
    pub wall_median: f64,
    /// Fastest wall seconds.
    pub wall_min: f64,
    /// Median CPU seconds.
    pub cpu_median: f64,
    /// Largest peak RSS over the runs, in MiB.
    pub max_rss_mib: f64,
}

/// Summarises `runs` (at least one).
pub fn summarise(runs: &[Run]) -> Summary {
    let median = |mut xs: Vec<f64>| {
        xs.sort_by(f64::total_cmp);
        let n = xs.len();
        if n == 0 {
            f64::NAN
        } else if n % 2 == 1 {
            xs[n / 2]
        } else {
            (xs[n / 2 - 1] + xs[n / 2]) / 2.0
        }
    };
    Summary {
        wall_median: median(runs.iter().map(|r| r.wall_s).collect()),
        wall_min: runs.iter().map(|r| r.wall_s).fold(f64::INFINITY, f64::min),
        cpu_median: median(runs.iter().map(|r| r.cpu_s).collect()),
        max_rss_mib: runs.iter().map(|r| r.max_rss_kib).max().unwrap_or(0) as f64 / 1024.0,
    }
}
