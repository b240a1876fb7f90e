//! Parses the text format into a [`Typestate`], reporting every error with file:line:col.
//!
//! Parsing runs in two passes.
//! The first reads each line into a declaration with the positions of its names.
//! A malformed line is reported and skipped, so one run shows all syntax errors.
//! The second resolves names (states, callins, callbacks) and checks the automaton is
//! deterministic, again collecting every error.

use std::collections::HashMap;

use super::lexer::{lex_line, Spanned, Token};
use super::{is_posted_callback, Diagnostic, RESERVED};
use crate::binding::{Answer, CallbackBinding, CallinBinding, MethodKind, MethodRef, Params};
use crate::levels::ApiLevels;
use crate::model::{
    Callback, Callin, CallinId, Event, Example, Exclusion, Failure, LevelStep, Origin, PostedError,
    State, StateId, Step, Steps, Typestate, WaitOutcome,
};
use crate::obligation::{Basis, Deadline, Obligation};
use crate::provenance::{Backend, Code, LearningRun, LearningStats, Provenance, ProvenanceKind};

/// After this many errors the reader stops: a file that bad is not a typestate, and one
/// error per line of a large file would take gigabytes.
pub const MAX_ERRORS: usize = 100;

/// Parses `text`, read from `path`, into a typestate, or returns every error found (at most
/// [`MAX_ERRORS`], then one that says where reading stopped).
pub fn parse(path: &str, text: &str) -> Result<Typestate, Vec<Diagnostic>> {
    let mut reader = Reader {
        path,
        errors: Vec::new(),
        file: RawFile::default(),
    };
    for (index, line) in text.lines().enumerate() {
        if reader.errors.len() >= MAX_ERRORS {
            let mut errors = reader.errors;
            errors.sort_by_key(|e| (e.line, e.col));
            errors.push(Diagnostic::new(
                path,
                index + 1,
                1,
                format!("more than {MAX_ERRORS} errors: the rest of the file was not read"),
            ));
            return Err(errors);
        }
        reader.line(index + 1, line);
    }
    let Reader {
        mut errors, file, ..
    } = reader;
    let typestate = Resolver {
        path,
        errors: &mut errors,
    }
    .resolve(file, text.lines().count().max(1));
    match typestate {
        Some(typestate) if errors.is_empty() => Ok(typestate),
        _ => {
            errors.sort_by_key(|e| (e.line, e.col));
            Err(errors)
        }
    }
}

/// A name with the place it was written.
#[derive(Clone, Debug)]
struct Name {
    text: String,
    line: usize,
    col: usize,
}

#[derive(Default)]
struct RawFile {
    class: Option<Name>,
    summary: Option<String>,
    provenance: Provenance,
    notes: Vec<String>,
    callins: Vec<RawCallin>,
    callbacks: Vec<RawCallback>,
    harmless: Vec<MethodRef>,
    excluded: Vec<Exclusion>,
    states: Vec<RawState>,
    obligations: Vec<RawObligation>,
    examples: Vec<RawExample>,
}

struct RawObligation {
    keyword: Name,
    states: Vec<Name>,
    until: Vec<Name>,
    by: Option<Deadline>,
    basis: Basis,
    origin: Origin,
}

struct RawCallin {
    name: Name,
    methods: Vec<MethodRef>,
    condition: Option<String>,
    returns: Option<Answer>,
    creates: Option<Name>,
}

struct RawCallback {
    name: Name,
    binding: CallbackBinding,
    register: Option<Name>,
    condition: Option<String>,
}

struct RawState {
    name: Name,
    initial: bool,
    description: Option<String>,
    transitions: Vec<RawTransition>,
}

struct RawTransition {
    trigger: Trigger,
    effect: RawEffect,
    levels: Option<(ApiLevels, Name)>,
    origin: Origin,
}

enum Trigger {
    Callin(Name),
    Callback(Name),
    Quiet(Name),
    Fails(Name),
    Wait(Name),
}

enum RawEffect {
    Goto { target: Name, ignored: bool },
    Error { failure: Failure },
    Fail,
    Restricted,
}

struct RawExample {
    accepted: bool,
    events: Vec<Name>,
}

/// The first pass: reads lines into [`RawFile`].
struct Reader<'a> {
    path: &'a str,
    errors: Vec<Diagnostic>,
    file: RawFile,
}

