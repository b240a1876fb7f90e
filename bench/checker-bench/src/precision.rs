//! `checker-bench precision`: how many of the checker's findings on the corpus are true.
//!
//! The checker runs over the corpus as `typestar check DIR` does (a [`checker::Project`] with
//! the bundled library and [`CheckConfig::default`]); each finding becomes a JSON record with
//! the fields of the `typestar-check/1` report, paths relative to the corpus.
//! The records are written beside the report and are the source of truth for the matching,
//! which can also read a `typestar check --format json` report instead (`--findings`).
//!
//! Each finding is matched to a verdict of `bench/checker/verdicts.toml` by its corpus path,
//! line, called method and receiver; the kind (definite, possible, handled) is compared but is
//! not part of the key, since it may change as the analysis improves.
//! A `true-handled` verdict counts as true only when the checker reports the finding as
//! handled (a kind or diagnostic code naming `handled`).

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use checker::CheckConfig;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use typestates::library::Library;

use crate::corpus;

/// The options of `checker-bench precision`.
#[derive(Debug, Clone)]
pub struct Options {
    /// The corpus folder.
    pub corpus: PathBuf,
    /// The verdicts file.
    pub verdicts: PathBuf,
    /// A `typestar check --format json` report to read instead of running the checker.
    pub findings: Option<PathBuf>,
    /// Where to write the markdown report.
    pub out: Option<PathBuf>,
    /// Where to write the findings as JSON (when the checker ran here).
    pub json_out: Option<PathBuf>,
    /// What decides the exit status.
    pub gate: Gate,
    /// Threads for the checker.
    pub threads: usize,
}

/// What decides the exit status of a precision run.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Gate {
    /// Report only: exit 0 whatever the numbers.
    Report,
    /// Exit 1 when a judged-true finding was lost or a finding is not judged.
    Check,
}

/// The verdict on one finding, after reading the code at its place.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Verdict {
    /// Reachable at run time in an offending state, and nothing handles it.
    True,
    /// As `True`, but inside a `try` that catches the exception on purpose.
    TrueHandled,
    /// No feasible run reaches an offending state, or the transition does not fail.
    False,
}

impl Verdict {
    fn name(self) -> &'static str {
        match self {
            Verdict::True => "true",
            Verdict::TrueHandled => "true-handled",
            Verdict::False => "false",
        }
    }

    /// Whether the finding is real, handled or not.
    fn is_real(self) -> bool {
        self != Verdict::False
    }
}

/// One judged finding of the verdicts file.
#[derive(Debug, Clone, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Judged {
    /// The file, relative to the corpus folder.
    pub path: String,
    /// The 1-based line of the call.
    pub line: usize,
    /// The called method.
    pub callin: String,
    /// The receiver as the checker writes it.
    pub receiver: String,
    /// The protocol class, fully qualified.
    pub class: String,
    /// The kind the checker reported when the finding was judged.
    pub kind: String,
    /// The verdict.
    pub verdict: Verdict,
    /// For a false finding, the root cause (a letter of issue 15's causes, or words).
    #[serde(default)]
    pub cause: Option<String>,
    /// Why, in one line.
    pub reason: String,
}

/// The verdicts file.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct VerdictsFile {
    finding: Vec<Judged>,
}

/// A finding as the `typestar-check/1` JSON report gives it (the fields the benchmark uses).
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Finding {
    /// The file; relative to the corpus folder once read.
    pub path: String,
    /// The 1-based line.
    pub line: usize,
    /// The 1-based column.
    pub column: usize,
    /// The diagnostic code.
    pub code: String,
    /// `definite`, `possible`, ...
    pub kind: String,
    /// The message.
    pub message: String,
    /// The protocol class.
    pub class: String,
    /// The called method.
    pub callin: String,
    /// The receiver as written.
    pub receiver: String,
    /// The states in which the call fails.
    #[serde(default)]
    pub offending_states: Vec<String>,
}

impl Finding {
    fn key(&self) -> Key {
        (
            self.path.clone(),
            self.line,
            self.callin.clone(),
            self.receiver.clone(),
        )
    }

    /// Whether the checker reports the finding as handled by the code.
    fn reported_handled(&self) -> bool {
        self.kind.contains("handled") || self.code.contains("handled")
    }

    fn place(&self) -> String {
        format!("{}:{}", self.path, self.line)
    }
}

/// The key a finding and its verdict share: path, line, called method, receiver.
type Key = (String, usize, String, String);

fn judged_key(j: &Judged) -> Key {
    (j.path.clone(), j.line, j.callin.clone(), j.receiver.clone())
}

