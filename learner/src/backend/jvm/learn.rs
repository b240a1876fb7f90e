//! Learning a class on the host JVM: [`learn_system`] over `jobs` agent processes, with the
//! experiment's filters, algorithm and distinguisher bound unless the user's [`Choices`] say
//! otherwise, and the learned typestate with its provenance and statistics.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use typestates::{Backend, Code, LearningRun, Step, Typestate};

use super::error::JvmError;
use super::experiment::Experiment;
use super::java::{default_cache_dir, Jdk};
use super::process::{AgentCommand, AgentProcess};
use super::sul::{JvmSul, Launcher};
use crate::closure::Alphabet;
use crate::cost::CostModel;
use crate::creators::creators_from_initial;
use crate::learn::{Algorithm, Outcome, Progress};
use crate::oracle::nondeterminism::Disagreement;
use crate::oracle::pipeline::PipelineConfig;
use crate::oracle::sul::{CountSnapshot, Sul};
use crate::report::{learned_typestate, Statistics};
use crate::session::{learn_system, Choices, EquivalenceChoice};

/// Where the JVM backend finds its tools and the code under study.
#[derive(Clone, Debug)]
pub struct JvmConfig {
    /// Jars and class directories of the code under study (and its harnesses).
    pub classpath: Vec<PathBuf>,
    /// Agent processes run in parallel (`--jobs`).
    pub jobs: usize,
    /// Where to journal executed queries, to resume an interrupted run.
    pub journal: Option<PathBuf>,
    /// The JDK to use; `None` for JAVA_HOME, else PATH.
    pub java_home: Option<PathBuf>,
    /// What the user chose over the experiment's `[learn]` table.
    pub choices: Choices,
    /// Where the agent is compiled to (one subdirectory per version of its sources).
    pub cache_dir: PathBuf,
}

impl Default for JvmConfig {
    fn default() -> JvmConfig {
        JvmConfig {
            classpath: Vec::new(),
            jobs: 1,
            journal: None,
            choices: Choices::default(),
            java_home: std::env::var_os("JAVA_HOME")
                .filter(|it| !it.is_empty())
                .map(PathBuf::from),
            cache_dir: default_cache_dir(),
        }
    }
}

impl JvmConfig {
    /// Finds the JDK, builds the agent and the `harness` sources if needed, and says how to
    /// start it.
    pub fn agent_command(&self, harness: &[PathBuf]) -> Result<AgentCommand, JvmError> {
        let jdk = Jdk::find(self.java_home.as_deref())?;
        let mut classpath = jdk.agent_classpath(&self.cache_dir)?;
        classpath.extend(self.classpath.iter().cloned());
        if !harness.is_empty() {
            let classes = jdk.harness_classes(&self.cache_dir, &classpath, harness)?;
            classpath.push(classes);
        }
        Ok(AgentCommand::host(jdk.java, classpath))
    }
}

/// What a learning run on the JVM produced.
#[derive(Debug)]
pub struct JvmRun {
    /// How learning ended, with the last hypothesis.
    pub outcome: Outcome,
    /// DroidStar's columns; `time_ms` is the measured wall-clock time, `states` those of
    /// `typestate` (after `[learn] creators`, if the experiment names any).
    pub statistics: Statistics,
    /// The learned typestate, with provenance and statistics, if a hypothesis was built.
    pub typestate: Option<Typestate>,
    /// The experiment's alphabet.
    pub alphabet: Arc<Alphabet>,
    /// Queries asked by the learner and the equivalence oracle.
    pub asked: CountSnapshot,
    /// Queries, resets and steps executed by the agents.
    pub executed: CountSnapshot,
    /// The algorithm the run learned with.
    pub algorithm: Algorithm,
    /// The guarantee the run learned under.
    pub equivalence: EquivalenceChoice,
    /// Disagreements between runs and their votes.
    pub disagreements: Vec<Disagreement>,
}

