//! The listeners registered on one tracked object ([`crate::typestate_flow::ValueData::listeners`]).
//!
//! They are kept by registering method (`setOnPreparedListener`): a `set…` call replaces the
//! method's listeners at once.
//! Each method keeps one [`Registered`] for whichever listener it registered.
//! So a callback runs a listener only where one is registered on every path.
//! It also keeps the states each registering call's listener may be registered in ([`Sites`]).
//! The calls are grouped by those states.
//! A move of the object maps each group once, and a join walks the calls of the smaller side only.
//! So a body with many registrations costs what changed.

use std::collections::BTreeSet;

use typestates::model::StateId;

use crate::ir::ExprId;

/// A move of the object from one state to another (a call, a callback or a quiet move).
pub type Move = (StateId, StateId);

/// The listeners one registering method registered on an object.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Registrations {
    /// Whichever listener the method registered: where it is registered on every path, the
    /// callbacks it listens to run a listener.
    pub any: Registered,
    /// The listener of each registering call, with the states in which it may be registered.
    pub sites: Sites,
}

impl Registrations {
    /// The call `site` registered a listener in `states`, on every path.
    pub fn registered(&mut self, site: ExprId, states: BTreeSet<StateId>) {
        self.sites.insert(site, states.clone());
        self.any = Registered {
            with: states,
            ..Registered::default()
        };
    }

    /// The registrations after the object took `moves`, where only they were taken.
    pub fn after_moves(&self, moves: &[Move]) -> Registrations {
        let mut any = Registered {
            without_any: self.any.without_any,
            ..Registered::default()
        };
        for &(source, target) in moves {
            self.any.follow(source, target, &mut any);
        }
        Registrations {
            any: any.normalised(),
            sites: self.sites.map(|with| image(with, moves)),
        }
    }

    /// The registrations after the object may also have taken `moves`.
    pub fn also_after_moves(&self, moves: &[Move]) -> Registrations {
        let mut any = self.any.clone();
        for &(source, target) in moves {
            self.any.follow(source, target, &mut any);
        }
        Registrations {
            any: any.normalised(),
            sites: self.sites.map(|with| {
                let mut grown = with.clone();
                grown.extend(image(with, moves));
                grown
            }),
        }
    }
}

/// The states `moves` lead to from `states`.
fn image(states: &BTreeSet<StateId>, moves: &[Move]) -> BTreeSet<StateId> {
    moves
        .iter()
        .filter(|(source, _)| states.contains(source))
        .map(|&(_, target)| target)
        .collect()
}

/// In which states of its object a listener is registered, path by path: a state is reached
/// with the listener registered on every path, on some paths, or on none.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Registered {
    /// The states some path reaches with the listener registered.
    pub with: BTreeSet<StateId>,
    /// The states of `with` some other path reaches without it.
    pub without: BTreeSet<StateId>,
    /// Whether a path of unknown origin may reach any state without it.
    pub without_any: bool,
}

impl Registered {
    /// Whether every path that reaches `state` registered the listener.
    pub fn on_every_path(&self, state: StateId) -> bool {
        self.with.contains(&state) && !self.without.contains(&state) && !self.without_any
    }

    /// Notes that a move from `source` (of this registration) reaches `target`.
    fn follow(&self, source: StateId, target: StateId, into: &mut Registered) {
        if self.with.contains(&source) {
            into.with.insert(target);
        }
        if !self.on_every_path(source) {
            into.without.insert(target);
        }
    }

    /// Drops the states `without` holds that are not in `with` (they say nothing).
    pub fn normalised(mut self) -> Registered {
        let with = &self.with;
        self.without.retain(|s| with.contains(s));
        self
    }
}

/// The registering calls of one method whose listener some path registered, each with the states
/// in which it may be registered, grouped by those states.
/// A call with no state stays: some path registered it, but no state is reached with it.
#[derive(Debug, Clone, Default, PartialEq, Eq, Hash)]
pub struct Sites {
    groups: imbl::OrdMap<BTreeSet<StateId>, imbl::OrdSet<ExprId>>,
}

impl Sites {
    /// The states in which the listener of the call `site` may be registered, if some path
    /// registered it.
    pub fn get(&self, site: ExprId) -> Option<&BTreeSet<StateId>> {
        self.groups
            .iter()
            .find(|(_, sites)| sites.contains(&site))
            .map(|(with, _)| with)
    }