/// Runs the precision benchmark; returns whether the gate passed.
pub fn run(options: &Options, command: &str) -> Result<bool, String> {
    let verdicts = read_verdicts(&options.verdicts)?;
    let findings = match &options.findings {
        Some(report) => read_report(report, &options.corpus)?,
        None => {
            let findings = check_corpus(&options.corpus, options.threads)?;
            if let Some(out) = &options.json_out {
                let text = serde_json::to_string_pretty(&findings)
                    .map_err(|e| format!("findings as JSON: {e}"))?;
                write(out, &(text + "\n"))?;
            }
            findings
        }
    };
    let tally = Tally::new(&findings, &verdicts);
    let text = render(&tally, options, command);
    print!("{text}");
    if let Some(out) = &options.out {
        write(out, &text)?;
    }
    Ok(options.gate == Gate::Report || tally.gate_passes())
}

fn write(path: &Path, text: &str) -> Result<(), String> {
    if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
    }
    std::fs::write(path, text).map_err(|e| format!("{}: {e}", path.display()))
}

/// Reads the verdicts file; a key judged twice is an error.
pub fn read_verdicts(path: &Path) -> Result<Vec<Judged>, String> {
    let text = std::fs::read_to_string(path).map_err(|e| format!("{}: {e}", path.display()))?;
    let file: VerdictsFile =
        toml::from_str(&text).map_err(|e| format!("{}: {e}", path.display()))?;
    let mut seen = BTreeSet::new();
    for judged in &file.finding {
        if !seen.insert(judged_key(judged)) {
            return Err(format!(
                "{}: {}:{} {}() on {} is judged twice",
                path.display(),
                judged.path,
                judged.line,
                judged.callin,
                judged.receiver
            ));
        }
    }
    Ok(file.finding)
}

/// Runs the checker over the corpus as `typestar check` does; findings in path order.
pub fn check_corpus(root: &Path, threads: usize) -> Result<Vec<Finding>, String> {
    let files = corpus::files(root);
    if files.is_empty() {
        return Err(format!(
            "no .java or .kt files under {} (run bench/checker/fetch-corpus.sh)",
            root.display()
        ));
    }
    let library = Library::bundled();
    let sources: Vec<checker::SourceFile> = files
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            checker::SourceFile::from_bytes(path, bytes).ok()
        })
        .collect();
    let project = checker::Project::new(&library, &sources, CheckConfig::default(), threads);
    let mut findings = Vec::new();
    for (i, file) in sources.iter().enumerate() {
        let path = relative(&file.path, root);
        let result = project.check(i);
        // A class withheld for a solve that stopped at the cap is no finding: say so.
        for u in &result.unconverged {
            eprintln!("{path}:{}: {}", u.span.start, u.describe());
        }
        for v in result.violations {
            findings.push(Finding {
                path: path.clone(),
                line: v.span.start.line as usize,
                column: v.span.start.col as usize,
                code: v.kind.code().to_owned(),
                kind: v.kind.name().to_owned(),
                message: v.message,
                class: v.class,
                callin: v.callin,
                receiver: v.receiver,
                offending_states: v.offending_states,
            });
        }
    }
    Ok(findings)
}

/// Reads the findings of a `typestar check --format json` report of the corpus folder.
fn read_report(report: &Path, root: &Path) -> Result<Vec<Finding>, String> {
    let text = std::fs::read_to_string(report).map_err(|e| format!("{}: {e}", report.display()))?;
    let value: Value =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", report.display()))?;
    let findings = value
        .get("findings")
        .cloned()
        .ok_or_else(|| format!("{}: no \"findings\" array", report.display()))?;
    let mut findings: Vec<Finding> =
        serde_json::from_value(findings).map_err(|e| format!("{}: {e}", report.display()))?;
    for finding in &mut findings {
        finding.path = relative(Path::new(&finding.path), root);
    }
    Ok(findings)
}

/// `path` relative to `root`, with `/` separators.
fn relative(path: &Path, root: &Path) -> String {
    let rel = path.strip_prefix(root).unwrap_or(path);
    rel.components()
        .map(|c| c.as_os_str().to_string_lossy())
        .collect::<Vec<_>>()
        .join("/")
}

/// The top-level folder of a corpus path: the source it came from.
fn source_of(path: &str) -> &str {
    path.split('/').next().unwrap_or(path)
}

/// A finding with its verdict, if judged.
struct Matched<'a> {
    finding: &'a Finding,
    judged: Option<&'a Judged>,
}

/// Counts of one group of findings.
#[derive(Debug, Default, Clone)]
struct Counts {
    findings: usize,
    truly: usize,
    handled_reported: usize,
    handled_unreported: usize,
    false_: usize,
    unjudged: usize,
    definite: usize,
    definite_false: usize,
}

