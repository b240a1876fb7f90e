//! `typestar learn`: learns a typestate by testing and writes it with its statistics.
//!
//! `--model CLASS|FILE` runs a library typestate (or a typestate file) as a black box on the
//! simulated model backend, to try experiments and to demo; `--backend jvm --experiment
//! FILE.toml` learns a real class in the host JVM through the agent, with the algorithm, bound
//! and filters the experiment's `[learn]` table names; `--backend robolectric --experiment
//! FILE.toml [--sdk N]` learns an Android framework class the same way inside Robolectric
//! (issue #22 wants one learning entry point for all backends later). All write the progress bar on stderr,
//! the learned typestate (`-o`, statistics in its provenance) and a report with DroidStar's
//! Table 1 columns.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use learner::backend::jvm::{learn_class, Experiment, JvmConfig, JvmError, JvmRun};
use learner::backend::model::{ModelConfig, ModelSul, SimClock};
use learner::backend::robolectric::{self, RobolectricConfig};
use learner::learn::Phase;
use learner::oracle::filter::QueryFilter;
use learner::oracle::sul::CountSnapshot;
use learner::simulation::state_bound;
use learner::{
    learn_system, learned_typestate, Algorithm, Alphabet, CostModel, End, EquivalenceChoice,
    PipelineConfig, Progress, ProgressUpdate, Statistics, SystemRun,
};
use typestates::Typestate;

/// Arguments of `typestar learn`.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Learn this library class or typestate file, run as a black box on the simulated model
    /// backend.
    #[arg(long, value_name = "CLASS|FILE")]
    model: Option<String>,
    /// The system to learn: `model` (simulated, needs --model), `jvm` or `robolectric` (both
    /// need --experiment).
    #[arg(long, value_enum, default_value_t = BackendKind::Model)]
    backend: BackendKind,
    /// The experiment file of the JVM backend.
    #[arg(long, value_name = "FILE.toml")]
    experiment: Option<PathBuf>,
    /// JVM and Robolectric backends: jars and class folders of the code under study (repeatable).
    #[arg(long, value_name = "PATH")]
    classpath: Vec<PathBuf>,
    /// Robolectric backend: the Android SDK level to run the class on (fetched by
    /// learner/robolectric/fetch.sh --sdk N).
    #[arg(long, value_name = "N", default_value_t = robolectric::DEFAULT_SDK)]
    sdk: u32,
    /// The learning algorithm.
    #[arg(long, value_enum, default_value_t = AlgorithmArg::Lsharp)]
    algorithm: AlgorithmArg,
    /// Equivalence by paper 002's Algorithm 2 with distinguisher bound K (DroidStar used 2).
    #[arg(long, value_name = "K", conflicts_with = "states")]
    bound: Option<usize>,
    /// Equivalence under a state bound: at most N states, the error sink not counted (as in
    /// DroidStar's Table 1). Default with --model and no --bound: the model's own count.
    #[arg(long, value_name = "N")]
    states: Option<usize>,
    /// Instances of the system to run queries on in parallel.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u16).range(1..))]
    jobs: u16,
    /// Journal of executed queries: created if missing, resumed if it holds a run of the
    /// same experiment, refused if it belongs to another.
    #[arg(long, value_name = "FILE")]
    journal: Option<PathBuf>,
    /// Filter: INPUT at most once per query (repeatable).
    #[arg(long, value_name = "INPUT")]
    once: Vec<String>,
    /// Filter: at most K pending INPUT requests, each `wait` completing one (repeatable).
    #[arg(long, value_name = "INPUT:K")]
    pending: Vec<String>,
    /// Model backend: probability that a callback is late or missing in one wait.
    #[arg(long, default_value_t = 0.0)]
    noise: f64,
    /// Model backend: seed of latencies and noise.
    #[arg(long, default_value_t = 0)]
    seed: u64,
    /// Write the learned typestate here (default: print it after the report).
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Write the statistics report here instead of standard output.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// No progress bar.
    #[arg(long)]
    no_progress: bool,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum BackendKind {
    /// The simulated model backend.
    Model,
    /// The JVM backend (an experiment file names the class, its alphabet and its reset).
    Jvm,
    /// The agent inside Robolectric, for Android framework classes (an experiment file, as
    /// for the JVM backend).
    Robolectric,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// Error-aware L#, the default (fewest runs on the library benchmark).
    Lsharp,
    /// L* with Rivest–Schapire counterexample processing.
    Lstar,
}

