//! The entry points: [`check`] a file against the library, with what is known at each call, for
//! hovers.
//! [`states_at`] analyses the file again for one call.
//!
//! Per file: lower, resolve (with the library as [`crate::resolve::KnownTypes`]) and find the tracked places.
//! Then, per class, compute the state after construction and solve the event model ([`crate::events`]).
//! Last, analyse every body once more from its entry state, recording what each call on a tracked object sees.
//! The observations of one call site from every analysis that reached it are merged.
//! So a violation is *definite* only if the call fails in every state any path brings there.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::collections::BTreeSet;
use std::sync::Arc;
use std::time::{Duration, Instant};

use typestates::library::Library;

use crate::cfg::{Cfg, NodeKind};
use crate::clients::{Clients, Fields, Order, SiteTable, Sites};
use crate::diagnostics::{self, Unreleased, Violation};
use crate::events::{self, ClassModel, EventCode, Fresh, Runner};
use crate::ir::{
    Body, Class, ClassKind, Expr, ExprId, ExprKind, Language, MethodKind, SourceIr, Span, Stmt,
    StmtKind, TooDeep,
};
use crate::lang::NotParsed;
use crate::leaks::{Losses, Owned};
use crate::places::{self, Places, Var};
use crate::protocols::{Protocols, Supertypes};
use crate::resolve::Resolution;
use crate::source::SourceFile;
use crate::suppress;
use crate::typestate_flow::{
    analyze_body, constant, eval_initializer, set_fact, BodyResult, Env, Fact, FlowState, Helper,
    Observation, Pass, Shared, Value,
};

/// How to check.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckConfig {
    /// Direct supertypes of classes declared elsewhere in the project (see
    /// [`project_config`]), so that `class DownloadTask extends AsyncTask` in one file
    /// makes `new DownloadTask()` a protocol object in another.
    pub supertypes: Supertypes,
    /// How long parsing one file may take, and then how long its analysis may take; past it
    /// the rest of the file is skipped and [`CheckResult::timed_out`] is set.
    pub time_limit: Duration,
    /// Whether to report every leak ([`CheckResult::unreleased`], [`crate::leaks`]): a
    /// `MediaPlayer` never released, a stream never closed, a field overwritten while its
    /// object is live. Off by default, when only the leaks the benchmark vouches for are.
    pub report_unreleased: bool,
    /// Whether the leak scan runs at all: [`LeakScan::Skipped`] makes no leak report, not even
    /// those on by default, so the leak benchmark can time the check without obligations.
    pub leak_scan: LeakScan,
    /// Whether [`check`] may skip the analysis of a file that names nothing a protocol
    /// object can come from (see [`crate::prefilter`]); such a file is only parsed, for its
    /// syntax errors. On by default; the findings are the same either way.
    pub skip_unrelated: bool,
    /// Who calls the methods of the project's plain classes ([`crate::clients`]); `None` to
    /// take the calls of the checked file alone.
    pub clients: Option<Arc<Clients>>,
}

impl Default for CheckConfig {
    fn default() -> Self {
        CheckConfig {
            supertypes: Supertypes::default(),
            time_limit: Duration::from_secs(10),
            report_unreleased: false,
            leak_scan: LeakScan::Run,
            skip_unrelated: true,
            clients: None,
        }
    }
}

/// Whether the leak scan ([`crate::leaks`]) runs.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum LeakScan {
    /// It runs, for the reports on by default or, with [`CheckConfig::report_unreleased`], all.
    #[default]
    Run,
    /// It does not run: the check without obligations.
    Skipped,
}

/// The findings of one file.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CheckResult {
    /// The violations, in source order, suppressions applied.
    pub violations: Vec<Violation>,
    /// Regions the parser could not read; the rest of the file was checked.
    pub syntax_errors: Vec<Span>,
    /// Whether the time limit cut parsing or the analysis short.
    pub timed_out: bool,
    /// Where the code nests deeper than the checker follows; what lies deeper was not checked.
    pub too_deep: Option<TooDeep>,
    /// The objects that may be lost while an obligation holds (all of them with
    /// [`CheckConfig::report_unreleased`]), in source order, suppressions applied.
    pub unreleased: Vec<Unreleased>,
    /// What the analysis knew at each call on a tracked protocol object, in source order (for
    /// editors: hovers and inlay hints answered from the check itself); suppressions do not
    /// apply.
    pub calls: Vec<StatesAt>,
    /// The classes whose findings were withheld because a dataflow solve stopped short, in
    /// source order; the rest of the file was checked.
    pub unconverged: Vec<Unconverged>,
}

/// A class whose findings were withheld, and the analysis that caused it.
/// That analysis stopped at its cap before a fixpoint, so the states it computed are unfinished.
/// Every finding of the class could rest on them, so none is reported.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unconverged {
    /// The class, fully qualified.
    pub class: String,
    /// The analysis that stopped short.
    pub analysis: Unsettled,
    /// The body, or the class for [`Unsettled::Events`].
    pub span: Span,
}

