//! Behavioural comparison of two typestates of one class.
//! It gives equivalence with a shortest distinguishing trace, and a diff that lists witness traces where they differ.
//! Uses: the same class on two Android versions, a learned typestate against the library's.
//!
//! Symbols are matched by name.
//! Callins or callbacks only one side has are reported as alphabet differences; behaviour is
//! compared over the callins both sides have.
//!
//! Behaviour is the synchronous closure, where a restriction of the experiment is `err`, as the
//! learner saw it.
//! One side may say the API forbids a call and the other that its experiment never tried it.
//! That is still a difference worth a witness.
//! It arises between a DroidStar import, which cannot tell, and the library's file.
//! It also arises between a learned typestate and one written from the Javadoc.
//! So those are listed apart, in [`Diff::restrictions`], answering `restricted`.

use crate::mealy::{to_mealy, Input, Mealy, Output, Signature};
use crate::model::{CallinId, Typestate};

/// The answer a diff gives for an input the experiment forbade.
const RESTRICTED: &str = "restricted";

/// One input and the two answers, in a witness.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WitnessStep {
    /// The input: a callin name or `wait`.
    pub input: String,
    /// What the left typestate answers.
    pub left: String,
    /// What the right typestate answers.
    pub right: String,
}

/// A trace on which the two typestates disagree at its last step (and agree before it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Witness {
    /// The steps; all but the last have equal answers.
    pub steps: Vec<WitnessStep>,
}

/// How two typestates differ.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Diff {
    /// Callins only the left side has.
    pub callins_only_left: Vec<String>,
    /// Callins only the right side has.
    pub callins_only_right: Vec<String>,
    /// Callbacks only the left side has.
    pub callbacks_only_left: Vec<String>,
    /// Callbacks only the right side has.
    pub callbacks_only_right: Vec<String>,
    /// Shortest witnesses of behavioural difference over the shared callins, shortest first.
    pub witnesses: Vec<Witness>,
    /// Shortest traces after which one side says `restricted` (its experiment never tried the
    /// input) where the other says `err`; the behaviour is the same.
    pub restrictions: Vec<Witness>,
}

impl Diff {
    /// True when the two typestates have the same symbols and the same behaviour: the same
    /// traces, whether a rejected one stops at an error or at a restriction.
    pub fn is_equivalent(&self) -> bool {
        self.callins_only_left.is_empty()
            && self.callins_only_right.is_empty()
            && self.callbacks_only_left.is_empty()
            && self.callbacks_only_right.is_empty()
            && self.witnesses.is_empty()
    }

    /// True when they are equivalent and also agree on which inputs were restricted.
    pub fn is_identical(&self) -> bool {
        self.is_equivalent() && self.restrictions.is_empty()
    }
}

/// Compares two typestates; at most `limit` witnesses of each kind are listed.
pub fn diff(left: &Typestate, right: &Typestate, limit: usize) -> Diff {
    let left_sig = left.signature();
    let right_sig = right.signature();
    let input_names = |sig: &Signature| -> Vec<String> {
        sig.inputs()
            .into_iter()
            .map(|input| sig.input_name(input).to_owned())
            .collect()
    };
    let left_inputs = input_names(&left_sig);
    let right_inputs = input_names(&right_sig);
    let shared: Vec<String> = left_inputs
        .iter()
        .filter(|name| right_inputs.contains(name))
        .cloned()
        .collect();
    let only = |a: &[String], b: &[String]| -> Vec<String> {
        a.iter().filter(|n| !b.contains(n)).cloned().collect()
    };
    let callback_names =
        |t: &Typestate| -> Vec<String> { t.callbacks.iter().map(|c| c.name.clone()).collect() };

    // Project both machines onto the shared inputs, in the left's order, with outputs
    // renamed into one table of output names so that they compare by name.
    let mut output_names: Vec<String> = Vec::new();
    let left_mealy = project(left, &shared, &mut output_names);
    let right_mealy = project(right, &shared, &mut output_names);
    let restricted = output_names
        .iter()
        .position(|name| name == RESTRICTED)
        .map(|index| Output::Callback(crate::model::CallbackId(index as u32)));
    let witness = |left_mealy: &Mealy, right_mealy: &Mealy, word: Vec<usize>| {
        let (left_out, _) = left_mealy.run_columns(left_mealy.initial, &word);
        let (right_out, _) = right_mealy.run_columns(right_mealy.initial, &word);
        let name = |output: Output| match output {
            Output::Callback(id) => output_names[id.index()].clone(),
            other => left_sig.output_name(other).to_owned(),
        };
        Witness {
            steps: word
                .iter()
                .zip(left_out.into_iter().zip(right_out))
                .map(|(&column, (l, r))| WitnessStep {
                    input: shared[column].clone(),
                    left: name(l),
                    right: name(r),
                })
                .collect(),
        }
    };
    let (left_closure, right_closure) = (
        as_closure(&left_mealy, restricted),
        as_closure(&right_mealy, restricted),
    );
    let witnesses = left_closure
        .distinguishing_words(&right_closure, limit)
        .into_iter()
        .map(|word| witness(&left_closure, &right_closure, word))
        .collect();
    let restrictions = left_mealy
        .distinguishing_words(&right_mealy, limit)
        .into_iter()
        .map(|word| witness(&left_mealy, &right_mealy, word))
        .filter(|witness| {
            witness.steps.last().is_some_and(|last| {
                let answers = [last.left.as_str(), last.right.as_str()];
                answers == ["err", RESTRICTED] || answers == [RESTRICTED, "err"]
            })
        })
        .collect();
    Diff {
        callins_only_left: only(&left_inputs, &right_inputs),
        callins_only_right: only(&right_inputs, &left_inputs),
        callbacks_only_left: only(&callback_names(left), &callback_names(right)),
        callbacks_only_right: only(&callback_names(right), &callback_names(left)),
        witnesses,
        restrictions,
    }
}