impl From<AlgorithmArg> for Algorithm {
    fn from(arg: AlgorithmArg) -> Algorithm {
        match arg {
            AlgorithmArg::Lsharp => Algorithm::LSharp,
            AlgorithmArg::Lstar => Algorithm::LStar,
        }
    }
}

/// Learns as the arguments say, writing the report (and the typestate without `-o`) to
/// standard output.
pub fn run(args: LearnArgs) -> anyhow::Result<ExitCode> {
    let mut stdout = std::io::stdout().lock();
    execute(args, &mut stdout)
}

/// [`run`] writing to `out`: the command as a library, for tests.
fn execute(args: LearnArgs, out: &mut dyn Write) -> anyhow::Result<ExitCode> {
    let typestate = match args.backend {
        BackendKind::Model => {
            let spec = args
                .model
                .as_deref()
                .context("--backend model needs --model CLASS|FILE")?;
            crate::load::typestate(spec)?
        }
        BackendKind::Jvm | BackendKind::Robolectric => {
            let experiment = args.experiment.as_ref().with_context(|| {
                format!(
                    "--backend {} needs --experiment FILE.toml",
                    args.backend
                        .to_possible_value()
                        .expect("no skipped values")
                        .get_name()
                )
            })?;
            return execute_agent(&args, experiment, out);
        }
    };
    let alphabet = Arc::new(Alphabet::of(typestate.signature()));
    let equivalence = equivalence(&args, &typestate);
    let filters = filters(&args, &alphabet)?;
    let pipeline_config = PipelineConfig {
        cost: CostModel::default(),
        filters: filters.clone(),
        journal: args.journal.clone(),
    };
    let model_config = ModelConfig {
        noise: args.noise,
        seed: args.seed,
        ..ModelConfig::default()
    };
    let clock = Arc::new(SimClock::default());
    let suls = ModelSul::pool(&typestate, model_config, usize::from(args.jobs), &clock);
    let mut bar = Bar::new(args.no_progress, equivalence.state_bound());
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .context("cannot start the async runtime")?;
    let run = runtime.block_on(learn_system(
        Arc::clone(&alphabet),
        suls,
        args.algorithm.into(),
        equivalence,
        &pipeline_config,
        &mut bar,
    ))?;
    bar.finish();
    let statistics =
        Statistics::collect(&run.outcome, run.asked, run.executed, &pipeline_config.cost);
    let report = report(
        &args,
        &typestate,
        equivalence,
        &run,
        &statistics,
        clock.now_ms(),
    );
    let learned = run.outcome.hypothesis.as_ref().map(|hypothesis| {
        learned_typestate(
            hypothesis,
            &alphabet,
            &statistics,
            &filters,
            &run.restrictions,
        )
    });
    write_outputs(&args, &report, learned.as_ref(), out)?;
    exit_code(run.outcome.end)
}

/// `typestar learn --backend jvm|robolectric`: learns the experiment's class with agents in
/// the host JVM or inside Robolectric.
fn execute_agent(
    args: &LearnArgs,
    experiment: &std::path::Path,
    out: &mut dyn Write,
) -> anyhow::Result<ExitCode> {
    let loaded =
        Arc::new(Experiment::load(experiment).map_err(|error| anyhow::anyhow!("{error}"))?);
    let jobs = usize::from(args.jobs);
    let mut bar = Bar::new(args.no_progress, None);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let jvm = JvmConfig {
        classpath: args.classpath.clone(),
        jobs,
        journal: args.journal.clone(),
        ..JvmConfig::default()
    };
    let (run, backend): (Result<JvmRun, JvmError>, String) =
        if args.backend == BackendKind::Robolectric {
            let config = RobolectricConfig {
                sdk: args.sdk,
                jvm,
                ..RobolectricConfig::default()
            };
            let run = runtime.block_on(robolectric::learn_class(loaded, &config, &mut bar));
            (run, format!("robolectric, SDK {}", args.sdk))
        } else {
            let run = runtime.block_on(learn_class(loaded, &jvm, &mut bar));
            (run, "jvm".to_owned())
        };
    let run = run.map_err(|error| anyhow::anyhow!("{error}"))?;
    bar.finish();
    let class = &run.alphabet.signature.class;
    let report = format!(
        "# typestar learn: {class}\n\n{end}; backend {backend} ({experiment}), {jobs} agent(s)\n\n{table}",
        end = end_description(&run.outcome.end),
        experiment = experiment.display(),
        table = table1(class.rsplit('.').next().unwrap_or_default(), &run.statistics),
    );
    write_outputs(args, &report, run.typestate.as_ref(), out)?;
    exit_code(run.outcome.end)
}

