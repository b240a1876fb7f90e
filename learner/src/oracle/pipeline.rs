//! The standard query engine: every layer of [`crate::oracle`] stacked in order.
//! It has handles on the shared prefix tree, the two counters and the recorded restrictions.
//!
//! Building a pipeline with a journal replays the journal into the prefix tree.
//! So a resumed run asks the system nothing it already answered.
//! [`Pipeline::check_journal`] first runs a sample of the journaled queries on the system again.
//! So a journal of another system is reported as such, not as the system's non-determinism.

use std::path::PathBuf;
use std::sync::{Arc, Mutex};

use crate::closure::{first_err, Alphabet, Input, Word};
use crate::cost::CostModel;
use crate::equivalence::Counterexample;
use crate::oracle::cache::Cache;
use crate::oracle::counter::Counter;
use crate::oracle::err_closure::ErrClosure;
use crate::oracle::filter::{Filter, QueryFilter, Restrictions};
use crate::oracle::journal::{
    fingerprint, Journal, JournalError, JournalFile, JournaledQuery, Totals,
};
use crate::oracle::nondeterminism::{Disagreement, Majority, NdCheck};
use crate::oracle::sul::{CountSnapshot, CountingSul, Counts, Sul};
use crate::oracle::sul_oracle::SulOracle;
use crate::oracle::tree::PrefixTree;
use crate::oracle::{MembershipOracle, QueryError};

/// How the query engine of one experiment is built.
#[derive(Clone, Debug, Default)]
pub struct PipelineConfig {
    /// What device operations cost; decides whether runs are extended instead of reset.
    pub cost: CostModel,
    /// The experiment's query filters.
    pub filters: Vec<QueryFilter>,
    /// Where to journal executed queries; `None` for no journal.
    pub journal: Option<PathBuf>,
    /// How many runs of a disagreeing query must agree to settle it.
    pub majority: Majority,
    /// How many runs of every trace a result rests on must agree before it is accepted.
    pub confirmation: Confirmation,
}

/// How many runs of every trace learning used must agree before its result is accepted.
/// [`Confirmation::ONCE`] runs each trace once: right for a deterministic system.
/// More runs each trace again, up to its first `err` and bypassing the cache, so a one-off
/// that learning used disagrees and is outvoted ([`Majority`]), at the cost of those runs.
/// A backend chooses its default by what it runs ([`Confirmation::NOISY`] for real code and
/// a noisy model); the user's `--confirm N` overrides it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Confirmation(pub u32);

impl Confirmation {
    /// Each trace run once: the default for a system that cannot answer the same inputs
    /// differently (the model backend without noise), and the pipeline's own default.
    pub const ONCE: Confirmation = Confirmation(1);
    /// Each trace run until three runs gave it, a disagreement voted on until three runs
    /// agree: the default for systems whose answers can differ between runs (the JVM,
    /// Robolectric and Android backends, the model backend with `--noise`).
    /// One run is not enough there: a one-off that no other run contradicts becomes the
    /// model (`bench/results/learner-noise.md`, its `--confirm 1` sections).
    pub const NOISY: Confirmation = Confirmation(3);
}

impl Default for Confirmation {
    fn default() -> Confirmation {
        Confirmation::ONCE
    }
}

/// The full stack of layers over the instances of one system.
pub type Stack<S> =
    Counter<Cache<Filter<ErrClosure<Journal<NdCheck<Counter<SulOracle<CountingSul<S>>>>>>>>>;

/// A query engine and its handles.
pub struct Pipeline<S> {
    oracle: Stack<S>,
    tree: Arc<PrefixTree>,
    asked: Arc<Counts>,
    executed: Arc<Counts>,
    restrictions: Arc<Restrictions>,
    settled: Arc<Mutex<Vec<Disagreement>>>,
    confirmation: Confirmation,
    confirmed: PrefixTree,
    journal: Option<Arc<Mutex<JournalFile>>>,
    previous: Totals,
    sample: Vec<JournaledQuery>,
    alphabet: Arc<Alphabet>,
    majority: Majority,
    resumed_queries: usize,
    recovered_truncation: bool,
}

/// How many journaled queries a resumed run replays: 8, and one in 20 beyond that.
fn sample_size(entries: usize) -> usize {
    entries.min(8 + entries / 20)
}

