//! One learning session over any backend.
//! It builds the query engine over the backend's instances and chooses the equivalence oracle.
//! It runs the learning loop and collects everything the run produced.
//! Every backend learns through `learn_setup`, from its arm of [`crate::backend::learn`].
//! A backend gives it a `Setup`: its [`Sul`] instances, alphabet, defaults, cost model and origin.
//! `learn_setup` returns a [`Learned`]: the outcome, statistics and the typestate.
//! Its core, [`learn_system`], learns the system behind any [`Sul`] instances.
//! Tests with scripted systems call [`learn_system`] directly.
//!
//! Under a state bound `N`, a result the bound's proof accepts is tested once more before it is accepted.
//! The test is against every system of `N + 1` states.
//! A counterexample there proves the bound too small and stops the run ([`End::StateBoundRefuted`]).
//!
//! What the system executes is split at every phase change into learning (building hypotheses) and checking.
//! Checking is equivalence queries, confirmation and the journal's sample.
//! With a journal, the counts are summed with the sessions before ([`Totals`]).

use std::path::PathBuf;
use std::sync::{Arc, Mutex};
use std::time::Instant;

use typestates::{LearningRun, Typestate};

use crate::backend::android::{DeviceDisagreement, DeviceUse};
use crate::closure::Alphabet;
use crate::cost::CostModel;
use crate::equivalence::{
    Beyond, CacheConsistency, Chain, Counterexample, DistinguisherBound, EquivalenceOracle,
    StateBound, Suite, WMethod,
};
use crate::hypothesis::Hypothesis;
use crate::learn::{learn, Algorithm, End, LearnConfig, Outcome, Phase, Progress, ProgressUpdate};
use crate::oracle::filter::{QueryFilter, Restrictions};
use crate::oracle::journal::{JournalError, JournalFile, Totals};
use crate::oracle::nondeterminism::{Disagreement, Majority};
use crate::oracle::pipeline::{Confirmation, Pipeline, PipelineConfig};
use crate::oracle::sul::{CountSnapshot, Counts, Sul};
use crate::oracle::{MembershipOracle, QueryError};
use crate::report::{learned_typestate, Statistics};

/// Which equivalence oracle checks hypotheses; each runs after the free cache-consistency
/// check.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum EquivalenceChoice {
    /// The Starling paper's Algorithm 2 with this distinguisher bound.
    DistinguisherBound(usize),
    /// The W-method for at most this many states (error sink included).
    WMethod(usize),
    /// At most this many states (error sink included), checked by asking only what the
    /// observations do not already prove ([`StateBound`]).
    StateBound(usize),
    /// Algorithm 2 with bound 1 (cheap counterexamples while hypotheses are small), then the
    /// W-method for at most this many states.
    BoundOneThenWMethod(usize),
    /// Algorithm 2 with this distinguisher bound, then [`StateBound`] with at most this many
    /// states (error sink included): the result is right if either assumption holds.
    DistinguisherAndStateBound(usize, usize),
}

impl EquivalenceChoice {
    /// The state bound the oracle assumes, if it assumes one.
    pub fn state_bound(self) -> Option<usize> {
        match self {
            EquivalenceChoice::DistinguisherBound(_) => None,
            EquivalenceChoice::WMethod(states)
            | EquivalenceChoice::StateBound(states)
            | EquivalenceChoice::BoundOneThenWMethod(states)
            | EquivalenceChoice::DistinguisherAndStateBound(_, states) => Some(states),
        }
    }

    /// The distinguisher bound the oracle assumes, if it assumes one (not the bound 1 that
    /// only finds cheap counterexamples before the W-method).
    pub fn distinguisher_bound(self) -> Option<usize> {
        match self {
            EquivalenceChoice::DistinguisherBound(bound)
            | EquivalenceChoice::DistinguisherAndStateBound(bound, _) => Some(bound),
            EquivalenceChoice::WMethod(_)
            | EquivalenceChoice::StateBound(_)
            | EquivalenceChoice::BoundOneThenWMethod(_) => None,
        }
    }

    /// The guarantee a run learned under, for reports.
    pub fn describe(self) -> String {
        match self {
            EquivalenceChoice::DistinguisherBound(bound) => {
                format!("distinguisher bound {bound}")
            }
            EquivalenceChoice::WMethod(states) => {
                format!("state bound {states} (error sink included; W-method)")
            }
            EquivalenceChoice::StateBound(states) => {
                format!("state bound {states} (error sink included)")
            }
            EquivalenceChoice::BoundOneThenWMethod(states) => format!(
                "state bound {states} (error sink included; distinguisher bound 1, then the W-method)"
            ),
            EquivalenceChoice::DistinguisherAndStateBound(bound, states) => format!(
                "distinguisher bound {bound} and state bound {states} (error sink included)"
            ),
        }
    }
}