/// DroidStar's Table 1 columns for one learned class, as a Markdown table.
fn table1(simple_name: &str, statistics: &Statistics) -> String {
    let bound = statistics
        .distinguisher_bound
        .map_or("-".to_owned(), |it| it.to_string());
    format!(
        "| class | states | time (s) | MQ asked (executed) | EQ | MQ per EQ | distinguisher bound |\n\
         | --- | --- | --- | --- | --- | --- | --- |\n\
         | {simple_name} | {states} | {time:.1} | {asked} ({runs}) | {eq} | {per_eq:.1} | {bound} |\n",
        states = statistics.states,
        time = statistics.time_ms as f64 / 1000.0,
        asked = statistics.mq_asked,
        runs = statistics.mq_executed,
        eq = statistics.eq,
        per_eq = statistics.mq_per_eq(),
    )
}

/// The exit code for how learning ended: 0 learned, 1 stopped, an error when it failed.
fn exit_code(end: End) -> anyhow::Result<ExitCode> {
    match end {
        End::Learned => Ok(ExitCode::SUCCESS),
        End::NonDeterministic(_) | End::RoundLimit => Ok(ExitCode::from(1)),
        End::Failed(error) => Err(error).context(
            "learning failed; rerun with the same --journal to resume without repeating queries",
        ),
    }
}

/// How learning ended, for the report's first line.
fn end_description(end: &End) -> String {
    match end {
        End::Learned => "learned".to_owned(),
        End::NonDeterministic(report) => format!("stopped: {report}"),
        End::Failed(error) => format!("failed: {error}"),
        End::RoundLimit => "stopped: round limit".to_owned(),
    }
}

/// Writes the report (to `--report` or `out`) and the learned typestate (to `-o` or `out`).
fn write_outputs(
    args: &LearnArgs,
    report: &str,
    learned: Option<&Typestate>,
    out: &mut dyn Write,
) -> anyhow::Result<()> {
    match &args.report {
        Some(path) => std::fs::write(path, report)
            .with_context(|| format!("cannot write {}", path.display()))?,
        None => out.write_all(report.as_bytes())?,
    }
    if let Some(learned) = learned {
        let text = typestates::format::print(learned);
        match &args.output {
            Some(path) => std::fs::write(path, text)
                .with_context(|| format!("cannot write {}", path.display()))?,
            None => write!(out, "\n{text}")?,
        }
    }
    Ok(())
}

/// The oracle the arguments ask for: a distinguisher bound, a state bound given, or the
/// model's own state count. Given state bounds exclude the error sink; the oracle's count
/// includes it.
fn equivalence(args: &LearnArgs, typestate: &Typestate) -> EquivalenceChoice {
    match (args.bound, args.states) {
        (Some(bound), _) => EquivalenceChoice::DistinguisherBound(bound),
        (None, Some(states)) => EquivalenceChoice::StateBound(states + 1),
        (None, None) => EquivalenceChoice::StateBound(state_bound(typestate)),
    }
}

/// The query filters of `--once` and `--pending`.
fn filters(args: &LearnArgs, alphabet: &Alphabet) -> anyhow::Result<Vec<QueryFilter>> {
    let input = |name: &str| {
        alphabet.input_named(name).with_context(|| {
            format!(
                "`{name}` is not an input of {} (inputs: {})",
                alphabet.signature.class,
                alphabet.input_names(&alphabet.inputs).join(", ")
            )
        })
    };
    let mut filters = Vec::new();
    for name in &args.once {
        filters.push(QueryFilter::AtMostOnce(input(name)?));
    }
    for spec in &args.pending {
        let (name, limit) = spec
            .split_once(':')
            .with_context(|| format!("--pending wants INPUT:K, got `{spec}`"))?;
        let limit = limit
            .parse()
            .with_context(|| format!("--pending wants INPUT:K with K a number, got `{spec}`"))?;
        filters.push(QueryFilter::AtMostPending {
            request: input(name)?,
            limit,
        });
    }
    Ok(filters)
}