/// Which analysis of a class stopped at its cap short of a fixpoint.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Unsettled {
    /// The dataflow of a body in this method (the class's own, or a helper's it follows), at the solver's visit cap.
    Method(String),
    /// The dataflow of a body outside any method (a field's initializer), at the solver's visit cap.
    Initializer,
    /// The event model: the order of the class's methods and callbacks, at its round cap.
    Events,
}

impl Unconverged {
    /// What happened, without the place: which analysis stopped short and which findings went.
    pub fn describe(&self) -> String {
        let class = self.class.rsplit('.').next().unwrap_or(&self.class);
        let analysis = match &self.analysis {
            Unsettled::Method(method) => format!("the analysis of `{class}.{method}`"),
            Unsettled::Initializer => format!("the analysis of a field initializer of `{class}`"),
            Unsettled::Events => format!("the order of events of `{class}`"),
        };
        format!(
            "{analysis} stopped at its cap before settling, so no finding of class `{}` is reported",
            self.class
        )
    }
}

/// What the analysis knows of the receiver of one call, for hovers.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct StatesAt {
    /// The call's name.
    pub span: Span,
    /// The protocol class, fully qualified.
    pub class: String,
    /// The receiver as written.
    pub receiver: String,
    /// The states the receiver may be in just before the call.
    pub states: Vec<String>,
    /// Whether the receiver may be `null`.
    pub maybe_null: bool,
    /// Whether the receiver may be in any state (its origin is not known).
    pub unknown: bool,
    /// The protocol, when the checker derived it from one of the project's wrappers: no
    /// library holds it ([`crate::wrappers`]).
    pub derived: Option<Arc<typestates::Typestate>>,
}

/// Checks `file` against `library`.
pub fn check(library: &Library, file: &SourceFile, config: &CheckConfig) -> CheckResult {
    let deadline = Instant::now().checked_add(config.time_limit);
    if config.skip_unrelated
        && !related(library, &file.text, &config.supertypes)
        && !names_derived(config, &file.text)
    {
        return match crate::lang::syntax_errors(file.language, &file.text, deadline) {
            Ok(syntax_errors) => CheckResult {
                syntax_errors,
                ..CheckResult::default()
            },
            Err(not_parsed) => CheckResult::not_parsed(not_parsed),
        };
    }
    match crate::lang::lower_within(file.language, &file.text, deadline) {
        Ok(ir) => check_lowered(library, &file.text, &ir, config),
        Err(not_parsed) => CheckResult::not_parsed(not_parsed),
    }
}

impl CheckResult {
    /// The result of a file that was not parsed: no findings, and why.
    pub(crate) fn not_parsed(why: NotParsed) -> CheckResult {
        match why {
            NotParsed::OutOfTime => CheckResult {
                timed_out: true,
                ..CheckResult::default()
            },
            NotParsed::TooDeep(too_deep) => CheckResult {
                too_deep: Some(too_deep),
                ..CheckResult::default()
            },
        }
    }
}

/// Whether `text` names a class whose protocol a project check derived ([`crate::wrappers`]).
pub(crate) fn names_derived(config: &CheckConfig, text: &str) -> bool {
    let Some(clients) = config.clients.as_deref() else {
        return false;
    };
    let mut filter = crate::prefilter::NameFilter::default();
    for ts in clients.derived() {
        filter.add(crate::prefilter::simple_name(&ts.class));
    }
    !clients.derived().is_empty() && filter.matches(text)
}

/// Whether `text` names something a protocol object can come from: a name of the library's
/// [`crate::prefilter::NameFilter`], or a class of `supertypes` that extends a protocol class.
pub(crate) fn related(library: &Library, text: &str, supertypes: &Supertypes) -> bool {
    let filter = crate::prefilter::NameFilter::of_library(library);
    if filter.matches(text) {
        return true;
    }
    if supertypes.is_empty() {
        return false;
    }
    let protocols = Protocols::with_project(library, supertypes);
    let mut project = crate::prefilter::NameFilter::default();
    for fqn in supertypes.keys() {
        let name = crate::prefilter::simple_name(fqn);
        if !filter.contains(name) && !project.contains(name) && protocols.protocol_of(fqn).is_some()
        {
            project.add(name);
        }
    }
    project.matches(text)
}

/// Checks a file already lowered into `ir` from `text`.
pub(crate) fn check_lowered(
    library: &Library,
    text: &str,
    ir: &SourceIr,
    config: &CheckConfig,
) -> CheckResult {
    check_lowered_with(library, text, ir, config, &mut Fresh)
}

