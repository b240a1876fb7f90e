//! Whether a library typestate abstracts a learned one whose creators fix the data.
//!
//! A run learns a class on chosen data: a `ResultSet` of no, one and two rows, each made by its
//! own creator.
//! The learned machine counts rows; the library does not.
//! So one library state stands for several learned ones, and on a row it allows both answers of `next()`.
//! [`check_abstraction`] checks that the library is such a quotient of the run, claiming nothing
//! the run did not show:
//! - every learned state stands for one library state (the map follows the learned steps from
//!   each creator's state, paired with the library's creator of the same objects);
//! - a learned step is the library's step there, to the state its target stands for;
//! - a learned error is a library error, except where the library says the data decides;
//! - every step the library enables in a state is taken by some learned state it stands for.
//!
//! Callins only: waits and callbacks are not compared.

use std::collections::BTreeMap;

use crate::model::{CallinId, StateId, Step, Typestate};

/// How the library's states and steps stand for a run's.
#[derive(Clone, Copy, Debug)]
pub struct Abstraction<'a> {
    /// Each learned creator, with the library's creator that makes the same objects.
    pub creators: &'a [(&'a str, &'a str)],
    /// Library states and callins where the data decides: the library enables the callin, and a
    /// learned state it stands for may reject it (the last row rejects `next()` true).
    pub data_decides: &'a [(&'a str, &'a str)],
}

/// Why a library typestate does not abstract a learned one.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AbstractionError {
    /// A creator or input callin of the run that the library does not have.
    MissingCallin(String),
    /// A learned state reached as two library states.
    TwoStates {
        /// The learned state.
        learned: String,
        /// The library states it was reached as.
        library: [String; 2],
    },
    /// A step the run took where the library rejects the callin.
    Rejects {
        /// The learned state.
        learned: String,
        /// The library state it stands for.
        library: String,
        /// The callin.
        callin: String,
    },
    /// A step the library enables where the run rejected the callin, and the data does not
    /// decide.
    Allows {
        /// The learned state.
        learned: String,
        /// The library state it stands for.
        library: String,
        /// The callin.
        callin: String,
    },
    /// A step the library enables that no learned state it stands for took.
    Unseen {
        /// The library state.
        library: String,
        /// The callin.
        callin: String,
    },
}

impl std::fmt::Display for AbstractionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            AbstractionError::MissingCallin(name) => {
                write!(f, "the library has no callin {name}")
            }
            AbstractionError::TwoStates { learned, library } => write!(
                f,
                "learned state {learned} is reached as library states {} and {}",
                library[0], library[1]
            ),
            AbstractionError::Rejects {
                learned,
                library,
                callin,
            } => write!(
                f,
                "{callin} is enabled in learned state {learned}, an error in library state {library}"
            ),
            AbstractionError::Allows {
                learned,
                library,
                callin,
            } => write!(
                f,
                "{callin} is an error in learned state {learned}, enabled in library state {library}, where the data does not decide"
            ),
            AbstractionError::Unseen { library, callin } => write!(
                f,
                "{callin} is enabled in library state {library}, and in no learned state it stands for"
            ),
        }
    }
}

impl std::error::Error for AbstractionError {}

