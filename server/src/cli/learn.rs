//! `typestar learn`: learns a typestate by testing and writes it with its statistics.
//!
//! The backends:
//! - `--model CLASS|FILE` runs a library typestate (or a typestate file) as a black box on the simulated model backend, to try experiments and to demo.
//! - `--backend jvm --experiment FILE.toml` learns a real class in the host JVM through the agent.
//!   It uses the algorithm, bound and filters the experiment's `[learn]` table names, unless options say otherwise.
//! - `--backend robolectric --experiment FILE.toml [--sdk N]` learns an Android framework class the same way inside Robolectric.
//! - `--backend android --experiment FILE.toml [--device SERIAL]... [--adb-server HOST:PORT]...` learns it on Android devices over adb, one worker per device.
//!
//! All write the progress bar on stderr, and the learned typestate (`-o`, statistics in its provenance).
//! They write a report with DroidStar's Table 1 columns and the guarantee the run gave.
//! An option that a backend cannot honour is refused, naming the option and the backend.

use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;

use anyhow::Context;
use clap::builder::{PossibleValue, TypedValueParser};
use clap::{Args, ValueEnum};
use indicatif::{ProgressBar, ProgressStyle};
use learner::backend::android::{AndroidConfig, AndroidError};
use learner::backend::jvm::Experiment;
use learner::backend::model::ModelConfig;
use learner::backend::robolectric;
use learner::backend::BackendKind;
use learner::equivalence::Suite;
use learner::learn::Phase;
use learner::lsharp::Heuristics;
use learner::oracle::filter::QueryFilter;
use learner::oracle::pipeline::Confirmation;
use learner::oracle::sul::CountSnapshot;
use learner::oracle::{Disagreement, Majority};
use learner::simulation::state_bound;
use learner::{
    Algorithm, Alphabet, Choices, CostModel, Details, End, EquivalenceChoice, LearnError, Learned,
    Progress, ProgressUpdate, Request, Session, Statistics,
};
use typestates::Typestate;

use super::failure::Failure;