/// [`check_lowered`], running the bodies of events through `runner`.
pub(crate) fn check_lowered_with(
    library: &Library,
    text: &str,
    ir: &SourceIr,
    config: &CheckConfig,
    runner: &mut dyn Runner,
) -> CheckResult {
    let deadline = Instant::now().checked_add(config.time_limit);
    let mut result = findings(library, text, ir, config, runner);
    // The checks of the fixed texts share the analysis' time limit: a fix whose check does
    // not end within it is not offered.
    if !result.unreleased.is_empty() && !result.timed_out {
        crate::leak_fixes::attach(ir, text, &mut result, |fixed| {
            let left = deadline.map(|deadline| deadline.checked_duration_since(Instant::now()));
            let config = CheckConfig {
                time_limit: left.unwrap_or(Some(config.time_limit))?,
                ..config.clone()
            };
            let fixed_ir = crate::lang::lower_within(ir.language, fixed, deadline).ok()?;
            let after = findings(library, fixed, &fixed_ir, &config, &mut Fresh);
            let whole = !after.timed_out
                && after.too_deep.is_none()
                && after.syntax_errors.len() <= ir.syntax_errors.len();
            whole.then(|| crate::leak_fixes::keys(&after))
        });
    }
    result
}

/// [`check_lowered`] without the leak reports' places and fixes.
fn findings(
    library: &Library,
    text: &str,
    ir: &SourceIr,
    config: &CheckConfig,
    runner: &mut dyn Runner,
) -> CheckResult {
    let (cut, (violations, mut unreleased, calls)) = analyze(library, ir, config, runner, |cx| {
        let all = config.report_unreleased;
        let unreleased = crate::leaks::report(cx.protocols, cx.recorded.losses, all);
        let merged = diagnostics::merge(cx.recorded.observations);
        let violations = diagnostics::violations(cx.protocols, cx.places, text, &merged);
        let calls = merged.iter().map(|o| observed(cx.protocols, o)).collect();
        (violations, unreleased, calls)
    });
    let mut violations: Vec<Violation> = violations
        .into_iter()
        .filter(|v| !suppress::is_suppressed(ir, v.span))
        .collect();
    crate::fixes::attach(ir, text, &mut violations);
    unreleased.retain(|u| !suppress::is_suppressed(ir, u.span));
    CheckResult {
        violations,
        syntax_errors: ir.syntax_errors.clone(),
        timed_out: cut.timed_out,
        too_deep: ir.too_deep,
        unreleased,
        calls,
        unconverged: cut.unconverged,
    }
}

/// The states of the receiver of the call at byte `offset` (on the called name or on the
/// receiver), if the call is on a tracked protocol object; `config` as for [`check`] (its
/// supertypes make objects of the project's protocol subclasses tracked).
pub fn states_at(
    library: &Library,
    file: &SourceFile,
    offset: usize,
    config: &CheckConfig,
) -> Option<StatesAt> {
    let ir = crate::lang::lower(file.language, &file.text);
    let within = |span: Span| span.start_byte <= offset && offset <= span.end_byte;
    let (_, found) = analyze(library, &ir, config, &mut Fresh, |cx| {
        let merged = diagnostics::merge(cx.recorded.observations);
        // The innermost call whose own span holds the offset wins over the receiver of
        // another (`call.execute().use { … }`: the receiver of `use` is `call.execute()`).
        let observation = merged
            .iter()
            .filter(|o| within(o.span))
            .min_by_key(|o| o.span.end_byte - o.span.start_byte)
            .or_else(|| merged.iter().find(|o| o.receiver_span.is_some_and(within)))?;
        Some(observed(cx.protocols, observation))
    });
    found
}

fn observed(protocols: &Protocols, observation: &Observation) -> StatesAt {
    let ts = protocols.typestate(observation.value.protocol);
    StatesAt {
        span: observation.span,
        class: ts.class.clone(),
        receiver: observation.receiver.clone(),
        states: observation
            .value
            .states
            .keys()
            .map(|s| ts.state(*s).name.clone())
            .collect(),
        maybe_null: observation.value.null,
        unknown: observation.value.unknown,
        derived: protocols
            .is_derived(observation.value.protocol)
            .then(|| Arc::new(ts.clone())),
    }
}

/// `config` for checking the files of a project one at a time: with the supertypes of the
/// project's classes ([`CheckConfig::supertypes`]) and the calls between them
/// ([`CheckConfig::clients`]), as [`crate::Project`] finds them, so that both check alike.
pub fn project_config(library: &Library, files: &[SourceFile], config: CheckConfig) -> CheckConfig {
    crate::Project::new(library, &files, config, 1)
        .config()
        .clone()
}

/// The classes `ir` declares with their direct supertypes, resolved against the library
/// alone (what [`project_config`] records of one file).
pub(crate) fn declared_classes(
    ir: &SourceIr,
    library_only: &Protocols<'_>,
) -> Vec<crate::resolve::ClassInfo> {
    crate::resolve::declared_classes(ir, library_only)
}

/// What an [`analyze`] continuation gets.
struct Analysed<'c, 'l> {
    protocols: &'c Protocols<'l>,
    places: &'c Places<'c>,
    recorded: Recorded,
}

/// What the last pass records: what each call on a tracked object saw, and what the leak
/// scans found.
#[derive(Default)]
struct Recorded {
    observations: Vec<Observation>,
    losses: Losses,
    /// See [`BodyResult::unfinished`].
    unfinished: Vec<Span>,
    /// The class, when its event model stopped at its round cap ([`events::Rounds::Cut`]).
    unsettled_events: Option<Span>,
}