impl<S: Sul> Pipeline<S> {
    /// Builds the engine over `suls` (one per parallel instance), opening and replaying the
    /// journal if the config names one.
    pub fn new(
        alphabet: Arc<Alphabet>,
        suls: Vec<S>,
        config: &PipelineConfig,
    ) -> Result<Pipeline<S>, JournalError> {
        let tree = Arc::new(PrefixTree::default());
        let asked = Arc::new(Counts::default());
        let executed = Arc::new(Counts::default());
        let restrictions = Arc::new(Restrictions::default());
        let settled = Arc::new(Mutex::new(Vec::new()));
        let n_instances = suls.len();
        let (journal, previous, sample, resumed_queries, recovered_truncation) = match &config
            .journal
        {
            Some(path) => {
                let experiment = fingerprint(&alphabet, &experiment_settings(&alphabet, config));
                let opened = JournalFile::open(path, Arc::clone(&alphabet), &experiment)?;
                for entry in &opened.entries {
                    tree.insert(&entry.word, &entry.outputs);
                }
                // Evenly spread over the journal, the last entry included.
                let n = opened.entries.len();
                let k = sample_size(n);
                let sample = (1..=k)
                    .map(|index| opened.entries[index * n / k - 1].clone())
                    .collect();
                (
                    Some(Arc::new(Mutex::new(opened.file))),
                    opened.totals,
                    sample,
                    n,
                    opened.recovered_truncation,
                )
            }
            None => (None, Totals::default(), Vec::new(), 0, false),
        };
        let suls = suls
            .into_iter()
            .map(|sul| CountingSul::new(sul, Arc::clone(&executed)))
            .collect();
        let system = SulOracle::new(
            suls,
            Arc::clone(&alphabet),
            config.cost.prefers_extending_runs(),
        );
        let oracle = Counter::new(
            Cache::new(
                Filter::new(
                    ErrClosure::new(
                        Journal::new(
                            NdCheck::new(
                                Counter::new(system, Arc::clone(&executed)),
                                Arc::clone(&tree),
                                Arc::clone(&alphabet),
                                config.majority,
                                Arc::clone(&settled),
                            ),
                            journal.clone(),
                            n_instances,
                        ),
                        Arc::clone(&tree),
                    ),
                    config.filters.clone(),
                    Arc::clone(&restrictions),
                ),
                Arc::clone(&tree),
            ),
            Arc::clone(&asked),
        );
        Ok(Pipeline {
            oracle,
            tree,
            asked,
            executed,
            restrictions,
            settled,
            confirmation: config.confirmation,
            confirmed: PrefixTree::default(),
            journal,
            previous,
            sample,
            alphabet,
            majority: config.majority,
            resumed_queries,
            recovered_truncation,
        })
    }
}

impl<S: Sul> Pipeline<S> {
    /// Runs every trace of the tree not yet confirmed again, up to its first `err`, below the
    /// cache, until [`Confirmation`]'s number of runs have given it.
    /// A disagreement is voted on; [`QueryError::Relearn`] when the vote corrected a trace.
    pub async fn confirm(&self, inputs: &[Input]) -> Result<(), QueryError> {
        if self.confirmation.0 <= 1 {
            return Ok(());
        }
        let words: Vec<Word> = self
            .tree
            .maximal_traces(inputs)
            .into_iter()
            .map(|(word, outputs)| word[..first_err(&outputs).unwrap_or(word.len())].to_vec())
            .filter(|word| !word.is_empty() && self.confirmed.lookup(word).is_none())
            .collect();
        for _ in 1..self.confirmation.0 {
            self.run_again(&words).await?;
        }
        for word in &words {
            self.confirmed.insert(word, &self.tree.known_prefix(word));
        }
        Ok(())
    }
}

impl<S: Sul> Pipeline<S> {
    /// Runs a counterexample again, below the cache, until [`Confirmation`]'s number of runs
    /// have given it, before learning uses it.
    /// Its first run may be a one-off (a callback late past the quiescence timeout) that the
    /// hypothesis rightly contradicts: built into the model, it would become a state, and each
    /// such state costs a round of queries, each a chance of another one-off.
    /// A rerun that disagrees is voted on ([`Majority`]): the counterexample stands if its
    /// trace wins; if another trace wins, the tree takes it and learning starts again from the
    /// tree ([`QueryError::Relearn`]), the counterexample dropped; with no winner the system
    /// is not deterministic ([`QueryError::NonDeterminism`]).
    /// With one run a trace ([`Confirmation::ONCE`]) it runs nothing.
    pub async fn reproduce(&self, counterexample: &Counterexample) -> Result<(), QueryError> {
        let cut = first_err(&counterexample.outputs).map_or(counterexample.word.len(), |it| it + 1);
        let word = counterexample.word[..cut].to_vec();
        if self.confirmation.0 <= 1 || self.confirmed.lookup(&word).is_some() {
            return Ok(());
        }
        for _ in 1..self.confirmation.0 {
            self.run_again(std::slice::from_ref(&word)).await?;
        }
        self.confirmed.insert(&word, &self.tree.known_prefix(&word));
        Ok(())
    }
}

