//! The learning loop: hypothesis, equivalence query, refinement.
//! It ends when no counterexample is found, a non-determinism is reported, a hypothesis outgrows
//! the state bound or the system fails.
//!
//! [`learn`] never panics on the system's behaviour and never loses work.
//! Every way it ends is an [`Outcome`] with the last hypothesis and the number of equivalence rounds.
//! Every executed query is already in the journal.

use std::sync::Arc;

use crate::closure::Alphabet;
use crate::equivalence::{Counterexample, EquivalenceOracle};
use crate::hypothesis::Hypothesis;
use crate::lsharp::{Heuristics, LSharp};
use crate::lstar::LStar;
use crate::oracle::sul::CountSnapshot;
use crate::oracle::{MembershipOracle, NonDeterminism, QueryError};

/// The learning algorithm.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Algorithm {
    /// L#, error-aware, every query one long run, with these heuristics on top of the
    /// paper's rules (the default under a state bound, with every heuristic: on the whole
    /// library it executes the fewest runs and steps there; `bench/results/learner.md`).
    LSharp(Heuristics),
    /// L* with Rivest–Schapire counterexample processing (the Starling paper, Algorithm 1), kept for
    /// comparison.
    LStar,
    /// L* whose columns start as every word up to the run's distinguisher bound: active
    /// k-tails ([`LStar::k_tails`]).
    /// Under a distinguisher bound it executes only the words Algorithm 2's check of its
    /// result asks, so the check runs nothing: the default under a distinguisher bound alone
    /// ([`crate::EquivalenceChoice::default_algorithm`]).
    /// Under a guarantee without a distinguisher bound its columns start as L*'s.
    KTails,
}

impl Default for Algorithm {
    fn default() -> Algorithm {
        Algorithm::LSharp(Heuristics::ALL)
    }
}

impl Algorithm {
    /// Every algorithm with its default options, for comparisons.
    pub const ALL: [Algorithm; 2] = [Algorithm::LSharp(Heuristics::ALL), Algorithm::LStar];

    /// The name used in reports and on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Algorithm::LSharp(_) => "lsharp",
            Algorithm::LStar => "lstar",
            Algorithm::KTails => "ktails",
        }
    }

    /// The name, with L#'s heuristics unless they are the default ones.
    pub fn describe(self) -> String {
        match self {
            Algorithm::LSharp(heuristics) if heuristics != Heuristics::ALL => {
                format!("lsharp (heuristics: {heuristics})")
            }
            _ => self.name().to_owned(),
        }
    }
}

/// What a learning run is asked to do.
#[derive(Clone, Debug)]
pub struct LearnConfig {
    /// The symbols of the experiment.
    pub alphabet: Arc<Alphabet>,
    /// The algorithm.
    pub algorithm: Algorithm,
    /// Stop after this many equivalence queries even if they found counterexamples.
    pub max_rounds: u32,
    /// At most this many states (error sink included), if known: L# then looks for missing
    /// states itself before asking equivalence queries.
    pub state_bound: Option<usize>,
    /// The distinguisher bound the check assumes, if it assumes one: k-tails's `k`.
    pub distinguisher_bound: Option<usize>,
    /// Without a state bound, stop when a hypothesis has more states than this (error sink
    /// included): on a noisy system each one-off answer learning uses can add states, and
    /// under a distinguisher bound alone nothing else stops the growth.
    pub growth_limit: usize,
}

/// The default [`LearnConfig::growth_limit`]: ten times the largest protocol of the library
/// (BluetoothAdapter, 13 states with the error sink), above the 80-state random machines of
/// the scaling benchmark. A larger class is learned with a state bound (`--states N`).
pub const DEFAULT_GROWTH_LIMIT: usize = 128;

impl LearnConfig {
    /// The default algorithm over `alphabet`, with no practical limit on rounds.
    pub fn new(alphabet: Arc<Alphabet>) -> LearnConfig {
        LearnConfig {
            alphabet,
            algorithm: Algorithm::default(),
            max_rounds: 1_000,
            state_bound: None,
            distinguisher_bound: None,
            growth_limit: DEFAULT_GROWTH_LIMIT,
        }
    }
}

