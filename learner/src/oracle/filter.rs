//! Learning purposes: per-experiment query filters.
//!
//! A filter forbids some queries (DroidStar's `singleInputs`, `validQuery`): an input at most once
//! per query, at most k pending requests, or any prefix-closed predicate.
//! A forbidden query is never run.
//! Its answer is `err` from the first forbidden input on, and the [`Restrictions`] record why.
//! So the learned typestate makes those errors restrictions (`typestates::Step::Restricted`,
//! "restricted by the experiment: …").
//! It does not confuse them with errors of the API.

use std::fmt;
use std::sync::Arc;

use dashmap::DashMap;

use crate::closure::{extend_err, Input, OutputWord, Word};
use crate::oracle::{MembershipOracle, QueryError};

/// A custom filter's test of a word.
pub type Predicate = Arc<dyn Fn(&[Input]) -> bool + Send + Sync>;

/// A rule of the experiment about which queries may run. Every rule is prefix-closed: once a
/// prefix is forbidden, so are its extensions.
#[derive(Clone)]
pub enum QueryFilter {
    /// The input may occur at most once per query.
    AtMostOnce(Input),
    /// At most `limit` `request` inputs may be pending; each `wait` completes one.
    AtMostPending {
        /// The callin that issues a request.
        request: Input,
        /// How many may be pending at once.
        limit: usize,
    },
    /// A custom rule: `allows(word)` says whether a word may run.
    Custom {
        /// What the rule says, for reports and the journal fingerprint.
        name: String,
        /// Whether a word may run; must be prefix-closed.
        allows: Predicate,
    },
}

impl fmt::Debug for QueryFilter {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            QueryFilter::AtMostOnce(input) => write!(f, "AtMostOnce({input:?})"),
            QueryFilter::AtMostPending { request, limit } => {
                write!(f, "AtMostPending({request:?}, {limit})")
            }
            QueryFilter::Custom { name, .. } => write!(f, "Custom({name})"),
        }
    }
}

impl QueryFilter {
    /// DroidStar's `onlyOneOf`: at most one occurrence of any of `inputs` (named `names`) per
    /// query.
    pub fn at_most_one_of(inputs: Vec<Input>, names: &[&str]) -> QueryFilter {
        QueryFilter::Custom {
            name: format!("at most one of {} per query", names.join(", ")),
            allows: Arc::new(move |word: &[Input]| {
                word.iter().filter(|it| inputs.contains(it)).count() <= 1
            }),
        }
    }

    /// DroidStar's FileObserver `validQuery`: each of `inputs` (named `names`) is followed by a
    /// `wait` or ends the query, so what it causes arrives before the next input.
    pub fn then_wait(inputs: Vec<Input>, names: &[&str]) -> QueryFilter {
        QueryFilter::Custom {
            name: format!("{} only before a wait", names.join(", ")),
            allows: Arc::new(move |word: &[Input]| {
                word.windows(2)
                    .all(|pair| !inputs.contains(&pair[0]) || pair[1] == Input::Wait)
            }),
        }
    }

    /// The position of the first input of `word` this rule forbids.
    pub fn first_violation(&self, word: &[Input]) -> Option<usize> {
        match self {
            QueryFilter::AtMostOnce(input) => word
                .iter()
                .enumerate()
                .filter(|(_, it)| *it == input)
                .nth(1)
                .map(|(position, _)| position),
            QueryFilter::AtMostPending { request, limit } => {
                let mut pending = 0usize;
                for (position, input) in word.iter().enumerate() {
                    if input == request {
                        pending += 1;
                        if pending > *limit {
                            return Some(position);
                        }
                    } else if *input == Input::Wait {
                        pending = pending.saturating_sub(1);
                    }
                }
                None
            }
            QueryFilter::Custom { allows, .. } => (1..=word.len())
                .find(|&length| !allows(&word[..length]))
                .map(|it| it - 1),
        }
    }

    /// The rule in words, with `name` naming inputs.
    pub fn describe(&self, name: impl Fn(Input) -> String) -> String {
        match self {
            QueryFilter::AtMostOnce(input) => format!("{} at most once per query", name(*input)),
            QueryFilter::AtMostPending { request, limit } => {
                format!("at most {limit} pending {}", name(*request))
            }
            QueryFilter::Custom { name, .. } => name.clone(),
        }
    }
}

/// The queries the experiment forbade: the forbidden word (ending at the forbidden input) and
/// the index of the rule that forbade it.
#[derive(Debug, Default)]
pub struct Restrictions {
    forbidden: DashMap<Word, usize>,
}

impl Restrictions {
    /// The index of the rule that forbade exactly this word, if one did.
    pub fn rule_for(&self, word: &[Input]) -> Option<usize> {
        self.forbidden.get(word).map(|it| *it)
    }