/// The cost of a host JVM run: a reset (teardown and build) is cheap but dearer than a step,
/// and a quiet `wait` lasts t_max.
fn cost_model(experiment: &Experiment) -> CostModel {
    CostModel {
        reset_ms: 5,
        callin_ms: 1,
        callback_wait_ms: 2,
        quiet_wait_ms: experiment.quiescence_ms(),
    }
}

/// Learns the typestate of `experiment`'s class by running it in agents on the host JVM.
///
/// Fails before learning if the JDK is missing, the agent does not build or the agent
/// rejects the experiment (naming the experiment's line). A failure during learning (a
/// crash, a hang, an unlisted exception) ends the run with [`crate::End::Failed`] naming the
/// query, the hypothesis so far kept in the outcome. With `[learn] creators`, the learned
/// typestate's initial state becomes those creators ([`creators_from_initial`]); a machine
/// not of that shape is [`JvmError::Creators`], whose message holds the learned typestate.
pub async fn learn_class(
    experiment: Arc<Experiment>,
    config: &JvmConfig,
    progress: &mut dyn Progress,
) -> Result<JvmRun, JvmError> {
    let started = Instant::now();
    let launcher = Launcher {
        command: config.agent_command(&experiment.harness_sources())?,
        experiment,
    };
    // The first agent starts now, so a bad experiment fails here with its location.
    let first = launcher.start().await?;
    let platform = format!("host JVM, Java {}", first.java_version);
    let agents = Agents::of(config, cost_model(&launcher.experiment), started);
    learn_on_agents(
        launcher,
        first,
        &agents,
        Provenance {
            platform,
            sources: Vec::new(),
            run: LearningRun {
                backend: Backend::Jvm,
                sdk: None,
                code: Some(Code::Real),
                date: None,
            },
        },
        progress,
    )
    .await
}

/// The agents a learning run uses, and when the run started (for its time statistic).
pub(crate) struct Agents {
    /// Agent processes run in parallel.
    pub jobs: usize,
    /// Where to journal executed queries.
    pub journal: Option<PathBuf>,
    /// What the user chose over the experiment's `[learn]` table.
    pub choices: Choices,
    /// What runs cost on these agents, for the choice between extending a run and a reset.
    pub cost: CostModel,
    /// When the run started, before the first agent.
    pub started: Instant,
}

impl Agents {
    /// The agents `config` asks for, whose runs cost `cost`, for a run started at `started`.
    pub(crate) fn of(config: &JvmConfig, cost: CostModel, started: Instant) -> Agents {
        Agents {
            jobs: config.jobs,
            journal: config.journal.clone(),
            choices: config.choices.clone(),
            cost,
            started,
        }
    }
}

/// What a backend adds to the learned typestate's provenance.
pub(crate) struct Provenance {
    /// Where the class ran.
    pub platform: String,
    /// Sources beyond the experiment file.
    pub sources: Vec<String>,
    /// Where the class ran; the date is filled in when the run ends.
    pub run: LearningRun,
}

/// Learns `launcher`'s experiment on `first` and `jobs - 1` more agents the launcher starts:
/// the pipeline every agent backend shares.
pub(crate) async fn learn_on_agents(
    launcher: Launcher,
    first: AgentProcess,
    agents: &Agents,
    provenance: Provenance,
    progress: &mut dyn Progress,
) -> Result<JvmRun, JvmError> {
    let experiment = Arc::clone(&launcher.experiment);
    let alphabet = Arc::new(experiment.alphabet());
    let mut suls = vec![JvmSul::with_agent(
        launcher.clone(),
        Arc::clone(&alphabet),
        first,
    )];
    for _ in 1..agents.jobs.max(1) {
        suls.push(JvmSul::new(launcher.clone(), Arc::clone(&alphabet)));
    }
    learn_with(experiment, alphabet, suls, agents, provenance, progress).await
}