impl EquivalenceChoice {
    /// The algorithm a run under this guarantee learns with when neither the user nor the
    /// backend's experiment names one: active k-tails under a distinguisher bound alone (its
    /// check runs nothing, and on every library class it executes the fewest runs of the
    /// ways that check Algorithm 2's words: `tests/suites.rs`; L# with the chained suite runs
    /// fewer on 65 of the 67 classes, not yet the default), L# with every heuristic otherwise.
    pub fn default_algorithm(self) -> Algorithm {
        match self {
            EquivalenceChoice::DistinguisherBound(_) => Algorithm::KTails,
            EquivalenceChoice::WMethod(_)
            | EquivalenceChoice::StateBound(_)
            | EquivalenceChoice::BoundOneThenWMethod(_)
            | EquivalenceChoice::DistinguisherAndStateBound(..) => Algorithm::default(),
        }
    }

    /// What a learned model under this guarantee is worth, and what it does not promise.
    pub fn caveat(self) -> String {
        match self {
            EquivalenceChoice::DistinguisherBound(bound) => format!(
                "no counterexample up to distinguisher bound {bound}: a system whose states need longer words to be told apart can differ from this model (add --states N to prove a state bound too)"
            ),
            EquivalenceChoice::WMethod(states)
            | EquivalenceChoice::StateBound(states)
            | EquivalenceChoice::BoundOneThenWMethod(states) => format!(
                "exact if the system has at most {states} states (error sink included); a system of {beyond} states that differs stops the run, but a larger one can give a wrong model without any sign (add --bound K to test beyond it)",
                beyond = states + 1,
            ),
            EquivalenceChoice::DistinguisherAndStateBound(bound, states) => format!(
                "exact if the system has at most {states} states (error sink included); a system of {beyond} states that differs stops the run, and a larger one has no counterexample up to distinguisher bound {bound}",
                beyond = states + 1,
            ),
        }
    }
}

/// What a user chose for one run, whatever the backend.
/// `None` leaves the choice to the backend's experiment, or to the default.
#[derive(Clone, Debug, Default)]
pub struct Choices {
    /// The algorithm.
    pub algorithm: Option<Algorithm>,
    /// The guarantee.
    pub equivalence: Option<EquivalenceChoice>,
    /// Query filters added to the experiment's own.
    pub filters: Vec<QueryFilter>,
    /// How many runs of a disagreeing query must agree to settle it.
    pub majority: Majority,
    /// How many runs of every trace a result rests on must agree; `None` for the backend's
    /// default ([`Confirmation::NOISY`] for real code and a noisy model, else
    /// [`Confirmation::ONCE`]).
    pub confirmation: Option<Confirmation>,
    /// How a distinguisher bound's test words run.
    pub suite: Suite,
}

impl Choices {
    /// The algorithm and the guarantee, everything else at its default.
    pub fn of(algorithm: Algorithm, equivalence: EquivalenceChoice) -> Choices {
        Choices {
            algorithm: Some(algorithm),
            equivalence: Some(equivalence),
            ..Choices::default()
        }
    }
}

/// What a session produced, however it ended.
#[derive(Debug)]
pub struct SystemRun {
    /// How learning ended, with the last hypothesis.
    pub outcome: Outcome,
    /// Queries asked.
    pub asked: CountSnapshot,
    /// Queries, resets and steps executed on the system in this session.
    pub executed: CountSnapshot,
    /// What the system executed, split into learning and checking, summed over this session
    /// and the sessions before it that wrote to the journal.
    pub totals: Totals,
    /// Queries the experiment's filters forbade.
    pub restrictions: Arc<Restrictions>,
    /// Disagreements between runs that a majority settled.
    pub disagreements: Vec<Disagreement>,
    /// Queries replayed from the journal instead of executed.
    pub resumed_queries: usize,
    /// Journaled queries run again to check the journal.
    pub journal_sample: usize,
    /// Whether the journal's half-written last line was cut off.
    pub recovered_truncation: bool,
}

/// What the system executed, split by phase and summed with the sessions before; shared by
/// the phase changes and the journal's checkpoints between them.
struct Ledger {
    executed: Arc<Counts>,
    phase: Phase,
    mark: CountSnapshot,
    totals: Totals,
}

