//! Protocols derived from code: the protocol of a class that wraps objects with protocols.
//!
//! A wrapper's public methods drive its fields, so the fields' protocols decide which orders of those methods work.
//! [`derive`] explores that order from the state after construction, asking an oracle what each method does from each state.
//! - A state is what the oracle tells apart (for a checker: the fields' states); equal keys are one state.
//! - A method that fails from a state is an error there, with the oracle's exception and reason.
//!   The reason is the step's origin, so a message can name the field call that fails.
//! - A method whose effect the oracle cannot tell is restricted from that state.
//!   A checker then forgets the state: nothing is reported after it.
//! - The work is bounded: at most [`MAX_STATES`] states and [`MAX_METHODS`] methods, else no protocol.
//! - Time passing moves the wrapper as it moves its fields: the oracle's `wait` answers where to.
//!   A state named by a wait ends in `, wait`.
//! - The protocol has no callbacks or obligations.

use crate::binding::{CallinBinding, MethodKind, MethodRef, Params};
use crate::model::{Callin, Failure, Origin, State, StateId, Step, Steps, Typestate, WaitOutcome};
use crate::provenance::{Provenance, ProvenanceKind};

/// The most states a derived protocol has; a wrapper whose exploration reaches more gets none.
pub const MAX_STATES: usize = 12;

/// The most methods a derived protocol names; a wrapper with more gets none.
pub const MAX_METHODS: usize = 48;

/// The name of the state after construction.
pub const NEW: &str = "New";

/// What one method does from one state, as the oracle of [`derive`] answers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Move<K> {
    /// It returns, leaving the wrapper in the state `K`.
    To(K),
    /// It fails from this state: it throws `exception` (when known), for `reason`.
    Fails {
        /// The exception it throws, fully qualified, when known.
        exception: Option<String>,
        /// Why, in words: the field call that fails and the field's state.
        reason: String,
        /// Whether it fails on every path, in every state the fields may be in.
        /// A failure that is only possible is an `unverified` step: it never makes a definite finding.
        certain: bool,
    },
    /// Its effect is not known: anything may follow.
    Unknown,
}

