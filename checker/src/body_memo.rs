//! Reusing, from one check of an edited file to the next, the analyses of the method bodies
//! the edit did not touch.
//!
//! A check run by [`crate::Incremental`] notes every analysis of a method body from the
//! event model (not of a helper at its call site): the entry state, whether observations
//! were recorded, the result and the observations it recorded. The next check, if the
//! edit changed only some methods' bodies and names ([`crate::relocate::compare`], or the
//! one method [`crate::Incremental`] lowered again), gets the notes of the unchanged methods
//! relocated across the edit, and an analysis of one of them from the same entry state is
//! the noted one (moved into this check's notes, which also answer the same analysis asked
//! again within this check).
//! The conditions that make this sound are in ARCHITECTURE.md (checker: per-method reuse)
//! and checked in [`crate::incremental`] and [`crate::check`].

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

use crate::ir::{Body, Method};
use crate::places::Var;
use crate::relocate::{Renumbering, Shift};
use crate::resolve::LocalId;
use crate::typestate_flow::{BodyResult, Cause, Env, Observation, Value};

/// One analysis of a method body.
#[derive(Debug, Clone)]
pub(crate) struct Analysis {
    entry: Env,
    record: bool,
    result: BodyResult,
    observations: Vec<Observation>,
}

/// The analyses of one check, by the method's place in [`crate::relocate::methods`] order,
/// with the locals of the file it numbered, by declaring offset.
#[derive(Debug, Clone, Default)]
pub(crate) struct Analyses {
    bodies: HashMap<usize, Vec<Analysis>>,
    declarations: Vec<(usize, LocalId)>,
}

impl Analyses {
    /// The analyses of the methods `keep` accepts (by place), moved across `edit` with their
    /// expressions renumbered; an analysis with a position or an expression that has no image
    /// is dropped, and so is a declaration (the analyses naming its local are dropped when the
    /// next check's memo is made: [`BodyMemo::new`]).
    pub(crate) fn relocated(
        mut self,
        edit: crate::relocate::TextEdit,
        renumbering: Renumbering,
        keep: impl Fn(usize) -> bool,
    ) -> Analyses {
        self.bodies.retain(|ordinal, _| keep(*ordinal));
        for analyses in self.bodies.values_mut() {
            analyses.retain_mut(|analysis| {
                let mut shift = Shift::renumbering(edit, renumbering);
                analysis.relocate(&mut shift);
                shift.is_exact()
            });
        }
        self.declarations.retain_mut(|(at, _)| {
            let mut shift = Shift::new(edit);
            *at = shift.bytes(*at, *at).0;
            shift.is_exact()
        });
        self
    }
}

impl Analysis {
    fn relocate(&mut self, shift: &mut Shift) {
        let renumbers = shift.renumbers();
        for env in std::iter::once(&mut self.entry).chain(&mut self.result.exit) {
            if renumbers {
                env.rename_vars(&mut |var| renumber_var(shift, var));
            }
            env.update_each(|_, value| relocate_value(shift, value));
        }
        if let Some(returned) = &mut self.result.returned {
            if renumbers {
                returned.place = returned.place.take().map(|var| renumber_var(shift, var));
            }
            if renumbers {
                returned
                    .value
                    .rename_fact_vars(&mut |var| renumber_var(shift, var));
            }
            relocate_value(shift, &mut returned.value);
        }
        if renumbers {
            self.result.started_groups = std::mem::take(&mut self.result.started_groups)
                .into_iter()
                .map(|id| shift.expr_id(id))
                .collect();
        }
        for observation in &mut self.observations {
            shift.span(&mut observation.span);
            if let Some(span) = &mut observation.receiver_span {
                shift.span(span);
            }
            if renumbers {
                observation
                    .value
                    .rename_fact_vars(&mut |var| renumber_var(shift, var));
            }
            relocate_value(shift, &mut observation.value);
        }
    }

    /// Renames the locals this analysis names by `renamed`; whether each had a new name.
    fn rename_locals(&mut self, renamed: &HashMap<LocalId, LocalId>) -> bool {
        let mut complete = true;
        let mut rename = |var: Var| match var {
            Var::Local(local) => match renamed.get(&local) {
                Some(&new) => Var::Local(new),
                None => {
                    complete = false;
                    var
                }
            },
            other => other,
        };
        for env in std::iter::once(&mut self.entry).chain(&mut self.result.exit) {
            env.rename_vars(&mut rename);
        }
        if let Some(returned) = &mut self.result.returned {
            returned.place = returned.place.take().map(&mut rename);
        }
        complete
    }
}

/// A variable with its expression id renumbered.
fn renumber_var(shift: &mut Shift, var: Var) -> Var {
    match var {
        Var::Temp(id) => Var::Temp(shift.expr_id(id)),
        other => other,
    }
}