impl Reader<'_> {
    fn line(&mut self, line: usize, text: &str) {
        let (tokens, lex_errors) = lex_line(text);
        // A line with a lexical error reports only that: what the parser would say about the
        // same line usually follows from the typo.
        let clean = lex_errors.is_empty();
        for err in lex_errors {
            self.errors
                .push(Diagnostic::new(self.path, line, err.col, err.message));
        }
        if tokens.is_empty() {
            return;
        }
        let end_col = text.chars().count() + 1;
        let mut cursor = Cursor {
            tokens: &tokens,
            next: 0,
            line,
            end_col,
        };
        let result = self.declaration(&mut cursor).and_then(|()| cursor.end());
        if let (Err((col, message)), true) = (result, clean) {
            self.errors
                .push(Diagnostic::new(self.path, line, col, message));
        }
    }

    fn declaration(&mut self, cursor: &mut Cursor) -> Result<(), (usize, String)> {
        let keyword = cursor.word("a declaration (`typestate`, `callin`, `callback`, `state`, a transition, `accept` or `reject`)")?;
        match keyword.text.as_str() {
            "typestate" => {
                let class = cursor.word("the fully qualified class name")?;
                if self.file.class.is_some() {
                    return Err((
                        keyword.col,
                        "a file describes one class: `typestate` appears twice".to_owned(),
                    ));
                }
                self.file.class = Some(class);
            }
            "summary" => self.file.summary = Some(cursor.string("the summary as a string")?),
            "note" => self.file.notes.push(cursor.string("the note as a string")?),
            "source" => self
                .file
                .provenance
                .sources
                .push(cursor.string("the source as a string")?),
            "platform" => {
                self.file.provenance.platform = Some(cursor.string("the platform as a string")?)
            }
            "provenance" => {
                self.file.provenance.kind = one_of(
                    cursor,
                    "`learned`, `droidstar` or `documented`",
                    ProvenanceKind::from_keyword,
                )?;
            }
            "stats" => self.file.provenance.stats = Some(stats(cursor)?),
            // `run` is also a common symbol name (`run -> Done`): only `run KEY=…` is the header.
            "run" if cursor.peek_property() => self.file.provenance.run = Some(run(cursor)?),
            "callin" => {
                let callin = callin(cursor)?;
                self.file.callins.push(callin);
            }
            "callback" => {
                let callback = callback(cursor)?;
                self.file.callbacks.push(callback);
            }
            "harmless" => {
                cursor.expect(Token::Colon, "`:` after `harmless`")?;
                self.file.harmless.push(method_ref(cursor)?);
                while cursor.eat(&Token::Bar) {
                    self.file.harmless.push(method_ref(cursor)?);
                }
            }
            "excluded" => {
                cursor.expect(Token::Colon, "`:` after `excluded`")?;
                let mut methods = vec![method_ref(cursor)?];
                while cursor.eat(&Token::Bar) {
                    methods.push(method_ref(cursor)?);
                }
                if !cursor.eat_word("because") {
                    return Err(cursor.error("`because \"reason\"` after the methods"));
                }
                let reason = cursor.string("the reason as a string")?;
                self.file.excluded.push(Exclusion { methods, reason });
            }
            "obligation" => {
                let obligation = obligation(keyword, cursor)?;
                self.file.obligations.push(obligation);
            }
            "state" => {
                let name = cursor.word("the state name")?;
                let mut state = RawState {
                    name,
                    initial: false,
                    description: None,
                    transitions: Vec::new(),
                };
                if cursor.eat_word("initial") {
                    state.initial = true;
                }
                if cursor.peek_is_string() {
                    state.description = Some(cursor.string("the description")?);
                }
                self.file.states.push(state);
            }
            "accept" | "reject" => {
                cursor.expect(Token::Colon, "`:` after `accept` or `reject`")?;
                let mut events = Vec::new();
                while !cursor.at_end() {
                    events.push(cursor.word("a callin, callback or `quiet`")?);
                }
                self.file.examples.push(RawExample {
                    accepted: keyword.text == "accept",
                    events,
                });
            }
            _ => {
                let transition = transition(keyword, cursor)?;
                let state = self.file.states.last_mut().ok_or((
                    transition_col(&transition),
                    "transition outside a state: write `state NAME` before it".to_owned(),
                ))?;
                state.transitions.push(transition);
            }
        }
        Ok(())
    }
}

/// `obligation STATE { | STATE } until CALLIN { | CALLIN } [by CALLBACK] [convention]`, then
/// the origin.
fn obligation(keyword: Name, cursor: &mut Cursor) -> Result<RawObligation, (usize, String)> {
    let mut states = vec![cursor.word("a state the object must not be abandoned in")?];
    while cursor.eat(&Token::Bar) {
        states.push(cursor.word("a state after `|`")?);
    }
    if !cursor.eat_word("until") {
        return Err(cursor.error("`until` and the callins that discharge the obligation"));
    }
    let mut until = vec![cursor.word("a callin that discharges the obligation")?];
    while cursor.eat(&Token::Bar) {
        until.push(cursor.word("a callin after `|`")?);
    }
    let by = if cursor.eat_word("by") {
        let callback = cursor.word("`onPause`, `onStop` or `onDestroy` after `by`")?;
        let deadline = Deadline::from_method(&callback.text).ok_or((
            callback.col,
            format!(
                "expected `onPause`, `onStop` or `onDestroy` after `by`, found `{}`",
                callback.text
            ),
        ))?;
        Some(deadline)
    } else {
        None
    };
    let basis = if cursor.eat_word("convention") {
        Basis::Convention
    } else {
        Basis::Required
    };
    Ok(RawObligation {
        keyword,
        states,
        until,
        by,
        basis,
        origin: origin(cursor)?,
    })
}