impl Recorded {
    /// Takes what `result`, a body's analysis in the last pass, recorded.
    fn take(&mut self, result: &mut BodyResult) {
        self.observations.append(&mut result.observations);
        self.losses.append(&mut result.losses);
        self.unfinished.append(&mut result.unfinished);
    }

    fn append(&mut self, other: &mut Recorded) {
        self.observations.append(&mut other.observations);
        self.losses.append(&mut other.losses);
    }
}

/// What an [`analyze`] left out.
struct Cut {
    /// Whether it ran out of time.
    timed_out: bool,
    /// The classes whose observations and losses it withheld.
    unconverged: Vec<Unconverged>,
}

/// The [`Runner`] of one class's check: runs through `runner`, and notes the bodies whose
/// solve stopped short in any pass.
struct Watch<'r> {
    runner: &'r dyn Runner,
    unfinished: std::cell::RefCell<Vec<Span>>,
}

impl Runner for Watch<'_> {
    fn run<'a>(
        &self,
        shared: &Shared<'a, '_>,
        class: &str,
        body: &'a Body,
        entry: Env,
        pass: Pass,
    ) -> BodyResult {
        let result = self.runner.run(shared, class, body, entry, pass);
        self.unfinished.borrow_mut().extend(&result.unfinished);
        result
    }
}

/// The [`Unconverged`] of class `fqn` for what `found` left unsettled, naming the innermost
/// method of `classes` around each unfinished body.
fn unconverged(classes: &[(&Class, String)], fqn: &str, found: &Recorded) -> Vec<Unconverged> {
    let events = found.unsettled_events.map(|span| Unconverged {
        class: fqn.to_owned(),
        analysis: Unsettled::Events,
        span,
    });
    let mut spans = found.unfinished.clone();
    spans.sort_by_key(|span| (span.start_byte, span.end_byte));
    spans.dedup();
    let method = |body: Span| {
        classes
            .iter()
            .flat_map(|(class, _)| &class.methods)
            .filter(|m| m.span.start_byte <= body.start_byte && body.end_byte <= m.span.end_byte)
            .min_by_key(|m| m.span.end_byte - m.span.start_byte)
            .map_or(Unsettled::Initializer, |m| {
                Unsettled::Method(m.name.clone())
            })
    };
    let bodies = spans.into_iter().map(|span| Unconverged {
        class: fqn.to_owned(),
        analysis: method(span),
        span,
    });
    events.into_iter().chain(bodies).collect()
}

/// Runs the analysis of `ir`, with the bodies of its events run through `runner`, and hands
/// the observations to `finish`; also returns what it left out.
/// A class with a body whose solve stopped short ([`BodyResult::unfinished`]), in any pass,
/// or whose event model stopped short ([`events::Rounds::Cut`]), records nothing:
/// its event states, and so its findings, may rest on unfinished states.
fn analyze<R>(
    library: &Library,
    ir: &SourceIr,
    config: &CheckConfig,
    runner: &mut dyn Runner,
    finish: impl FnOnce(Analysed<'_, '_>) -> R,
) -> (Cut, R) {
    // A project check derived every file's wrappers' protocols before ([`crate::Project`]).
    let project = config.clients.as_deref().map(Clients::derived);
    match project.filter(|derived| !derived.is_empty()) {
        // The analyses a runner kept were made without these protocols.
        Some(derived) => analyze_with(
            library,
            ir,
            config,
            &mut Fresh,
            Derived::Given(derived),
            finish,
        ),
        None => analyze_with(library, ir, config, runner, Derived::InFile, finish),
    }
}