impl<S: Sul> Pipeline<S> {
    /// Runs `words` on the system again, below the cache: an answer that disagrees with the
    /// tree is voted on, and [`QueryError::Relearn`] when the vote corrected a trace.
    pub async fn run_again(&self, words: &[Word]) -> Result<(), QueryError> {
        self.oracle.inner().inner().answer(words).await.map(drop)
    }
}

impl<S: Sul> Pipeline<S> {
    /// Runs a sample of the journaled queries on the system again, below every layer that
    /// knows the journal. An entry that a majority of runs contradicts is a
    /// [`JournalError::WrongEntry`]: the journal, written by another version or setup of the
    /// system or edited, not the system, is wrong. Without a majority either way the entry
    /// stands, and learning's own checks vote on it when it matters.
    pub async fn check_journal(&self) -> Result<(), QueryError> {
        let system = self.oracle.inner().inner().inner().inner().inner().inner();
        let majority = self.majority.0;
        for entry in &self.sample {
            let cut = first_err(&entry.outputs).map_or(entry.outputs.len(), |it| it + 1);
            let (word, journaled) = (&entry.word[..cut], &entry.outputs[..cut]);
            // A replay that agrees settles it; one that does not is voted on, the journaled
            // run counting as one vote.
            let first = crate::oracle::answer_one(system, word.to_vec()).await?;
            if first.as_slice() == journaled {
                continue;
            }
            let mut votes = vec![(journaled.to_vec(), 1), (first, 1)];
            for _ in 2..2 * majority - 1 {
                if votes.iter().any(|(_, count)| *count >= majority) {
                    break;
                }
                let answer = crate::oracle::answer_one(system, word.to_vec()).await?;
                match votes.iter_mut().find(|(it, _)| *it == answer) {
                    Some((_, count)) => *count += 1,
                    None => votes.push((answer, 1)),
                }
            }
            if let Some((answer, count)) = votes
                .iter()
                .find(|(it, count)| *count >= majority && it.as_slice() != journaled)
            {
                let journal = self
                    .journal
                    .as_ref()
                    .expect("a sample comes from a journal");
                let path = journal
                    .lock()
                    .expect("no panic holding it")
                    .path()
                    .to_owned();
                return Err(QueryError::Journal(JournalError::WrongEntry {
                    path,
                    line: entry.line,
                    query: self.alphabet.input_names(word).join(" "),
                    journaled: self.alphabet.output_names(journaled).join(" "),
                    system: self.alphabet.output_names(answer).join(" "),
                    agreeing: *count,
                }));
            }
        }
        Ok(())
    }
}

impl<S> Pipeline<S> {
    /// What the sessions before this one executed, as the journal recorded it (nothing
    /// without a journal).
    pub fn previous_totals(&self) -> Totals {
        self.previous
    }

    /// The journal file, if the run has one.
    pub fn journal(&self) -> Option<&Arc<Mutex<JournalFile>>> {
        self.journal.as_ref()
    }

    /// The membership oracle to give the learner.
    pub fn oracle(&self) -> &Stack<S> {
        &self.oracle
    }

    /// The prefix tree of everything observed.
    pub fn tree(&self) -> &Arc<PrefixTree> {
        &self.tree
    }

    /// Queries asked by the learner and equivalence oracle.
    pub fn asked(&self) -> CountSnapshot {
        self.asked.snapshot()
    }

    /// Queries, resets and steps executed on the system.
    pub fn executed(&self) -> CountSnapshot {
        self.executed.snapshot()
    }

    /// The live counters of queries asked and of what was executed, for progress displays.
    pub fn live_counts(&self) -> (Arc<Counts>, Arc<Counts>) {
        (Arc::clone(&self.asked), Arc::clone(&self.executed))
    }

    /// Queries the experiment's filters forbade.
    pub fn restrictions(&self) -> &Arc<Restrictions> {
        &self.restrictions
    }

    /// The disagreements between runs that a vote settled, in the order they arose.
    pub fn disagreements(&self) -> Vec<Disagreement> {
        self.settled
            .lock()
            .expect("no panic while holding the lock")
            .clone()
    }

    /// Number of journaled queries run again to check the journal.
    pub fn journal_sample(&self) -> usize {
        self.sample.len()
    }

    /// Number of queries replayed from the journal.
    pub fn resumed_queries(&self) -> usize {
        self.resumed_queries
    }

    /// Whether the journal's last line was half-written and cut off.
    pub fn recovered_truncation(&self) -> bool {
        self.recovered_truncation
    }
}

/// The settings that change answers, for the journal's fingerprint.
fn experiment_settings(alphabet: &Alphabet, config: &PipelineConfig) -> String {
    config
        .filters
        .iter()
        .map(|filter| filter.describe(|input| alphabet.signature.input_name(input).to_owned()))
        .collect::<Vec<_>>()
        .join("; ")
}