/// `[from "citation"] [unverified]` at the end of a line.
fn origin(cursor: &mut Cursor) -> Result<Origin, (usize, String)> {
    let mut origin = Origin::default();
    if cursor.eat_word("from") {
        origin.source = Some(cursor.string("the source as a string")?);
    }
    if cursor.eat_word("unverified") {
        origin.unverified = true;
    }
    Ok(origin)
}

fn transition_col(transition: &RawTransition) -> usize {
    match &transition.trigger {
        Trigger::Callin(n)
        | Trigger::Callback(n)
        | Trigger::Quiet(n)
        | Trigger::Fails(n)
        | Trigger::Wait(n) => n.col,
    }
}

/// The next word, read by `parse`; else an error saying what was `expected` and what was found.
fn one_of<T>(
    cursor: &mut Cursor,
    expected: &str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<T, (usize, String)> {
    let word = cursor.word(expected)?;
    parse(&word.text).ok_or((
        word.col,
        format!("expected {expected}, found `{}`", word.text),
    ))
}

/// `run backend=robolectric sdk=34 code=real date="2026-11-25"`
fn run(cursor: &mut Cursor) -> Result<LearningRun, (usize, String)> {
    let mut backend = None;
    let mut run = LearningRun {
        backend: Backend::Jvm,
        sdk: None,
        code: None,
        date: None,
    };
    let start = cursor.found().0;
    while !cursor.at_end() {
        let key = cursor.word("a property of the run (`backend`, `sdk`, `code`, `date`)")?;
        cursor.expect(Token::Equals, "`=` after the property's name")?;
        match key.text.as_str() {
            "backend" => {
                backend = Some(one_of(
                    cursor,
                    "`jvm` or `robolectric`",
                    Backend::from_keyword,
                )?)
            }
            "sdk" => {
                run.sdk = Some(one_of(cursor, "the SDK level as a number", |it| {
                    it.parse().ok()
                })?)
            }
            "code" => {
                run.code = Some(one_of(
                    cursor,
                    "`real`, `calls_through` or `simulated`",
                    Code::from_keyword,
                )?)
            }
            "date" => run.date = Some(cursor.string("the date as a string, \"YYYY-MM-DD\"")?),
            other => {
                return Err((
                    key.col,
                    format!(
                        "unknown property `{other}` of the run (expected `backend`, `sdk`, `code` or `date`)"
                    ),
                ))
            }
        }
    }
    run.backend = backend.ok_or((start, "the run names no `backend=`".to_owned()))?;
    Ok(run)
}

/// `stats states=8 time_ms=248000 mq_asked=1512 mq_executed=721 eq=1 bound=2`
fn stats(cursor: &mut Cursor) -> Result<LearningStats, (usize, String)> {
    let mut stats = LearningStats::default();
    while !cursor.at_end() {
        let key = cursor
            .word("a statistic (`states`, `time_ms`, `mq_asked`, `mq_executed`, `eq`, `bound`)")?;
        cursor.expect(Token::Equals, "`=` after the statistic's name")?;
        let value = cursor.word("a number")?;
        let number: u64 = value.text.parse().map_err(|_| {
            (
                value.col,
                format!("expected a number, found `{}`", value.text),
            )
        })?;
        let small =
            || u32::try_from(number).map_err(|_| (value.col, "number too large".to_owned()));
        match key.text.as_str() {
            "states" => stats.states = small()?,
            "time_ms" => stats.time_ms = number,
            "mq_asked" => stats.mq_asked = number,
            "mq_executed" => stats.mq_executed = number,
            "eq" => stats.eq = small()?,
            "bound" => stats.distinguisher_bound = Some(small()?),
            other => {
                return Err((
                    key.col,
                    format!("unknown statistic `{other}` (expected `states`, `time_ms`, `mq_asked`, `mq_executed`, `eq` or `bound`)"),
                ))
            }
        }
    }
    Ok(stats)
}

/// `callin NAME: METHOD (| METHOD)* [returns ANSWER] [when "condition"] [creates STATE]`
fn callin(cursor: &mut Cursor) -> Result<RawCallin, (usize, String)> {
    let name = cursor.word("the callin's name")?;
    cursor.expect(Token::Colon, "`:` after the callin's name")?;
    let mut methods = vec![method_ref(cursor)?];
    while cursor.eat(&Token::Bar) {
        methods.push(method_ref(cursor)?);
    }
    let mut callin = RawCallin {
        name,
        methods,
        condition: None,
        returns: None,
        creates: None,
    };
    if cursor.eat_word("returns") {
        callin.returns = Some(one_of(
            cursor,
            "`true`, `false`, `null`, `nonnull`, `zero`, `nonzero`, `negative`, `nonnegative` or a constant's name",
            Answer::parse,
        )?);
    }
    if cursor.eat_word("when") {
        callin.condition = Some(cursor.string("the condition as a string")?);
    }
    if cursor.eat_word("creates") {
        callin.creates = Some(cursor.word("the state a new object starts in")?);
    }
    Ok(callin)
}

/// `[new | static] [pkg.Class.]name(TYPE, ...)` or `(..)` for any overload.
fn method_ref(cursor: &mut Cursor) -> Result<MethodRef, (usize, String)> {
    let first = cursor.word("a method: `name(..)`, `static name(..)` or `new(..)`")?;
    let (kind, path) = match first.text.as_str() {
        "new" => (MethodKind::Constructor, None),
        "static" => (
            MethodKind::Static,
            Some(cursor.word("the static method's name")?),
        ),
        _ => (MethodKind::Instance, Some(first.clone())),
    };
    let (class, name) = match (&kind, path) {
        (MethodKind::Constructor, _) => {
            let class = if cursor.peek_is_word() {
                Some(cursor.word("the class")?.text)
            } else {
                None
            };
            (class, "<init>".to_owned())
        }
        (_, Some(path)) => split_member(&path.text),
        (_, None) => unreachable!("only constructors have no path"),
    };
    cursor.expect(Token::Open, "`(` and the parameter types")?;
    let params = if cursor.eat(&Token::AnyParams) {
        Params::Any
    } else {
        let mut types = Vec::new();
        if !cursor.peek(&Token::Close) {
            types.push(cursor.word("a parameter type")?.text);
            while cursor.eat(&Token::Comma) {
                types.push(cursor.word("a parameter type")?.text);
            }
        }
        Params::Exact(types)
    };
    cursor.expect(Token::Close, "`)` or `,` in the parameter list")?;
    Ok(MethodRef {
        kind,
        class,
        name,
        params,
    })
}

/// Splits `pkg.Class.member` into the class (if any) and the member.
fn split_member(path: &str) -> (Option<String>, String) {
    match path.rsplit_once('.') {
        Some((class, member)) => (Some(class.to_owned()), member.to_owned()),
        None => (None, path.to_owned()),
    }
}

/// `callback NAME: listener pkg.Interface.method via registerMethod [when "condition"]`
/// or `callback NAME: override [pkg.Class.]method [when "condition"]`
fn callback(cursor: &mut Cursor) -> Result<RawCallback, (usize, String)> {
    let mut callback = callback_binding(cursor)?;
    if cursor.eat_word("when") {
        callback.condition = Some(cursor.string("the condition as a string")?);
    }
    Ok(callback)
}

/// The part of a callback declaration before its condition.
fn callback_binding(cursor: &mut Cursor) -> Result<RawCallback, (usize, String)> {
    let name = cursor.word("the callback's name")?;
    cursor.expect(Token::Colon, "`:` after the callback's name")?;
    let how = cursor.word("`listener` or `override`")?;
    match how.text.as_str() {
        "listener" => {
            let path = cursor.word("the listener interface and method: `pkg.Listener.onEvent`")?;
            let (interface, method) = split_member(&path.text);
            let interface = interface.ok_or((
                path.col,
                "expected the interface before the method: `pkg.Listener.onEvent`".to_owned(),
            ))?;
            optional_empty_params(cursor)?;
            let via = cursor.word("`via` and the registering method")?;
            if via.text != "via" {
                return Err((via.col, format!("expected `via`, found `{}`", via.text)));
            }
            let register = cursor.word("the registering method")?;
            Ok(RawCallback {
                name,
                binding: CallbackBinding::Listener {
                    interface,
                    method,
                    register: register.text.clone(),
                    register_callin: None,
                },
                register: Some(register),
                condition: None,
            })
        }
        "override" => {
            let path = cursor.word("the overridden method")?;
            let (class, method) = split_member(&path.text);
            optional_empty_params(cursor)?;
            Ok(RawCallback {
                name,
                binding: CallbackBinding::Override { class, method },
                register: None,
                condition: None,
            })
        }
        other => Err((
            how.col,
            format!("expected `listener` or `override`, found `{other}`"),
        )),
    }
}

/// Skips `()` after a callback's method, which readers may write out of habit.
fn optional_empty_params(cursor: &mut Cursor) -> Result<(), (usize, String)> {
    if cursor.eat(&Token::Open) {
        cursor.expect(
            Token::Close,
            "`)`: callback methods are named without parameter types",
        )?;
    }
    Ok(())
}

/// `CALLIN -> TARGET [ignored]`, `CALLIN error [EXCEPTION]`, `CALLIN error posts CALLBACK`,
/// `CALLIN restricted`,
/// `on CALLBACK -> TARGET`, `quiet -> TARGET`, `fails`, `wait restricted`; each may end with
/// `levels RANGE` (callins only), `from "source"` and `unverified`.
fn transition(keyword: Name, cursor: &mut Cursor) -> Result<RawTransition, (usize, String)> {
    let (trigger, effect) = match keyword.text.as_str() {
        "on" => {
            let callback = cursor.word("the callback's name")?;
            cursor.expect(Token::Arrow, "`->` and the target state")?;
            let target = cursor.word("the target state")?;
            (
                Trigger::Callback(callback),
                RawEffect::Goto {
                    target,
                    ignored: false,
                },
            )
        }
        "quiet" => {
            cursor.expect(Token::Arrow, "`->` and the target state")?;
            let target = cursor.word("the target state")?;
            (
                Trigger::Quiet(keyword),
                RawEffect::Goto {
                    target,
                    ignored: false,
                },
            )
        }
        "fails" => (Trigger::Fails(keyword), RawEffect::Fail),
        "wait" => {
            if !cursor.eat_word("restricted") {
                return Err(cursor.error(
                    "`restricted` after `wait` (time passing is otherwise written `on CALLBACK -> STATE`, `quiet -> STATE` or `fails`)",
                ));
            }
            (Trigger::Wait(keyword), RawEffect::Restricted)
        }
        _ => {
            if cursor.eat_word("restricted") {
                if cursor.peek_is_word() && !cursor.peek_keyword() {
                    return Err(cursor.error(
                        "the end of the line or `from`: a restriction of the experiment names no exception, nothing was run (an error of the API is `CALLIN error EXCEPTION`)",
                    ));
                }
                (Trigger::Callin(keyword), RawEffect::Restricted)
            } else if cursor.eat_word("error") {
                let failure = if cursor.eat_word("posts") {
                    let expected = "the error callback the call posts, a qualified listener method (`android.media.MediaPlayer.OnErrorListener.onError`)";
                    if !cursor.peek_is_word() || cursor.peek_keyword() {
                        return Err(cursor.error(expected));
                    }
                    let at = cursor.error(expected);
                    let callback = cursor.word(expected)?.text;
                    if !is_posted_callback(&callback) {
                        return Err(at);
                    }
                    Failure::Posts(PostedError { callback })
                } else if cursor.peek_is_word() && !cursor.peek_keyword() {
                    Failure::Throws(Some(cursor.word("the exception class")?.text))
                } else {
                    Failure::Throws(None)
                };
                (Trigger::Callin(keyword), RawEffect::Error { failure })
            } else {
                cursor.expect(
                    Token::Arrow,
                    "`->` and the target state, `error` or `restricted`",
                )?;
                let target = cursor.word("the target state")?;
                let ignored = cursor.eat_word("ignored");
                (
                    Trigger::Callin(keyword),
                    RawEffect::Goto { target, ignored },
                )
            }
        }
    };
    let levels = if cursor.eat_word("levels") {
        let range = cursor.word("API levels: `23..28`, `..22` or `29..`")?;
        let Some(levels) = ApiLevels::parse(&range.text) else {
            return Err((
                range.col,
                format!(
                    "expected API levels `23..28`, `..22` or `29..` (a range holding some but not all levels), found `{}`",
                    range.text
                ),
            ));
        };
        if !matches!(trigger, Trigger::Callin(_)) {
            return Err((
                range.col,
                "`levels` applies to callins only: time passing is the same on every level"
                    .to_owned(),
            ));
        }
        Some((levels, range))
    } else {
        None
    };
    Ok(RawTransition {
        trigger,
        effect,
        levels,
        origin: origin(cursor)?,
    })
}

/// Reads the tokens of one line.
struct Cursor<'t> {
    tokens: &'t [Spanned],
    next: usize,
    line: usize,
    end_col: usize,
}

