//! Obligations: states an object must not be abandoned in, and the callins that end them.
//! They also say when the component owning the object must have called one of them.
//!
//! A `MediaRecorder` holds the microphone until `release()`; a `CountDownTimer` started and dropped
//! keeps ticking until `cancel()`.
//! An object dropped, overwritten or still held when its deadline comes while in one of an
//! obligation's states is a leak.

use crate::model::{CallinId, Origin, StateId, Typestate};

/// One obligation of a protocol (`obligation Running until cancel by onStop`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Obligation {
    /// The states the object must not be abandoned in.
    pub states: Vec<StateId>,
    /// The callins that discharge it: each leads from some of `states` to a state outside.
    pub until: Vec<CallinId>,
    /// The lifecycle callback of the owning component by which it must be discharged: then
    /// the obligation is the component's, and dropping the object is not a leak by it alone.
    /// Without one, dropping the object in `states` is a leak.
    pub by: Option<Deadline>,
    /// Whether the platform requires it or it is a convention.
    pub basis: Basis,
    /// Where the obligation comes from.
    pub origin: Origin,
}

/// A lifecycle callback of an Activity, Fragment or Service by which an obligation must be
/// discharged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Deadline {
    /// `onPause()`: the component leaves the foreground.
    Pause,
    /// `onStop()`: the component is no longer visible.
    Stop,
    /// `onDestroy()`: the component ends.
    Destroy,
}

impl Deadline {
    /// Every deadline, in lifecycle order.
    pub const ALL: [Deadline; 3] = [Deadline::Pause, Deadline::Stop, Deadline::Destroy];

    /// The callback's method name, as written in files.
    pub fn method(self) -> &'static str {
        match self {
            Deadline::Pause => "onPause",
            Deadline::Stop => "onStop",
            Deadline::Destroy => "onDestroy",
        }
    }

    /// The deadline named by a callback's method name.
    pub fn from_method(name: &str) -> Option<Deadline> {
        Deadline::ALL.into_iter().find(|d| d.method() == name)
    }
}

/// Why an obligation holds.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Basis {
    /// The platform documentation or source requires it: the object keeps a resource that
    /// others cannot get, or keeps running, until released.
    #[default]
    Required,
    /// Recommended practice that nothing enforces (a timer cancelled when the screen stops).
    Convention,
}

impl Typestate {
    /// The states some obligation says the object must not be abandoned in, sorted.
    pub fn obligated_states(&self) -> Vec<StateId> {
        let mut states: Vec<StateId> = self
            .obligations
            .iter()
            .flat_map(|o| o.states.iter().copied())
            .collect();
        states.sort_unstable();
        states.dedup();
        states
    }

    /// What is wrong with `obligation` in this typestate, if anything: a discharging callin
    /// that leads from none of its states to a state outside them discharges nothing.
    pub fn obligation_problem(&self, obligation: &Obligation) -> Option<String> {
        if obligation.states.is_empty() || obligation.until.is_empty() {
            return Some("an obligation names at least one state and one callin".to_owned());
        }
        obligation.until.iter().find_map(|&callin| {
            let discharges = obligation.states.iter().any(|&s| {
                self.step(s, callin)
                    .target()
                    .is_some_and(|t| !obligation.states.contains(&t))
            });
            (!discharges).then(|| {
                format!(
                    "`{}` leads from none of the obligation's states to a state outside them",
                    self.callin(callin).name
                )
            })
        })
    }
}
