//! The incremental checker's layer under the event model.
//! From one check of an edited file to the next, it reuses the analyses of the method bodies the edit did not touch.
//! [`BodyMemo`] is a [`Runner`]: the check runs every body of an event through it, and no
//! analysis knows it is there.
//! It notes each analysis of a method body run as an event: entry state, pass and result.
//! The next check gets the notes of the unchanged methods, relocated across the edit
//! ([`super::relocate::compare`], or the one method [`crate::Incremental`] lowered again).
//! A run of one of them from an equal entry state, in the same pass, answers with the note.
//! A reused note moves into this check's notes, which also answer a repeat within this check.
//! It reuses only when the body's result is a function of its code, its entry state and what the
//! file declares.
//! That needs that no local is captured by deferred code.
//! The other conditions are in ARCHITECTURE.md (checker: per-method reuse), checked in
//! [`crate::incremental`].

use std::cell::{Cell, RefCell};
use std::collections::{BTreeSet, HashMap};

use super::relocate::{self, Renumbering, Shift};
use crate::events::Runner;
use crate::ir::{Body, SourceIr};
use crate::places::Var;
use crate::resolve::{LocalId, Resolution};
use crate::typestate_flow::{analyze_body, BodyResult, Cause, Env, Pass, Shared, Value, RETURNED};

/// One analysis of a method body.
#[derive(Debug, Clone)]
pub(crate) struct Analysis {
    entry: Env,
    pass: Pass,
    result: BodyResult,
}

/// The analyses of one check, by the method's place in [`relocate::methods`] order,
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
        edit: relocate::TextEdit,
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
        for env in std::iter::once(&mut self.entry)
            .chain(&mut self.result.exit)
            .chain(&mut self.result.normal_exit)
        {
            if renumbers {
                env.rename_vars(&mut |var| renumber_var(shift, var));
            }
            env.update_each(|_, value| relocate_value(shift, value));
        }
        if let Some(returned) = &mut self.result.returned {
            if renumbers {
                returned.place = returned.place.take().map(|var| renumber_var(shift, var));
            }
            relocate_held_value(shift, &mut returned.value);
        }
        if renumbers {
            self.result.started_groups = std::mem::take(&mut self.result.started_groups)
                .into_iter()
                .map(|id| shift.expr_id(id))
                .collect();
        }
        for observation in &mut self.result.observations {
            shift.span(&mut observation.span);
            if let Some(span) = &mut observation.receiver_span {
                shift.span(span);
            }
            relocate_held_value(shift, &mut observation.value);
        }
        for span in &mut self.result.unfinished {
            shift.span(span);
        }
        let losses = &mut self.result.losses;
        for owned in &mut losses.owned {
            shift.span(&mut owned.span);
        }
        for dropped in &mut losses.dropped {
            if let Some(at) = &mut dropped.at {
                shift.span(at);
            }
            relocate_held_value(shift, &mut dropped.value);
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
        for env in std::iter::once(&mut self.entry)
            .chain(&mut self.result.exit)
            .chain(&mut self.result.normal_exit)
        {
            env.rename_vars(&mut rename);
        }
        if let Some(returned) = &mut self.result.returned {
            returned.place = returned.place.take().map(&mut rename);
        }
        let losses = &mut self.result.losses;
        for owned in &mut losses.owned {
            owned.var = rename(owned.var.clone());
        }
        for dropped in &mut losses.dropped {
            dropped.var = rename(dropped.var.clone());
            dropped.value.rename_fact_vars(&mut rename);
        }
        complete
    }
}

/// A variable with its expression id renumbered.
fn renumber_var(shift: &mut Shift, var: Var) -> Var {
    match var {
        Var::Temp(_) if var == RETURNED => var,
        Var::Temp(id) => Var::Temp(shift.expr_id(id)),
        other => other,
    }
}

/// Relocates a value held outside an [`Env`] (which renames the flags of its values itself):
/// its causes, and the temporaries its flags name.
fn relocate_held_value(shift: &mut Shift, value: &mut Value) {
    if shift.renumbers() {
        value.rename_fact_vars(&mut |var| renumber_var(shift, var));
    }
    relocate_value(shift, value);
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

/// The analyses one check may reuse and those it makes: the [`Runner`] of an incremental check.
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
    /// A memo holding `kept`, the relocated analyses of the last check.
    pub(crate) fn new(kept: Analyses) -> BodyMemo {
        BodyMemo {
            kept: RefCell::new(kept),
            ..BodyMemo::default()
        }
    }

    /// The kept analysis of the method at `ordinal` from `entry` in `pass`: one this check
    /// already noted, or one of the last check, which is then noted as made by this check too.
    fn reuse(&self, ordinal: usize, entry: &Env, pass: Pass) -> Option<BodyResult> {
        let matches = |a: &Analysis| a.pass == pass && a.entry == *entry;
        if let Some(made) = self.made.borrow().bodies.get(&ordinal) {
            if let Some(analysis) = made.iter().find(|a| matches(a)) {
                return Some(analysis.result.clone());
            }
        }
        let analysis = {
            let mut kept = self.kept.borrow_mut();
            let kept = kept.bodies.get_mut(&ordinal)?;
            let at = kept.iter().position(matches)?;
            kept.swap_remove(at)
        };
        self.reused.set(self.reused.get() + 1);
        let reused = analysis.result.clone();
        self.note(ordinal, analysis);
        Some(reused)
    }

    fn note(&self, ordinal: usize, analysis: Analysis) {
        let mut made = self.made.borrow_mut();
        let noted = made.bodies.entry(ordinal).or_default();
        if !noted
            .iter()
            .any(|a| a.pass == analysis.pass && a.entry == analysis.entry)
        {
            noted.push(analysis);
        }
    }

    /// How many analyses were reused, and the analyses of this check.
    pub(crate) fn finish(self) -> (usize, Analyses) {
        (self.reused.get(), self.made.into_inner())
    }
}

impl Runner for BodyMemo {
    /// Takes the place of each method body of `ir` (in [`relocate::methods`] order), and the
    /// locals `res` numbered: the kept analyses are reused only if the last check numbered
    /// them the same way, or after renaming those found again at the same place.
    fn start(&mut self, ir: &SourceIr, res: &Resolution) {
        let mut declarations: Vec<(usize, LocalId)> = res.declarations().collect();
        declarations.sort_unstable();
        let kept = self.kept.get_mut();
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
        self.ordinals = relocate::methods(ir)
            .iter()
            .enumerate()
            .filter_map(|(ordinal, method)| {
                Some((std::ptr::from_ref(method.body.as_ref()?), ordinal))
            })
            .collect();
        self.made.get_mut().declarations = declarations;
    }

    fn run<'a>(
        &self,
        shared: &Shared<'a, '_>,
        class: &str,
        body: &'a Body,
        entry: Env,
        pass: Pass,
    ) -> BodyResult {
        // Captured locals would be in entry states: then a body's result is not a function of
        // its code and entry state.
        let reusable = shared.captured.is_empty();
        let ordinal = self.ordinals.get(&std::ptr::from_ref(body)).copied();
        let Some(ordinal) = ordinal.filter(|_| reusable) else {
            return analyze_body(shared, class, body, entry, pass, 0);
        };
        if let Some(result) = self.reuse(ordinal, &entry, pass) {
            return result;
        }
        let result = analyze_body(shared, class, body, entry.clone(), pass, 0);
        if !shared.out_of_time() {
            self.note(
                ordinal,
                Analysis {
                    entry,
                    pass,
                    result: result.clone(),
                },
            );
        }
        result
    }
}