/// The machine with the `restricted` output (when some side has one) answering `err` again: the
/// closure as the learner sees it.
fn as_closure(mealy: &Mealy, restricted: Option<Output>) -> Mealy {
    let mut closure = mealy.clone();
    for (_, output) in &mut closure.transitions {
        if Some(*output) == restricted {
            *output = Output::Err;
        }
    }
    closure
}

/// The closure of `typestate` restricted to the inputs named in `shared` (in that order), with
/// callback outputs renumbered by their index in `output_names`, which collects names across
/// calls, and restrictions of the experiment answering [`RESTRICTED`] instead of `err`.
fn project(typestate: &Typestate, shared: &[String], output_names: &mut Vec<String>) -> Mealy {
    let mealy = &to_mealy(typestate);
    let signature = &typestate.signature();
    let mut output_index = |name: &str| -> Output {
        let index = match output_names.iter().position(|n| n == name) {
            Some(index) => index,
            None => {
                output_names.push(name.to_owned());
                output_names.len() - 1
            }
        };
        Output::Callback(crate::model::CallbackId(index as u32))
    };
    let restricted = |state: u32, input: Input| -> bool {
        let Some(state) = typestate.states.get(state as usize) else {
            return false;
        };
        match input {
            Input::Callin(callin) => state.on_callin[callin.index()].is_restricted(),
            Input::Wait => state.on_wait.is_restricted(),
        }
    };
    let columns: Vec<usize> = shared
        .iter()
        .map(|name| {
            mealy
                .inputs
                .iter()
                .position(|input| signature.input_name(*input) == name)
                .expect("shared inputs exist on both sides")
        })
        .collect();
    let inputs = (0..shared.len())
        .map(|i| {
            if shared[i] == "wait" {
                Input::Wait
            } else {
                Input::Callin(CallinId(i as u32))
            }
        })
        .collect();
    let mut projected = Mealy::with_states(inputs, mealy.n_states(), mealy.initial);
    for state in 0..mealy.n_states() as u32 {
        for (new_column, &old_column) in columns.iter().enumerate() {
            let (target, output) = mealy.transition(state, old_column);
            let output = match output {
                Output::Err if restricted(state, mealy.inputs[old_column]) => {
                    output_index(RESTRICTED)
                }
                Output::Callback(id) => output_index(&signature.callbacks[id.index()].name),
                other => other,
            };
            projected.set_transition(state, new_column, target, output);
        }
    }
    projected
}

#[cfg(test)]
mod tests {
    use super::{diff, Diff};
    use crate::format::parse;
    use crate::model::Typestate;

    fn typestate(body: &str) -> Typestate {
        parse("inline", &format!("typestate t.T\n{body}"))
            .unwrap_or_else(|errors| panic!("{errors:?}"))
    }