impl Ledger {
    /// Adds what was executed since the last mark to the current phase; the totals so far.
    fn settle(&mut self) -> Totals {
        let now = self.executed.snapshot();
        let since = now - self.mark;
        self.mark = now;
        match self.phase {
            Phase::Exploring => self.totals.learning = self.totals.learning + since,
            Phase::Checking => self.totals.checking = self.totals.checking + since,
        }
        self.totals
    }
}

/// Forwards progress, adding the pipeline's live counters, and at every phase change settles
/// the [`Ledger`] and journals the totals.
struct Counted<'a> {
    inner: &'a mut dyn Progress,
    journal: Option<Arc<Mutex<JournalFile>>>,
    asked: Arc<Counts>,
    executed: Arc<Counts>,
    ledger: Arc<Mutex<Ledger>>,
    journal_error: Option<JournalError>,
}

impl Counted<'_> {
    /// Settles the ledger and journals the totals.
    fn settle(&mut self) {
        let totals = self
            .ledger
            .lock()
            .expect("no panic while holding the lock")
            .settle();
        if let Some(journal) = &self.journal {
            let written = journal
                .lock()
                .expect("no panic while holding the lock")
                .append_totals(&totals);
            if let Err(error) = written {
                self.journal_error.get_or_insert(error);
            }
        }
    }
}

impl Progress for Counted<'_> {
    fn update(&mut self, update: ProgressUpdate) {
        let phase = self
            .ledger
            .lock()
            .expect("no panic while holding the lock")
            .phase;
        if update.phase != phase {
            self.settle();
            self.ledger
                .lock()
                .expect("no panic while holding the lock")
                .phase = update.phase;
        }
        self.inner
            .counts(self.asked.snapshot(), self.executed.snapshot());
        self.inner.update(update);
    }
}

/// Learns the system behind `suls` (one per parallel instance) over `alphabet`.
/// A resumed journal's sample is replayed first ([`Pipeline::check_journal`]): a journal
/// the system contradicts is a [`JournalError`], not a learning outcome.
pub async fn learn_system<S: Sul>(
    alphabet: Arc<Alphabet>,
    suls: Vec<S>,
    algorithm: Algorithm,
    equivalence: EquivalenceChoice,
    suite: Suite,
    pipeline_config: &PipelineConfig,
    progress: &mut dyn Progress,
) -> Result<SystemRun, JournalError> {
    let pipeline = Pipeline::new(Arc::clone(&alphabet), suls, pipeline_config)?;
    let config = LearnConfig {
        algorithm,
        state_bound: equivalence.state_bound(),
        distinguisher_bound: equivalence.distinguisher_bound(),
        ..LearnConfig::new(Arc::clone(&alphabet))
    };
    let (asked, executed) = pipeline.live_counts();
    let previous = pipeline.previous_totals();
    let ledger = Arc::new(Mutex::new(Ledger {
        executed: Arc::clone(&executed),
        // The journal's sample is replayed before learning starts: checking.
        phase: Phase::Checking,
        mark: CountSnapshot::default(),
        totals: Totals {
            sessions: previous.sessions + 1,
            ..previous
        },
    }));
    if let Some(journal) = pipeline.journal() {
        let ledger = Arc::clone(&ledger);
        journal
            .lock()
            .expect("no panic while holding the lock")
            .totals_from(Box::new(move || {
                ledger
                    .lock()
                    .expect("no panic while holding the lock")
                    .settle()
            }));
    }
    let mut progress = Counted {
        inner: progress,
        journal: pipeline.journal().cloned(),
        asked,
        executed,
        ledger: Arc::clone(&ledger),
        journal_error: None,
    };
    let outcome = match pipeline.check_journal().await {
        Err(QueryError::Journal(error)) => return Err(error),
        Err(error) => Outcome::failed(error),
        Ok(()) => learn_checked(&config, &pipeline, equivalence, suite, &mut progress).await,
    };
    progress.settle();
    let totals = ledger
        .lock()
        .expect("no panic while holding the lock")
        .totals;
    if let Some(error) = progress.journal_error {
        return Err(error);
    }
    Ok(SystemRun {
        outcome,
        asked: pipeline.asked(),
        executed: pipeline.executed(),
        totals,
        restrictions: Arc::clone(pipeline.restrictions()),
        disagreements: pipeline.disagreements(),
        resumed_queries: pipeline.resumed_queries(),
        journal_sample: pipeline.journal_sample(),
        recovered_truncation: pipeline.recovered_truncation(),
    })
}

