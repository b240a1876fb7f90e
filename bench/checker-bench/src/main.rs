//! `checker-bench`: times typestar's checker on a corpus of Java and Kotlin against
//! tree-sitter parsing alone and against `ast-grep scan` with equivalent sequence rules, and
//! writes a markdown report (`bench/results/checker.md`).
//!
//! ```text
//! checker-bench [--corpus DIR] [--reps N] [--threads 1,2]
//!               [--phases parse,frontend,check,check-project]
//!               [--ast-grep BIN] [--sg-config FILE] [--time /usr/bin/time] [--out FILE]
//! checker-bench phase NAME --threads N --corpus DIR     (internal: one child process)
//! checker-bench verify [--corpus DIR]
//! checker-bench prefiltered [--corpus DIR] --into DIR
//! checker-bench precision [--corpus DIR] [--verdicts FILE] [--findings REPORT.json]
//!                         [--out FILE] [--json-out FILE] [--threads N] [--check]
//! ```
//!
//! `verify` checks that `checker::Project` (what `typestar check` runs) finds exactly what
//! `checker::check` of every file with `checker::project_config` and without the name
//! prefilter (`skip_unrelated: false`) finds, and that the per-file check with the prefilter
//! returns exactly the same results (syntax errors included), and prints any
//! difference and how many files the prefilter skipped; it exits with 1 on a difference.
//!
//! `precision` runs the checker over the corpus as `typestar check` does, matches every
//! finding to its verdict in `bench/checker/verdicts.toml`, and prints precision, the findings
//! not yet judged and the judged-true findings lost (see [`precision`]); with `--check` it
//! exits with 1 when a judged-true finding is lost or a finding is not judged.
//!
//! Each (job, threads) pair runs `--reps` times in its own child process, round-robin, so
//! that changing machine load spreads evenly over the jobs; see `bench/checker/README.md`.

mod corpus;
mod measure;
mod phase;
mod precision;
mod report;

use std::path::PathBuf;
use std::process::ExitCode;

use measure::Job;
use phase::Phase;

/// The options of a measuring run.
#[derive(Debug, Clone)]
pub struct Config {
    /// The corpus folder.
    pub corpus: PathBuf,
    /// Repetitions per job.
    pub reps: usize,
    /// Thread counts to measure.
    pub threads: Vec<usize>,
    /// The checker phases to measure.
    pub phases: Vec<Phase>,
    /// The ast-grep binary, if ast-grep is measured.
    pub ast_grep: Option<PathBuf>,
    /// The ast-grep project file.
    pub sg_config: PathBuf,
    /// GNU time.
    pub time: PathBuf,
    /// Where to write the markdown report.
    pub out: Option<PathBuf>,
}

impl Default for Config {
    fn default() -> Config {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        let mut threads = vec![1, cores];
        threads.dedup();
        Config {
            corpus: PathBuf::from("bench/work/corpus"),
            reps: 5,
            threads,
            phases: Phase::ALL.to_vec(),
            ast_grep: None,
            sg_config: PathBuf::from("bench/checker/sgconfig.yml"),
            time: PathBuf::from("/usr/bin/time"),
            out: None,
        }
    }
}

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let res = if args.first().map(String::as_str) == Some("phase") {
        run_phase(&args[1..])
    } else if args.first().map(String::as_str) == Some("verify") {
        verify(&args[1..])
    } else if args.first().map(String::as_str) == Some("prefiltered") {
        prefiltered(&args[1..])
    } else if args.first().map(String::as_str) == Some("precision") {
        match parse_precision(&args[1..])
            .and_then(|options| precision::run(&options, &command_line(args.as_slice())))
        {
            Ok(true) => Ok(()),
            Ok(false) => {
                eprintln!("checker-bench: precision gate failed: a judged-true finding was lost or a finding is not judged");
                return ExitCode::from(1);
            }
            Err(msg) => Err(msg),
        }
    } else {
        parse_config(&args).and_then(|config| measure_all(&config, &args))
    };
    match res {
        Ok(()) => ExitCode::SUCCESS,
        Err(msg) => {
            eprintln!("checker-bench: {msg}");
            ExitCode::from(2)
        }
    }
}

/// Takes the value after a flag.
fn value<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<&'a str, String> {
    it.next()
        .map(String::as_str)
        .ok_or_else(|| format!("{flag} needs a value"))
}

/// Takes the positive number after a flag.
fn positive<'a>(it: &mut impl Iterator<Item = &'a String>, flag: &str) -> Result<usize, String> {
    value(it, flag)?
        .parse()
        .ok()
        .filter(|&n| n > 0)
        .ok_or_else(|| format!("{flag} needs a positive number"))
}

fn parse_list<T>(text: &str, item: impl Fn(&str) -> Option<T>) -> Result<Vec<T>, String> {
    text.split(',')
        .map(|s| item(s.trim()).ok_or_else(|| format!("bad list item {s:?} in {text:?}")))
        .collect()
}

