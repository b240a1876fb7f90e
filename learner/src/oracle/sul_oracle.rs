//! The adaptor from systems to a membership oracle.
//! It runs a batch of queries on N instances in parallel.
//! An instance extends its current run when that run is a prefix of the next query.
//! It resets only otherwise.
//! That is SwiftHand's lesson (Choi et al., OOPSLA 2013): restarts are what costs.
//!
//! The part of a query an instance has not run yet goes to it in one [`Sul::steps`] call.
//! So a backend can run it without a round trip between inputs.
//! A run stops at its first `err`: the rest of the query is `err` by the closure and is
//! never executed.

use std::collections::{HashMap, VecDeque};
use std::sync::{Arc, Mutex};

use tokio::task::JoinSet;

use crate::closure::{Alphabet, Input, Output, OutputWord, Word};
use crate::oracle::sul::{Sul, SulError};
use crate::oracle::{MembershipOracle, QueryError};

/// One instance and the trace it has run since its last reset, while it is alive.
struct Instance<S> {
    sul: S,
    run: Option<(Word, OutputWord)>,
}

/// Runs queries on a pool of [`Sul`] instances.
pub struct SulOracle<S> {
    instances: Vec<Arc<tokio::sync::Mutex<Instance<S>>>>,
    alphabet: Arc<Alphabet>,
    extend_runs: bool,
}

impl<S: Sul> SulOracle<S> {
    /// A pool of `suls`; with `extend_runs`, a query that extends an instance's current run
    /// continues it without a reset.
    pub fn new(suls: Vec<S>, alphabet: Arc<Alphabet>, extend_runs: bool) -> SulOracle<S> {
        assert!(!suls.is_empty(), "a pool needs at least one instance");
        SulOracle {
            instances: suls
                .into_iter()
                .map(|sul| Arc::new(tokio::sync::Mutex::new(Instance { sul, run: None })))
                .collect(),
            alphabet,
            extend_runs,
        }
    }

    /// Number of instances, the parallelism of a batch.
    pub fn n_instances(&self) -> usize {
        self.instances.len()
    }
}

/// The queries of a batch not yet taken by an instance, in batch order, with the queries
/// each proper prefix begins: the first query that extends a run is a lookup, not a scan of
/// the batch (a scan made a batch of n queries cost n² steps).
struct Queue {
    /// Each query of the batch, until an instance takes it.
    queries: Vec<Option<Word>>,
    /// No query before this index is left.
    first: usize,
    /// For every proper prefix of a query left, the queries it begins, in batch order (taken
    /// ones are dropped when met).
    extending: HashMap<Word, VecDeque<usize>>,
}

impl Queue {
    fn new(queries: &[Word]) -> Queue {
        let mut extending: HashMap<Word, VecDeque<usize>> = HashMap::new();
        for (index, query) in queries.iter().enumerate() {
            for end in 0..query.len() {
                match extending.get_mut(&query[..end]) {
                    Some(indices) => indices.push_back(index),
                    None => {
                        extending.insert(query[..end].to_vec(), VecDeque::from([index]));
                    }
                }
            }
        }
        Queue {
            queries: queries.iter().cloned().map(Some).collect(),
            first: 0,
            extending,
        }
    }

    /// Takes the first query left that extends `run` ([`extends`]), else the first query left.
    fn take(&mut self, run: Option<&[Input]>) -> Option<(usize, Word)> {
        let queries = &self.queries;
        let extending = run
            .and_then(|run| self.extending.get_mut(run))
            .and_then(|indices| {
                while let Some(&index) = indices.front() {
                    if queries[index].is_some() {
                        return Some(index);
                    }
                    indices.pop_front();
                }
                None
            });
        let index = extending.or_else(|| {
            while self.queries.get(self.first)?.is_none() {
                self.first += 1;
            }
            Some(self.first)
        })?;
        self.queries[index].take().map(|query| (index, query))
    }