/// Learns with the equivalence oracle `equivalence` names, after the free cache check.
async fn learn_checked<S: Sul>(
    config: &LearnConfig,
    pipeline: &Pipeline<S>,
    equivalence: EquivalenceChoice,
    suite: Suite,
    progress: &mut dyn Progress,
) -> Outcome {
    let alphabet = Arc::clone(&config.alphabet);
    let distinguisher = |bound| {
        DistinguisherBound::new(bound)
            .with_suite(suite)
            .knowing(Arc::clone(pipeline.tree()))
    };
    let cache = CacheConsistency::new(Arc::clone(pipeline.tree()), Arc::clone(&alphabet));
    match equivalence {
        EquivalenceChoice::DistinguisherBound(bound) => {
            let oracle = Chain(cache, distinguisher(bound));
            run(config, pipeline, oracle, progress).await
        }
        EquivalenceChoice::WMethod(states) => {
            let oracle = Chain(cache, WMethod::new(states));
            run(config, pipeline, oracle, progress).await
        }
        EquivalenceChoice::StateBound(states) => {
            let bound = StateBound::new(states, Arc::clone(pipeline.tree()), alphabet);
            run(config, pipeline, Chain(cache, bound), progress).await
        }
        EquivalenceChoice::BoundOneThenWMethod(states) => {
            let then = Chain(distinguisher(1), WMethod::new(states));
            run(config, pipeline, Chain(cache, then), progress).await
        }
        EquivalenceChoice::DistinguisherAndStateBound(bound, states) => {
            let proof = StateBound::new(states, Arc::clone(pipeline.tree()), alphabet);
            let then = Chain(distinguisher(bound), proof);
            run(config, pipeline, Chain(cache, then), progress).await
        }
    }
}

/// Learns until a result survives the check beyond the state bound and the pipeline's
/// confirmation of the traces it rests on; a trace the confirmation corrected makes learning
/// start again from the tree.
/// Every counterexample is reproduced before learning uses it ([`Reproduced`]).
/// The round limit holds across those restarts: each starts with the rounds left.
async fn run<S: Sul, E: EquivalenceOracle>(
    config: &LearnConfig,
    pipeline: &Pipeline<S>,
    eq: E,
    progress: &mut dyn Progress,
) -> Outcome {
    let mut eq = Reproduced {
        pipeline,
        inner: eq,
        dropped: 0,
    };
    let (mut rounds, mut restarts) = (0, 0);
    loop {
        let left = LearnConfig {
            max_rounds: config.max_rounds.saturating_sub(rounds),
            ..config.clone()
        };
        let mut outcome = learn(&left, pipeline.oracle(), &mut eq, progress).await;
        outcome.rounds += rounds;
        outcome.restarts += restarts;
        outcome.dropped = eq.dropped;
        if !matches!(outcome.end, End::Learned) {
            return outcome;
        }
        let checked = async {
            let refuted = beyond_the_bound(config, pipeline, &outcome).await?;
            pipeline.confirm(&config.alphabet.inputs).await?;
            Ok(refuted)
        };
        match checked.await {
            Ok(refuted) => {
                if let Some(end) = refuted {
                    outcome.end = end;
                }
                return outcome;
            }
            Err(QueryError::Relearn(_)) => {
                rounds = outcome.rounds;
                restarts = outcome.restarts + 1;
            }
            Err(QueryError::NonDeterminism(report)) => {
                outcome.end = End::NonDeterministic(report);
                return outcome;
            }
            Err(error) => {
                outcome.end = End::Failed(error);
                return outcome;
            }
        }
    }
}

/// An equivalence oracle whose counterexamples are run again until the pipeline's
/// [`Confirmation`] of runs gave them, before learning uses them ([`Pipeline::reproduce`]).
/// One the reruns vote down is dropped and counted: the tree takes the majority's trace and
/// learning starts again from it.
struct Reproduced<'a, S, E> {
    pipeline: &'a Pipeline<S>,
    inner: E,
    dropped: u32,
}

impl<S: Sul, E: EquivalenceOracle> EquivalenceOracle for Reproduced<'_, S, E> {
    async fn find_counterexample<M: MembershipOracle>(
        &mut self,
        hypothesis: &Hypothesis,
        mq: &M,
    ) -> Result<Option<Counterexample>, QueryError> {
        let Some(counterexample) = self.inner.find_counterexample(hypothesis, mq).await? else {
            return Ok(None);
        };
        match self.pipeline.reproduce(&counterexample).await {
            Ok(()) => Ok(Some(counterexample)),
            Err(error @ QueryError::Relearn(_)) => {
                self.dropped += 1;
                Err(error)
            }
            Err(error) => Err(error),
        }
    }

    fn distinguisher_bound(&self) -> Option<u32> {
        self.inner.distinguisher_bound()
    }
}