/// The protocols derived from the project's wrappers ([`crate::wrappers`]) an analysis uses.
enum Derived<'d> {
    /// Those of the file's own wrappers: derived first, then the file is analysed again with
    /// them when there are some.
    InFile,
    /// These.
    Given(&'d [typestates::Typestate]),
    /// Derive those of the file's own wrappers into this, and analyse nothing.
    Collect(&'d mut Vec<typestates::Typestate>),
}

/// The protocols of the wrappers `ir` declares whose clients are checked against them
/// ([`crate::wrappers`]), with `config`'s clients.
pub(crate) fn derive_file(
    library: &Library,
    ir: &SourceIr,
    config: &CheckConfig,
) -> Vec<typestates::Typestate> {
    let mut derived = Vec::new();
    analyze_with(
        library,
        ir,
        config,
        &mut Fresh,
        Derived::Collect(&mut derived),
        |_| (),
    );
    derived
}

/// [`analyze`] with the wrappers' protocols of `derived`.
fn analyze_with<R>(
    library: &Library,
    ir: &SourceIr,
    config: &CheckConfig,
    runner: &mut dyn Runner,
    derived: Derived<'_>,
    finish: impl FnOnce(Analysed<'_, '_>) -> R,
) -> (Cut, R) {
    let deadline = Instant::now().checked_add(config.time_limit);
    let mut protocols = Protocols::with_project(library, &config.supertypes);
    let res = crate::resolve::resolve(ir, &protocols);
    protocols.add_classes(&res);
    let given = match &derived {
        Derived::Given(given) => given,
        Derived::InFile | Derived::Collect(_) => &[][..],
    };
    let protocols = protocols.with_derived(given);
    let clients = config.clients.clone().unwrap_or_else(|| {
        let classes = crate::clients::wrappers(ir, &res, &protocols);
        let tracked: Vec<_> = classes
            .iter()
            .filter(|w| w.fields == Fields::Tracked)
            .cloned()
            .collect();
        Arc::new(Clients::new(
            &SiteTable::of_file(Sites::of_file(ir, &res)),
            &tracked,
            &classes,
            &protocols,
        ))
    });
    let desugared = crate::accessors::desugar(ir, &res, &protocols);
    let ir = &*desugared;
    let places = places::collect(&ir.classes, ir.package.as_deref(), ir.language, &res);
    let mut helpers = HashMap::default();
    let mut classes = Vec::new();
    for class in &ir.classes {
        let fqn = match ir.package.as_deref() {
            Some(package) if !package.is_empty() => format!("{package}.{}", class.name),
            _ => class.name.clone(),
        };
        collect_classes(class, fqn, &mut classes);
    }
    for (class, fqn) in &classes {
        collect_helpers(class, fqn, &res, &places, &protocols, &mut helpers);
    }
    let initializers = initializer_bodies(&classes, ir.language);
    let mut shared = Shared::new(&protocols, &res, &places, ir.language, helpers, deadline);
    shared.captured = captured_locals(&classes, &places, &res);
    shared.once_captured = crate::once::captures(&crate::once::Context {
        classes: &classes,
        places: &places,
        res: &res,
        protocols: &protocols,
        helpers: &shared.helpers,
        language: ir.language,
    });
    shared.private_fields = private_fields(&classes, &res);
    shared.clients = clients;
    shared.own_methods = classes
        .iter()
        .filter_map(|(class, fqn)| Some((class, &res.class(fqn)?.fqn)))
        .flat_map(|(class, fqn)| class.methods.iter().map(|m| (fqn.clone(), m.name.clone())))
        .collect();
    shared.overrides_use = overrides_use(&classes, &res, &places, &protocols, ir.language);
    shared.report_unreleased = config.leak_scan == LeakScan::Run
        && (config.report_unreleased || crate::leaks::any_on_by_default());
    match derived {
        Derived::Given(_) => {}
        Derived::InFile => {
            let found = derive_protocols(&shared, &classes, &initializers);
            if !found.is_empty() {
                // The analyses a runner kept were made without these protocols.
                let derived = Derived::Given(&found);
                return analyze_with(library, ir, config, &mut Fresh, derived, finish);
            }
        }
        Derived::Collect(into) => {
            *into = derive_protocols(&shared, &classes, &initializers);
            let cut = Cut {
                timed_out: shared.out_of_time(),
                unconverged: Vec::new(),
            };
            let analysed = Analysed {
                protocols: &protocols,
                places: &places,
                recorded: Recorded::default(),
            };
            return (cut, finish(analysed));
        }
    }
    runner.start(ir, &res);
    let runner: &dyn Runner = runner;
    let mut recorded = Recorded::default();
    let mut withheld = Vec::new();
    for (class, fqn) in &classes {
        let watch = Watch {
            runner,
            unfinished: std::cell::RefCell::default(),
        };
        let mut found = check_class(&shared, class, fqn, &initializers, &watch);
        found.unfinished.append(&mut watch.unfinished.take());
        if found.unfinished.is_empty() && found.unsettled_events.is_none() {
            recorded.append(&mut found);
        } else {
            withheld.extend(unconverged(&classes, fqn, &found));
        }
    }
    let cut = Cut {
        timed_out: shared.out_of_time(),
        unconverged: withheld,
    };
    let res = finish(Analysed {
        protocols: &protocols,
        places: &places,
        recorded,
    });
    (cut, res)
}

/// The locals declared in method bodies that contain deferred code (lambdas, anonymous
/// classes), which that code may capture.
fn captured_locals(
    classes: &[(&Class, String)],
    places: &Places<'_>,
    res: &Resolution,
) -> HashMap<crate::resolve::LocalId, usize> {
    let within = |outer: Span, inner: Span| {
        outer.start_byte <= inner.start_byte && inner.end_byte <= outer.end_byte
    };
    let bodies: Vec<Span> = classes
        .iter()
        .flat_map(|(class, _)| class.methods.iter().filter_map(|m| m.body.as_ref()))
        .map(|body| body.span)
        .filter(|&body| places.deferred.iter().any(|d| within(body, d.body.span)))
        .collect();
    if bodies.is_empty() {
        return Default::default();
    }
    res.declarations()
        .filter(|(at, _)| {
            bodies
                .iter()
                .any(|b| b.start_byte <= *at && *at < b.end_byte)
        })
        .map(|(at, local)| (local, at))
        .collect()
}

/// The named classes of a file, nested ones included, with their fully qualified names.
fn collect_classes<'a>(class: &'a Class, fqn: String, out: &mut Vec<(&'a Class, String)>) {
    for nested in &class.classes {
        if nested.kind != ClassKind::Anonymous {
            collect_classes(nested, format!("{fqn}.{}", nested.name), out);
        }
    }
    out.push((class, fqn));
}

/// The methods the class calls on itself whose body is the one that runs: private ones, and
/// those no subclass can override (final or static methods, methods of a final class, or of a
/// class no class of the project extends); none named in a method reference.
/// Non-private ones stay event handlers too: other code may call them.
fn collect_helpers<'a>(
    class: &'a Class,
    fqn: &str,
    res: &'a Resolution,
    places: &Places<'a>,
    protocols: &Protocols<'_>,
    helpers: &mut HashMap<(&'a str, &'a str), Vec<Helper<'a>>>,
) {
    let Some(fqn) = res.class(fqn).map(|info| info.fqn.as_str()) else {
        return;
    };
    let class_is_final = class.modifiers.is_final || !protocols.has_subclass(fqn);
    for method in &class.methods {
        let runs_own_body = method.modifiers.is_private
            || method.modifiers.is_static
            || method.modifiers.is_final
            || class_is_final;
        let is_helper = runs_own_body
            && method.kind == MethodKind::Method
            && method.body.is_some()
            && !method.modifiers.is_abstract
            && places
                .self_calls
                .contains(&(fqn.to_owned(), method.name.clone()))
            && !places.method_refs.contains(&method.name);
        if is_helper {
            let index = helpers.values().map(Vec::len).sum();
            helpers
                .entry((fqn, method.name.as_str()))
                .or_default()
                .push(Helper { method, index });
        }
    }
}

