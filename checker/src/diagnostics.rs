//! Violations as plain data, built from what the typestate analysis observed at each call.
//!
//! Diagnostic codes (stable, kebab-case):
//! - `typestate-violation`: a call the protocol forbids in a state the object may be in;
//!   *definite* when it is forbidden in every state reaching the call, *possible* otherwise.
//! - `ignored-call`: a call the protocol accepts but ignores in every state reaching it
//!   (`execute()` on a cancelled AsyncTask).
//! - `typestate-violation-handled`: a violation inside a `try` whose `catch` catches what the
//!   call throws: the developer expects it, so it is reported apart, at a lower severity.
//!
//! Each violation names the states and the exception the framework throws.
//! It names the calls that led the object there, as related locations, and what the protocol allows
//! instead.
//!
//! A restriction of the experiment that learned a protocol (`CALLIN restricted`) is no finding.
//! Nothing was run, so the call is unknown there, not forbidden.
//! After it, the path that took it forgets the object's state, as after a call of unknown effect.
//! The states other paths reach still count; a call that works narrows it again.

use std::collections::{BTreeMap, BTreeSet};

use typestates::model::{CallinId, Failure, StateId, Step, Typestate, WaitOutcome};

use crate::ir::Span;
use crate::places::Places;
use crate::protocols::Protocols;
use crate::typestate_flow::{Cause, Delivery, Observation, Value};

/// The kind of a finding.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum ViolationKind {
    /// The call fails on every path that reaches it.
    Definite,
    /// The call fails on some path.
    Possible,
    /// The call is accepted but has no effect.
    Ignored,
    /// The call may fail, but a `catch` around it catches what it throws.
    Handled,
}

impl ViolationKind {
    /// The stable diagnostic code.
    pub fn code(self) -> &'static str {
        match self {
            ViolationKind::Definite | ViolationKind::Possible => "typestate-violation",
            ViolationKind::Ignored => "ignored-call",
            ViolationKind::Handled => "typestate-violation-handled",
        }
    }

    /// The lowercase name used in test annotations and output (`definite`).
    pub fn name(self) -> &'static str {
        match self {
            ViolationKind::Definite => "definite",
            ViolationKind::Possible => "possible",
            ViolationKind::Ignored => "ignored",
            ViolationKind::Handled => "handled",
        }
    }
}

/// A location related to a violation, with what happened there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Related {
    /// Where.
    pub span: Span,
    /// What: "`release()` here moves it to End".
    pub label: String,
}

/// What a state of a protocol means, for the reader of a finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StateMeaning {
    /// The state's name (`Prepared`).
    pub state: String,
    /// The protocol's sentence for it.
    pub meaning: String,
}

/// One finding.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Violation {
    /// Definite, possible or ignored.
    pub kind: ViolationKind,
    /// Where: the called name (or the closed resource).
    pub span: Span,
    /// The protocol class, fully qualified.
    pub class: String,
    /// The called method (`start`).
    pub callin: String,
    /// The receiver as written (`player`).
    pub receiver: String,
    /// Every state the object may be in at the call.
    pub states: Vec<String>,
    /// The states in which the call fails (or is ignored).
    pub offending_states: Vec<String>,
    /// The exception the framework throws, fully qualified, when the library knows it.
    pub exception: Option<String>,
    /// The error callback the framework posts instead of throwing, fully qualified
    /// (`android.media.MediaPlayer.OnErrorListener.onError`): no `catch` handles it.
    pub posted: Option<String>,
    /// The calls and callbacks that led the object into the offending states.
    pub related: Vec<Related>,
    /// The methods the protocol allows in the offending states.
    pub allowed: Vec<String>,
    /// The callbacks that may arrive in the offending states.
    pub pending_callbacks: Vec<String>,
    /// What each offending state means, as the protocol describes it (states it does not
    /// describe are left out).
    pub meanings: Vec<StateMeaning>,
    /// The human-readable message.
    pub message: String,
    /// A fix the checker vouches for, where one is unambiguous and safe.
    pub fix: Option<Fix>,
}

/// A change of the source text that removes a violation.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Fix {
    /// What the fix does, as a menu title: "Start `player` in its `onPrepared` listener".
    pub title: String,
    /// The replacements, in source order, not overlapping.
    pub edits: Vec<FixEdit>,
}