    /// Notes that the listener of `site` may be registered in `with` (and nowhere else).
    pub fn insert(&mut self, site: ExprId, with: BTreeSet<StateId>) {
        self.remove(site);
        self.add(imbl::OrdSet::unit(site), with);
    }

    /// How many calls registered a listener.
    fn len(&self) -> usize {
        self.groups.values().map(imbl::OrdSet::len).sum()
    }

    /// Forgets the call `site`; returns the states it had.
    fn remove(&mut self, site: ExprId) -> Option<BTreeSet<StateId>> {
        let with = self.get(site)?.clone();
        let sites = self.groups.get_mut(&with)?;
        sites.remove(&site);
        if sites.is_empty() {
            self.groups.remove(&with);
        }
        Some(with)
    }

    /// Adds calls none of which is here yet, all registered in `with`.
    fn add(&mut self, sites: imbl::OrdSet<ExprId>, with: BTreeSet<StateId>) {
        let joined = match self.groups.remove(&with) {
            Some(here) => here.union(sites),
            None => sites,
        };
        self.groups.insert(with, joined);
    }

    /// The calls with their states changed by `f`, one group at a time.
    fn map(&self, f: impl Fn(&BTreeSet<StateId>) -> BTreeSet<StateId>) -> Sites {
        let mut out = Sites::default();
        for (with, sites) in &self.groups {
            out.add(sites.clone(), f(with));
        }
        out
    }

    /// Joins the calls of another path: each call may be registered where either path may have
    /// registered it. Walks the calls of the smaller side only; returns whether `self` changed.
    pub fn join(&mut self, other: &Sites) -> bool {
        if self.groups.ptr_eq(&other.groups) || *self == *other {
            return false;
        }
        let (mut into, from) = if self.len() >= other.len() {
            (self.clone(), other)
        } else {
            (other.clone(), &*self)
        };
        for (with, sites) in &from.groups {
            for &site in sites {
                let mut joined = with.clone();
                joined.extend(into.remove(site).unwrap_or_default());
                into.add(imbl::OrdSet::unit(site), joined);
            }
        }
        let changed = into != *self;
        *self = into;
        changed
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn states(ids: &[u32]) -> BTreeSet<StateId> {
        ids.iter().map(|&id| StateId(id)).collect()
    }

    /// The sites as a plain map, one entry per call, to compare with a per-call model.
    fn plain(sites: &Sites) -> std::collections::BTreeMap<ExprId, BTreeSet<StateId>> {
        let mut out = std::collections::BTreeMap::new();
        for (with, calls) in &sites.groups {
            for &call in calls {
                assert!(out.insert(call, with.clone()).is_none(), "{call:?} twice");
            }
        }
        out
    }

    #[test]
    fn sites_join_and_move_as_a_map_of_calls_would() {
        let mut here = Sites::default();
        here.insert(ExprId(1), states(&[0]));
        here.insert(ExprId(2), states(&[0]));
        here.insert(ExprId(3), states(&[]));
        let mut there = Sites::default();
        there.insert(ExprId(2), states(&[1]));
        there.insert(ExprId(4), states(&[0]));
        let expected: std::collections::BTreeMap<_, _> = [
            (ExprId(1), states(&[0])),
            (ExprId(2), states(&[0, 1])),
            (ExprId(3), states(&[])),
            (ExprId(4), states(&[0])),
        ]
        .into_iter()
        .collect();
        for (mut into, from) in [(here.clone(), &there), (there.clone(), &here)] {
            assert!(into.join(from));
            assert_eq!(plain(&into), expected);
            assert!(!into.join(&into.clone()));
        }
        here.join(&there);
        let moved = here.map(|with| image(with, &[(StateId(0), StateId(2))]));
        let expected: std::collections::BTreeMap<_, _> = [
            (ExprId(1), states(&[2])),
            (ExprId(2), states(&[2])),
            (ExprId(3), states(&[])),
            (ExprId(4), states(&[2])),
        ]
        .into_iter()
        .collect();
        assert_eq!(plain(&moved), expected);
        assert_eq!(moved.groups.len(), 2, "equal states share a group");
        assert_eq!(moved.get(ExprId(4)), Some(&states(&[2])));
        assert_eq!(moved.get(ExprId(5)), None);
    }
}
