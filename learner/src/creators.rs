//! Creators from a learned initial state: the post-processing that turns DroidStar's
//! "no object yet" state into the library's creators (`creates STATE`).
//!
//! DroidStar learns a class whose object is made by a callin (OkHttp's `build_valid` and
//! `build_unavailable`, both `OkHttpClient.newCall()`) with those callins in the alphabet.
//! The learned machine starts in a state where only they are enabled.
//! A filter (at most one of them per query) disables them everywhere else.
//! The library's format says the same thing with creators.
//! A creator is a callin that is no input of the automaton but says in which state a new object
//! starts.
//! [`creators_from_initial`] rewrites the first form into the second.
//! It refuses, saying why, whenever the learned machine is not of that shape, so that nothing it
//! learned is lost.

use thiserror::Error;
use typestates::{CallinId, StateId, Step, Typestate, WaitOutcome};

/// Why the named callins cannot become creators.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CreatorsError {
    /// No callin was named.
    #[error("name at least one callin to turn into a creator")]
    NoneNamed,
    /// A name is not a callin of the typestate.
    #[error("`{name}` is not a callin of {class} (callins: {callins})")]
    UnknownCallin {
        /// The class.
        class: String,
        /// The name.
        name: String,
        /// The callins there are.
        callins: String,
    },
    /// A callin is already a creator, or named twice.
    #[error("`{name}` is already a creator, or is named twice")]
    AlreadyCreator {
        /// The callin.
        name: String,
    },
    /// A named callin is not enabled in the initial state, so it creates nothing.
    #[error(
        "`{name}` is not enabled in the initial state `{state}`, so it cannot create the object"
    )]
    DisabledInInitial {
        /// The callin.
        name: String,
        /// The initial state.
        state: String,
    },
    /// A named callin leads from the initial state back to it.
    #[error("`{name}` loops on the initial state `{state}`: it does not create anything")]
    LoopsOnInitial {
        /// The callin.
        name: String,
        /// The initial state.
        state: String,
    },
    /// The initial state allows a callin that is not named.
    #[error("the initial state `{state}` allows `{name}`, which is not a creator: it is more than \"no object yet\"")]
    InitialAllows {
        /// The callin.
        name: String,
        /// The initial state.
        state: String,
    },
    /// Time passing in the initial state does more than nothing.
    #[error("in the initial state `{state}` waiting {what}, not a quiet self-loop: it is more than \"no object yet\"")]
    InitialWaits {
        /// The initial state.
        state: String,
        /// What waiting does there.
        what: String,
    },
    /// A named callin is enabled after the object exists.
    #[error("`{name}` is enabled in state `{state}`, not only in the initial state: a creator cannot act on an existing object")]
    EnabledElsewhere {
        /// The callin.
        name: String,
        /// The state where it is enabled.
        state: String,
    },
}