/// The check beyond the state bound: with a state bound `N`, the learned model is tested
/// against every system of at most `N + 1` states ([`Beyond`]), after the bound's own proof
/// found nothing.
/// Under the bound the model is right, so any counterexample proves the system has more
/// than `N` states (or answered inconsistently): [`End::StateBoundRefuted`].
/// A system of `N + 1` states that differs from the model is always found; one with more
/// may not be.
/// The counterexample runs once more, below the cache, before it ends the run: a one-off
/// there is voted on, and a vote that corrects it makes learning start again
/// ([`QueryError::Relearn`]).
async fn beyond_the_bound<S: Sul>(
    config: &LearnConfig,
    pipeline: &Pipeline<S>,
    outcome: &Outcome,
) -> Result<Option<End>, QueryError> {
    let (Some(bound), Some(hypothesis)) = (config.state_bound, &outcome.hypothesis) else {
        return Ok(None);
    };
    let checked = bound + 1;
    let found = Beyond::new(
        checked,
        Arc::clone(pipeline.tree()),
        Arc::clone(&config.alphabet),
    )
    .find_counterexample(hypothesis, pipeline.oracle())
    .await?;
    if let Some(counterexample) = &found {
        pipeline
            .run_again(std::slice::from_ref(&counterexample.word))
            .await?;
    }
    Ok(found.map(|counterexample| End::StateBoundRefuted {
        bound,
        checked,
        counterexample,
    }))
}

/// When the statistics' time comes from.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Timing {
    /// The cost model's prediction for what was executed (a simulated device).
    Predicted,
    /// The wall clock since this instant, before the first instance started.
    Since(Instant),
}

/// Where a learned typestate comes from, beyond the learner: what its provenance names.
#[derive(Clone, Debug, Default)]
pub(crate) struct Origin {
    /// Where the class ran.
    pub platform: String,
    /// Sources beyond the learner (the experiment file, the SDK's jars).
    pub sources: Vec<String>,
    /// The backend run, for backends the typestate format names; dated when the run ends.
    pub run: Option<LearningRun>,
}

/// What a backend hands to [`learn_setup`]: its instances and alphabet, its own filters and
/// defaults, what its runs cost, and where its typestates come from.
pub(crate) struct Setup<S> {
    /// The inputs the instances answer.
    pub alphabet: Arc<Alphabet>,
    /// One instance per parallel worker.
    pub suls: Vec<S>,
    /// The backend's own query filters (an experiment's); the user's are added.
    pub filters: Vec<QueryFilter>,
    /// The experiment's algorithm, if it names one, unless the user chose one; with neither,
    /// [`EquivalenceChoice::default_algorithm`].
    pub algorithm: Option<Algorithm>,
    /// The guarantee unless the user chose one.
    pub equivalence: EquivalenceChoice,
    /// How many runs of each trace a result rests on, unless the user chose: by whether the
    /// system can answer the same inputs differently.
    pub confirmation: Confirmation,
    /// What runs cost, for the choice between extending a run and a reset, and for time.
    pub cost: CostModel,
    /// Where the statistics' time comes from.
    pub timing: Timing,
    /// What the provenance names.
    pub origin: Origin,
}

/// What a front end can ask of any backend: the user's choices and the session's resources.
#[derive(Clone, Debug)]
pub struct Session {
    /// What the user chose.
    pub choices: Choices,
    /// Instances run in parallel (backends with their own parallelism, devices, ignore it).
    pub jobs: usize,
    /// Where to journal executed queries, to resume an interrupted run.
    pub journal: Option<PathBuf>,
}

impl Session {
    /// `choices` on one instance, with no journal.
    pub fn new(choices: Choices) -> Session {
        Session {
            choices,
            jobs: 1,
            journal: None,
        }
    }
}

impl Default for Session {
    fn default() -> Session {
        Session::new(Choices::default())
    }
}