impl Cursor<'_> {
    fn at_end(&self) -> bool {
        self.next >= self.tokens.len()
    }

    fn found(&self) -> (usize, String) {
        match self.tokens.get(self.next) {
            Some(t) => (t.col, t.token.describe()),
            None => (self.end_col, "the end of the line".to_owned()),
        }
    }

    fn error(&self, expected: &str) -> (usize, String) {
        let (col, found) = self.found();
        (col, format!("expected {expected}, found {found}"))
    }

    fn word(&mut self, expected: &str) -> Result<Name, (usize, String)> {
        match self.tokens.get(self.next) {
            Some(Spanned {
                token: Token::Word(text),
                col,
            }) => {
                self.next += 1;
                Ok(Name {
                    text: text.clone(),
                    line: self.line,
                    col: *col,
                })
            }
            _ => Err(self.error(expected)),
        }
    }

    fn string(&mut self, expected: &str) -> Result<String, (usize, String)> {
        match self.tokens.get(self.next) {
            Some(Spanned {
                token: Token::Str(text),
                ..
            }) => {
                self.next += 1;
                Ok(text.clone())
            }
            _ => Err(self.error(expected)),
        }
    }

    fn peek(&self, token: &Token) -> bool {
        self.tokens
            .get(self.next)
            .is_some_and(|t| &t.token == token)
    }

    fn peek_is_word(&self) -> bool {
        matches!(
            self.tokens.get(self.next),
            Some(Spanned {
                token: Token::Word(_),
                ..
            })
        )
    }

    /// Whether the next tokens are `WORD =`, a property such as `backend=jvm`.
    fn peek_property(&self) -> bool {
        self.peek_is_word()
            && matches!(
                self.tokens.get(self.next + 1),
                Some(Spanned {
                    token: Token::Equals,
                    ..
                })
            )
    }

    fn peek_is_string(&self) -> bool {
        matches!(
            self.tokens.get(self.next),
            Some(Spanned {
                token: Token::Str(_),
                ..
            })
        )
    }

    /// Whether the next word is one of the trailing keywords of a transition.
    fn peek_keyword(&self) -> bool {
        matches!(
            self.tokens.get(self.next),
            Some(Spanned { token: Token::Word(w), .. }) if w == "from" || w == "unverified" || w == "levels"
        )
    }

    fn eat(&mut self, token: &Token) -> bool {
        let matched = self.peek(token);
        if matched {
            self.next += 1;
        }
        matched
    }

    fn eat_word(&mut self, word: &str) -> bool {
        let matched = matches!(
            self.tokens.get(self.next),
            Some(Spanned { token: Token::Word(w), .. }) if w == word
        );
        if matched {
            self.next += 1;
        }
        matched
    }

    fn expect(&mut self, token: Token, expected: &str) -> Result<(), (usize, String)> {
        if self.eat(&token) {
            Ok(())
        } else {
            Err(self.error(expected))
        }
    }

    fn end(&self) -> Result<(), (usize, String)> {
        if self.at_end() {
            Ok(())
        } else {
            Err(self.error("the end of the line"))
        }
    }
}