/// Replace the text of `span` by `new_text` (an insertion when `span` is empty).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FixEdit {
    /// The replaced text.
    pub span: Span,
    /// The replacement.
    pub new_text: String,
}

/// An object that may be lost while an obligation of its protocol holds ([`crate::leaks`]):
/// a local at the end of the body that created it or on an exception path, a name
/// overwritten, a field of a component at a lifecycle deadline or at the end of its life.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unreleased {
    /// Where the object is lost (the overwriting assignment, the throwing call), or else where
    /// the name it was stored in is declared (or assigned).
    pub span: Span,
    /// The protocol class, fully qualified.
    pub class: String,
    /// The name holding the object (`player`).
    pub receiver: String,
    /// The states other than final ones the object may be left in.
    pub states: Vec<String>,
    /// Whether every path leaves the object unreleased.
    pub definite: bool,
    /// The calls that release it (`release`, `close`).
    pub releasing: Vec<String>,
    /// The human-readable message.
    pub message: String,
    /// The diagnostic code: `leak-method-end`, `leak-overwritten`, … ([`crate::leaks::LeakKind`]),
    /// or `never-released` for a protocol without obligations.
    pub code: &'static str,
    /// Whether the obligation is a convention rather than a requirement of the platform.
    pub convention: bool,
    /// How the object is lost.
    pub kind: crate::leaks::LeakKind,
    /// Where the name was given the object, when the finding is where it is lost; where it is
    /// lost (the end of the method, the lifecycle callback), when the finding is where it was
    /// given ([`crate::leak_fixes`]).
    pub related: Vec<Related>,
    /// A fix the checker vouches for: the release in the lifecycle callback, or a
    /// try-with-resources / `use {}` around a local ([`crate::leak_fixes`]).
    pub fix: Option<Fix>,
}

/// What a call does in one state: it fails only when every callin it may be is an error (a
/// restriction among them makes it unknown, which is not reported), and is ignored only when
/// each is ignored or an error.
enum Outcome<'t> {
    /// Fails, with how (when known), and whether every failing step is verified.
    Fails(Option<&'t Failure>, Verified),
    Ignored,
    Works,
}

/// Whether a failing step was confirmed: a transition the library marks `unverified` is a
/// claim nobody ran, so it never makes a finding definite.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Verified {
    Yes,
    No,
}

fn outcome<'t>(ts: &'t Typestate, state: StateId, callins: &[CallinId]) -> Outcome<'t> {
    let steps: Vec<&Step> = callins.iter().map(|c| ts.step(state, *c)).collect();
    if steps.iter().all(|s| matches!(s, Step::Error { .. })) {
        let failure = steps.iter().find_map(|s| match s {
            Step::Error { failure, .. } if *failure != Failure::Throws(None) => Some(failure),
            Step::Error { .. } | Step::Enabled { .. } | Step::Restricted { .. } => None,
        });
        let verified = if steps.iter().any(|s| s.origin().unverified) {
            Verified::No
        } else {
            Verified::Yes
        };
        return Outcome::Fails(failure, verified);
    }
    let ignored = steps
        .iter()
        .all(|s| matches!(s, Step::Enabled { ignored: true, .. } | Step::Error { .. }));
    if ignored {
        Outcome::Ignored
    } else {
        Outcome::Works
    }
}

/// The violations of the observations `merged` per call site ([`merge`]), in source order.
pub fn violations(
    protocols: &Protocols<'_>,
    places: &Places<'_>,
    text: &str,
    merged: &[Observation],
) -> Vec<Violation> {
    merged
        .iter()
        .filter_map(|observation| violation(protocols, places, text, observation))
        .collect()
}

/// One observation per call site, with the union of the values seen there.
/// A helper's call site is observed once per calling context, and the callers' `catch`es
/// differ between them: what every context catches is caught.
pub fn merge(observations: Vec<Observation>) -> Vec<Observation> {
    let mut by_site: BTreeMap<(usize, usize), Observation> = BTreeMap::new();
    for observation in observations {
        let key = (observation.span.start_byte, observation.span.end_byte);
        match by_site.get_mut(&key) {
            Some(existing) if existing.value.protocol == observation.value.protocol => {
                existing.value.join(&observation.value);
                existing.guarded |= observation.guarded;
                existing.delivery = existing.delivery.join(observation.delivery);
                existing.caught = caught_by_both(&existing.caught, &observation.caught);
            }
            Some(_) => {}
            None => {
                by_site.insert(key, observation);
            }
        }
    }
    by_site.into_values().collect()
}