/// Each field initializer of `classes` that runs code of its own (see [`runs_code`]) as a
/// body that returns its value, by the initializer's expression; the value of any other
/// initializer is its expression's.
fn initializer_bodies(classes: &[(&Class, String)], language: Language) -> HashMap<ExprId, Body> {
    let fields = classes.iter().flat_map(|(class, _)| &class.fields);
    fields
        .filter_map(|field| field.init.as_ref())
        .filter(|init| runs_code(init, language))
        .map(|init| {
            let stmt = Stmt {
                kind: StmtKind::Return {
                    value: Some(init.clone()),
                    label: None,
                },
                span: init.span,
            };
            let body = Body {
                stmts: vec![stmt],
                span: init.span,
            };
            (init.id, body)
        })
        .collect()
}

/// Whether evaluating `expr` runs code beside calls: an inlined lambda
/// (`MediaPlayer().apply { … }`) or the branches of an `if` or `when` used as a value.
fn runs_code(expr: &Expr, language: Language) -> bool {
    let any = |exprs: &[Expr]| exprs.iter().any(|e| runs_code(e, language));
    match &expr.kind {
        ExprKind::Control(_) => true,
        ExprKind::Call(call) => {
            crate::inline::inlined(call, language).is_some()
                || call
                    .receiver
                    .as_deref()
                    .is_some_and(|r| runs_code(r, language))
                || any(&call.args)
        }
        ExprKind::New { args, .. } | ExprKind::Other(args) => any(args),
        ExprKind::Field { receiver, .. }
        | ExprKind::MethodRef { receiver, .. }
        | ExprKind::Not(receiver)
        | ExprKind::Cast { expr: receiver, .. }
        | ExprKind::TypeTest { expr: receiver, .. } => runs_code(receiver, language),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Assign {
            target: lhs,
            value: rhs,
        } => runs_code(lhs, language) || runs_code(rhs, language),
        ExprKind::Name(_)
        | ExprKind::This(_)
        | ExprKind::Super
        | ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Literal
        | ExprKind::Lambda { .. } => false,
    }
}

/// The private fields of the file's classes.
fn private_fields(classes: &[(&Class, String)], res: &Resolution) -> HashSet<Var> {
    let mut fields = HashSet::default();
    for (class, fqn) in classes {
        let Some(info) = res.class(fqn) else {
            continue;
        };
        for field in class.fields.iter().filter(|f| f.modifiers.is_private) {
            fields.insert(Var::Field(info.fqn.clone(), field.name.clone()));
        }
    }
    fields
}

