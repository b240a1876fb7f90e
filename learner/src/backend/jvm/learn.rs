//! Learning a class on the host JVM: the shared pipeline ([`learn_setup`]) over `jobs` agent processes.
//! It uses the experiment's filters, algorithm and distinguisher bound unless the user's [`crate::session::Choices`] say otherwise.
//! It gives the learned typestate with its provenance and statistics.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Instant;

use typestates::{Backend, Code, Failure, LearningRun, Step, Typestate};

use super::error::JvmError;
use super::experiment::Experiment;
use super::java::{default_cache_dir, Jdk};
use super::process::{AgentCommand, AgentProcess};
use super::sul::{JvmSul, Launcher};
use crate::closure::Alphabet;
use crate::cost::CostModel;
use crate::creators::creators_from_initial;
use crate::learn::Progress;
use crate::oracle::pipeline::Confirmation;
use crate::oracle::sul::Sul;
use crate::session::{
    learn_setup, Choices, EquivalenceChoice, Learned, Origin, Session, Setup, Timing,
};

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
) -> Result<Learned, JvmError> {
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
        Origin {
            platform,
            sources: Vec::new(),
            run: Some(LearningRun {
                backend: Backend::Jvm,
                sdk: None,
                code: Some(Code::Real),
                date: None,
            }),
        },
        progress,
    )
    .await
}

/// The agents a learning run uses, and when the run started (for its time statistic).
pub(crate) struct Agents {
    /// The user's choices, the agents run in parallel and the journal.
    pub session: Session,
    /// What runs cost on these agents, for the choice between extending a run and a reset.
    pub cost: CostModel,
    /// When the run started, before the first agent.
    pub started: Instant,
}

impl Agents {
    /// The agents `config` asks for, whose runs cost `cost`, for a run started at `started`.
    pub(crate) fn of(config: &JvmConfig, cost: CostModel, started: Instant) -> Agents {
        Agents {
            session: Session {
                choices: config.choices.clone(),
                jobs: config.jobs,
                journal: config.journal.clone(),
            },
            cost,
            started,
        }
    }
}

/// Learns `launcher`'s experiment on `first` and `jobs - 1` more agents the launcher starts:
/// the pipeline every agent backend shares.
pub(crate) async fn learn_on_agents(
    launcher: Launcher,
    first: AgentProcess,
    agents: &Agents,
    origin: Origin,
    progress: &mut dyn Progress,
) -> Result<Learned, JvmError> {
    let experiment = Arc::clone(&launcher.experiment);
    let alphabet = Arc::new(experiment.alphabet());
    let mut suls = vec![JvmSul::with_agent(
        launcher.clone(),
        Arc::clone(&alphabet),
        first,
    )];
    for _ in 1..agents.session.jobs.max(1) {
        suls.push(JvmSul::new(launcher.clone(), Arc::clone(&alphabet)));
    }
    learn_with(experiment, alphabet, suls, agents, origin, progress).await
}

/// Learns `experiment` on `suls`, which run it over `alphabet` (the experiment's), through
/// the pipeline every backend shares ([`learn_setup`]), with the experiment's filters,
/// algorithm and distinguisher bound unless the user chose otherwise; then names the
/// experiment's exception and rewrites the creators it names.
pub(crate) async fn learn_with<S: Sul>(
    experiment: Arc<Experiment>,
    alphabet: Arc<Alphabet>,
    suls: Vec<S>,
    agents: &Agents,
    mut origin: Origin,
    progress: &mut dyn Progress,
) -> Result<Learned, JvmError> {
    origin
        .sources
        .insert(0, format!("experiment {}", experiment.file().display()));
    let setup = Setup {
        filters: experiment.filters(&alphabet),
        alphabet,
        suls,
        algorithm: Some(experiment.algorithm()),
        equivalence: EquivalenceChoice::DistinguisherBound(experiment.distinguisher_bound()),
        // Real code on a JVM or a device: threads, timers and callbacks can answer the same
        // inputs differently from one run to the next.
        confirmation: Confirmation::NOISY,
        cost: agents.cost,
        timing: Timing::Since(agents.started),
        origin,
    };
    let mut run = learn_setup(setup, &agents.session, progress).await?;
    if let (Some(typestate), Some(exception)) = (&mut run.typestate, experiment.sole_exception()) {
        name_exception(typestate, exception);
    }
    let creators = experiment.creators();
    if let (Some(learned), false) = (&run.typestate, creators.is_empty()) {
        let names: Vec<&str> = creators.iter().map(String::as_str).collect();
        let rewritten =
            creators_from_initial(learned, &names).map_err(|source| JvmError::Creators {
                location: experiment.creators_location(),
                source: Box::new(source),
                learned: typestates::format::print(learned),
            })?;
        run.statistics.states = rewritten.states.len() as u32;
        run.typestate = Some(rewritten);
    }
    Ok(run)
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
                    failure: Failure::Throws(known),
                    ..
                },
                true,
            ) = (step, plain)
            {
                *known = Some(exception.to_owned());
            }
        }
    }
}