impl Counts {
    fn add(&mut self, m: &Matched<'_>) {
        self.findings += 1;
        let definite = m.finding.kind == "definite";
        self.definite += usize::from(definite);
        match m.judged.map(|j| j.verdict) {
            Some(Verdict::True) => self.truly += 1,
            Some(Verdict::TrueHandled) if m.finding.reported_handled() => {
                self.handled_reported += 1;
            }
            Some(Verdict::TrueHandled) => self.handled_unreported += 1,
            Some(Verdict::False) => {
                self.false_ += 1;
                self.definite_false += usize::from(definite);
            }
            None => self.unjudged += 1,
        }
    }

    /// True findings over all findings; a handled one counts only when reported as handled.
    fn precision(&self) -> Option<f64> {
        (self.findings > 0)
            .then(|| (self.truly + self.handled_reported) as f64 / self.findings as f64)
    }

    /// Real findings (handled or not, however reported) over the judged ones.
    fn real_share(&self) -> Option<f64> {
        let judged = self.findings - self.unjudged;
        (judged > 0).then(|| {
            (self.truly + self.handled_reported + self.handled_unreported) as f64 / judged as f64
        })
    }
}

/// Everything the report shows.
struct Tally<'a> {
    matched: Vec<Matched<'a>>,
    total: Counts,
    by_source: BTreeMap<&'a str, Counts>,
    /// Judged-real findings the checker no longer makes.
    lost_real: Vec<&'a Judged>,
    /// Judged-false findings the checker no longer makes.
    gone_false: Vec<&'a Judged>,
}

impl<'a> Tally<'a> {
    fn new(findings: &'a [Finding], verdicts: &'a [Judged]) -> Tally<'a> {
        let by_key: BTreeMap<Key, &Judged> = verdicts.iter().map(|j| (judged_key(j), j)).collect();
        let matched: Vec<Matched<'_>> = findings
            .iter()
            .map(|finding| Matched {
                finding,
                judged: by_key.get(&finding.key()).copied(),
            })
            .collect();
        let mut total = Counts::default();
        let mut by_source: BTreeMap<&str, Counts> = BTreeMap::new();
        for m in &matched {
            total.add(m);
            by_source
                .entry(source_of(&m.finding.path))
                .or_default()
                .add(m);
        }
        let found: BTreeSet<Key> = findings.iter().map(Finding::key).collect();
        let (lost_real, gone_false) = verdicts
            .iter()
            .filter(|j| !found.contains(&judged_key(j)))
            .partition(|j| j.verdict.is_real());
        Tally {
            matched,
            total,
            by_source,
            lost_real,
            gone_false,
        }
    }

    fn gate_passes(&self) -> bool {
        self.lost_real.is_empty() && self.total.unjudged == 0
    }
}

fn percent(share: Option<f64>) -> String {
    share.map_or_else(|| "n/a".to_owned(), |s| format!("{:.1} %", 100.0 * s))
}

/// Escapes text for a markdown table cell.
fn cell(text: &str) -> String {
    text.replace('|', "\\|").replace('\n', " ")
}