/// Learns `experiment` on `suls`, which run it over `alphabet` (the experiment's): the
/// pipeline every agent backend shares, whatever starts its agents.
pub(crate) async fn learn_with<S: Sul>(
    experiment: Arc<Experiment>,
    alphabet: Arc<Alphabet>,
    suls: Vec<S>,
    agents: &Agents,
    provenance: Provenance,
    progress: &mut dyn Progress,
) -> Result<JvmRun, JvmError> {
    let choices = &agents.choices;
    let mut filters = experiment.filters(&alphabet);
    filters.extend(choices.filters.iter().cloned());
    let cost = agents.cost;
    let pipeline_config = PipelineConfig {
        cost,
        filters: filters.clone(),
        journal: agents.journal.clone(),
        majority: choices.majority,
        confirmation: choices.confirmation,
    };
    let equivalence = choices
        .equivalence
        .unwrap_or(EquivalenceChoice::DistinguisherBound(
            experiment.distinguisher_bound(),
        ));
    let algorithm = choices.algorithm.unwrap_or(experiment.algorithm());
    let run = learn_system(
        Arc::clone(&alphabet),
        suls,
        algorithm,
        equivalence,
        &pipeline_config,
        progress,
    )
    .await?;
    let (outcome, asked, executed) = (run.outcome, run.asked, run.totals.executed());
    let mut statistics = Statistics::collect(&outcome, asked, executed, &cost);
    statistics.time_ms = agents.started.elapsed().as_millis() as u64;
    let typestate = outcome.hypothesis.as_ref().map(|hypothesis| {
        let mut typestate = learned_typestate(
            hypothesis,
            &alphabet,
            &statistics,
            &filters,
            &run.restrictions,
        );
        if let Some(exception) = experiment.sole_exception() {
            name_exception(&mut typestate, exception);
        }
        typestate.provenance.platform = Some(provenance.platform);
        typestate.provenance.run = Some(LearningRun {
            date: Some(today()),
            ..provenance.run
        });
        typestate
            .provenance
            .sources
            .push(format!("experiment {}", experiment.file().display()));
        typestate.provenance.sources.extend(provenance.sources);
        typestate
    });
    let creators = experiment.creators();
    let typestate = match typestate {
        Some(learned) if !creators.is_empty() => {
            let names: Vec<&str> = creators.iter().map(String::as_str).collect();
            let rewritten =
                creators_from_initial(&learned, &names).map_err(|source| JvmError::Creators {
                    location: experiment.creators_location(),
                    source: Box::new(source),
                    learned: typestates::format::print(&learned),
                })?;
            statistics.states = rewritten.states.len() as u32;
            Some(rewritten)
        }
        other => other,
    };
    Ok(JvmRun {
        outcome,
        statistics,
        typestate,
        alphabet,
        asked,
        executed,
        algorithm,
        equivalence,
        disagreements: run.disagreements,
    })
}

/// Names `exception` on every error of a callin not refined by its result: such a callin
/// answers `err` only by throwing one of the experiment's exceptions, here all instances of it.
fn name_exception(typestate: &mut Typestate, exception: &str) {
    let plain: Vec<bool> = typestate
        .callins
        .iter()
        .map(|callin| callin.binding.returns.is_none() && callin.binding.condition.is_none())
        .collect();
    for state in &mut typestate.states {
        for (step, plain) in state.on_callin.iter_mut().zip(&plain) {
            if let (
                Step::Error {
                    exception: known, ..
                },
                true,
            ) = (step, plain)
            {
                *known = Some(exception.to_owned());
            }
        }
    }
}

/// Today's date in UTC, `YYYY-MM-DD` (the civil-from-days conversion of Howard Hinnant's
/// "chrono-Compatible Low-Level Date Algorithms").
fn today() -> String {
    let seconds = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |it| it.as_secs());
    let days = (seconds / 86_400) as i64 + 719_468;
    let era = days.div_euclid(146_097);
    let day_of_era = days.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1_460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_index = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_index + 2) / 5 + 1;
    let month = if month_index < 10 {
        month_index + 3
    } else {
        month_index - 9
    };
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}
