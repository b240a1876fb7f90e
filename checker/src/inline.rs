//! The Kotlin standard-library inline functions whose lambda runs in place, at the call.
//!
//! The compiler copies such a lambda into the caller, so it runs before the call returns.
//! The scope functions run it once.
//! The collection functions and `repeat` run it zero or more times, one run after another.
//! It never runs later and never on another thread.
//! [`INLINE_FUNCTIONS`] is the one list of them, with each function's contract.
//! The contract says how often the lambda runs, what it gets as `this` or parameter, and what
//! the call returns.
//! [`inlined`] recognises a call of one of them with a lambda literal as its last argument.
//! It does so in Kotlin only: a Java lambda is an object, which may run later.
//! `resolve` types the lambda's `this` and parameter from it.
//! `places` makes them aliases of the subject.
//! `cfg` inlines the lambda at the call (a loop for the repeating ones).
//! The name decides, as no types are inferred.
//! So a `map` or `filter` of a lazy `Sequence`, a `Flow` or an Rx stream is taken to run in place.
//! Its lambda runs later, in truth.

use crate::ir::{Body, Call, Expr, ExprKind, Language, Param};

/// How often an inline function runs its lambda.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Runs {
    /// Exactly once.
    Once,
    /// Exactly once, then the subject is closed (`use`).
    OnceThenClose,
    /// Exactly once; an exception the lambda throws is caught and becomes the call's value
    /// (`runCatching`).
    OnceCatching,
    /// Zero or more times, one run after the other (per element, `n` times).
    Repeatedly,
}

/// What the lambda gets from the call's subject.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Binds {
    /// The subject is the lambda's `this` (`apply`, `run`, `with`).
    This,
    /// The subject is the lambda's parameter, `it` unless named (`let`, `also`, `use`).
    Parameter,
    /// Nothing: the parameters are elements or counters, objects of unknown origin
    /// (`forEach`, `repeat`), and `this` stays the enclosing one.
    Nothing,
}

/// What the call returns.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Returns {
    /// Its subject (`apply`, `also`; `takeIf` and `takeUnless` or `null`).
    Subject,
    /// The lambda's result or something computed from it, which is not followed.
    Result,
}

/// Where the subject of the call is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Subject {
    /// The receiver, when written (`player.apply { … }`; `run { … }` has none).
    Receiver,
    /// The first argument (`with(player) { … }`).
    FirstArgument,
}

/// The contract of one inline function, for its form with a lambda as the last argument.
#[derive(Debug, Clone, Copy)]
pub(crate) struct InlineFunction {
    /// The function's name.
    pub name: &'static str,
    /// How often the lambda runs.
    pub runs: Runs,
    /// Where the subject is.
    pub subject: Subject,
    /// What the lambda gets from the subject.
    pub binds: Binds,
    /// What the call returns.
    pub returns: Returns,
}

const fn function(
    name: &'static str,
    runs: Runs,
    binds: Binds,
    returns: Returns,
) -> InlineFunction {
    InlineFunction {
        name,
        runs,
        subject: Subject::Receiver,
        binds,
        returns,
    }
}