    /// The diff in one line per fact: alphabet differences, then witnesses as
    /// `input/left|right` steps.
    fn summary(diff: &Diff) -> String {
        let mut facts = Vec::new();
        for (what, names) in [
            ("callins only left", &diff.callins_only_left),
            ("callins only right", &diff.callins_only_right),
            ("callbacks only left", &diff.callbacks_only_left),
            ("callbacks only right", &diff.callbacks_only_right),
        ] {
            if !names.is_empty() {
                facts.push(format!("{what}: {}", names.join(" ")));
            }
        }
        for witness in &diff.witnesses {
            let steps: Vec<String> = witness
                .steps
                .iter()
                .map(|s| format!("{}/{}|{}", s.input, s.left, s.right))
                .collect();
            facts.push(format!("witness: {}", steps.join(" ")));
        }
        for witness in &diff.restrictions {
            let steps: Vec<String> = witness
                .steps
                .iter()
                .map(|s| format!("{}/{}|{}", s.input, s.left, s.right))
                .collect();
            facts.push(format!("restriction: {}", steps.join(" ")));
        }
        if diff.is_equivalent() {
            facts.push("equivalent".to_owned());
        }
        facts.join("\n")
    }

    const TIMER: &str = "
        callin start: start()
        callin cancel: cancel()
        callback finished: override onFinish()
        state Idle initial
          start -> Running
          cancel -> Idle
        state Running
          cancel -> Done
          on finished -> Done
        state Done
          cancel -> Done";

    #[test]
    fn diffs() {
        let cases: [(&str, &str, &str); 9] = [
            (TIMER, TIMER, "equivalent"),
            // Other state names and order, a creator, bindings and origins: same behaviour.
            (
                TIMER,
                "callin make: new(long) creates Idle
                 callin cancel: stop(int)
                 callin start: begin()
                 callback finished: listener a.L.onDone via setL
                 state Done
                   cancel -> Done from \"somewhere\" unverified
                 state Idle initial
                   start -> Running
                   cancel -> Idle
                 state Running
                   cancel -> Done
                   on finished -> Done",
                "equivalent",
            ),
            (
                TIMER,
                &TIMER.replace("cancel -> Idle", "cancel -> Done"),
                "witness: cancel/eps|eps start/eps|err",
            ),
            (
                TIMER,
                &TIMER.replace("on finished -> Done", "quiet -> Running"),
                // Both still declare `finished`: the alphabets agree, the behaviour does not.
                "witness: start/eps|eps wait/finished|quiet",
            ),
            (
                TIMER,
                &TIMER.replace("callin cancel: cancel()", "callin cancel: cancel()\ncallin reset: reset()"),
                "callins only right: reset",
            ),
            (
                &TIMER.replace("callback finished", "callback done").replace("on finished", "on done"),
                TIMER,
                "callbacks only left: done\ncallbacks only right: finished\nwitness: start/eps|eps wait/done|finished",
            ),
            (
                "callin a: a()\nstate A initial\n  a -> B\nstate B\n  a -> C\nstate C\n  fails",
                "callin a: a()\nstate A initial\n  a -> B\nstate B\n  a -> C\nstate C\n  a -> C",
                "witness: a/eps|eps a/eps|eps a/err|eps\nwitness: a/eps|eps a/eps|eps wait/err|quiet",
            ),
            // An error of the API against a restriction of the experiment: the closure is the
            // same, the claims are not.
            (
                TIMER,
                &TIMER.replace("state Running", "state Running\n  start restricted from \"once\""),
                "restriction: start/eps|eps start/err|restricted\nequivalent",
            ),
            (
                "callin a: a()\nstate A initial\n  a -> B\nstate B\n  fails",
                "callin a: a()\nstate A initial\n  a -> B\nstate B\n  wait restricted",
                "restriction: a/eps|eps wait/err|restricted\nequivalent",
            ),
        ];
        for (left, right, expected) in cases {
            let actual = summary(&diff(&typestate(left), &typestate(right), 3));
            assert_eq!(actual, expected, "\n--- left\n{left}\n--- right\n{right}");
        }
    }

    #[test]
    fn witnesses_stop_at_the_limit_shortest_first() {
        let left = typestate(TIMER);
        let right = typestate("callin start: start()\ncallin cancel: cancel()\ncallback finished: override onFinish()\nstate Broken initial");
        let all = diff(&left, &right, 100).witnesses;
        let lengths: Vec<usize> = all.iter().map(|w| w.steps.len()).collect();
        assert!(
            lengths.windows(2).all(|pair| pair[0] <= pair[1]),
            "{lengths:?}"
        );
        assert_eq!(diff(&left, &right, 2).witnesses, all[..2]);
        assert_eq!(lengths[0], 1);
    }
}