/// The second pass: resolves names and builds the model.
struct Resolver<'a> {
    path: &'a str,
    errors: &'a mut Vec<Diagnostic>,
}

impl Resolver<'_> {
    fn error(&mut self, name: &Name, message: String) {
        self.errors
            .push(Diagnostic::new(self.path, name.line, name.col, message));
    }

    fn resolve(&mut self, file: RawFile, last_line: usize) -> Option<Typestate> {
        let class = match file.class {
            Some(class) => class.text,
            None => {
                self.errors.push(Diagnostic::new(
                    self.path,
                    1,
                    1,
                    "expected `typestate pkg.ClassName` declaring the class".to_owned(),
                ));
                String::new()
            }
        };
        if file.states.is_empty() {
            self.errors.push(Diagnostic::new(
                self.path,
                last_line,
                1,
                "expected at least one `state` declaration".to_owned(),
            ));
            return None;
        }

        // Symbols share one namespace, so that traces name events unambiguously.
        let mut symbols: HashMap<String, Name> = HashMap::new();
        for name in file
            .callins
            .iter()
            .map(|c| &c.name)
            .chain(file.callbacks.iter().map(|c| &c.name))
        {
            if RESERVED.contains(&name.text.as_str()) {
                self.error(
                    name,
                    format!("`{}` is reserved; pick another symbol name", name.text),
                );
            } else if let Some(first) = symbols.get(&name.text) {
                let message = format!(
                    "symbol `{}` is already declared at line {}",
                    name.text, first.line
                );
                self.error(name, message);
            } else {
                symbols.insert(name.text.clone(), name.clone());
            }
        }
        let mut state_ids: HashMap<String, StateId> = HashMap::new();
        for (index, state) in file.states.iter().enumerate() {
            if let Some(previous) = state_ids.insert(state.name.text.clone(), StateId(index as u32))
            {
                let message = format!(
                    "state `{}` is already declared at line {}",
                    state.name.text,
                    file.states[previous.index()].name.line
                );
                self.error(&state.name, message);
            }
        }
        let state_ref = |resolver: &mut Self, name: &Name| -> StateId {
            state_ids.get(&name.text).copied().unwrap_or_else(|| {
                resolver.error(name, format!("unknown state `{}`", name.text));
                StateId(0)
            })
        };

        let callins: Vec<Callin> = file
            .callins
            .iter()
            .map(|raw| Callin {
                name: raw.name.text.clone(),
                binding: CallinBinding {
                    methods: raw.methods.clone(),
                    condition: raw.condition.clone(),
                    returns: raw.returns.clone(),
                },
                creates: raw.creates.as_ref().map(|state| state_ref(self, state)),
            })
            .collect();
        // Names to indices by table, the first declaration winning (a later one is an error
        // above): a search of the list per transition made a file of many states and callins
        // quadratic (bench/scale, `typestate-sparse`).
        let mut callin_ids: HashMap<&str, usize> = HashMap::new();
        for (index, callin) in callins.iter().enumerate() {
            callin_ids.entry(callin.name.as_str()).or_insert(index);
        }
        let callin_id = |name: &str| callin_ids.get(name).copied();
        let callbacks: Vec<Callback> = file
            .callbacks
            .iter()
            .map(|raw| {
                let mut binding = raw.binding.clone();
                if let CallbackBinding::Listener {
                    register_callin, ..
                } = &mut binding
                {
                    let register = raw
                        .register
                        .as_ref()
                        .expect("listeners name their register");
                    *register_callin = callins
                        .iter()
                        .position(|c| {
                            c.name == register.text
                                || c.binding.methods.iter().any(|m| m.name == register.text)
                        })
                        .map(|i| crate::model::CallinId(i as u32));
                }
                Callback {
                    name: raw.name.text.clone(),
                    binding,
                    condition: raw.condition.clone(),
                }
            })
            .collect();
        let mut callback_ids: HashMap<&str, usize> = HashMap::new();
        for (index, callback) in callbacks.iter().enumerate() {
            callback_ids.entry(callback.name.as_str()).or_insert(index);
        }
        let callback_id = |name: &str| callback_ids.get(name).copied();

        let initial_states: Vec<&RawState> = file.states.iter().filter(|s| s.initial).collect();
        let initial = match initial_states.as_slice() {
            [one] => state_ids[&one.name.text],
            [] => {
                let first = &file.states[0].name;
                self.error(
                    first,
                    "no state is marked `initial` (write `state NAME initial`)".to_owned(),
                );
                StateId(0)
            }
            [_, second, ..] => {
                let name = second.name.clone();
                self.error(&name, "only one state may be `initial`".to_owned());
                StateId(0)
            }
        };

        if let Some(message) = super::too_many_steps(file.states.len(), callins.len()) {
            self.error(&file.states[0].name, message);
            return None;
        }
        let mut states = Vec::with_capacity(file.states.len());
        for (index, raw) in file.states.iter().enumerate() {
            let id = StateId(index as u32);
            let mut on_callin = Steps::new(callins.len());
            // The callins this state names, by index: a table as long as the callins per state
            // made the same files quadratic.
            let mut callin_seen: HashMap<usize, &Name> = HashMap::new();
            let mut by_level: Vec<LevelStep> = Vec::new();
            let mut level_lines: Vec<&Name> = Vec::new();
            let mut on_wait = WaitOutcome::quiet_loop(id);
            let mut wait_seen: Option<&Name> = None;
            for transition in &raw.transitions {
                let origin = transition.origin.clone();
                match (&transition.trigger, &transition.effect) {
                    (Trigger::Callin(name), effect) => {
                        let Some(callin) = callin_id(&name.text) else {
                            let message = if callback_id(&name.text).is_some() {
                                format!(
                                    "`{}` is a callback: write `on {} -> STATE`",
                                    name.text, name.text
                                )
                            } else {
                                format!("unknown callin `{}`", name.text)
                            };
                            self.error(name, message);
                            continue;
                        };
                        let id = CallinId(callin as u32);
                        if let Some((levels, range)) = &transition.levels {
                            let clash = by_level
                                .iter()
                                .zip(&level_lines)
                                .find(|(l, _)| l.callin == id && l.levels.overlaps(*levels));
                            if let Some((_, first)) = clash {
                                let message = format!(
                                    "callin `{}` already has a transition in state `{}` on some of the levels {} (line {}): the ranges of one callin must be disjoint",
                                    name.text, raw.name.text, levels, first.line
                                );
                                self.error(range, message);
                                continue;
                            }
                        } else if let Some(&first) = callin_seen.get(&callin) {
                            let message = format!(
                                "callin `{}` already has a transition in state `{}` (line {}): the automaton must be deterministic",
                                name.text, raw.name.text, first.line
                            );
                            self.error(name, message);
                            continue;
                        }
                        if callins[callin].is_creator() {
                            self.error(
                                name,
                                format!(
                                    "`{}` creates the object; it has no transitions in states",
                                    name.text
                                ),
                            );
                            continue;
                        }
                        let step = match effect {
                            RawEffect::Goto { target, ignored } => Step::Enabled {
                                target: state_ref(self, target),
                                ignored: *ignored,
                                origin,
                            },
                            RawEffect::Error { failure } => Step::Error {
                                failure: failure.clone(),
                                origin,
                            },
                            RawEffect::Restricted => Step::Restricted { origin },
                            RawEffect::Fail => unreachable!("callins do not fail"),
                        };
                        match &transition.levels {
                            Some((levels, _)) => {
                                by_level.push(LevelStep {
                                    callin: id,
                                    levels: *levels,
                                    step,
                                });
                                level_lines.push(name);
                            }
                            None => {
                                callin_seen.insert(callin, name);
                                on_callin[callin] = step;
                            }
                        }
                    }
                    (
                        Trigger::Callback(name)
                        | Trigger::Quiet(name)
                        | Trigger::Fails(name)
                        | Trigger::Wait(name),
                        effect,
                    ) => {
                        if let Some(first) = wait_seen {
                            let message = format!(
                                "state `{}` already says what happens when time passes (line {}): one callback, `quiet`, `fails` or `wait restricted` per state",
                                raw.name.text, first.line
                            );
                            self.error(name, message);
                            continue;
                        }
                        wait_seen = Some(name);
                        on_wait = match (&transition.trigger, effect) {
                            (Trigger::Callback(name), RawEffect::Goto { target, .. }) => {
                                let Some(callback) = callback_id(&name.text) else {
                                    self.error(name, format!("unknown callback `{}`", name.text));
                                    continue;
                                };
                                WaitOutcome::Callback {
                                    callback: crate::model::CallbackId(callback as u32),
                                    target: state_ref(self, target),
                                    origin,
                                }
                            }
                            (Trigger::Quiet(_), RawEffect::Goto { target, .. }) => {
                                WaitOutcome::Quiet {
                                    target: state_ref(self, target),
                                    origin,
                                }
                            }
                            (_, RawEffect::Restricted) => WaitOutcome::Restricted { origin },
                            _ => WaitOutcome::Error { origin },
                        };
                    }
                }
            }
            by_level.sort_by_key(|l| l.callin);
            states.push(State {
                name: raw.name.text.clone(),
                description: raw.description.clone(),
                on_callin,
                on_wait,
                by_level,
            });
        }

        let examples = file
            .examples
            .iter()
            .filter_map(|raw| {
                let trace = raw
                    .events
                    .iter()
                    .map(|name| {
                        if name.text == "quiet" {
                            Some(Event::Quiet)
                        } else if let Some(id) = callin_id(&name.text) {
                            Some(Event::Callin(crate::model::CallinId(id as u32)))
                        } else if let Some(id) = callback_id(&name.text) {
                            Some(Event::Callback(crate::model::CallbackId(id as u32)))
                        } else {
                            self.error(
                                name,
                                format!(
                                    "unknown event `{}` (expected a callin, a callback or `quiet`)",
                                    name.text
                                ),
                            );
                            None
                        }
                    })
                    .collect::<Option<Vec<_>>>()?;
                Some(Example {
                    accepted: raw.accepted,
                    trace,
                })
            })
            .collect();

        let obligations = file
            .obligations
            .iter()
            .filter_map(|raw| {
                let states = raw.states.iter().map(|s| state_ref(self, s)).collect();
                let until = raw
                    .until
                    .iter()
                    .map(|name| match callin_id(&name.text) {
                        Some(id) if !callins[id].is_creator() => {
                            Some(crate::model::CallinId(id as u32))
                        }
                        Some(_) => {
                            let message = format!(
                                "`{}` creates the object; it discharges nothing",
                                name.text
                            );
                            self.error(name, message);
                            None
                        }
                        None => {
                            self.error(name, format!("unknown callin `{}`", name.text));
                            None
                        }
                    })
                    .collect::<Option<Vec<_>>>()?;
                let obligation = Obligation {
                    states,
                    until,
                    by: raw.by,
                    basis: raw.basis,
                    origin: raw.origin.clone(),
                };
                Some((&raw.keyword, obligation))
            })
            .collect::<Vec<_>>();
        let keywords: Vec<&Name> = obligations.iter().map(|(keyword, _)| *keyword).collect();
        let obligations = obligations.into_iter().map(|(_, o)| o).collect();

        let typestate = Typestate {
            class,
            summary: file.summary,
            provenance: file.provenance,
            notes: file.notes,
            callins,
            callbacks,
            harmless: file.harmless,
            excluded: file.excluded,
            states,
            initial,
            obligations,
            examples,
        };
        for (keyword, obligation) in keywords.into_iter().zip(&typestate.obligations) {
            if let Some(problem) = typestate.obligation_problem(obligation) {
                self.error(keyword, problem);
            }
        }
        Some(typestate)
    }
}