    /// Leaves nothing to take.
    fn clear(&mut self) {
        self.first = self.queries.len();
        self.extending.clear();
    }
}

/// What went wrong in one query of a batch.
struct Failure {
    query: Word,
    executed: usize,
    source: SulError,
}

/// Whether `query` continues `run` with more inputs. A query equal to the run is a rerun (the
/// cache answers every other repeat), which must start afresh to count as a new observation.
fn extends(query: &[Input], run: &[Input]) -> bool {
    query.len() > run.len() && query.starts_with(run)
}

impl<S: Sul> Instance<S> {
    /// Takes the next query: one that extends this instance's run if there is one.
    fn take(&self, queue: &Mutex<Queue>, extend_runs: bool) -> Option<(usize, Word)> {
        let run = self
            .run
            .as_ref()
            .filter(|_| extend_runs)
            .map(|(run, _)| run.as_slice());
        queue
            .lock()
            .expect("queue lock is never poisoned")
            .take(run)
    }

    async fn run(&mut self, query: &[Input], extend_runs: bool) -> Result<OutputWord, Failure> {
        let (mut word, mut outputs) = match self.run.take() {
            Some((run, outputs)) if extend_runs && extends(query, &run) => (run, outputs),
            _ => {
                self.sul.reset().await.map_err(|source| Failure {
                    query: query.to_vec(),
                    executed: 0,
                    source,
                })?;
                (Word::new(), OutputWord::new())
            }
        };
        let rest = &query[word.len()..];
        if !rest.is_empty() {
            let answered = self.sul.steps(rest).await.map_err(|source| Failure {
                query: query.to_vec(),
                executed: word.len(),
                source,
            })?;
            if answered.last() == Some(&Output::Err) {
                outputs.extend(answered);
                outputs.resize(query.len(), Output::Err);
                return Ok(outputs);
            }
            if answered.len() != rest.len() {
                return Err(Failure {
                    query: query.to_vec(),
                    executed: word.len() + answered.len(),
                    source: SulError::new(format!(
                        "the system answered {} of {} inputs without an err",
                        answered.len(),
                        rest.len()
                    )),
                });
            }
            word.extend_from_slice(rest);
            outputs.extend(answered);
        }
        self.run = Some((word, outputs.clone()));
        Ok(outputs)
    }
}

impl<S: Sul> MembershipOracle for SulOracle<S> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        let queue = Arc::new(Mutex::new(Queue::new(queries)));
        let mut tasks = JoinSet::new();
        for instance in self.instances.iter().take(queries.len()) {
            let instance = Arc::clone(instance);
            let queue = Arc::clone(&queue);
            let extend_runs = self.extend_runs;
            tasks.spawn(async move {
                let mut instance = instance.lock().await;
                let mut answers = Vec::new();
                while let Some((index, query)) = instance.take(&queue, extend_runs) {
                    match instance.run(&query, extend_runs).await {
                        Ok(outputs) => answers.push((index, outputs)),
                        Err(failure) => {
                            // Stop the batch: the other instances finish what they hold.
                            queue.lock().expect("queue lock is never poisoned").clear();
                            return Err(failure);
                        }
                    }
                }
                Ok(answers)
            });
        }
        let mut answers: Vec<Option<OutputWord>> = vec![None; queries.len()];
        let mut failure = None;
        while let Some(joined) = tasks.join_next().await {
            match joined.expect("a query task never panics") {
                Ok(done) => {
                    for (index, outputs) in done {
                        answers[index] = Some(outputs);
                    }
                }
                Err(it) => failure = failure.or(Some(it)),
            }
        }
        if let Some(Failure {
            query,
            executed,
            source,
        }) = failure
        {
            return Err(QueryError::Backend {
                query: self.alphabet.render_word(&query),
                executed,
                source,
            });
        }
        Ok(answers
            .into_iter()
            .map(|it| it.expect("every query of a successful batch is answered"))
            .collect())
    }
}