/// The inline functions of the Kotlin standard library that run a lambda argument in place.
pub(crate) const INLINE_FUNCTIONS: &[InlineFunction] = &[
    // `x.apply { … }` configures `x` and returns it.
    function("apply", Runs::Once, Binds::This, Returns::Subject),
    // `x.also { it … }` runs a side effect on `x` and returns it.
    function("also", Runs::Once, Binds::Parameter, Returns::Subject),
    // `x.let { it … }` computes from `x`; `x?.let` only when `x` is not null.
    function("let", Runs::Once, Binds::Parameter, Returns::Result),
    // `x.run { … }` computes with `x` as `this`; `run { … }` just runs a block.
    function("run", Runs::Once, Binds::This, Returns::Result),
    // `with(x) { … }` is `x.run { … }` with `x` as an argument.
    InlineFunction {
        name: "with",
        runs: Runs::Once,
        subject: Subject::FirstArgument,
        binds: Binds::This,
        returns: Returns::Result,
    },
    // `x.use { it … }` runs the block, then closes `x`.
    function(
        "use",
        Runs::OnceThenClose,
        Binds::Parameter,
        Returns::Result,
    ),
    // `x.takeIf { it … }` tests `x` once: `x` or `null`.
    function("takeIf", Runs::Once, Binds::Parameter, Returns::Subject),
    // `x.takeUnless { it … }` tests `x` once: `null` or `x`.
    function("takeUnless", Runs::Once, Binds::Parameter, Returns::Subject),
    // `x.runCatching { … }` and `runCatching { … }` catch what the block throws into a
    // `Result`.
    function(
        "runCatching",
        Runs::OnceCatching,
        Binds::This,
        Returns::Result,
    ),
    // `synchronized(lock) { … }` runs the block once, holding the lock.
    function("synchronized", Runs::Once, Binds::Nothing, Returns::Result),
    // `repeat(n) { i -> … }` runs the block `n` times.
    function("repeat", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.forEach { x -> … }` runs the block per element.
    function("forEach", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.forEachIndexed { i, x -> … }` runs the block per element.
    function(
        "forEachIndexed",
        Runs::Repeatedly,
        Binds::Nothing,
        Returns::Result,
    ),
    // `xs.onEach { x -> … }` runs the block per element and returns `xs`, not followed.
    function("onEach", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.map { x -> … }` transforms every element.
    function("map", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.mapNotNull { x -> … }` transforms every element, dropping nulls.
    function(
        "mapNotNull",
        Runs::Repeatedly,
        Binds::Nothing,
        Returns::Result,
    ),
    // `xs.filter { x -> … }` tests every element.
    function("filter", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.any { x -> … }` tests elements until one holds.
    function("any", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.all { x -> … }` tests elements until one fails.
    function("all", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.none { x -> … }` tests elements until one holds.
    function("none", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.count { x -> … }` tests every element.
    function("count", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.first { x -> … }` tests elements until one holds.
    function("first", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.firstOrNull { x -> … }` tests elements until one holds.
    function(
        "firstOrNull",
        Runs::Repeatedly,
        Binds::Nothing,
        Returns::Result,
    ),
    // `xs.fold(initial) { acc, x -> … }` accumulates over every element.
    function("fold", Runs::Repeatedly, Binds::Nothing, Returns::Result),
    // `xs.sumOf { x -> … }` adds up a value per element.
    function("sumOf", Runs::Repeatedly, Binds::Nothing, Returns::Result),
];

/// A call of an inline function with its lambda.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Inlined<'a> {
    /// The function's contract.
    pub function: &'static InlineFunction,
    /// The subject, when the call has one (`run { … }` and `repeat(n) { … }` have none).
    pub subject: Option<&'a Expr>,
    /// The arguments evaluated before the lambda runs (`with`'s subject among them).
    pub args: &'a [Expr],
    /// The lambda's declared parameters (none for an implicit `it`).
    pub params: &'a [Param],
    /// The lambda's body.
    pub body: &'a Body,
}

impl Inlined<'_> {
    /// Where the lambda's parameter is declared: the first declared one, or the body's start
    /// for an implicit `it` (the resolver declares it there).
    pub fn parameter_at(&self) -> usize {
        self.params
            .first()
            .map_or(self.body.span.start_byte, |p| p.span.start_byte)
    }
}

/// If `call`, written in `language`, is an inline function of [`INLINE_FUNCTIONS`] with a
/// lambda literal as its last argument, the function and its parts.
pub(crate) fn inlined(call: &Call, language: Language) -> Option<Inlined<'_>> {
    if language != Language::Kotlin {
        return None;
    }
    let (lambda, args) = call.args.split_last()?;
    let ExprKind::Lambda { params, body } = &lambda.kind else {
        return None;
    };
    let function = INLINE_FUNCTIONS.iter().find(|f| f.name == call.name)?;
    let subject = match function.subject {
        Subject::Receiver => call.receiver.as_deref(),
        Subject::FirstArgument if call.receiver.is_none() => args.first(),
        Subject::FirstArgument => return None,
    };
    Some(Inlined {
        function,
        subject,
        args,
        params,
        body,
    })
}