fn parse_config(args: &[String]) -> Result<Config, String> {
    let mut config = Config::default();
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--corpus" => config.corpus = value(&mut it, flag)?.into(),
            "--reps" => config.reps = positive(&mut it, flag)?,
            "--threads" => {
                config.threads =
                    parse_list(value(&mut it, flag)?, |s| s.parse().ok().filter(|&n| n > 0))?;
            }
            "--phases" => {
                config.phases = parse_list(value(&mut it, flag)?, Phase::from_name)?;
            }
            "--ast-grep" => config.ast_grep = Some(value(&mut it, flag)?.into()),
            "--sg-config" => config.sg_config = value(&mut it, flag)?.into(),
            "--time" => config.time = value(&mut it, flag)?.into(),
            "--out" => config.out = Some(value(&mut it, flag)?.into()),
            "-h" | "--help" => {
                return Err("usage: see the top of bench/checker-bench/src/main.rs".into())
            }
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(config)
}

fn parse_precision(args: &[String]) -> Result<precision::Options, String> {
    let mut options = precision::Options {
        corpus: PathBuf::from("bench/work/corpus"),
        verdicts: PathBuf::from("bench/checker/verdicts.toml"),
        findings: None,
        out: None,
        json_out: None,
        gate: precision::Gate::Report,
        threads: std::thread::available_parallelism().map_or(1, |n| n.get()),
    };
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--corpus" => options.corpus = value(&mut it, flag)?.into(),
            "--verdicts" => options.verdicts = value(&mut it, flag)?.into(),
            "--findings" => options.findings = Some(value(&mut it, flag)?.into()),
            "--out" => options.out = Some(value(&mut it, flag)?.into()),
            "--json-out" => options.json_out = Some(value(&mut it, flag)?.into()),
            "--threads" => options.threads = positive(&mut it, flag)?,
            "--check" => options.gate = precision::Gate::Check,
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    Ok(options)
}