fn violation(
    protocols: &Protocols<'_>,
    places: &Places<'_>,
    text: &str,
    observation: &Observation,
) -> Option<Violation> {
    let value = &observation.value;
    // An object of unknown origin says nothing; one whose state a call of unknown effect made
    // some path forget still has the states the other paths reach.
    if observation.callins.is_empty()
        || value.unknown && !value.forgotten
        || value.states.is_empty()
    {
        return None;
    }
    let ts = protocols.typestate(value.protocol);
    let mut failing = Vec::new();
    let mut ignored = Vec::new();
    let mut exception = None;
    let mut posted = None;
    let mut failures = Vec::new();
    let mut all_verified = true;
    for &state in value.states.keys() {
        match outcome(ts, state, &observation.callins) {
            // The error it posts can never arrive: nothing observable goes wrong.
            Outcome::Fails(Some(Failure::Posts(_)), _)
                if observation.delivery == Delivery::EndedFirst => {}
            Outcome::Fails(failure, verified) => {
                exception = exception.or(failure.and_then(Failure::exception));
                posted = posted.or(failure.and_then(Failure::posted));
                failures.push(failure);
                all_verified &= verified == Verified::Yes;
                failing.push(state);
            }
            Outcome::Ignored => ignored.push(state),
            Outcome::Works => {}
        }
    }
    let (kind, offending) = if !failing.is_empty() {
        // Narrowed from nothing known, a call that fails in only some of the states the
        // earlier calls allow, or in states the object may not be in at all (it is still
        // partly unknown), proves nothing: the object may well be in the others.
        if (failing.len() < value.states.len() || value.unknown)
            && failing.iter().all(|state| value.guessed.contains(state))
        {
            return None;
        }
        // A posted error callback is no exception: no `catch` handles it.
        let handled = failures.iter().all(|failure| match failure {
            Some(Failure::Posts(_)) => false,
            Some(Failure::Throws(thrown)) => is_caught(&observation.caught, thrown.as_deref()),
            None => is_caught(&observation.caught, None),
        });
        let kind = if handled {
            ViolationKind::Handled
        } else if failing.len() == value.states.len()
            && !value.approximate
            && !observation.guarded
            && all_verified
        {
            // Definite only when every path reaches the call in a failing state through
            // nothing approximated, under no condition the analysis did not use, and each
            // failing step is one somebody ran.
            ViolationKind::Definite
        } else {
            ViolationKind::Possible
        };
        (kind, failing)
    } else if ignored.len() == value.states.len() {
        (ViolationKind::Ignored, ignored)
    } else {
        return None;
    };
    let related = related(ts, places, text, value, &offending);
    let (allowed, pending_callbacks) = hint(ts, &offending);
    let state_names = |states: &[StateId]| -> Vec<String> {
        states.iter().map(|s| ts.state(*s).name.clone()).collect()
    };
    let mut violation = Violation {
        kind,
        span: observation.span,
        class: ts.class.clone(),
        callin: observation.method.clone(),
        receiver: observation.receiver.clone(),
        states: state_names(&value.states.keys().copied().collect::<Vec<_>>()),
        offending_states: state_names(&offending),
        exception: exception.map(str::to_owned),
        posted: posted.map(|posted| posted.callback.clone()),
        related,
        allowed,
        pending_callbacks,
        meanings: offending
            .iter()
            .filter_map(|&s| {
                let state = ts.state(s);
                Some(StateMeaning {
                    state: state.name.clone(),
                    meaning: state.description.clone()?,
                })
            })
            .collect(),
        message: String::new(),
        fix: None,
    };
    let why = if protocols.is_derived(value.protocol) {
        inside(ts, &offending, &observation.callins)
    } else {
        String::new()
    };
    violation.message = message(ts, places, value, &offending, &violation, &why);
    Some(violation)
}