/// Derives the protocol of `class` whose public `methods` (names) act from `initial`.
/// `step(key, i)` answers what `methods[i]` does from the state `key`.
/// `wait(key)` answers the state time passing leads to, or `None` when that is not known.
/// `describe(key)` says what a state holds, for hovers.
/// Returns `None` when the exploration passes [`MAX_STATES`] or there are more than [`MAX_METHODS`] methods.
pub fn derive<K: PartialEq + Clone>(
    class: &str,
    methods: &[String],
    initial: K,
    mut describe: impl FnMut(&K) -> String,
    mut step: impl FnMut(&K, usize) -> Move<K>,
    mut wait: impl FnMut(&K) -> Option<K>,
) -> Option<Typestate> {
    if methods.len() > MAX_METHODS {
        return None;
    }
    // The states found, each with the calls that first reached it.
    let mut keys: Vec<(K, Vec<usize>)> = vec![(initial, Vec::new())];
    let mut moves: Vec<Vec<Move<usize>>> = Vec::new();
    let mut waits: Vec<Option<usize>> = Vec::new();
    // The index of `target`, found or added, reached from `path` by the call `i` (a wait when
    // `i` is `methods.len()`).
    let index_of = |keys: &mut Vec<(K, Vec<usize>)>, target: K, path: &[usize], i: usize| match keys
        .iter()
        .position(|(k, _)| *k == target)
    {
        Some(at) => Some(at),
        None if keys.len() < MAX_STATES => {
            let mut reached = path.to_vec();
            reached.push(i);
            keys.push((target, reached));
            Some(keys.len() - 1)
        }
        None => None,
    };
    let mut next = 0;
    while next < keys.len() {
        let (key, path) = keys[next].clone();
        let mut row = Vec::with_capacity(methods.len());
        for i in 0..methods.len() {
            let answer = match step(&key, i) {
                Move::To(target) => Move::To(index_of(&mut keys, target, &path, i)?),
                Move::Fails {
                    exception,
                    reason,
                    certain,
                } => Move::Fails {
                    exception,
                    reason,
                    certain,
                },
                Move::Unknown => Move::Unknown,
            };
            row.push(answer);
        }
        moves.push(row);
        let waited = match wait(&key) {
            Some(target) => Some(index_of(&mut keys, target, &path, methods.len())?),
            None => None,
        };
        waits.push(waited);
        next += 1;
    }
    let origin = |source: &str| Origin {
        source: Some(source.to_owned()),
        unverified: false,
    };
    // Callin 0 is the creator; method `i` is callin `i + 1`.
    let mut callins = vec![Callin {
        name: "new".to_owned(),
        binding: binding(MethodKind::Constructor, "<init>"),
        creates: Some(StateId(0)),
    }];
    callins.extend(methods.iter().map(|name| Callin {
        name: name.clone(),
        binding: binding(MethodKind::Instance, name),
        creates: None,
    }));
    let states: Vec<State> = keys
        .iter()
        .zip(moves.iter().zip(&waits))
        .map(|((key, path), (row, waited))| {
            let mut steps = Steps::new(callins.len());
            for (i, answer) in row.iter().enumerate() {
                steps[i + 1] = match answer {
                    Move::To(target) => Step::Enabled {
                        target: StateId(u32::try_from(*target).unwrap_or(u32::MAX)),
                        ignored: false,
                        origin: origin("derived from the method's body"),
                    },
                    Move::Fails {
                        exception,
                        reason,
                        certain,
                    } => Step::Error {
                        failure: Failure::Throws(exception.clone()),
                        origin: Origin {
                            source: Some(reason.clone()),
                            unverified: !certain,
                        },
                    },
                    Move::Unknown => Step::Restricted {
                        origin: origin("the method's effect on the fields is not known"),
                    },
                };
            }
            State {
                name: state_name(methods, path),
                description: Some(describe(key)),
                on_callin: steps,
                on_wait: match waited {
                    Some(target) => WaitOutcome::Quiet {
                        target: StateId(u32::try_from(*target).unwrap_or(u32::MAX)),
                        origin: origin("the fields' moves while time passes"),
                    },
                    None => WaitOutcome::Restricted {
                        origin: origin("the fields' moves while time passes are not known"),
                    },
                },
                by_level: Vec::new(),
            }
        })
        .collect();
    Some(Typestate {
        class: class.to_owned(),
        summary: Some(format!(
            "The order of {}'s methods, derived from how they drive its fields.",
            class.rsplit('.').next().unwrap_or(class)
        )),
        provenance: Provenance {
            kind: ProvenanceKind::Documented,
            sources: vec!["derived by the checker from the class's own code".to_owned()],
            platform: None,
            stats: None,
            run: None,
        },
        notes: Vec::new(),
        callins,
        callbacks: Vec::new(),
        harmless: Vec::new(),
        excluded: Vec::new(),
        states,
        initial: StateId(0),
        obligations: Vec::new(),
        examples: Vec::new(),
    })
}

/// A binding to any overload of `name`.
fn binding(kind: MethodKind, name: &str) -> CallinBinding {
    CallinBinding {
        methods: vec![MethodRef {
            kind,
            class: None,
            name: name.to_owned(),
            params: Params::Any,
        }],
        condition: None,
        returns: None,
    }
}