/// Checks that `library` abstracts `learned` as `abstraction` says (the module's rules).
/// Returns the map: each learned state reached from a creator, with the library state it stands
/// for, by name.
pub fn check_abstraction(
    learned: &Typestate,
    library: &Typestate,
    abstraction: &Abstraction,
) -> Result<BTreeMap<String, String>, AbstractionError> {
    let library_callin = |name: &str| {
        library
            .callin_by_name(name)
            .ok_or_else(|| AbstractionError::MissingCallin(name.to_owned()))
    };
    let inputs: Vec<(CallinId, CallinId)> = learned
        .input_callins()
        .map(|id| Ok((id, library_callin(&learned.callin(id).name)?)))
        .collect::<Result<_, _>>()?;
    let mut map: BTreeMap<StateId, StateId> = BTreeMap::new();
    let mut queue: Vec<(StateId, StateId)> = Vec::new();
    let visit = |pair: (StateId, StateId),
                 map: &mut BTreeMap<StateId, StateId>,
                 queue: &mut Vec<(StateId, StateId)>| {
        match map.get(&pair.0) {
            Some(&known) if known != pair.1 => Err(AbstractionError::TwoStates {
                learned: learned.state(pair.0).name.clone(),
                library: [
                    library.state(known).name.clone(),
                    library.state(pair.1).name.clone(),
                ],
            }),
            Some(_) => Ok(()),
            None => {
                map.insert(pair.0, pair.1);
                queue.push(pair);
                Ok(())
            }
        }
    };
    for (from, to) in abstraction.creators {
        let created = |typestate: &Typestate, name: &str| {
            typestate
                .callin_by_name(name)
                .and_then(|id| typestate.callin(id).creates)
                .ok_or_else(|| AbstractionError::MissingCallin(name.to_owned()))
        };
        let pair = (created(learned, from)?, created(library, to)?);
        visit(pair, &mut map, &mut queue)?;
    }
    while let Some((state, stands_for)) = queue.pop() {
        for &(input, callin) in &inputs {
            let name = || learned.callin(input).name.clone();
            let names = || {
                (
                    learned.state(state).name.clone(),
                    library.state(stands_for).name.clone(),
                )
            };
            match (
                learned.step(state, input),
                library.step(stands_for, callin).target(),
            ) {
                (Step::Restricted { .. }, _) => {}
                (Step::Enabled { target, .. }, Some(library_target)) => {
                    visit((*target, library_target), &mut map, &mut queue)?;
                }
                (Step::Enabled { .. }, None) => {
                    let (learned, library) = names();
                    return Err(AbstractionError::Rejects {
                        learned,
                        library,
                        callin: name(),
                    });
                }
                (Step::Error { .. }, Some(_)) => {
                    let (learned, library) = names();
                    let decides = abstraction
                        .data_decides
                        .iter()
                        .any(|&(s, c)| s == library && c == name());
                    if !decides {
                        return Err(AbstractionError::Allows {
                            learned,
                            library,
                            callin: name(),
                        });
                    }
                }
                (Step::Error { .. }, None) => {}
            }
        }
    }
    for &stands_for in map.values() {
        for &(input, callin) in &inputs {
            let taken = map.iter().any(|(&state, &to)| {
                to == stands_for && learned.step(state, input).target().is_some()
            });
            if library.step(stands_for, callin).target().is_some() && !taken {
                return Err(AbstractionError::Unseen {
                    library: library.state(stands_for).name.clone(),
                    callin: library.callin(callin).name.clone(),
                });
            }
        }
    }
    Ok(map
        .into_iter()
        .map(|(state, to)| {
            (
                learned.state(state).name.clone(),
                library.state(to).name.clone(),
            )
        })
        .collect())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A result of one or two rows, as a run learns it, and the library's abstraction of it.
    const LEARNED: &str = "typestate R
callin one: one() creates One
callin two: two() creates Two
callin nextTrue: next() returns true
callin nextFalse: next() returns false
callin read: read()

state Start initial
state One
  nextTrue -> Last
state Two
  nextTrue -> First
state First
  nextTrue -> Last
  read -> First
state Last
  nextFalse -> End
  read -> Last
state End
  nextFalse -> End
";

    const LIBRARY: &str = "typestate R
callin rows: rows() creates Rows
callin nextTrue: next() returns true
callin nextFalse: next() returns false
callin read: read()

state Rows initial
  nextTrue -> OnRow
state OnRow
  nextTrue -> OnRow
  nextFalse -> End
  read -> OnRow
state End
  nextFalse -> End
";

    fn parse(text: &str) -> Typestate {
        crate::format::parse("R.typestate", text).expect("parses")
    }

    fn check(library: &str, data_decides: &[(&str, &str)]) -> Result<Vec<String>, String> {
        let abstraction = Abstraction {
            creators: &[("one", "rows"), ("two", "rows")],
            data_decides,
        };
        check_abstraction(&parse(LEARNED), &parse(library), &abstraction)
            .map(|map| map.iter().map(|(l, r)| format!("{l}={r}")).collect())
            .map_err(|error| error.to_string())
    }

    const ON_A_ROW: &[(&str, &str)] = &[("OnRow", "nextTrue"), ("OnRow", "nextFalse")];

    #[test]
    fn a_library_that_forgets_the_row_count_abstracts_the_run() {
        assert_eq!(
            check(LIBRARY, ON_A_ROW),
            Ok([
                "End=End",
                "First=OnRow",
                "Last=OnRow",
                "One=Rows",
                "Two=Rows"
            ]
            .map(String::from)
            .to_vec())
        );
    }

    #[test]
    fn the_data_decides_only_where_the_library_says_so() {
        assert_eq!(
            check(LIBRARY, &[("OnRow", "nextTrue")]),
            Err("nextFalse is an error in learned state First, enabled in library state OnRow, where the data does not decide".to_owned())
        );
    }

    #[test]
    fn a_step_the_run_took_must_be_the_librarys() {
        let library = LIBRARY.replace("  nextFalse -> End\n  read", "  read");
        assert_eq!(
            check(&library, ON_A_ROW),
            Err(
                "nextFalse is enabled in learned state Last, an error in library state OnRow"
                    .to_owned()
            )
        );
    }

    #[test]
    fn a_learned_state_stands_for_one_library_state() {
        // The library counts one row more than the run: after a first row, a second.
        let library = LIBRARY.replace(
            "  nextTrue -> OnRow\n  nextFalse",
            "  nextTrue -> Second\n  nextFalse",
        )
            + "state Second\n  nextTrue -> Second\n  nextFalse -> End\n  read -> Second\n";
        assert_eq!(
            check(&library, &[ON_A_ROW, &[("Second", "nextTrue")]].concat()),
            Err("learned state Last is reached as library states Second and OnRow".to_owned())
        );
    }

    #[test]
    fn the_library_claims_no_step_the_run_did_not_take() {
        let library = LIBRARY.replace("state End\n", "state End\n  read -> End\n");
        assert_eq!(
            check(
                &library,
                &[
                    ("OnRow", "nextTrue"),
                    ("OnRow", "nextFalse"),
                    ("End", "read")
                ]
            ),
            Err(
                "read is enabled in library state End, and in no learned state it stands for"
                    .to_owned()
            )
        );
    }

    #[test]
    fn every_learned_callin_is_the_librarys() {
        let library = LIBRARY
            .replace("callin read: read()\n", "")
            .replace("  read -> OnRow\n", "");
        assert_eq!(
            check(&library, ON_A_ROW),
            Err("the library has no callin read".to_owned())
        );
    }
}