/// What a learning run produced, whatever the backend.
#[derive(Debug)]
pub struct Learned {
    /// How learning ended, with the last hypothesis.
    pub outcome: Outcome,
    /// DroidStar's columns, over every session of the journal.
    pub statistics: Statistics,
    /// The learned typestate, with provenance and statistics, if a hypothesis was built.
    pub typestate: Option<Typestate>,
    /// The inputs learned over.
    pub alphabet: Arc<Alphabet>,
    /// Queries asked.
    pub asked: CountSnapshot,
    /// Queries, resets and steps executed on the system in this session.
    pub executed: CountSnapshot,
    /// What the system executed, split into learning and checking, summed over this session
    /// and the sessions before it that wrote to the journal.
    pub totals: Totals,
    /// The algorithm the run learned with.
    pub algorithm: Algorithm,
    /// The guarantee the run learned under.
    pub equivalence: EquivalenceChoice,
    /// How a distinguisher bound's test words ran.
    pub suite: Suite,
    /// How many runs of each trace the result rests on gave it.
    pub confirmation: Confirmation,
    /// The query filters learning ran behind (the backend's and the user's).
    pub filters: Vec<QueryFilter>,
    /// Queries the filters forbade.
    pub restrictions: Arc<Restrictions>,
    /// Disagreements between runs that a majority settled.
    pub disagreements: Vec<Disagreement>,
    /// Queries replayed from the journal instead of executed.
    pub resumed_queries: usize,
    /// Journaled queries run again to check the journal.
    pub journal_sample: usize,
    /// Whether the journal's half-written last line was cut off.
    pub recovered_truncation: bool,
    /// What the backend adds to the report.
    pub details: Details,
}

/// What one backend adds to a run's report.
#[derive(Debug)]
pub enum Details {
    /// A simulated device: its clock at the end, in milliseconds.
    Simulated {
        /// The simulated clock.
        clock_ms: u64,
    },
    /// Agent processes on the host (JVM or Robolectric).
    Agents,
    /// Android devices: what each served, and where two disagreed.
    Devices {
        /// What each device did.
        uses: Vec<DeviceUse>,
        /// Devices that answered the same inputs differently, each pair once.
        disagreements: Vec<DeviceDisagreement>,
    },
}

/// The pipeline every backend shares: [`learn_system`] over the setup's instances with the
/// user's choices over the backend's defaults, then the statistics and the learned typestate
/// with its provenance.
pub(crate) async fn learn_setup<S: Sul>(
    setup: Setup<S>,
    session: &Session,
    progress: &mut dyn Progress,
) -> Result<Learned, JournalError> {
    let choices = &session.choices;
    let mut filters = setup.filters;
    filters.extend(choices.filters.iter().cloned());
    let pipeline_config = PipelineConfig {
        cost: setup.cost,
        filters: filters.clone(),
        journal: session.journal.clone(),
        majority: choices.majority,
        confirmation: choices.confirmation.unwrap_or(setup.confirmation),
    };
    let equivalence = choices.equivalence.unwrap_or(setup.equivalence);
    let algorithm = choices
        .algorithm
        .or(setup.algorithm)
        .unwrap_or_else(|| equivalence.default_algorithm());
    let alphabet = setup.alphabet;
    let run = learn_system(
        Arc::clone(&alphabet),
        setup.suls,
        algorithm,
        equivalence,
        choices.suite,
        &pipeline_config,
        progress,
    )
    .await?;
    let mut statistics =
        Statistics::collect(&run.outcome, run.asked, run.totals.executed(), &setup.cost);
    if let Timing::Since(started) = setup.timing {
        statistics.time_ms = started.elapsed().as_millis() as u64;
    }
    let origin = setup.origin;
    let typestate = run.outcome.hypothesis.as_ref().map(|hypothesis| {
        let mut typestate = learned_typestate(
            hypothesis,
            &alphabet,
            &statistics,
            &filters,
            &run.restrictions,
        );
        typestate.provenance.platform = Some(origin.platform);
        typestate.provenance.run = origin.run.map(|run| LearningRun {
            date: Some(today()),
            ..run
        });
        typestate.provenance.sources.extend(origin.sources);
        typestate
    });
    Ok(Learned {
        outcome: run.outcome,
        statistics,
        typestate,
        alphabet,
        asked: run.asked,
        executed: run.executed,
        totals: run.totals,
        algorithm,
        equivalence,
        suite: choices.suite,
        confirmation: pipeline_config.confirmation,
        filters,
        restrictions: run.restrictions,
        disagreements: run.disagreements,
        resumed_queries: run.resumed_queries,
        journal_sample: run.journal_sample,
        recovered_truncation: run.recovered_truncation,
        details: Details::Agents,
    })
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