/// What fails inside a wrapper whose protocol the checker derived ([`crate::wrappers`]): the
/// failing steps' reasons name the wrapper's method, the field call and the field's states.
fn inside(ts: &Typestate, offending: &[StateId], callins: &[CallinId]) -> String {
    let mut reasons: Vec<&str> = Vec::new();
    for &state in offending {
        for &callin in callins {
            if let Step::Error { origin, .. } = ts.step(state, callin) {
                if let Some(reason) = origin.source.as_deref() {
                    if !reasons.contains(&reason) {
                        reasons.push(reason);
                    }
                }
            }
        }
    }
    if reasons.is_empty() {
        String::new()
    } else {
        format!(" ({})", reasons.join("; "))
    }
}

/// Direct supertypes of the exceptions the library's protocols throw, by simple name.
const EXCEPTION_SUPERTYPES: &[(&str, &str)] = &[
    ("IllegalStateException", "RuntimeException"),
    ("NoSuchElementException", "RuntimeException"),
    ("IllegalArgumentException", "RuntimeException"),
    ("UnsupportedOperationException", "RuntimeException"),
    ("SQLiteException", "SQLException"),
    ("FileNotFoundException", "IOException"),
    ("IOException", "Exception"),
    ("GeneralSecurityException", "Exception"),
    ("IllegalBlockSizeException", "GeneralSecurityException"),
    ("BadPaddingException", "GeneralSecurityException"),
    ("RuntimeException", "Exception"),
    ("Exception", "Throwable"),
];

/// What `catch`es of `a` and `catch`es of `b` both catch (simple names): each type of one
/// that the other catches too (`IOException` of `Exception` and `IOException`).
pub(crate) fn caught_by_both(a: &[String], b: &[String]) -> Vec<String> {
    let mut both: Vec<String> = a
        .iter()
        .filter(|t| is_caught(b, Some(t.as_str())))
        .cloned()
        .collect();
    for t in b.iter().filter(|t| is_caught(a, Some(t.as_str()))) {
        if !both.contains(t) {
            both.push(t.clone());
        }
    }
    both
}

/// Whether a `catch` of one of `caught` (simple names) catches `thrown` (fully qualified);
/// an exception the library does not name is taken to be a `RuntimeException`.
fn is_caught(caught: &[String], thrown: Option<&str>) -> bool {
    let mut current = thrown.map_or("RuntimeException", |name| {
        name.rsplit('.').next().unwrap_or(name)
    });
    loop {
        if caught.iter().any(|c| c == current) {
            return true;
        }
        match EXCEPTION_SUPERTYPES.iter().find(|(sub, _)| *sub == current) {
            Some((_, sup)) => current = sup,
            None => return false,
        }
    }
}

/// The causes of the offending states, as related locations.
fn related(
    ts: &Typestate,
    places: &Places<'_>,
    text: &str,
    value: &Value,
    offending: &[StateId],
) -> Vec<Related> {
    let mut out: Vec<Related> = Vec::new();
    for state in offending {
        let name = &ts.state(*state).name;
        for cause in value.states.get(state).into_iter().flatten() {
            let (span, label) = match cause {
                Cause::Call(id) => {
                    let Some(site) = places.sites.get(id) else {
                        continue;
                    };
                    let label = if site.is_new {
                        format!("`new {}()` here creates it in {name}", site.name)
                    } else {
                        let verb = if ts.creators().next().is_some()
                            && ts.creators().any(|c| {
                                ts.callin(c)
                                    .binding
                                    .methods
                                    .iter()
                                    .any(|m| m.name == site.name)
                            }) {
                            "creates it in"
                        } else {
                            "moves it to"
                        };
                        format!("`{}()` here {verb} {name}", site.name)
                    };
                    (site.span, label)
                }
                Cause::Closed(start, end) => {
                    let Some(span) = span_of(text, *start, *end) else {
                        continue;
                    };
                    (span, format!("closed here at the end of `try`, in {name}"))
                }
                Cause::Callback(_) | Cause::Quiet => continue,
            };
            if !out.iter().any(|r| r.span == span && r.label == label) {
                out.push(Related { span, label });
            }
        }
    }
    out
}

/// The span of the bytes `start..end` of `text`, with lines and columns.
pub fn span_of(text: &str, start: usize, end: usize) -> Option<Span> {
    text.get(..start)?;
    text.get(..end)?;
    let starts = crate::ir::line_starts(text);
    Some(Span {
        start_byte: start,
        end_byte: end,
        start: crate::ir::position(&starts, start),
        end: crate::ir::position(&starts, end),
    })
}