fn render(tally: &Tally<'_>, options: &Options, command: &str) -> String {
    let mut out = String::new();
    let t = &tally.total;
    let _ = writeln!(
        out,
        "# Checker precision on `{}`\n",
        options.corpus.display()
    );
    let _ = writeln!(out, "Command: `{command}`  ");
    let _ = writeln!(
        out,
        "Date: {}; commit: {}  ",
        crate::report::today(),
        crate::report::git_commit()
    );
    let _ = writeln!(
        out,
        "Verdicts: `{}`; corpus: `{}`.\n",
        options.verdicts.display(),
        options.corpus.display()
    );
    let _ = writeln!(
        out,
        "Precision counts a `true-handled` finding as true only when the checker reports it as handled; unjudged findings count as not true."
    );
    let _ = writeln!(
        out,
        "The real share counts every `true` and `true-handled` finding, over the judged ones.\n"
    );
    let _ = writeln!(out, "## Summary\n");
    out.push_str(&counts_header("| | "));
    out.push_str(&counts_row("**all**", t));
    let _ = writeln!(out);
    let _ = writeln!(
        out,
        "Definite findings: {}, of which false: {}.",
        t.definite, t.definite_false
    );
    let _ = writeln!(out, "Findings not yet judged: {}.", t.unjudged);
    let changed = tally
        .matched
        .iter()
        .filter(|m| m.judged.is_some_and(|j| j.kind != m.finding.kind))
        .count();
    let _ = writeln!(
        out,
        "Judged findings whose kind changed since they were judged: {changed}."
    );
    let _ = writeln!(
        out,
        "Judged-true findings lost: {} (`true` or `true-handled` in the verdicts, not found now).",
        tally.lost_real.len()
    );
    let _ = writeln!(
        out,
        "Judged-false findings no longer made: {}.\n",
        tally.gone_false.len()
    );

    let _ = writeln!(out, "## By source\n");
    out.push_str(&counts_header("| source | "));
    for (source, counts) in &tally.by_source {
        out.push_str(&counts_row(&format!("`{source}`"), counts));
    }
    let _ = writeln!(out);

    let _ = writeln!(out, "## False findings by cause\n");
    let mut causes: BTreeMap<&str, (usize, usize)> = BTreeMap::new();
    for m in &tally.matched {
        if let Some(j) = m.judged.filter(|j| j.verdict == Verdict::False) {
            let entry = causes
                .entry(j.cause.as_deref().unwrap_or("(none given)"))
                .or_default();
            entry.0 += 1;
            entry.1 += usize::from(m.finding.kind == "definite");
        }
    }
    if causes.is_empty() {
        let _ = writeln!(out, "None.\n");
    } else {
        let _ = writeln!(
            out,
            "| cause | false findings | of which definite |\n|---|---:|---:|"
        );
        for (cause, (n, definite)) in &causes {
            let _ = writeln!(out, "| {} | {n} | {definite} |", cell(cause));
        }
        let _ = writeln!(out);
    }

    let _ = writeln!(out, "## Not yet judged\n");
    let unjudged: Vec<&Matched<'_>> = tally
        .matched
        .iter()
        .filter(|m| m.judged.is_none())
        .collect();
    if unjudged.is_empty() {
        let _ = writeln!(out, "None.\n");
    } else {
        let _ = writeln!(
            out,
            "| location | kind | class | call | receiver | message |\n|---|---|---|---|---|---|"
        );
        for m in unjudged {
            let f = m.finding;
            let _ = writeln!(
                out,
                "| `{}` | {} | {} | `{}()` | `{}` | {} |",
                f.place(),
                f.kind,
                f.class,
                f.callin,
                cell(&f.receiver),
                cell(&f.message)
            );
        }
        let _ = writeln!(out);
    }

    let _ = writeln!(out, "## Judged-true findings lost\n");
    if tally.lost_real.is_empty() {
        let _ = writeln!(out, "None.\n");
    } else {
        let _ = writeln!(
            out,
            "| location | verdict | class | call | receiver | reason |\n|---|---|---|---|---|---|"
        );
        for j in &tally.lost_real {
            let _ = writeln!(
                out,
                "| `{}:{}` | {} | {} | `{}()` | `{}` | {} |",
                j.path,
                j.line,
                j.verdict.name(),
                j.class,
                j.callin,
                cell(&j.receiver),
                cell(&j.reason)
            );
        }
        let _ = writeln!(out);
    }

    if !tally.gone_false.is_empty() {
        let _ = writeln!(out, "## Judged-false findings no longer made\n");
        for j in &tally.gone_false {
            let _ = writeln!(
                out,
                "- `{}:{}` `{}()` on `{}`",
                j.path, j.line, j.callin, j.receiver
            );
        }
        let _ = writeln!(out);
    }

    let _ = writeln!(out, "## Every finding\n");
    let _ = writeln!(
        out,
        "The kind column shows the kind now, and the kind when judged if it changed.\n"
    );
    let _ = writeln!(
        out,
        "| location | kind | class | call | receiver | verdict | cause | reason |\n|---|---|---|---|---|---|---|---|"
    );
    for m in &tally.matched {
        let f = m.finding;
        let kind = match m.judged {
            Some(j) if j.kind != f.kind => format!("{} (was {})", f.kind, j.kind),
            _ => f.kind.clone(),
        };
        let (verdict, cause, reason) = m.judged.map_or(("**unjudged**", "", ""), |j| {
            (
                j.verdict.name(),
                j.cause.as_deref().unwrap_or(""),
                j.reason.as_str(),
            )
        });
        let _ = writeln!(
            out,
            "| `{}` | {kind} | {} | `{}()` | `{}` | {verdict} | {} | {} |",
            f.place(),
            short_class(&f.class),
            f.callin,
            cell(&f.receiver),
            cell(cause),
            cell(reason)
        );
    }
    out
}

fn short_class(class: &str) -> &str {
    class.rsplit('.').next().unwrap_or(class)
}

fn counts_header(first: &str) -> String {
    format!(
        "{first}findings | true | true-handled (reported handled / not) | false | unjudged | definite (false) | precision | real share |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|\n"
    )
}

fn counts_row(label: &str, c: &Counts) -> String {
    format!(
        "| {label} | {} | {} | {} / {} | {} | {} | {} ({}) | {} | {} |\n",
        c.findings,
        c.truly,
        c.handled_reported,
        c.handled_unreported,
        c.false_,
        c.unjudged,
        c.definite,
        c.definite_false,
        percent(c.precision()),
        percent(c.real_share())
    )
}