/// The fields, as [`Var::Field`]s, that the overrides of a class assign or call a method on,
/// for classes that extend a class the file does not declare, which is neither a component
/// with a lifecycle of its own ([`events::Component`]) nor a protocol class.
/// That superclass's code, which the check does not see, calls the overrides (a template
/// method: a gesture handler's `reset()` calls its `onReset()`), so a call of an inherited
/// method may release or replace what these fields hold.
fn overrides_use(
    classes: &[(&Class, String)],
    res: &Resolution,
    places: &Places<'_>,
    protocols: &Protocols<'_>,
    language: Language,
) -> HashSet<Var> {
    let mut fields = HashSet::default();
    for (class, fqn) in classes {
        let Some(info) = res.class(fqn) else {
            continue;
        };
        let Some(superclass) = &class.superclass else {
            continue;
        };
        let declared_here = classes
            .iter()
            .any(|(other, _)| other.name == superclass.name);
        let modelled = events::Component::of(protocols, &info.fqn) != events::Component::Plain
            || info
                .supertypes
                .iter()
                .any(|t| protocols.protocol_of(t).is_some());
        if declared_here || modelled {
            continue;
        }
        let own = |expr: &Expr| match places.var(expr) {
            Some(var @ Var::Field(owner, _)) if *owner == info.fqn => Some(var.clone()),
            _ => None,
        };
        let overrides = class
            .methods
            .iter()
            .filter(|m| m.modifiers.is_override && !m.modifiers.is_static);
        for body in overrides.filter_map(|m| m.body.as_ref()) {
            for node in &Cfg::build(body, language).nodes {
                let used = match node.kind {
                    NodeKind::Assign { target, .. } => own(target),
                    NodeKind::Call(Expr {
                        kind: ExprKind::Call(call),
                        ..
                    }) => call.receiver.as_deref().and_then(own),
                    _ => None,
                };
                fields.extend(used);
            }
        }
    }
    fields
}

/// Whether `ty` is a Java primitive type, whose default is no reference.
fn is_primitive(ty: &str) -> bool {
    matches!(
        ty,
        "boolean" | "byte" | "short" | "int" | "long" | "char" | "float" | "double"
    )
}

/// Analyses one class: construction (field initializers, with their bodies in
/// `initializers`, and initializer blocks, then constructors), the event fixpoint, then a
/// recording pass; returns what the recording saw. Bodies run as events go through `runner`.
fn check_class<'a>(
    shared: &Shared<'a, '_>,
    class: &'a Class,
    fqn: &str,
    initializers: &'a HashMap<ExprId, Body>,
    runner: &dyn Runner,
) -> Recorded {
    let Some(fqn) = shared.res.class(fqn).map(|info| info.fqn.as_str()) else {
        return Recorded::default();
    };
    let mut recorded = Recorded::default();
    let constructed = construct(shared, class, fqn, initializers, runner, &mut recorded);
    let ordered = |order: Order| {
        class
            .methods
            .iter()
            .filter(|m| m.kind == MethodKind::Method)
            .filter(move |m| shared.clients.order(fqn, &m.name) == order)
            .map(|m| m.name.as_str())
            .collect()
    };
    let mut driven: HashSet<&str> = ordered(Order::Driven);
    // The methods its clients are checked for against its derived protocol run within one
    // call here ([`crate::wrappers`]).
    let derived = shared.protocols.protocol_of(fqn).is_some_and(|id| {
        shared.protocols.is_derived(id) && shared.protocols.typestate(id).class == fqn
    });
    if derived {
        driven.extend(at_clients(shared, class, fqn));
    }
    let model = ClassModel {
        class,
        fqn,
        init: constructed,
        driven,
        last: ordered(Order::Last),
    };
    let solved = events::solve(shared, &model, runner);
    if solved.rounds == events::Rounds::Cut {
        recorded.unsettled_events = Some(class.span);
    }
    if shared.report_unreleased {
        let lost = crate::leaks::at_lifecycle(fqn, &solved.returns, solved.last);
        recorded.losses.dropped.extend(lost);
    }
    for event in solved.events {
        let body = match event.code {
            EventCode::Method(method) => method.body.as_ref(),
            EventCode::Deferred(deferred) => Some(deferred.body),
        };
        if let Some(body) = body {
            let mut result = runner.run(shared, fqn, body, event.entry, Pass::Record);
            // A method's violations are handled where every call of it catches them.
            if let EventCode::Method(method) = event.code {
                let callers = shared.clients.caught_by_callers(fqn, &method.name);
                for observation in &mut result.observations {
                    observation.caught.extend(callers.iter().cloned());
                }
            }
            recorded.take(&mut result);
        }
    }
    recorded
}

/// The methods of the plain class `class` whose clients are checked against its derived
/// protocol ([`Clients::at_clients`]); none for a component or a class with subclasses.
fn at_clients<'a>(shared: &Shared<'_, '_>, class: &'a Class, fqn: &str) -> Vec<&'a str> {
    if events::Component::of(shared.protocols, fqn) != events::Component::Plain
        || shared.protocols.has_subclass(fqn)
    {
        return Vec::new();
    }
    let public = crate::wrappers::public_methods(class);
    class
        .methods
        .iter()
        .filter(|m| public.contains(&m.name) && shared.clients.at_clients(fqn, &m.name))
        .map(|m| m.name.as_str())
        .collect()
}