/// The statistics report: DroidStar's Table 1 columns, then what the system executed.
fn report(
    args: &LearnArgs,
    typestate: &Typestate,
    equivalence: EquivalenceChoice,
    run: &SystemRun,
    statistics: &Statistics,
    simulated_ms: u64,
) -> String {
    let oracle = match equivalence {
        EquivalenceChoice::DistinguisherBound(bound) => format!("distinguisher bound {bound}"),
        other => format!(
            "state bound {} (error sink included)",
            other.state_bound().unwrap_or_default()
        ),
    };
    let end = end_description(&run.outcome.end);
    let executed = &run.executed;
    let cost = CostModel::default();
    format!(
        "# typestar learn: {class}\n\n\
         {end}; backend model (simulated), algorithm {algorithm}, {oracle}, {jobs} instance(s)\n\n\
         {table}\n\
         Executed: {runs} runs (resets), {steps} symbols ({callins} callins, {callback_waits} waits with a callback, {quiet_waits} quiet waits).\n\
         Time is the cost model's prediction (reset {reset} ms, callin {callin} ms, callback wait {callback} ms, quiet wait {quiet} ms); the simulated clock says {simulated:.0} s.\n\
         Journal: {journal}.\n",
        class = typestate.class,
        algorithm = Algorithm::from(args.algorithm).name(),
        jobs = args.jobs,
        table = table1(typestate.simple_name(), statistics),
        runs = statistics.mq_executed,
        steps = executed.steps(),
        callins = executed.callins,
        callback_waits = executed.callback_waits,
        quiet_waits = executed.quiet_waits,
        reset = cost.reset_ms,
        callin = cost.callin_ms,
        callback = cost.callback_wait_ms,
        quiet = cost.quiet_wait_ms,
        simulated = simulated_ms as f64 / 1000.0,
        journal = match &args.journal {
            None => "none".to_owned(),
            Some(path) => format!(
                "{} ({} queries resumed{})",
                path.display(),
                run.resumed_queries,
                if run.recovered_truncation {
                    ", a half-written last line cut off"
                } else {
                    ""
                }
            ),
        },
    )
}

/// The progress bar on stderr: states so far out of the state bound, equivalence rounds,
/// queries asked and runs executed, and the ETA indicatif derives from the states.
struct Bar {
    bar: ProgressBar,
    counts: (CountSnapshot, CountSnapshot),
}

impl Bar {
    fn new(hidden: bool, state_bound: Option<usize>) -> Bar {
        let bar = if hidden {
            ProgressBar::hidden()
        } else {
            ProgressBar::new(state_bound.unwrap_or(0) as u64)
        };
        let template = if state_bound.is_some() {
            "{spinner} [{elapsed}] {bar:20} {pos}/{len} states · {msg} · ETA {eta}"
        } else {
            "{spinner} [{elapsed}] {pos} states · {msg}"
        };
        bar.set_style(ProgressStyle::with_template(template).expect("the template is valid"));
        bar.enable_steady_tick(std::time::Duration::from_millis(200));
        Bar {
            bar,
            counts: Default::default(),
        }
    }

    fn finish(&self) {
        self.bar.finish_and_clear();
    }
}

impl Progress for Bar {
    fn counts(&mut self, asked: CountSnapshot, executed: CountSnapshot) {
        self.counts = (asked, executed);
    }