/// The child side: runs one phase and prints its tally line.
fn run_phase(args: &[String]) -> Result<(), String> {
    let mut it = args.iter();
    let name = value(&mut it, "phase")?;
    let phase = Phase::from_name(name).ok_or_else(|| format!("unknown phase {name:?}"))?;
    let (mut threads, mut corpus) = (1, None);
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--threads" => {
                threads = value(&mut it, flag)?
                    .parse()
                    .map_err(|_| "--threads needs a number")?
            }
            "--corpus" => corpus = Some(PathBuf::from(value(&mut it, flag)?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let corpus = corpus.ok_or("phase needs --corpus")?;
    let files = corpus::files(&corpus);
    let (tally, elapsed) = phase::run(phase, &files, threads);
    println!("{}", tally.to_line(elapsed));
    Ok(())
}

/// `verify`: the project check against the plain per-file check, file by file.
fn verify(args: &[String]) -> Result<(), String> {
    let mut corpus = PathBuf::from("bench/work/corpus");
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--corpus" => corpus = PathBuf::from(value(&mut it, flag)?),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let library = typestates::library::Library::bundled();
    let sources: Vec<checker::SourceFile> = corpus::files(&corpus)
        .iter()
        .filter_map(|path| {
            let bytes = std::fs::read(path).ok()?;
            checker::SourceFile::from_bytes(path, bytes).ok()
        })
        .collect();
    let config = checker::project_config(
        &library,
        &sources,
        checker::CheckConfig {
            skip_unrelated: false,
            ..checker::CheckConfig::default()
        },
    );
    let filtered = checker::CheckConfig {
        skip_unrelated: true,
        ..config.clone()
    };
    let project = checker::Project::new(&library, &sources, checker::CheckConfig::default(), 1);
    let (mut differences, mut skipped, mut findings, mut analysed_bytes) = (0, 0, 0, 0);
    for (i, file) in sources.iter().enumerate() {
        let plain = checker::check(&library, file, &config);
        let new = project.check(i);
        findings += plain.violations.len();
        if !project.is_analysed(i) {
            skipped += 1;
        } else {
            analysed_bytes += file.text.len();
        }
        if plain.violations != new.violations
            || (project.is_analysed(i) && plain.syntax_errors != new.syntax_errors)
            || checker::check(&library, file, &filtered) != plain
        {
            differences += 1;
            println!(
                "{}: plain check {:?}\nproject check {:?}",
                file.path.display(),
                plain.violations,
                new.violations
            );
        }
    }
    println!(
        "{} files, {skipped} skipped by the prefilter ({:.1} MB of text analysed), {findings} findings, {differences} files differ",
        sources.len(),
        analysed_bytes as f64 / 1e6
    );
    if differences > 0 {
        return Err(format!("{differences} files differ"));
    }
    Ok(())
}

/// `prefiltered`: links the files of `--corpus` that the name prefilter passes (the files
/// `checker::Project` analyses) into `--into`, emptied first, at the same relative paths and
/// with each source's `.source` line, so that the phases can be timed on them alone.
fn prefiltered(args: &[String]) -> Result<(), String> {
    let (mut corpus, mut into) = (PathBuf::from("bench/work/corpus"), None);
    let mut it = args.iter();
    while let Some(flag) = it.next() {
        match flag.as_str() {
            "--corpus" => corpus = PathBuf::from(value(&mut it, flag)?),
            "--into" => into = Some(PathBuf::from(value(&mut it, flag)?)),
            other => return Err(format!("unknown argument {other:?}")),
        }
    }
    let into = into.ok_or("prefiltered needs --into")?;
    let paths = corpus::files(&corpus);
    let mut sources = Vec::new();
    let mut accepted = Vec::new();
    for path in &paths {
        let Ok(bytes) = std::fs::read(path) else {
            continue;
        };
        if let Ok(file) = checker::SourceFile::from_bytes(path, bytes) {
            sources.push(file);
            accepted.push(path);
        }
    }
    let library = typestates::library::Library::bundled();
    let threads = std::thread::available_parallelism().map_or(1, |n| n.get());
    let project =
        checker::Project::new(&library, &sources, checker::CheckConfig::default(), threads);
    if into.exists() {
        std::fs::remove_dir_all(&into).map_err(|e| format!("{}: {e}", into.display()))?;
    }
    let mut linked = 0;
    for (i, path) in accepted.into_iter().enumerate() {
        if !project.is_analysed(i) {
            continue;
        }
        let rel = path.strip_prefix(&corpus).map_err(|e| e.to_string())?;
        let target = into.join(rel);
        let source = rel.components().next().map(|first| first.as_os_str());
        if let (Some(source), Some(_)) =
            (source, rel.parent().filter(|p| !p.as_os_str().is_empty()))
        {
            let note = corpus.join(source).join(".source");
            let kept = into.join(source).join(".source");
            if note.is_file() && !kept.exists() {
                std::fs::create_dir_all(into.join(source)).map_err(|e| e.to_string())?;
                std::fs::copy(&note, &kept).map_err(|e| format!("{}: {e}", kept.display()))?;
            }
        }
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::hard_link(path, &target)
            .or_else(|_| std::fs::copy(path, &target).map(drop))
            .map_err(|e| format!("{}: {e}", target.display()))?;
        linked += 1;
    }
    println!(
        "{linked} of {} files pass the name prefilter; linked under {}",
        paths.len(),
        into.display()
    );
    Ok(())
}

/// The parent side: runs every job, prints the report and writes it to `--out`.
fn measure_all(config: &Config, args: &[String]) -> Result<(), String> {
    let files = corpus::files(&config.corpus);
    if files.is_empty() {
        return Err(format!(
            "no .java or .kt files under {} (run bench/checker/fetch-corpus.sh)",
            config.corpus.display()
        ));
    }
    let (sources, total) = corpus::survey(&config.corpus, &files);
    let mut jobs: Vec<Job> = config.phases.iter().map(|&p| Job::Checker(p)).collect();
    if let Some(binary) = &config.ast_grep {
        jobs.push(Job::AstGrep {
            binary: binary.clone(),
            config: config.sg_config.clone(),
        });
    }
    let pairs: Vec<(Job, usize)> = jobs
        .iter()
        .flat_map(|job| config.threads.iter().map(move |&t| (job.clone(), t)))
        .collect();
    let load_before = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    // One untimed pass brings the corpus into the page cache for every job alike.
    for (job, threads) in pairs.iter().take(1) {
        measure::run(job, &config.corpus, *threads, &config.time)?;
    }
    let mut runs: Vec<Vec<measure::Run>> = vec![Vec::new(); pairs.len()];
    for rep in 0..config.reps {
        for (i, (job, threads)) in pairs.iter().enumerate() {
            let run = measure::run(job, &config.corpus, *threads, &config.time)?;
            eprintln!(
                "rep {}/{}: {} threads={threads}: {:.3} s wall, {:.3} s CPU, {:.1} MiB",
                rep + 1,
                config.reps,
                job.label(),
                run.wall_s,
                run.cpu_s,
                run.max_rss_kib as f64 / 1024.0
            );
            runs[i].push(run);
        }
    }
    let load_after = std::fs::read_to_string("/proc/loadavg").unwrap_or_default();
    let results: Vec<report::Row> = pairs
        .into_iter()
        .zip(runs)
        .map(|((job, threads), runs)| report::Row::new(job, threads, runs))
        .collect();
    let text = report::render(&report::Report {
        command: command_line(args),
        config,
        sources: &sources,
        total: &total,
        rows: &results,
        load: (load_before.trim(), load_after.trim()),
        ast_grep_version: config.ast_grep.as_deref().and_then(report::tool_version),
    });
    print!("{text}");
    if let Some(out) = &config.out {
        if let Some(dir) = out.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| format!("{}: {e}", dir.display()))?;
        }
        std::fs::write(out, &text).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// The command line as typed, for the report (`BENCH_COMMAND` overrides it when a script ran
/// the binary, so that the report names the script).
fn command_line(args: &[String]) -> String {
    std::env::var("BENCH_COMMAND").unwrap_or_else(|_| {
        std::iter::once("checker-bench".to_owned())
            .chain(args.iter().cloned())
            .collect::<Vec<_>>()
            .join(" ")
    })
}