/// What the loop is doing, for progress bars.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Phase {
    /// Asking membership queries to build a hypothesis.
    Exploring,
    /// Checking a hypothesis with the equivalence oracle.
    Checking,
}

/// A progress report: sent when the phase changes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ProgressUpdate {
    /// What the loop does now.
    pub phase: Phase,
    /// Equivalence queries so far, the current one included.
    pub rounds: u32,
    /// States of the latest hypothesis (0 before the first).
    pub n_states: usize,
}

/// Receives progress reports; the `typestar learn` binary drives a progress bar with it
/// (query counts come from the pipeline's counters).
pub trait Progress: Send {
    /// Called whenever the phase changes.
    fn update(&mut self, update: ProgressUpdate);

    /// The query counters at that moment, just before [`Progress::update`], when the run
    /// goes through [`crate::session::learn_system`]. Ignored by default.
    fn counts(&mut self, _asked: CountSnapshot, _executed: CountSnapshot) {}
}

/// Ignores progress.
pub struct NoProgress;

impl Progress for NoProgress {
    fn update(&mut self, _update: ProgressUpdate) {}
}

/// How a learning run ended.
#[derive(Debug)]
pub enum End {
    /// The equivalence oracle found no counterexample to the hypothesis.
    Learned,
    /// The system answered the same inputs differently.
    NonDeterministic(Box<NonDeterminism>),
    /// The system or the journal failed; rerun with the same journal to resume.
    Failed(QueryError),
    /// `max_rounds` equivalence queries all found counterexamples.
    RoundLimit,
    /// A hypothesis has more states than the state bound: the bound is too small, or the
    /// system answered inconsistently. The outcome keeps that hypothesis.
    StateBoundExceeded {
        /// States of the hypothesis, the error sink included.
        states: usize,
        /// The state bound, the error sink included.
        bound: usize,
    },
    /// The learned model satisfied the state bound's proof, but the check beyond the bound
    /// (every system of at most `checked` states) found a counterexample: the system has more
    /// states than the bound, or answered inconsistently. The outcome keeps the model.
    StateBoundRefuted {
        /// The state bound, the error sink included.
        bound: usize,
        /// The largest system the check beyond the bound covers, the error sink included.
        checked: usize,
        /// Where the system and the model differ.
        counterexample: Counterexample,
    },
    /// Without a state bound, a hypothesis has more states than the growth limit: the
    /// system is noisy (one-off answers became states) or far larger than expected. The
    /// outcome keeps that hypothesis.
    GrowthLimitExceeded {
        /// States of the hypothesis, the error sink included.
        states: usize,
        /// [`LearnConfig::growth_limit`].
        limit: usize,
    },
}

/// The result of a learning run, whatever its end.
#[derive(Debug)]
pub struct Outcome {
    /// Why the run ended.
    pub end: End,
    /// The last hypothesis, if one was built.
    pub hypothesis: Option<Hypothesis>,
    /// Equivalence queries asked.
    pub rounds: u32,
    /// Times learning started again after a majority of runs corrected a trace it had used.
    pub restarts: u32,
    /// Counterexamples whose reruns did not give them again: voted down before learning used
    /// them ([`crate::Pipeline::reproduce`]).
    pub dropped: u32,
    /// The distinguisher bound the verdict rests on, if the oracle has one.
    pub distinguisher_bound: Option<u32>,
}

impl Outcome {
    /// A run that failed before it built a hypothesis.
    pub fn failed(error: QueryError) -> Outcome {
        Outcome {
            end: End::Failed(error),
            hypothesis: None,
            rounds: 0,
            restarts: 0,
            dropped: 0,
            distinguisher_bound: None,
        }
    }
}

enum Learner {
    LSharp(LSharp),
    LStar(LStar),
}