/// Arguments of `typestar learn`.
#[derive(Args, Debug)]
pub struct LearnArgs {
    /// Learn this library class or typestate file, run as a black box on the simulated model
    /// backend.
    #[arg(long, value_name = "CLASS|FILE")]
    model: Option<String>,
    /// The system to learn: `model` (simulated, needs --model), `jvm`, `robolectric` or
    /// `android` (all need --experiment).
    #[arg(long, default_value = "model", value_parser = backend_values())]
    backend: BackendKind,
    /// The experiment of the agent backends: a file, or the name of a shipped one
    /// (`java.util.Timer`; learner/experiments lists them).
    #[arg(long, value_name = "FILE.toml|NAME")]
    experiment: Option<PathBuf>,
    /// JVM and Robolectric backends: jars and class folders of the code under study (repeatable).
    #[arg(long, value_name = "PATH")]
    classpath: Vec<PathBuf>,
    /// Robolectric backend: the Android SDK level to run the class on (fetched by
    /// `typestar fetch-robolectric --sdk N`; default 34).
    #[arg(long, value_name = "N")]
    sdk: Option<u32>,
    /// Android backend: learn on this device (repeatable; default: every usable device).
    #[arg(long = "device", value_name = "SERIAL")]
    devices: Vec<String>,
    /// Android backend: an adb server to find devices on (repeatable; default 127.0.0.1:5037).
    #[command(flatten)]
    adb: crate::cli::devices::AdbArgs,
    /// The learning algorithm (default: the experiment's, else lsharp).
    #[arg(long, value_enum)]
    algorithm: Option<AlgorithmArg>,
    /// L#'s heuristics on top of the paper's rules: `plain` (none), `all` (the default), or
    /// names joined by `,`: separating-extension, root-probing, best-split, chained-splits,
    /// missing-state-search, identification-under-bound (learner/src/lsharp/heuristics.rs).
    #[arg(long, value_name = "LIST")]
    heuristics: Option<Heuristics>,
    /// Guarantee: no counterexample up to distinguisher bound K, the Starling paper's Algorithm 2
    /// (default: the experiment's, else 2, as DroidStar).
    #[arg(long, value_name = "K")]
    bound: Option<usize>,
    /// How a distinguisher bound's test words run: `per-transition` (the Starling paper's Algorithm 2,
    /// the default), `maximal-words` (the same words, less those another test word of the
    /// round extends), `chained` (one run checks many transitions after proven words) or
    /// `chained-known` (chained, less the checks the traces already observed answer); the same guarantee.
    #[arg(long, value_name = "SUITE")]
    suite: Option<Suite>,
    /// Guarantee: at most N states, the error sink not counted (as in DroidStar's Table 1);
    /// `model` is the model's own count. With --bound, both are checked.
    #[arg(long, value_name = "N|model")]
    states: Option<StatesArg>,
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
    /// Settle a disagreement between runs when this many runs of the query agree with the
    /// trace learning used; stop otherwise.
    #[arg(long, value_name = "N", default_value_t = 3, value_parser = clap::value_parser!(u32).range(2..))]
    majority: u32,
    /// Run every trace learning used until N runs gave it before accepting the result, so a
    /// one-off it used is outvoted (default: 3 on the jvm, robolectric and android backends
    /// and with --noise, whose answers can differ between runs; 1 on a model without noise).
    #[arg(long, value_name = "N", value_parser = clap::value_parser!(u32).range(1..))]
    confirm: Option<u32>,
    /// Model backend: probability that a callback is late or missing in one wait (default 0).
    #[arg(long)]
    noise: Option<f64>,
    /// Model backend: seed of latencies and noise (default 0).
    #[arg(long)]
    seed: Option<u64>,
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

/// `--backend`: the learner's one list of backends, each with its help line.
fn backend_values() -> impl clap::builder::TypedValueParser<Value = BackendKind> {
    let names = BackendKind::ALL.map(|it| PossibleValue::new(it.name()).help(it.help()));
    clap::builder::PossibleValuesParser::new(names).map(|name| {
        name.parse::<BackendKind>()
            .expect("one of the possible values")
    })
}

/// The value of `--states`: a count, or the model's own.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum StatesArg {
    /// At most this many states, the error sink not counted.
    Count(usize),
    /// The simulated model's own count.
    Model,
}

impl std::str::FromStr for StatesArg {
    type Err = String;

