//! A learned typestate's inputs grouped as a reference typestate groups its methods.
//!
//! An experiment runs each method it binds as its own input, so that every binding is evidence.
//! A library file may then bind several of those methods to one callin where the run shows
//! they answer alike (`read: getX(..) | getRawX()`).
//! [`Typestate::grouped_like`] folds each learned input whose methods a callin of the reference binds into the learned input of that callin's name.
//! It first checks that the two take the same step in every learned state.
//! Then [`crate::diff::diff`] compares the two by name as usual.

use crate::binding::{MethodRef, Params};
use crate::model::{CallinId, Failure, Step, Typestate};

/// A learned input that the reference groups with another, but that behaves otherwise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "{class}: the learned `{input}` is bound to `{group}` by the reference, but in state {state} \
     `{input}` {input_step} where `{group}` {group_step}"
)]
pub struct UngroupedInput {
    /// The typestate's class.
    pub class: String,
    /// The learned input folded into the group.
    pub input: String,
    /// The reference's callin that binds its methods, also a learned input.
    pub group: String,
    /// The learned state where they differ.
    pub state: String,
    /// What the input does there, in words.
    pub input_step: String,
    /// What the group's own input does there, in words.
    pub group_step: String,
}

impl Typestate {
    /// This typestate with every input whose methods all belong to another input callin of
    /// `reference` removed, once it is shown to take the same step as that callin's input here
    /// in every state.
    /// Inputs no other reference callin binds, observers and refined callins stay.
    pub fn grouped_like(&self, reference: &Typestate) -> Result<Typestate, Box<UngroupedInput>> {
        let mut folded: Vec<&str> = Vec::new();
        for (index, callin) in self.callins.iter().enumerate() {
            let input = CallinId(index as u32);
            let groups =
                reference.input_callins().filter(|&group| {
                    let binding = &reference.callin(group).binding;
                    reference.callin(group).name != callin.name
                        && binding.condition.is_none()
                        && binding.returns.is_none()
                        && callin.binding.condition.is_none()
                        && callin.binding.returns.is_none()
                        && !callin.is_creator()
                        && callin.binding.methods.iter().all(|method| {
                            binding.methods.iter().any(|bound| bound_by(method, bound))
                        })
                });
            let Some(group) = groups
                .filter_map(|group| self.callin_by_name(&reference.callin(group).name))
                .find(|&group| !self.callin(group).is_creator())
            else {
                continue;
            };
            self.check_same_steps(input, group)?;
            folded.push(&callin.name);
        }
        let kept: Vec<&str> = self
            .input_callins()
            .map(|id| self.callin(id).name.as_str())
            .filter(|name| !folded.contains(name))
            .collect();
        Ok(self
            .project_onto(&kept)
            .expect("the kept inputs are this typestate's own"))
    }

    /// Whether `input` takes `group`'s step in every state, on every level.
    fn check_same_steps(
        &self,
        input: CallinId,
        group: CallinId,
    ) -> Result<(), Box<UngroupedInput>> {
        for state in &self.states {
            let level_steps = |callin: CallinId| {
                state
                    .by_level
                    .iter()
                    .filter(move |level| level.callin == callin)
                    .map(|level| (level.levels, effect(&level.step)))
            };
            let (mine, theirs) = (
                &state.on_callin[input.index()],
                &state.on_callin[group.index()],
            );
            if effect(mine) != effect(theirs) || !level_steps(input).eq(level_steps(group)) {
                return Err(Box::new(UngroupedInput {
                    class: self.class.clone(),
                    input: self.callin(input).name.clone(),
                    group: self.callin(group).name.clone(),
                    state: state.name.clone(),
                    input_step: self.describe(mine),
                    group_step: self.describe(theirs),
                }));
            }
        }
        Ok(())
    }