    /// Number of distinct forbidden words recorded.
    pub fn len(&self) -> usize {
        self.forbidden.len()
    }

    /// Whether nothing was forbidden.
    pub fn is_empty(&self) -> bool {
        self.forbidden.is_empty()
    }
}

/// Answers forbidden queries with `err` from the forbidden input on and records them.
pub struct Filter<M> {
    inner: M,
    rules: Vec<QueryFilter>,
    restrictions: Arc<Restrictions>,
}

impl<M: MembershipOracle> Filter<M> {
    /// The layer below.
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// Filters the queries to `inner` by `rules`, recording rejections in `restrictions`.
    pub fn new(inner: M, rules: Vec<QueryFilter>, restrictions: Arc<Restrictions>) -> Filter<M> {
        Filter {
            inner,
            rules,
            restrictions,
        }
    }

    fn first_violation(&self, word: &[Input]) -> Option<(usize, usize)> {
        self.rules
            .iter()
            .enumerate()
            .filter_map(|(rule, filter)| Some((filter.first_violation(word)?, rule)))
            .min()
    }
}

impl<M: MembershipOracle> MembershipOracle for Filter<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        if self.rules.is_empty() {
            return self.inner.answer(queries).await;
        }
        let violations: Vec<Option<(usize, usize)>> =
            queries.iter().map(|it| self.first_violation(it)).collect();
        let allowed: Vec<Word> = queries
            .iter()
            .zip(&violations)
            .map(|(query, violation)| match violation {
                Some((position, _)) => query[..*position].to_vec(),
                None => query.clone(),
            })
            .collect();
        let answers = self.inner.answer(&allowed).await?;
        Ok(queries
            .iter()
            .zip(violations)
            .zip(answers)
            .map(|((query, violation), answer)| match violation {
                Some((position, rule)) => {
                    if crate::closure::first_err(&answer).is_none() {
                        self.restrictions
                            .forbidden
                            .insert(query[..=position].to_vec(), rule);
                    }
                    extend_err(&answer, query.len())
                }
                None => answer,
            })
            .collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use typestates::CallinId;

    const START: Input = Input::Callin(CallinId(0));

    #[test]
    fn rules_find_the_first_forbidden_input() {
        let word = [START, Input::Wait, START, START];
        assert_eq!(
            QueryFilter::AtMostOnce(START).first_violation(&word),
            Some(2)
        );
        let pending = QueryFilter::AtMostPending {
            request: START,
            limit: 1,
        };
        assert_eq!(pending.first_violation(&word), Some(3));
        let custom = QueryFilter::Custom {
            name: "at most three inputs".into(),
            allows: Arc::new(|word: &[Input]| word.len() <= 3),
        };
        assert_eq!(custom.first_violation(&word), Some(3));
        assert_eq!(custom.first_violation(&word[..3]), None);
    }

    #[test]
    fn at_most_one_of_counts_the_inputs_together() {
        const OTHER: Input = Input::Callin(CallinId(1));
        const FREE: Input = Input::Callin(CallinId(2));
        let rule = QueryFilter::at_most_one_of(vec![START, OTHER], &["start", "other"]);
        let cases: [(&[Input], Option<usize>); 5] = [
            (&[START, FREE, Input::Wait], None),
            (&[START, FREE, OTHER], Some(2)),
            (&[OTHER, Input::Wait, START, START], Some(2)),
            (&[FREE, FREE, OTHER], None),
            (&[START, START], Some(1)),
        ];
        for (word, expected) in cases {
            assert_eq!(rule.first_violation(word), expected, "{word:?}");
        }
        assert_eq!(
            rule.describe(|_| String::new()),
            "at most one of start, other per query"
        );
    }

    #[test]
    fn then_wait_forbids_any_input_but_a_wait_after_its_inputs() {
        const OTHER: Input = Input::Callin(CallinId(1));
        const FREE: Input = Input::Callin(CallinId(2));
        let rule = QueryFilter::then_wait(vec![START, OTHER], &["start", "other"]);
        let cases: [(&[Input], Option<usize>); 5] = [
            (&[START, Input::Wait, OTHER, Input::Wait, FREE], None),
            (&[FREE, FREE, START], None),
            (&[START, FREE], Some(1)),
            (&[START, Input::Wait, OTHER, START], Some(3)),
            (&[OTHER, OTHER], Some(1)),
        ];
        for (word, expected) in cases {
            assert_eq!(rule.first_violation(word), expected, "{word:?}");
        }
        assert_eq!(
            rule.describe(|_| String::new()),
            "start, other only before a wait"
        );
    }
}