    fn from_str(text: &str) -> Result<StatesArg, String> {
        match text {
            "model" => Ok(StatesArg::Model),
            _ => text
                .parse()
                .map(StatesArg::Count)
                .map_err(|_| format!("expected a number of states or `model`, got `{text}`")),
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, ValueEnum)]
enum AlgorithmArg {
    /// Error-aware L#, the default under a state bound (fewest runs there on the library
    /// benchmark).
    Lsharp,
    /// L* with Rivest–Schapire counterexample processing.
    Lstar,
    /// Active k-tails: L* whose columns are every word up to the distinguisher bound, so the
    /// check runs nothing; the default under a distinguisher bound alone (fewest runs there;
    /// needs --bound with --states).
    Ktails,
}

/// The algorithm the arguments ask for, if any: `--heuristics` implies L#, and is refused
/// with L*.
fn algorithm(args: &LearnArgs) -> anyhow::Result<Option<Algorithm>> {
    match (args.algorithm, args.heuristics) {
        (Some(other @ (AlgorithmArg::Lstar | AlgorithmArg::Ktails)), Some(_)) => anyhow::bail!(
            "--heuristics does not apply to --algorithm {}: only to lsharp",
            other
                .to_possible_value()
                .expect("no variant is skipped")
                .get_name()
        ),
        (Some(AlgorithmArg::Lstar), None) => Ok(Some(Algorithm::LStar)),
        (Some(AlgorithmArg::Ktails), None) => {
            if args.states.is_some() && args.bound.is_none() {
                anyhow::bail!(
                    "--algorithm ktails learns up to a distinguisher bound: add --bound K to --states"
                );
            }
            Ok(Some(Algorithm::KTails))
        }
        (Some(AlgorithmArg::Lsharp), heuristics) | (None, heuristics @ Some(_)) => {
            Ok(Some(Algorithm::LSharp(heuristics.unwrap_or_default())))
        }
        (None, None) => Ok(None),
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
    refuse_what_the_backend_ignores(&args)?;
    if args.suite.is_some() && args.states.is_some() && args.bound.is_none() {
        anyhow::bail!(
            "--suite applies only under a distinguisher bound: add --bound K, or drop --suite"
        );
    }
    let mut request = Request::new(args.backend);
    let alphabet = match args.backend {
        BackendKind::Model => {
            let spec = args
                .model
                .as_deref()
                .context("--backend model needs --model CLASS|FILE")?;
            let typestate = crate::load::typestate(spec)?;
            let alphabet = Alphabet::of(typestate.signature());
            request.model = Some(typestate);
            alphabet
        }
        BackendKind::Jvm | BackendKind::Robolectric | BackendKind::Android => {
            let experiment = args.experiment.as_ref().with_context(|| {
                format!(
                    "--backend {} needs --experiment FILE.toml|NAME",
                    args.backend
                )
            })?;
            let experiment = crate::load::experiment_file(experiment)?;
            let loaded = Experiment::load(&experiment)
                .context(Failure::LoadExperiment(experiment.clone()))?;
            let alphabet = loaded.alphabet();
            request.experiment = Some(Arc::new(loaded));
            alphabet
        }
    };
    request.session = Session {
        choices: Choices {
            algorithm: algorithm(&args)?,
            equivalence: equivalence(&args, request.model.as_ref()),
            filters: filters(&args, &alphabet)?,
            majority: Majority(args.majority),
            confirmation: args.confirm.map(Confirmation),
            suite: args.suite.unwrap_or_default(),
        },
        jobs: usize::from(args.jobs),
        journal: args.journal.clone(),
    };
    request.device = ModelConfig {
        noise: args.noise.unwrap_or(0.0),
        seed: args.seed.unwrap_or(0),
        ..ModelConfig::default()
    };
    request.classpath = args.classpath.clone();
    request.sdk = args.sdk;
    request.android = AndroidConfig {
        serials: args.devices.clone(),
        ..args.adb.config()
    };
    let backend = describe_backend(&args);
    let state_bound = request
        .session
        .choices
        .equivalence
        .and_then(EquivalenceChoice::state_bound);
    let mut bar = Bar::new(args.no_progress, state_bound);
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        .build()
        .context("cannot start the async runtime")?;
    let run = runtime
        .block_on(learner::learn_request(request, &mut bar))
        .map_err(|error| failure(error, &args))?;
    bar.finish();
    let report = report(&args, &backend, &run);
    write_outputs(&args, &report, run.typestate.as_ref(), out)?;
    exit_code(run.outcome.end)
}

/// The backend as the report's first line names it.
fn describe_backend(args: &LearnArgs) -> String {
    let experiment = args
        .experiment
        .as_ref()
        .map(|it| format!(" ({})", it.display()))
        .unwrap_or_default();
    match args.backend {
        BackendKind::Model => "model (simulated)".to_owned(),
        BackendKind::Robolectric => format!(
            "robolectric, SDK {}{experiment}",
            args.sdk.unwrap_or(robolectric::DEFAULT_SDK)
        ),
        kind => format!("{kind}{experiment}"),
    }
}

/// The failure a learning error stands for on the command line.
fn failure(error: LearnError, args: &LearnArgs) -> anyhow::Error {
    let context = match (&error, &args.journal) {
        (LearnError::Journal(_), Some(journal)) => Failure::Journal(journal.clone()),
        (LearnError::Journal(_) | LearnError::Missing(..), _) => return error.into(),
        (LearnError::Android(AndroidError::Dex { .. }), _) => Failure::BuildDex,
        _ => Failure::RunAgents {
            backend: args.backend.name(),
        },
    };
    anyhow::Error::new(error).context(context)
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
        End::NonDeterministic(_)
        | End::RoundLimit
        | End::StateBoundExceeded { .. }
        | End::StateBoundRefuted { .. }
        | End::GrowthLimitExceeded { .. } => Ok(ExitCode::from(1)),
        End::Failed(error) => Err(error).context(Failure::Learning),
    }
}

/// How learning ended, for the report's first line.
fn end_description(end: &End, alphabet: &Alphabet) -> String {
    match end {
        End::Learned => "learned".to_owned(),
        End::NonDeterministic(report) => format!("stopped: {report}"),
        End::Failed(error) => format!("failed: {error}"),
        End::RoundLimit => "stopped: round limit".to_owned(),
        End::GrowthLimitExceeded { states, limit } => format!(
            "stopped: a hypothesis has {states} states, more than {limit} (error sink included), with no state bound to stop it; the system is probably noisy (try a larger --confirm) or larger than expected (give --states)"
        ),
        End::StateBoundRefuted {
            bound,
            checked,
            counterexample,
        } => format!(
            "stopped: the system has more states than the state bound {bound} (error sink included): the model passed the bound's proof, but the check for systems of {checked} states found `{trace}`, which the model does not give; give a larger --states, unless the system answered inconsistently",
            trace = alphabet.render_trace(&counterexample.word, &counterexample.outputs),
        ),
        End::StateBoundExceeded { states, bound } => format!(
            "stopped: a hypothesis has {states} states, more than the state bound {bound} (error sink included); the bound is too small or the system answered inconsistently"
        ),
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
        Some(path) => std::fs::write(path, report).context(Failure::Write(path.clone()))?,
        None => out.write_all(report.as_bytes())?,
    }
    if let Some(learned) = learned {
        let text = typestates::format::print(learned);
        match &args.output {
            Some(path) => std::fs::write(path, text).context(Failure::Write(path.clone()))?,
            None => write!(out, "\n{text}")?,
        }
    }
    Ok(())
}

/// Refuses every option the chosen backend would not honour, naming it and the backend.
fn refuse_what_the_backend_ignores(args: &LearnArgs) -> anyhow::Result<()> {
    use BackendKind::{Android, Jvm, Model, Robolectric};
    let given: [(&str, bool, &[BackendKind]); 11] = [
        ("--model", args.model.is_some(), &[Model]),
        (
            "--experiment",
            args.experiment.is_some(),
            &[Jvm, Robolectric, Android],
        ),
        ("--device", !args.devices.is_empty(), &[Android]),
        ("--adb-server", !args.adb.servers.is_empty(), &[Android]),
        ("--adb", args.adb.program.is_some(), &[Android]),
        // One worker per device: the devices are the parallelism.
        ("--jobs", args.jobs != 1, &[Model, Jvm, Robolectric]),
        (
            "--classpath",
            !args.classpath.is_empty(),
            &[Jvm, Robolectric],
        ),
        ("--sdk", args.sdk.is_some(), &[Robolectric]),
        ("--noise", args.noise.is_some(), &[Model]),
        ("--seed", args.seed.is_some(), &[Model]),
        (
            "--states model",
            args.states == Some(StatesArg::Model),
            &[Model],
        ),
    ];
    for (option, given, backends) in given {
        if given && !backends.contains(&args.backend) {
            let backends: Vec<&str> = backends.iter().map(|it| it.name()).collect();
            anyhow::bail!(
                "{option} does not apply to --backend {}: only to --backend {}",
                args.backend,
                backends.join(" or ")
            );
        }
    }
    Ok(())
}

/// The guarantee the arguments ask for, if any: a distinguisher bound, a state bound (a
/// count, or the simulated `model`'s own), or both. Given state bounds exclude the error
/// sink; the oracle's count includes it.
fn equivalence(args: &LearnArgs, model: Option<&Typestate>) -> Option<EquivalenceChoice> {
    let states = args.states.map(|states| match (states, model) {
        (StatesArg::Count(states), _) => states + 1,
        (StatesArg::Model, Some(model)) => state_bound(model),
        (StatesArg::Model, None) => unreachable!("refused without the model backend"),
    });
    match (args.bound, states) {
        (Some(bound), Some(states)) => {
            Some(EquivalenceChoice::DistinguisherAndStateBound(bound, states))
        }
        (Some(bound), None) => Some(EquivalenceChoice::DistinguisherBound(bound)),
        (None, Some(states)) => Some(EquivalenceChoice::StateBound(states)),
        (None, None) => None,
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

/// The report: DroidStar's Table 1 columns, then what the system executed, whatever the
/// backend.
fn report(args: &LearnArgs, backend: &str, run: &Learned) -> String {
    let end = end_description(&run.outcome.end, &run.alphabet);
    let totals = &run.totals;
    let executed = totals.executed();
    let class = &run.alphabet.signature.class;
    let (workers, time, devices) = match &run.details {
        Details::Simulated { clock_ms } => {
            let cost = CostModel::default();
            (
                format!("{} instance(s)", args.jobs),
                format!(
                    "Time is the cost model's prediction (reset {reset} ms, callin {callin} ms, callback wait {callback} ms, quiet wait {quiet} ms); the simulated clock says {simulated:.0} s.\n",
                    reset = cost.reset_ms,
                    callin = cost.callin_ms,
                    callback = cost.callback_wait_ms,
                    quiet = cost.quiet_wait_ms,
                    simulated = *clock_ms as f64 / 1000.0,
                ),
                String::new(),
            )
        }
        Details::Agents => (
            format!("{} agent(s)", args.jobs),
            "Time is the wall clock's.\n".to_owned(),
            String::new(),
        ),
        Details::Devices {
            uses,
            disagreements,
        } => (
            format!("{} agent(s)", uses.len()),
            "Time is the wall clock's.\n".to_owned(),
            crate::cli::devices::describe_run(uses, disagreements),
        ),
    };
    format!(
        "# typestar learn: {class}\n\n\
         {end}; backend {backend}, algorithm {algorithm}, {oracle}, {workers}\n\n\
         {table}\n\
         Guarantee: {caveat}.\n\
         Executed: {runs} runs (resets), {steps} symbols ({callins} callins, {callback_waits} waits with a callback, {quiet_waits} quiet waits), over {sessions} session(s).\n\
         Learning: {learning}; checking: {checking}; this session: {session}.\n\
         {confirmation}\
         {disagreements}\
         {time}\
         Journal: {journal}.\n\
         {devices}",
        algorithm = run.algorithm.describe(),
        oracle = match run.suite {
            Suite::MaximalWords | Suite::Chained | Suite::ChainedKnown => format!(
                "{} (test words: {})",
                run.equivalence.describe(),
                run.suite.name()
            ),
            Suite::PerTransition => run.equivalence.describe(),
        },
        table = table1(class.rsplit('.').next().unwrap_or_default(), &run.statistics),
        caveat = run.equivalence.caveat(),
        runs = run.statistics.mq_executed,
        steps = executed.steps(),
        sessions = totals.sessions,
        learning = phase_counts(&totals.learning),
        checking = phase_counts(&totals.checking),
        session = phase_counts(&run.executed),
        callins = executed.callins,
        callback_waits = executed.callback_waits,
        quiet_waits = executed.quiet_waits,
        confirmation = confirmation(run.confirmation, args.confirm.is_some()),
        disagreements = disagreements(
            &run.disagreements,
            (run.outcome.restarts, run.outcome.dropped),
            &run.alphabet,
            args.majority
        ),
        journal = match &args.journal {
            None => "none".to_owned(),
            Some(path) => format!(
                "{} ({} queries resumed, {} of them run again to check the journal{})",
                path.display(),
                run.resumed_queries,
                run.journal_sample,
                if run.recovered_truncation {
                    ", a half-written last line cut off"
                } else {
                    ""
                }
            ),
        },
    )
}

/// One phase's share of the report: runs, symbols, and the waits among those symbols.
fn phase_counts(counts: &CountSnapshot) -> String {
    format!(
        "{} runs, {} symbols, {} waits",
        counts.resets,
        counts.steps(),
        counts.waits()
    )
}

/// How often each trace the result rests on ran, and who chose it.
fn confirmation(confirmation: Confirmation, given: bool) -> String {
    let source = if given {
        "--confirm"
    } else {
        "the backend's default: 3 where answers can differ between runs, else 1; --confirm N sets it"
    };
    match confirmation.0 {
        1 => format!("Confirmation: each trace the result rests on ran once ({source}).\n"),
        runs => format!("Confirmation: each trace the result rests on ran {runs} times, a one-off outvoted ({source}).\n"),
    }
}

/// The disagreements between runs and their votes, one line each after a summary line.
fn disagreements(
    disagreements: &[Disagreement],
    (restarts, dropped): (u32, u32),
    alphabet: &Alphabet,
    majority: u32,
) -> String {
    let reruns: u32 = disagreements.iter().map(|it| it.reruns).sum();
    let mut text = format!(
        "Disagreements between runs, each voted on until {majority} runs agree: {} ({reruns} runs repeated; learning started again {restarts} times from corrected traces; {dropped} counterexamples not reproduced by their reruns, dropped).\n",
        disagreements.len(),
    );
    for disagreement in disagreements {
        text.push_str(&format!("- {}\n", disagreement.describe(alphabet)));
    }
    text
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

    /// Where reruns disagree, a run exits 0 only with the model; otherwise it stops with a
    /// report and exit status 1 (FileObserver under its state bound, a callback late or
    /// missing in 5 % of waits, each trace run twice, seeds 0 to 7).
    #[test]
    fn disagreeing_reruns_never_give_a_wrong_model_with_exit_0() {
        let dir = scratch("disagreeing");
        let model = crate::load::typestate("FileObserver").unwrap();
        let mut ends = Vec::new();
        for seed in 0..8 {
            let output = dir.join(format!("{seed}.typestate"));
            let _ = std::fs::remove_file(&output);
            let seed_text = seed.to_string();
            let (result, report) = learn(&[
                "--model",
                "FileObserver",
                "--states",
                "model",
                "--algorithm",
                "lsharp",
                "--noise",
                "0.05",
                "--confirm",
                "2",
                "--seed",
                &seed_text,
                "-o",
                output.to_str().unwrap(),
            ]);
            assert!(report.contains("Disagreements between runs"), "{report}");
            let code = result.unwrap();
            if code == ExitCode::SUCCESS {
                let text = std::fs::read_to_string(&output).unwrap();
                let learned = typestates::format::parse("learned", &text).unwrap();
                let same = typestates::diff::diff(&model, &learned, 1).is_equivalent();
                assert!(same, "seed {seed}: exit 0 with another model\n{report}");
                ends.push("learned");
            } else {
                assert_eq!(code, ExitCode::from(1), "seed {seed}: {report}");
                assert!(report.contains("stopped: "), "seed {seed}: {report}");
                ends.push("stopped");
            }
        }
        assert!(ends.contains(&"stopped"), "no run stopped: {ends:?}");
    }

    #[test]
    fn a_rerun_with_the_same_journal_executes_only_the_journal_sample() {
        let dir = scratch("resume");
        let journal = dir.join("journal.jsonl");
        // Under the model's state bound the rerun asks the same queries; under a distinguisher
        // bound the replayed journal lets the cache check find counterexamples sooner, so a
        // rerun may ask (and execute) others (learner/JOURNAL.md).
        let args = [
            "--model",
            "AsyncTask",
            "--states",
            "model",
            "--journal",
            journal.to_str().unwrap(),
        ];
        let (first, report) = learn(&args);
        assert_eq!(first.unwrap(), ExitCode::SUCCESS);
        assert!(report.contains("(0 queries resumed, 0 of them"), "{report}");
        let (second, again) = learn(&args);
        assert_eq!(second.unwrap(), ExitCode::SUCCESS);
        // The rerun executes only the journal's sample, and reports both sessions' work.
        let first_executed = report
            .lines()
            .find(|it| it.starts_with("Executed:"))
            .unwrap();
        let first_runs: u64 = first_executed.split(' ').nth(1).unwrap().parse().unwrap();
        let sample: u64 = again
            .split(" of them run again to check the journal")
            .next()
            .and_then(|it| it.rsplit(' ').next())
            .and_then(|it| it.parse().ok())
            .expect("the sample size is reported");
        assert!(sample > 0, "{again}");
        assert!(
            again.contains(&format!("Executed: {} runs (resets),", first_runs + sample)),
            "{again}"
        );
        assert!(again.contains("over 2 session(s)"), "{again}");
        assert!(
            again.contains(&format!("this session: {sample} runs")),
            "{again}"
        );
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
        let error = crate::cli::failure::render(&second.unwrap_err());
        assert!(error.contains("belongs to another experiment"), "{error}");
        assert!(error.contains("class android.os.CountDownTimer"), "{error}");
        assert!(error.contains("help: give a new --journal path"), "{error}");
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
        // The shipped experiment, by name: its timing has margin for a loaded machine (tests run in
        // parallel), and the agent runs each query's callins back to back.
        // Options override the experiment's `[learn]` table, as on every backend.
        let (result, output) = learn(&[
            "--backend",
            "jvm",
            "--experiment",
            "java.util.Timer",
            "--algorithm",
            "lstar",
            "--bound",
            "1",
            "--states",
            "4",
            "--once",
            "cancel",
        ]);
        assert_eq!(
            result.expect("learning Timer succeeds"),
            ExitCode::SUCCESS,
            "{output}"
        );
        assert!(output.contains("learned; backend jvm"), "{output}");
        assert!(
            output.contains("algorithm lstar, distinguisher bound 1 and state bound 5"),
            "{output}"
        );
        // `--once cancel` adds a state: after one cancel, another is restricted.
        assert!(output.contains("| Timer | 4 |"), "{output}");
        assert!(
            output.contains("restricted by the experiment: cancel at most once"),
            "{output}"
        );
        assert!(output.contains("provenance learned"), "{output}");
        assert!(output.contains("on run ->"), "{output}");
    }

    #[test]
    fn options_a_backend_cannot_honour_are_refused_naming_both() {
        for (args, message) in [
            (
                &["--backend", "jvm", "--experiment", "x.toml", "--noise", "0.1"][..],
                "--noise does not apply to --backend jvm: only to --backend model",
            ),
            (
                &["--model", "AsyncTask", "--sdk", "30"],
                "--sdk does not apply to --backend model: only to --backend robolectric",
            ),
            (
                &["--model", "AsyncTask", "--classpath", "lib.jar"],
                "--classpath does not apply to --backend model: only to --backend jvm or robolectric",
            ),
            (
                &["--backend", "robolectric", "--experiment", "x.toml", "--states", "model"],
                "--states model does not apply to --backend robolectric: only to --backend model",
            ),
            (
                &["--backend", "jvm", "--experiment", "x.toml", "--model", "AsyncTask"],
                "--model does not apply to --backend jvm: only to --backend model",
            ),
            (
                &["--model", "AsyncTask", "--algorithm", "lstar", "--heuristics", "plain"],
                "--heuristics does not apply to --algorithm lstar: only to lsharp",
            ),
            (
                &["--model", "AsyncTask", "--algorithm", "ktails", "--heuristics", "all"],
                "--heuristics does not apply to --algorithm ktails: only to lsharp",
            ),
            (
                &["--model", "AsyncTask", "--algorithm", "ktails", "--states", "5"],
                "--algorithm ktails learns up to a distinguisher bound: add --bound K to --states",
            ),
        ] {
            let (result, report) = learn(args);
            assert_eq!(format!("{:#}", result.unwrap_err()), message);
            assert!(report.is_empty());
        }
    }

    #[test]
    fn the_report_names_the_guarantee_and_the_state_count_is_read_only_when_asked() {
        for (args, guarantee) in [
            (&[][..], "distinguisher bound 2,"),
            (&["--states", "4"], "state bound 5 (error sink included),"),
            (
                &["--states", "model"],
                "state bound 4 (error sink included),",
            ),
            (
                &["--bound", "1", "--states", "3"],
                "distinguisher bound 1 and state bound 4 (error sink included),",
            ),
        ] {
            let (result, report) = learn(&[&["--model", "CountDownTimer"], args].concat());
            assert_eq!(result.unwrap(), ExitCode::SUCCESS, "{args:?}");
            assert!(report.contains(guarantee), "{args:?}: {report}");
            let warned = report.contains("states that differs stops the run");
            assert_eq!(warned, args.contains(&"--states"), "{args:?}: {report}");
        }
    }

    #[test]
    fn a_state_bound_one_too_small_stops_the_run_with_a_counterexample() {
        // CountDownTimer has 3 states besides the error sink: under a bound of 2 the bound's
        // proof accepts a wrong model, and the check for one state more refutes it.
        let (result, report) = learn(&["--model", "CountDownTimer", "--states", "2"]);
        assert_eq!(result.unwrap(), ExitCode::from(1));
        assert!(
            report.contains(
                "stopped: the system has more states than the state bound 3 (error sink included): the model passed the bound's proof, but the check for systems of 4 states found `"
            ),
            "{report}"
        );
    }

    #[test]
    fn k_tails_is_named_and_its_check_runs_nothing() {
        // Named, or the default under a distinguisher bound alone.
        for args in [&["--algorithm", "ktails"][..], &[]] {
            let (result, report) = learn(&[&["--model", "CountDownTimer"], args].concat());
            assert_eq!(result.unwrap(), ExitCode::SUCCESS, "{report}");
            assert!(
                report.contains("algorithm ktails, distinguisher bound 2,"),
                "{args:?}: {report}"
            );
            assert!(
                report.contains("checking: 0 runs, 0 symbols, 0 waits;"),
                "{report}"
            );
        }
    }

    #[test]
    fn the_maximal_words_suite_is_named_and_refused_without_a_distinguisher_bound() {
        let (result, report) = learn(&["--model", "CountDownTimer", "--suite", "maximal-words"]);
        assert_eq!(result.unwrap(), ExitCode::SUCCESS);
        assert!(
            report.contains("distinguisher bound 2 (test words: maximal-words),"),
            "{report}"
        );
        let (result, report) = learn(&[
            "--model",
            "CountDownTimer",
            "--states",
            "3",
            "--suite",
            "maximal-words",
        ]);
        assert_eq!(
            format!("{:#}", result.unwrap_err()),
            "--suite applies only under a distinguisher bound: add --bound K, or drop --suite"
        );
        assert!(report.is_empty());
    }

    #[test]
    fn plain_lsharp_is_selectable_and_named_in_the_report() {
        let (result, report) = learn(&["--model", "CountDownTimer", "--heuristics", "plain"]);
        assert_eq!(result.unwrap(), ExitCode::SUCCESS);
        assert!(
            report.contains("algorithm lsharp (heuristics: plain), distinguisher bound 2,"),
            "{report}"
        );
        assert!(
            report.contains("Guarantee: no counterexample up to distinguisher bound 2: "),
            "{report}"
        );
        assert!(report.contains("| CountDownTimer | 3 |"), "{report}");
        let cli = Cli::try_parse_from(["learn", "--model", "X", "--heuristics", "fastest"]);
        let error = cli.err().expect("refused").to_string();
        assert!(error.contains("unknown L# heuristic `fastest`"), "{error}");
    }

    #[test]
    fn a_noisy_model_confirms_every_trace_three_times_unless_told() {
        let cases: [(&[&str], &str); 3] = [
            (&["--model", "AsyncTask"], "ran once (the backend's default"),
            (
                &["--model", "AsyncTask", "--noise", "0.05"],
                "ran 3 times, a one-off outvoted (the backend's default",
            ),
            (
                &["--model", "AsyncTask", "--noise", "0.05", "--confirm", "1"],
                "ran once (--confirm)",
            ),
        ];
        for (args, confirmation) in cases {
            let (result, report) = learn(args);
            assert_eq!(result.unwrap(), ExitCode::SUCCESS, "{args:?}: {report}");
            assert!(
                report.contains(&format!(
                    "Confirmation: each trace the result rests on {confirmation}"
                )),
                "{args:?}: {report}"
            );
        }
    }

    #[test]
    fn a_hypothesis_beyond_the_state_bound_stops_the_run() {
        // Under the state bound alone, L# assumes it and can end with a wrong small model that
        // no observation contradicts; the distinguisher bound's tests expose it.
        let (result, report) = learn(&["--model", "MediaPlayer", "--states", "3", "--bound", "2"]);
        assert_eq!(result.unwrap(), ExitCode::from(1));
        assert!(
            report.contains("stopped: a hypothesis has 5 states, more than the state bound 4"),
            "{report}"
        );
    }
}