    fn describe(&self, step: &Step) -> String {
        match step {
            Step::Enabled {
                target, ignored, ..
            } => {
                let ignored = if *ignored { " (ignored)" } else { "" };
                format!("goes to {}{ignored}", self.state(*target).name)
            }
            Step::Error { failure, .. } => match failure {
                Failure::Throws(Some(exception)) => format!("throws {exception}"),
                Failure::Throws(None) => "is an error".to_owned(),
                Failure::Posts(posted) => format!("posts {}", posted.callback),
            },
            Step::Restricted { .. } => "is restricted".to_owned(),
        }
    }
}

/// What a step does, without where the fact comes from.
fn effect(step: &Step) -> Step {
    match step {
        Step::Enabled {
            target, ignored, ..
        } => Step::Enabled {
            target: *target,
            ignored: *ignored,
            origin: Default::default(),
        },
        Step::Error { failure, .. } => Step::Error {
            failure: failure.clone(),
            origin: Default::default(),
        },
        Step::Restricted { .. } => Step::Restricted {
            origin: Default::default(),
        },
    }
}

/// Whether `bound` (a reference's binding) covers `method` (a learned input's).
fn bound_by(method: &MethodRef, bound: &MethodRef) -> bool {
    method.kind == bound.kind
        && method.class == bound.class
        && method.name == bound.name
        && (bound.params == Params::Any || bound.params == method.params)
}

#[cfg(test)]
mod tests {
    use crate::format::{parse, print};
    use crate::model::Typestate;

    fn typestate(body: &str) -> Typestate {
        parse("inline", &format!("typestate t.T\n{body}"))
            .unwrap_or_else(|errors| panic!("{errors:?}"))
    }

    /// A learned event: `getX()`, `getRawX()` and `getSize()` each its own input.
    const LEARNED: &str = "
        callin read: getX()
        callin rawX: getRawX()
        callin size: getSize()
        callin recycle: recycle()
        state Live initial
          read -> Live
          rawX -> Live
          size -> Live
          recycle -> Recycled
        state Recycled
          read -> Recycled
          rawX -> Recycled
          size error java.lang.RuntimeException
          recycle error java.lang.RuntimeException";

    /// Each case: a reference's callins, and the learned typestate's callins once grouped like
    /// it (or the error).
    #[test]
    fn inputs_fold_into_the_reference_callin_that_binds_their_methods() {
        let cases: [(&str, &str); 5] = [
            // Nothing groups: every input stays.
            (
                "callin read: getX()\ncallin rawX: getRawX()\ncallin size: getSize()\ncallin recycle: recycle()",
                "read rawX size recycle",
            ),
            // getRawX() answers like getX() in both states and folds into `read`.
            (
                "callin read: getX(..) | getRawX()\ncallin size: getSize()\ncallin recycle: recycle()",
                "read size recycle",
            ),
            // Other parameter types bind another method: nothing folds.
            (
                "callin read: getX(..) | getRawX(int)\ncallin size: getSize()\ncallin recycle: recycle()",
                "read rawX size recycle",
            ),
            // getSize() throws where getX() does not.
            (
                "callin read: getX(..) | getSize()\ncallin rawX: getRawX()\ncallin recycle: recycle()",
                "t.T: the learned `size` is bound to `read` by the reference, but in state Recycled \
                 `size` throws java.lang.RuntimeException where `read` goes to Recycled",
            ),
            // A group the learned typestate lacks: the input stays, for the diff to report.
            (
                "callin get: getX(..) | getRawX()\ncallin size: getSize()\ncallin recycle: recycle()",
                "read rawX size recycle",
            ),
        ];
        let learned = typestate(LEARNED);
        for (reference, expected) in cases {
            let reference = typestate(&format!("{reference}\nstate S initial"));
            let got = match learned.grouped_like(&reference) {
                Ok(grouped) => {
                    let names: Vec<&str> =
                        grouped.callins.iter().map(|c| c.name.as_str()).collect();
                    assert_eq!(grouped.states.len(), 2, "{}", print(&grouped));
                    names.join(" ")
                }
                Err(error) => error.to_string(),
            };
            assert_eq!(got, expected, "reference:\n{}", print(&reference));
        }
    }
}