/// Moves the byte ranges and renumbers the calls a value's causes name.
fn relocate_value(shift: &mut Shift, value: &mut Value) {
    let renumbers = shift.renumbers();
    let names_bytes = |causes: &BTreeSet<Cause>| {
        renumbers
            || causes
                .iter()
                .any(|cause| matches!(cause, Cause::Closed(..)))
    };
    for causes in value
        .states
        .values_mut()
        .filter(|causes| names_bytes(causes))
    {
        let moved: BTreeSet<Cause> = causes
            .iter()
            .map(|cause| match *cause {
                Cause::Closed(start, end) => {
                    let (start, end) = shift.bytes(start, end);
                    Cause::Closed(start, end)
                }
                Cause::Call(id) => Cause::Call(shift.expr_id(id)),
                other => other,
            })
            .collect();
        *causes = moved;
    }
}

/// The analyses one check may reuse and those it makes, for [`crate::typestate_flow::Shared`].
#[derive(Debug, Default)]
pub(crate) struct BodyMemo {
    /// The place of each method body of the checked IR, by address.
    ordinals: HashMap<*const Body, usize>,
    /// The relocated analyses of the last check not yet reused (a reused one moves to `made`).
    kept: RefCell<Analyses>,
    made: RefCell<Analyses>,
    reused: Cell<usize>,
}

impl BodyMemo {
    /// A memo for the check of the file with `methods` (in [`crate::relocate::methods`]
    /// order) whose resolution numbered its locals `declarations`; `kept` holds the
    /// relocated analyses of the last check, reused only if that check numbered the locals
    /// the same way.
    pub(crate) fn new(
        methods: &[&Method],
        mut declarations: Vec<(usize, LocalId)>,
        mut kept: Analyses,
    ) -> BodyMemo {
        declarations.sort_unstable();
        if kept.declarations != declarations {
            // The locals are numbered in source order: those the edit left, found at the same
            // (relocated) place, keep their order under the new numbers.
            let now: HashMap<usize, LocalId> = declarations.iter().copied().collect();
            let renamed: HashMap<LocalId, LocalId> = kept
                .declarations
                .iter()
                .filter_map(|(at, old)| Some((*old, *now.get(at)?)))
                .collect();
            for analyses in kept.bodies.values_mut() {
                analyses.retain_mut(|analysis| analysis.rename_locals(&renamed));
            }
        }
        let ordinals = methods
            .iter()
            .enumerate()
            .filter_map(|(ordinal, method)| {
                Some((std::ptr::from_ref(method.body.as_ref()?), ordinal))
            })
            .collect();
        BodyMemo {
            ordinals,
            kept: RefCell::new(kept),
            made: RefCell::new(Analyses {
                bodies: HashMap::new(),
                declarations,
            }),
            reused: Cell::new(0),
        }
    }

    /// The place of `body` if it is a method's body.
    pub(crate) fn ordinal(&self, body: &Body) -> Option<usize> {
        self.ordinals.get(&std::ptr::from_ref(body)).copied()
    }

    /// The kept analysis of the method at `ordinal` from `entry`, recording or not, with its
    /// result and observations: one this check already noted, or one of the last check,
    /// which is then noted as made by this check too.
    pub(crate) fn reuse(
        &self,
        ordinal: usize,
        entry: &Env,
        record: bool,
    ) -> Option<(BodyResult, Vec<Observation>)> {
        let matches = |a: &Analysis| a.record == record && a.entry == *entry;
        let found = |a: &Analysis| (a.result.clone(), a.observations.clone());
        if let Some(made) = self.made.borrow().bodies.get(&ordinal) {
            if let Some(analysis) = made.iter().find(|a| matches(a)) {
                return Some(found(analysis));
            }
        }
        let analysis = {
            let mut kept = self.kept.borrow_mut();
            let kept = kept.bodies.get_mut(&ordinal)?;
            let at = kept.iter().position(matches)?;
            kept.swap_remove(at)
        };
        self.reused.set(self.reused.get() + 1);
        let reused = found(&analysis);
        self.note(ordinal, analysis);
        Some(reused)
    }

    /// Notes an analysis this check made.
    pub(crate) fn made(
        &self,
        ordinal: usize,
        entry: Env,
        record: bool,
        result: &BodyResult,
        observations: &[Observation],
    ) {
        self.note(
            ordinal,
            Analysis {
                entry,
                record,
                result: result.clone(),
                observations: observations.to_vec(),
            },
        );
    }

    fn note(&self, ordinal: usize, analysis: Analysis) {
        let mut made = self.made.borrow_mut();
        let noted = made.bodies.entry(ordinal).or_default();
        if !noted
            .iter()
            .any(|a| a.record == analysis.record && a.entry == analysis.entry)
        {
            noted.push(analysis);
        }
    }

    /// How many analyses were reused, and the analyses of this check.
    pub(crate) fn finish(self) -> (usize, Analyses) {
        (self.reused.get(), self.made.into_inner())
    }
}