/// Turns the callins named in `creators` into creators: each `creates` the state it leads to
/// from the initial state. The new initial state is what the first of them creates, and the
/// old initial state is dropped when no transition leads back to it. The learning statistics,
/// if any, count the states that remain, and a note records the rewrite.
///
/// Refuses unless the initial state is "no object yet": it enables exactly the named callins
/// (each leading elsewhere), waiting there is a quiet self-loop or restricted by the experiment
/// (a filter that makes a creator the first input), and every other state disables them (as a
/// filter such as `at_most_once = [...]` makes them).
pub fn creators_from_initial(
    typestate: &Typestate,
    creators: &[&str],
) -> Result<Typestate, CreatorsError> {
    if creators.is_empty() {
        return Err(CreatorsError::NoneNamed);
    }
    let initial = typestate.initial;
    let initial_name = || typestate.state(initial).name.clone();
    let mut ids: Vec<CallinId> = Vec::new();
    for &name in creators {
        let id = typestate
            .callin_by_name(name)
            .ok_or_else(|| CreatorsError::UnknownCallin {
                class: typestate.class.clone(),
                name: name.to_owned(),
                callins: typestate
                    .callins
                    .iter()
                    .map(|c| c.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", "),
            })?;
        if typestate.callin(id).is_creator() || ids.contains(&id) {
            return Err(CreatorsError::AlreadyCreator {
                name: name.to_owned(),
            });
        }
        ids.push(id);
    }
    // The initial state: only the named callins, each to another state; waiting does nothing
    // or was never tried.
    let mut targets: Vec<StateId> = Vec::new();
    for &id in &ids {
        let name = typestate.callin(id).name.clone();
        match typestate.step(initial, id).target() {
            None => {
                return Err(CreatorsError::DisabledInInitial {
                    name,
                    state: initial_name(),
                })
            }
            Some(target) if target == initial => {
                return Err(CreatorsError::LoopsOnInitial {
                    name,
                    state: initial_name(),
                })
            }
            Some(target) => targets.push(target),
        }
    }
    for callin in typestate.input_callins() {
        if !ids.contains(&callin) && typestate.step(initial, callin).target().is_some() {
            return Err(CreatorsError::InitialAllows {
                name: typestate.callin(callin).name.clone(),
                state: initial_name(),
            });
        }
    }
    let what = match &typestate.state(initial).on_wait {
        WaitOutcome::Quiet { target, .. } if *target == initial => None,
        WaitOutcome::Quiet { target, .. } => Some(format!(
            "moves quietly to `{}`",
            typestate.state(*target).name
        )),
        WaitOutcome::Callback {
            callback, target, ..
        } => Some(format!(
            "brings `{}` and moves to `{}`",
            typestate.callback(*callback).name,
            typestate.state(*target).name
        )),
        WaitOutcome::Error { .. } => Some("fails".to_owned()),
        WaitOutcome::Restricted { .. } => None,
    };
    if let Some(what) = what {
        return Err(CreatorsError::InitialWaits {
            state: initial_name(),
            what,
        });
    }
    // Everywhere else the named callins are disabled.
    for state in typestate.state_ids().filter(|s| *s != initial) {
        for &id in &ids {
            if typestate.step(state, id).target().is_some() {
                return Err(CreatorsError::EnabledElsewhere {
                    name: typestate.callin(id).name.clone(),
                    state: typestate.state(state).name.clone(),
                });
            }
        }
    }

    let mut result = typestate.clone();
    for (&id, &target) in ids.iter().zip(&targets) {
        result.callins[id.index()].creates = Some(target);
        // Creators are not inputs: their steps are plain errors everywhere.
        for state in &mut result.states {
            state.on_callin[id.index()] = Step::unknown_error();
        }
    }
    result.initial = targets[0];
    let dropped = !result.reachable_states()[initial.index()];
    if dropped {
        result = without_state(&result, initial);
    }
    let states = result.states.len();
    if let Some(stats) = &mut result.provenance.stats {
        stats.states = states as u32;
    }
    let names = ids
        .iter()
        .map(|id| format!("`{}`", typestate.callin(*id).name))
        .collect::<Vec<_>>()
        .join(", ");
    result.notes.push(if dropped {
        format!(
            "Learned with {names} as callins, enabled only in the initial state (no object yet); they are creators here and that state, {}, is left out, so {} states remain of the {} learned.",
            typestate.state(initial).name,
            states,
            typestate.states.len()
        )
    } else {
        format!(
            "Learned with {names} as callins, enabled only in the initial state; they are creators here. That state, {}, is kept: a transition leads back to it.",
            typestate.state(initial).name
        )
    });
    Ok(result)
}