/// The protocols of the file's wrappers whose clients are checked against them
/// ([`crate::wrappers`]).
fn derive_protocols<'a>(
    shared: &Shared<'a, '_>,
    classes: &[(&'a Class, String)],
    initializers: &'a HashMap<ExprId, Body>,
) -> Vec<typestates::Typestate> {
    let mut derived = Vec::new();
    for (class, fqn) in classes {
        let Some(fqn) = shared.res.class(fqn).map(|info| info.fqn.as_str()) else {
            continue;
        };
        let at_clients = at_clients(shared, class, fqn);
        if at_clients.is_empty() {
            continue;
        }
        let mut ignored = Recorded::default();
        let constructed = construct(shared, class, fqn, initializers, &Fresh, &mut ignored);
        let owned = &ignored.losses.owned;
        let protocol =
            crate::wrappers::derive(shared, class, fqn, &constructed, owned, &at_clients);
        derived.extend(protocol);
    }
    derived
}

/// The state construction leaves an object of `class` in: field initializers, with their
/// bodies in `initializers`, and initializer blocks, then constructors.
/// What their calls see goes into `recorded`.
fn construct<'a>(
    shared: &Shared<'a, '_>,
    class: &'a Class,
    fqn: &str,
    initializers: &'a HashMap<ExprId, Body>,
    runner: &dyn Runner,
    recorded: &mut Recorded,
) -> Env {
    // Construction counts only the paths that return: what throws leaves no object.
    let mut fields = Env::new();
    for field in &class.fields {
        let var = Var::Field(fqn.to_owned(), field.name.clone());
        // An initializer that runs code of its own is analysed like a helper whose returned
        // object the field holds.
        let returned = field.init.as_ref().and_then(|init| {
            let body = initializers.get(&init.id)?;
            let mut result = analyze_body(shared, fqn, body, fields.clone(), Pass::Record, 1);
            recorded.take(&mut result);
            if let Some(exit) = result.normal_exit {
                fields = exit;
            }
            result.returned
        });
        let Some(protocol) = shared.protocol_of_var(&var) else {
            continue;
        };
        let value = match (&field.init, &field.delegate) {
            (Some(init), _) => {
                let value = returned
                    .map(|returned| {
                        let mut value = returned.value;
                        value.alias = None;
                        value
                    })
                    .filter(|value| value.protocol == protocol)
                    .or_else(|| eval_initializer(shared, fqn, init, Some(protocol)));
                let created = value
                    .as_ref()
                    .is_some_and(|v| !v.unknown && !v.states.is_empty());
                if shared.report_unreleased && created {
                    recorded.losses.owned.push(Owned {
                        var: var.clone(),
                        written: field.name.clone(),
                        span: field.span,
                    });
                }
                value
            }
            (None, Some(_)) => Some(Value::unknown(protocol)),
            (None, None) => Some(Value::null(protocol)),
        };
        if let Some(value) = value {
            fields.insert(var, value);
        }
    }
    if let Some(protocol) = shared.protocols.protocol_of(fqn) {
        fields.insert(Var::This(fqn.to_owned()), Value::unknown(protocol));
    }
    // The flags a new object of the class starts with: constant initializers, and Java's
    // defaults (`false`, `null`) for fields declared without one.
    for field in &class.fields {
        let var = Var::Field(fqn.to_owned(), field.name.clone());
        if shared.protocol_of_var(&var).is_some()
            || field.delegate.is_some()
            || !shared.follows_flag(&var)
        {
            continue;
        }
        let fact = match &field.init {
            Some(init) => constant(init),
            None if shared.language == Language::Java => {
                match field.ty.as_ref().map(|ty| ty.name.as_str()) {
                    Some("boolean") => Some(Fact::Bool(false)),
                    Some("int" | "long" | "short" | "byte") => {
                        Some(Fact::Sign(crate::typestate_flow::Sign::Zero))
                    }
                    Some(ty) if !is_primitive(ty) => Some(Fact::Null),
                    _ => None,
                }
            }
            None => None,
        };
        if let Some(fact) = fact {
            set_fact(&mut fields, &var, Some(BTreeSet::from([fact])));
        }
    }
    // Captured locals of the class hold nothing until their method runs.
    let declared_here = |at: usize| class.span.start_byte <= at && at < class.span.end_byte;
    for (local, _) in shared.captured.iter().filter(|(_, at)| declared_here(**at)) {
        let var = Var::Local(*local);
        if let Some(protocol) = shared.protocol_of_var(&var) {
            fields.insert(var, Value::absent(protocol));
        }
    }
    let mut constructed = fields.clone();
    for init in &class.initializers {
        let mut result = runner.run(shared, fqn, init, constructed.clone(), Pass::Record);
        recorded.take(&mut result);
        constructed = result.normal_exit.unwrap_or(constructed);
    }
    let constructors: Vec<_> = class
        .methods
        .iter()
        .filter(|m| m.kind == MethodKind::Constructor)
        .filter_map(|m| m.body.as_ref())
        .collect();
    if !constructors.is_empty() {
        let mut joined = FlowState(None);
        for body in constructors {
            let mut result = runner.run(shared, fqn, body, constructed.clone(), Pass::Record);
            recorded.take(&mut result);
            crate::flow::Lattice::join(&mut joined, &FlowState(result.normal_exit));
        }
        constructed = joined.0.unwrap_or(constructed);
    }
    constructed
}