impl Learner {
    fn new(config: &LearnConfig) -> Learner {
        match config.algorithm {
            Algorithm::LSharp(heuristics) => {
                let lsharp = LSharp::new(Arc::clone(&config.alphabet), heuristics);
                Learner::LSharp(match config.state_bound {
                    Some(bound) => lsharp.with_state_bound(bound),
                    None => lsharp,
                })
            }
            Algorithm::LStar => Learner::LStar(LStar::new(Arc::clone(&config.alphabet))),
            Algorithm::KTails => Learner::LStar(LStar::k_tails(
                Arc::clone(&config.alphabet),
                config.distinguisher_bound.unwrap_or(1),
            )),
        }
    }

    async fn start<M: MembershipOracle>(&mut self, mq: &M) -> Result<(), QueryError> {
        match self {
            Learner::LSharp(it) => it.start(mq).await,
            Learner::LStar(it) => it.start(mq).await,
        }
    }

    async fn refine<M: MembershipOracle>(
        &mut self,
        mq: &M,
        counterexample: &Counterexample,
    ) -> Result<(), QueryError> {
        match self {
            Learner::LSharp(it) => it.refine(mq, counterexample).await,
            Learner::LStar(it) => it.refine(mq, counterexample).await,
        }
    }

    fn hypothesis(&self) -> Hypothesis {
        match self {
            Learner::LSharp(it) => it.hypothesis(),
            Learner::LStar(it) => it.hypothesis(),
        }
    }
}

/// Learns the Mealy machine of the system behind `mq`, checking hypotheses with `eq`.
pub async fn learn<M, E>(
    config: &LearnConfig,
    mq: &M,
    eq: &mut E,
    progress: &mut dyn Progress,
) -> Outcome
where
    M: MembershipOracle,
    E: EquivalenceOracle,
{
    let mut learner = Learner::new(config);
    let mut outcome = Outcome {
        end: End::Learned,
        hypothesis: None,
        rounds: 0,
        restarts: 0,
        dropped: 0,
        distinguisher_bound: eq.distinguisher_bound(),
    };
    progress.update(ProgressUpdate {
        phase: Phase::Exploring,
        rounds: 0,
        n_states: 0,
    });
    let mut step = learner.start(mq).await;
    loop {
        if let Err(QueryError::Relearn(_)) = step {
            // The prefix tree holds the corrected trace; everything else it answers for free.
            outcome.restarts += 1;
            learner = Learner::new(config);
            step = learner.start(mq).await;
            continue;
        }
        if let Err(error) = step {
            outcome.end = match error {
                QueryError::NonDeterminism(report) => End::NonDeterministic(report),
                error => End::Failed(error),
            };
            return outcome;
        }
        let hypothesis = learner.hypothesis();
        let n_states = hypothesis.n_states();
        outcome.hypothesis = Some(hypothesis);
        if let Some(bound) = config.state_bound.filter(|bound| n_states > *bound) {
            outcome.end = End::StateBoundExceeded {
                states: n_states,
                bound,
            };
            return outcome;
        }
        if config.state_bound.is_none() && n_states > config.growth_limit {
            outcome.end = End::GrowthLimitExceeded {
                states: n_states,
                limit: config.growth_limit,
            };
            return outcome;
        }
        if outcome.rounds >= config.max_rounds {
            outcome.end = End::RoundLimit;
            return outcome;
        }
        outcome.rounds += 1;
        progress.update(ProgressUpdate {
            phase: Phase::Checking,
            rounds: outcome.rounds,
            n_states,
        });
        let hypothesis = outcome.hypothesis.as_ref().expect("just set");
        step = match eq.find_counterexample(hypothesis, mq).await {
            Ok(None) => return outcome,
            Ok(Some(counterexample)) => {
                progress.update(ProgressUpdate {
                    phase: Phase::Exploring,
                    rounds: outcome.rounds,
                    n_states,
                });
                learner.refine(mq, &counterexample).await
            }
            Err(error) => Err(error),
        };
    }
}