/// A state's name: [`NEW`], or the calls that first reached it (`after lock()`).
fn state_name(methods: &[String], path: &[usize]) -> String {
    if path.is_empty() {
        return NEW.to_owned();
    }
    let calls: Vec<String> = path
        .iter()
        .map(|&i| match methods.get(i) {
            Some(name) => format!("{name}()"),
            None => "wait".to_owned(),
        })
        .collect();
    format!("after {}", calls.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A wrapper of one lock: `lock()` takes it, `unlock()` needs it, `get()` takes and gives it back.
    fn lock_wrapper(key: &u8, method: usize) -> Move<u8> {
        match (method, *key) {
            (0, 0) => Move::To(1),
            (0, _) => Move::Unknown,
            (1, 1) => Move::To(2),
            (1, _) => Move::Fails {
                exception: Some("java.lang.IllegalMonitorStateException".to_owned()),
                reason: "`unlock()` calls `lock.unlock()` in Unlocked".to_owned(),
                certain: true,
            },
            (_, 1) => Move::Unknown,
            (_, key) => Move::To(key.max(2)),
        }
    }

    fn methods() -> Vec<String> {
        ["lock", "unlock", "get"].map(str::to_owned).to_vec()
    }

    #[test]
    fn a_method_that_fails_from_a_state_is_an_error_there_with_its_reason() {
        let ts = derive(
            "a.Scope",
            &methods(),
            0,
            |k| format!("lock {k}"),
            lock_wrapper,
            |k| Some(*k),
        )
        .expect("three states");
        assert_eq!(ts.states.len(), 3, "{:?}", ts.states);
        let unlock = ts.callin_by_name("unlock").expect("unlock");
        let new = ts.initial;
        assert_eq!(ts.state(new).name, NEW);
        match ts.step(new, unlock) {
            Step::Error { failure, origin } => {
                assert_eq!(
                    failure.exception(),
                    Some("java.lang.IllegalMonitorStateException")
                );
                assert!(origin.source.as_deref().unwrap().contains("lock.unlock()"));
                assert!(!origin.unverified, "a certain failure is verified");
            }
            other => panic!("{other:?}"),
        }
        let lock = ts.callin_by_name("lock").expect("lock");
        let held = ts.step(new, lock).target().expect("lock() works first");
        assert_eq!(ts.state(held).name, "after lock()");
        assert!(ts.step(held, unlock).target().is_some());
        assert!(ts.step(held, lock).is_restricted(), "an unknown effect");
        let creator = ts.creators().next().expect("a creator");
        assert_eq!(ts.callin(creator).creates, Some(new));
    }

    #[test]
    fn an_exploration_past_the_bound_gives_no_protocol() {
        let counter = |key: &usize, _: usize| Move::To(key + 1);
        let stay = |k: &usize| Some(*k);
        assert!(derive("a.Counter", &methods(), 0, |_| String::new(), counter, stay).is_none());
        let many: Vec<String> = (0..=MAX_METHODS).map(|i| format!("m{i}")).collect();
        let still = |_: &usize, _: usize| Move::To(0);
        assert!(derive("a.Wide", &many, 0, |_| String::new(), still, stay).is_none());
    }

    #[test]
    fn time_passing_moves_the_wrapper_as_it_moves_its_fields() {
        // A recorder: start() leaves it starting; a wait makes it recording; stop() needs that.
        let step = |key: &u8, method: usize| match (method, *key) {
            (0, 0) => Move::To(1),
            (1, 2) => Move::To(0),
            (1, _) => Move::Fails {
                exception: None,
                reason: "`stop()` too early".to_owned(),
                certain: true,
            },
            _ => Move::Unknown,
        };
        let wait = |key: &u8| Some(if *key == 1 { 2 } else { *key });
        let methods: Vec<String> = ["start", "stop"].map(str::to_owned).to_vec();
        let ts = derive("a.Rec", &methods, 0, |_| String::new(), step, wait).expect("states");
        let start = ts.callin_by_name("start").expect("start");
        let starting = ts.step(ts.initial, start).target().expect("start() works");
        let WaitOutcome::Quiet { target, .. } = &ts.state(starting).on_wait else {
            panic!("a quiet move");
        };
        assert_eq!(ts.state(*target).name, "after start(), wait");
        let stop = ts.callin_by_name("stop").expect("stop");
        assert!(ts.step(*target, stop).target().is_some());
        assert!(ts.step(starting, stop).target().is_none());
    }
}