/// The typestate without `removed`, which nothing may lead to; state ids are renumbered.
fn without_state(typestate: &Typestate, removed: StateId) -> Typestate {
    let renumber = |state: StateId| -> StateId {
        assert_ne!(state, removed, "nothing leads to a removed state");
        if state > removed {
            StateId(state.0 - 1)
        } else {
            state
        }
    };
    let mut result = typestate.clone();
    result.states.remove(removed.index());
    for state in &mut result.states {
        for step in state.on_callin.set_mut() {
            if let Step::Enabled { target, .. } = step {
                *target = renumber(*target);
            }
        }
        match &mut state.on_wait {
            WaitOutcome::Quiet { target, .. } | WaitOutcome::Callback { target, .. } => {
                *target = renumber(*target);
            }
            WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => {}
        }
    }
    for callin in &mut result.callins {
        callin.creates = callin.creates.map(renumber);
    }
    for obligation in &mut result.obligations {
        obligation.states.retain(|&s| s != removed);
        obligation.states = obligation.states.iter().copied().map(renumber).collect();
    }
    result.initial = renumber(result.initial);
    result
}

#[cfg(test)]
mod tests {
    use super::{creators_from_initial, CreatorsError};
    use typestates::format::{parse, print};
    use typestates::{LearningStats, Typestate};

    fn typestate(body: &str) -> Typestate {
        parse("inline", &format!("typestate t.Call\n{body}"))
            .unwrap_or_else(|errors| panic!("{errors:?}"))
    }

    /// DroidStar's shape: a state with no call where only the two builds are allowed.
    const LEARNED: &str = "
        stats states=4 time_ms=10 mq_asked=5 mq_executed=3 eq=1 bound=2
        callin build_valid: newCall(..)
        callin build_unavailable: newCall(..)
        callin run: run()
        callback ok: listener a.Cb.onResponse via run
        callback missing: listener a.Cb.onResponse via run
        state NoCall initial
          build_valid -> Good
          build_unavailable -> Bad
        state Good
          run -> Done
          build_valid restricted from \"restricted by the experiment: build_valid at most once per query\"
        state Bad
          run -> BadRunning
        state BadRunning
          on missing -> Done
        state Done";

    #[test]
    fn the_initial_state_becomes_creators() {
        let learned = typestate(LEARNED);
        let rewritten = creators_from_initial(&learned, &["build_valid", "build_unavailable"])
            .unwrap_or_else(|error| panic!("{error}"));
        let expected = typestate(
            "
        stats states=4 time_ms=10 mq_asked=5 mq_executed=3 eq=1 bound=2
        callin build_valid: newCall(..) creates Good
        callin build_unavailable: newCall(..) creates Bad
        callin run: run()
        callback ok: listener a.Cb.onResponse via run
        callback missing: listener a.Cb.onResponse via run
        state Good initial
          run -> Done
        state Bad
          run -> BadRunning
        state BadRunning
          on missing -> Done
        state Done",
        );
        assert_eq!(rewritten.notes.len(), 1, "{:?}", rewritten.notes);
        assert!(
            rewritten.notes[0].contains("NoCall, is left out, so 4 states remain of the 5"),
            "{}",
            rewritten.notes[0]
        );
        let mut without_note = rewritten.clone();
        without_note.notes.clear();
        // Printed, so a failure shows the text; the stats count the states that remain.
        assert_eq!(print(&without_note), print(&expected));
        assert_eq!(without_note, expected);
        assert_eq!(
            rewritten.provenance.stats,
            Some(LearningStats {
                states: 4,
                time_ms: 10,
                mq_asked: 5,
                mq_executed: 3,
                eq: 1,
                distinguisher_bound: Some(2),
            })
        );
        // The same traces, once the creator is the first event.
        for (trace, accepted) in [
            ("build_unavailable run missing", true),
            ("build_valid run", true),
            ("build_valid run run", false),
            ("build_unavailable missing", false),
        ] {
            let events = |t: &Typestate| {
                trace
                    .split(' ')
                    .map(|name| match t.callin_by_name(name) {
                        Some(id) => typestates::Event::Callin(id),
                        None => typestates::Event::Callback(t.callback_by_name(name).unwrap()),
                    })
                    .collect::<Vec<_>>()
            };
            assert_eq!(learned.accepts(&events(&learned)), accepted, "{trace}");
            assert_eq!(rewritten.accepts(&events(&rewritten)), accepted, "{trace}");
        }
        // The printed form is a valid file.
        assert_eq!(parse("again", &print(&rewritten)).unwrap(), rewritten);
    }