/// The Java methods allowed in every one of `states` (so the advice holds whichever the
/// object is in; observers, which only ask, are left out), and the callbacks that may arrive
/// in any of them.
fn hint(ts: &Typestate, states: &[StateId]) -> (Vec<String>, Vec<String>) {
    let mut allowed: Option<BTreeSet<String>> = None;
    let mut callbacks = BTreeSet::new();
    for &state in states {
        let mut here = BTreeSet::new();
        for callin in ts.input_callins() {
            if ts.callin(callin).binding.returns.is_some() {
                continue;
            }
            if let Step::Enabled { ignored: false, .. } = ts.step(state, callin) {
                for method in &ts.callin(callin).binding.methods {
                    here.insert(method.name.clone());
                }
            }
        }
        allowed = Some(match allowed {
            Some(before) => before.intersection(&here).cloned().collect(),
            None => here,
        });
        if let WaitOutcome::Callback { callback, .. } = &ts.state(state).on_wait {
            callbacks.insert(ts.callback(*callback).binding.method().to_owned());
        }
    }
    (
        allowed.unwrap_or_default().into_iter().collect(),
        callbacks.into_iter().collect(),
    )
}

/// Why the object may be in `state`, for the message: "after `release()` in onStop".
fn reason(ts: &Typestate, places: &Places<'_>, value: &Value, state: StateId) -> Option<String> {
    let cause = value.states.get(&state)?.first()?;
    Some(match cause {
        Cause::Call(id) => {
            let site = places.sites.get(id)?;
            let call = if site.is_new {
                format!("`new {}()`", site.name)
            } else {
                format!("`{}()`", site.name)
            };
            match &site.method {
                Some(method) => format!("after {call} in {method}"),
                None => format!("after {call}"),
            }
        }
        Cause::Closed(..) => "closed by its `try`".to_owned(),
        Cause::Callback(callback) => {
            format!("after {}()", ts.callback(*callback).binding.method())
        }
        Cause::Quiet => "after time passes".to_owned(),
    })
}

/// `why` follows what the call does: what fails inside a wrapper ([`inside`]), or nothing.
fn message(
    ts: &Typestate,
    places: &Places<'_>,
    value: &Value,
    offending: &[StateId],
    v: &Violation,
    why: &str,
) -> String {
    let states = offending
        .iter()
        .map(|&s| {
            let name = &ts.state(s).name;
            match reason(ts, places, value, s) {
                Some(reason) => format!("{name} ({reason})"),
                None => name.clone(),
            }
        })
        .collect::<Vec<_>>()
        .join(" or ");
    let call = format!("`{}()` on {} `{}`", v.callin, ts.simple_name(), v.receiver);
    let simple = |name: &str| name.rsplit('.').next().unwrap_or(name).to_owned();
    let effect = match (&v.exception, &v.posted) {
        (Some(exception), None) => format!("throws {}", simple(exception)),
        (Some(exception), Some(posted)) => {
            format!("throws {} or posts {}()", simple(exception), simple(posted))
        }
        (None, Some(posted)) => format!("posts the error callback {}()", simple(posted)),
        (None, None) => "is not allowed".to_owned(),
    };
    let effect = format!("{effect}{why}");
    let mut hint = String::new();
    if !v.allowed.is_empty() {
        hint.push_str(&format!("; allowed here: {}", v.allowed.join(", ")));
    }
    if !v.pending_callbacks.is_empty() {
        let callbacks: Vec<String> = v
            .pending_callbacks
            .iter()
            .map(|c| format!("{c}()"))
            .collect();
        hint.push_str(&format!("; wait for {}", callbacks.join(" or ")));
    }
    match v.kind {
        ViolationKind::Definite => format!("{call} in state {states} {effect}{hint}"),
        ViolationKind::Possible => {
            format!("{call} may be in state {states}, where it {effect}{hint}")
        }
        ViolationKind::Ignored => format!("{call} in state {states} is ignored"),
        ViolationKind::Handled => format!(
            "{call} may be in state {states}, where it {effect}; a `catch` handles it{hint}"
        ),
    }
}