    fn update(&mut self, update: ProgressUpdate) {
        let phase = match update.phase {
            Phase::Exploring => "exploring",
            Phase::Checking => "checking",
        };
        self.bar.set_position(update.n_states as u64);
        self.bar.set_message(format!(
            "{phase} · EQ {} · MQ {} asked, {} executed",
            update.rounds, self.counts.0.queries, self.counts.1.resets
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    #[derive(Parser)]
    struct Cli {
        #[command(flatten)]
        args: LearnArgs,
    }

    fn learn(args: &[&str]) -> (anyhow::Result<ExitCode>, String) {
        let cli = Cli::try_parse_from(["learn", "--no-progress"].iter().chain(args))
            .expect("arguments parse");
        let mut out = Vec::new();
        let result = execute(cli.args, &mut out);
        (result, String::from_utf8(out).expect("the report is UTF-8"))
    }

    fn scratch(name: &str) -> PathBuf {
        let dir =
            std::env::temp_dir().join(format!("typestar-learn-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).expect("temp dir is writable");
        dir
    }

    #[test]
    fn learns_a_library_class_exactly_and_reports_droidstars_columns() {
        let dir = scratch("model");
        let output = dir.join("CountDownTimer.typestate");
        let (result, report) =
            learn(&["--model", "CountDownTimer", "-o", output.to_str().unwrap()]);
        assert_eq!(result.unwrap(), ExitCode::SUCCESS);
        assert!(
            report.starts_with("# typestar learn: android.os.CountDownTimer\n\nlearned;"),
            "{report}"
        );
        assert!(report.contains("| class | states | time (s) | MQ asked (executed) | EQ | MQ per EQ | distinguisher bound |"), "{report}");
        assert!(report.contains("| CountDownTimer | 3 |"), "{report}");
        let text = std::fs::read_to_string(&output).unwrap();
        let learned = typestates::format::parse("learned", &text).unwrap();
        let model = crate::load::typestate("CountDownTimer").unwrap();
        assert!(typestates::diff::diff(&model, &learned, 1).is_equivalent());
        assert!(text.contains("stats states=3"), "{text}");
    }

    #[test]
    fn a_rerun_with_the_same_journal_executes_nothing_again() {
        let dir = scratch("resume");
        let journal = dir.join("journal.jsonl");
        let args = [
            "--model",
            "AsyncTask",
            "--journal",
            journal.to_str().unwrap(),
        ];
        let (first, report) = learn(&args);
        assert_eq!(first.unwrap(), ExitCode::SUCCESS);
        assert!(report.contains("(0 queries resumed)"), "{report}");
        let (second, report) = learn(&args);
        assert_eq!(second.unwrap(), ExitCode::SUCCESS);
        assert!(
            report.contains("Executed: 0 runs (resets), 0 symbols"),
            "{report}"
        );
        assert!(!report.contains("(0 queries resumed)"), "{report}");
    }

    #[test]
    fn a_journal_of_another_class_is_refused_with_its_name() {
        let dir = scratch("foreign");
        let journal = dir.join("journal.jsonl");
        let (first, _) = learn(&[
            "--model",
            "CountDownTimer",
            "--journal",
            journal.to_str().unwrap(),
        ]);
        assert_eq!(first.unwrap(), ExitCode::SUCCESS);
        let (second, report) = learn(&[
            "--model",
            "AsyncTask",
            "--journal",
            journal.to_str().unwrap(),
        ]);
        let error = format!("{:#}", second.unwrap_err());
        assert!(error.contains("belongs to another experiment"), "{error}");
        assert!(error.contains("class android.os.CountDownTimer"), "{error}");
        assert!(report.is_empty());
    }

    #[test]
    fn the_jvm_backend_needs_an_experiment_that_exists() {
        let (result, _) = learn(&["--backend", "jvm"]);
        assert!(format!("{:#}", result.unwrap_err()).contains("--experiment"));
        let (result, _) = learn(&[
            "--backend",
            "jvm",
            "--experiment",
            "no-such-experiment.toml",
        ]);
        assert!(format!("{:#}", result.unwrap_err()).contains("no-such-experiment.toml"));
    }

    #[test]
    fn the_jvm_backend_learns_a_real_class() {
        // The bundled experiment: its timing has margin for a loaded machine (tests run in
        // parallel), and the agent runs each query's callins back to back.
        let experiment = std::path::Path::new(concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/../learner/experiments/java.util.Timer.toml"
        ));
        let (result, output) = learn(&[
            "--backend",
            "jvm",
            "--experiment",
            experiment.to_str().expect("UTF-8 path"),
        ]);
        assert_eq!(
            result.expect("learning Timer succeeds"),
            ExitCode::SUCCESS,
            "{output}"
        );
        assert!(output.contains("learned; backend jvm"), "{output}");
        assert!(output.contains("| Timer | 3 |"), "{output}");
        assert!(output.contains("provenance learned"), "{output}");
        assert!(output.contains("on run ->"), "{output}");
    }
}