    /// An experiment whose first input must be a build never waited before one: the same result.
    #[test]
    fn a_restricted_wait_in_the_initial_state_is_no_object_yet() {
        let both = ["build_valid", "build_unavailable"];
        let learned = typestate(LEARNED);
        let restricted = typestate(&LEARNED.replace(
            "build_unavailable -> Bad",
            "build_unavailable -> Bad\n  wait restricted from \"restricted by the experiment: build first\"",
        ));
        assert_eq!(
            creators_from_initial(&restricted, &both).unwrap(),
            creators_from_initial(&learned, &both).unwrap()
        );
    }

    #[test]
    fn an_initial_state_that_is_reached_again_is_kept() {
        let learned = typestate(
            "callin make: make()\ncallin close: close()\nstate None initial\n  make -> Open\nstate Open\n  close -> None",
        );
        let rewritten = creators_from_initial(&learned, &["make"]).unwrap();
        assert_eq!(
            print(&rewritten).lines().filter(|l| !l.starts_with("note")).collect::<Vec<_>>().join("\n"),
            "typestate t.Call\nprovenance documented\n\ncallin make: make() creates Open\ncallin close: close()\n\nstate None\n\nstate Open initial\n  close -> None"
        );
        assert!(
            rewritten.notes[0].contains("is kept"),
            "{:?}",
            rewritten.notes
        );
    }

    #[test]
    fn refusals_say_why() {
        let both = ["build_valid", "build_unavailable"];
        let cases: Vec<(String, &[&str], CreatorsError)> = vec![
            (LEARNED.to_owned(), &[], CreatorsError::NoneNamed),
            (
                LEARNED.to_owned(),
                &["build"],
                CreatorsError::UnknownCallin {
                    class: "t.Call".into(),
                    name: "build".into(),
                    callins: "build_valid, build_unavailable, run".into(),
                },
            ),
            (
                LEARNED.to_owned(),
                &["build_valid", "build_valid"],
                CreatorsError::AlreadyCreator {
                    name: "build_valid".into(),
                },
            ),
            (
                LEARNED.to_owned(),
                &["build_valid"],
                CreatorsError::InitialAllows {
                    name: "build_unavailable".into(),
                    state: "NoCall".into(),
                },
            ),
            (
                LEARNED.to_owned(),
                &["build_valid", "build_unavailable", "run"],
                CreatorsError::DisabledInInitial {
                    name: "run".into(),
                    state: "NoCall".into(),
                },
            ),
            (
                LEARNED.replace("build_valid -> Good", "build_valid -> NoCall"),
                &both,
                CreatorsError::LoopsOnInitial {
                    name: "build_valid".into(),
                    state: "NoCall".into(),
                },
            ),
            (
                LEARNED.replace(
                    "build_unavailable -> Bad",
                    "build_unavailable -> Bad\n  quiet -> Done",
                ),
                &both,
                CreatorsError::InitialWaits {
                    state: "NoCall".into(),
                    what: "moves quietly to `Done`".into(),
                },
            ),
            (
                LEARNED.replace(
                    "run -> BadRunning",
                    "run -> BadRunning\n  build_valid -> Good",
                ),
                &both,
                CreatorsError::EnabledElsewhere {
                    name: "build_valid".into(),
                    state: "Bad".into(),
                },
            ),
        ];
        for (body, names, expected) in cases {
            let error = creators_from_initial(&typestate(&body), names).unwrap_err();
            assert_eq!(error, expected, "{names:?}");
            assert!(!error.to_string().is_empty());
        }
        // Already a creator.
        let rewritten = creators_from_initial(&typestate(LEARNED), &both).unwrap();
        assert_eq!(
            creators_from_initial(&rewritten, &["build_valid"]).unwrap_err(),
            CreatorsError::AlreadyCreator {
                name: "build_valid".into()
            }
        );
    }
}
