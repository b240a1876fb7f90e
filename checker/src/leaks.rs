//! Leaks: objects dropped, overwritten, or still held at a lifecycle deadline while an obligation of their protocol holds (`typestates::obligation`).
//!
//! The dataflow of [`crate::typestate_flow`] and [`crate::events`] says where objects are; this module says where one is lost.
//! It takes their results and returns what it finds; it keeps no table of its own.
//! - [`scan_body`] takes one body's graph with its solution, and returns its [`Losses`].
//!   They are the names given a new object, and the objects lost at the end, on exception paths and by assignments.
//! - [`at_lifecycle`] takes the states in which a component's lifecycle callbacks return, and returns the objects its fields hold there.
//! - [`report`] joins what every body and lifecycle lost into findings.
//!
//! Precision rules:
//! - Only a name that was given a newly created object is followed ([`Owned`]).
//! - A value of unknown origin never leaks.
//!   Nor does one a call of unknown effect may have released or kept (`Value::forgotten`, passing it to any method).
//! - A platform writer (`Bitmap.compress`) leaves the stream it is given owned here.
//! - Take a local declared in the body and given only objects of known origin.
//!   It holds nothing where it was not given one yet, as in a `catch` entered before its
//!   initializer ran.
//! - A name whose object another name still holds (a must-alias group) does not drop it.
//! - Returned, stored in a field, captured, passed on (wrapper constructors, containers), try-with-resources and `use {}` move the obligation away.
//! - A callin that returns its receiver (`t = new CountDownTimer(..) {..}.start()`, [`crate::platform::returns_receiver`]) gives the name the object it was called on.
//! - A wrapper of an object the body does not own owns nothing either: its resource is the wrapped one's ([`foreign_wrappers`]).
//! - A stream made over a file descriptor owns nothing: whoever opened the descriptor does.
//! - States reached only by guesses never count.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use typestates::model::StateId;
use typestates::obligation::{Basis, Deadline};

use crate::cfg::{Cfg, CloseTarget, EdgeKind, NodeId, NodeKind};
use crate::diagnostics::{Related, Unreleased};
use crate::ir::{Expr, ExprId, ExprKind, Span};
use crate::places::Var;
use crate::protocols::{ProtocolId, Protocols};
use crate::typestate_flow::{receiver_text, Env, Shared, Value};

/// How an object is lost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum LeakKind {
    /// A local still holds it when the method that created it ends.
    MethodEnd,
    /// An exception leaves the method while a local holds it.
    Exception,
    /// The variable or field holding it is given another value or `null`.
    Overwritten,
    /// A new object replaces it in a field.
    Replaced,
    /// A field of a component still holds it when the component is destroyed.
    ComponentEnd,
    /// A field of a component holds it when the lifecycle callback returns.
    Lifecycle(Deadline),
}

impl LeakKind {
    /// The diagnostic code.
    pub fn code(self) -> &'static str {
        match self {
            LeakKind::MethodEnd => "leak-method-end",
            LeakKind::Exception => "leak-exception",
            LeakKind::Overwritten => "leak-overwritten",
            LeakKind::Replaced => "leak-replaced",
            LeakKind::ComponentEnd => "leak-component-end",
            LeakKind::Lifecycle(_) => "leak-lifecycle",
        }
    }

    /// When the object is lost, for messages: "the method ends".
    fn when(self) -> String {
        match self {
            LeakKind::MethodEnd => "the method ends".to_owned(),
            LeakKind::Exception => "an exception leaves the method".to_owned(),
            LeakKind::Overwritten => "it is overwritten".to_owned(),
            LeakKind::Replaced => "a new object replaces it".to_owned(),
            LeakKind::ComponentEnd => "the component is destroyed".to_owned(),
            LeakKind::Lifecycle(deadline) => format!("{}() returns", deadline.method()),
        }
    }
}

/// The code of the never-released report of a protocol that declares no obligation, whose
/// final states are guessed from the names of its releasing callins.
pub const GUESSED_CODE: &str = "never-released";

/// The leak reports on by default, without `--unreleased`: classes and kinds for which the
/// leak benchmark (`bench/checker/leaks.toml`, `bench/results/leaks.md`) showed at least 90 %
/// true reports over at least 5 findings that are not copies of another in a fork.
/// On 2026-11-28: `Cursor` 7 of 7 true (6 not copies), `MediaMetadataRetriever` 6 of 6,
/// `InputStream` 5 of 5, each at the end of a method; `FileOutputStream` 5 of 5 on an
/// exception path that skips the close of the normal path.
const ON_BY_DEFAULT: &[(&str, LeakKind)] = &[
    ("android.database.Cursor", LeakKind::MethodEnd),
    ("android.media.MediaMetadataRetriever", LeakKind::MethodEnd),
    ("java.io.InputStream", LeakKind::MethodEnd),
    ("java.io.FileOutputStream", LeakKind::Exception),
];

/// Whether the leak report of protocol class `class` with diagnostic code `code` is on without
/// `--unreleased` ([`ON_BY_DEFAULT`]).
pub fn on_by_default(class: &str, code: &str) -> bool {
    ON_BY_DEFAULT
        .iter()
        .any(|(on, kind)| *on == class && kind.code() == code)
}

/// Whether leaks are followed at all when `--unreleased` is off.
pub(crate) fn any_on_by_default() -> bool {
    !ON_BY_DEFAULT.is_empty()
}

/// One place where an object may be lost.
#[derive(Debug, Clone)]
pub(crate) struct Dropped {
    /// The name that held it.
    pub var: Var,
    /// What the name held.
    pub value: Value,
    /// How it is lost.
    pub kind: LeakKind,
    /// Where, when not the end of a body or lifecycle: the assignment or throwing call.
    pub at: Option<Span>,
}

/// A name given a newly created object: the name as written, and where.
#[derive(Debug, Clone)]
pub(crate) struct Owned {
    /// The name.
    pub var: Var,
    /// The name as written (`player`, `this.player`).
    pub written: String,
    /// Where it is given the object.
    pub span: Span,
}

/// What the leak scan found in one body (and the helpers it called).
#[derive(Debug, Clone, Default)]
pub(crate) struct Losses {
    /// The names given a newly created object, in the order the scan met them.
    pub owned: Vec<Owned>,
    /// Where objects may be lost.
    pub dropped: Vec<Dropped>,
}

impl Losses {
    /// Adds what `other` found after what this found.
    pub fn append(&mut self, other: &mut Losses) {
        self.owned.append(&mut other.owned);
        self.dropped.append(&mut other.dropped);
    }

    /// The names given a new object, each with the first place it is given one.
    pub fn owners(&self) -> HashMap<Var, (String, Span)> {
        let mut owners = HashMap::default();
        for owned in &self.owned {
            owners
                .entry(owned.var.clone())
                .or_insert_with(|| (owned.written.clone(), owned.span));
        }
        owners
    }
}

/// What a protocol obliges for one kind of leak.
struct Obligated<'l> {
    states: Vec<StateId>,
    /// Whether obligations say so, or the final states are guessed.
    declared: bool,
    convention: bool,
    releasing: Vec<&'l str>,
}

/// The states protocol `id` must not be lost in by a leak of `kind`: those of its obligations
/// without a deadline (with [`LeakKind::Lifecycle`], those with that deadline), or, when it
/// declares no obligation at all, every state but its guessed final ones (end of a method or
/// component only).
fn obligated<'l>(
    protocols: &Protocols<'l>,
    id: ProtocolId,
    kind: LeakKind,
) -> Option<Obligated<'l>> {
    let ts = protocols.typestate(id);
    if ts.obligations.is_empty() {
        if !matches!(kind, LeakKind::MethodEnd | LeakKind::ComponentEnd) {
            return None;
        }
        let finals = protocols.final_states(id);
        if finals.is_empty() {
            return None;
        }
        return Some(Obligated {
            states: ts.state_ids().filter(|s| !finals.contains(s)).collect(),
            declared: false,
            convention: false,
            releasing: protocols.releasing_methods(id),
        });
    }
    let deadline = match kind {
        LeakKind::Lifecycle(deadline) => Some(deadline),
        _ => None,
    };
    let matching: Vec<_> = ts.obligations.iter().filter(|o| o.by == deadline).collect();
    if matching.is_empty() {
        return None;
    }
    let mut states: Vec<StateId> = matching.iter().flat_map(|o| o.states.clone()).collect();
    states.sort_unstable();
    states.dedup();
    let mut releasing: Vec<&'l str> = matching
        .iter()
        .flat_map(|o| o.until.iter())
        .flat_map(|&c| ts.callin(c).binding.methods.iter().map(|m| m.name.as_str()))
        .collect();
    releasing.sort_unstable();
    releasing.dedup();
    Some(Obligated {
        states,
        declared: true,
        convention: matching.iter().all(|o| o.basis == Basis::Convention),
        releasing,
    })
}

/// The states of `value` an obligation forbids losing it in, if any: never for an object
/// of unknown origin, one a call of unknown effect may have released or kept, or states
/// only guessed.
fn open_states(value: &Value, obligated: &Obligated<'_>) -> Vec<StateId> {
    if value.unknown || value.forgotten {
        return Vec::new();
    }
    value
        .states
        .keys()
        .filter(|s| obligated.states.contains(s) && !value.guessed.contains(s))
        .copied()
        .collect()
}

/// Whether `var`'s object is also held by another name of `env` (a copy in a field).
fn held_elsewhere(env: &Env, var: &Var, value: &Value) -> bool {
    value.alias.is_some_and(|group| {
        env.iter()
            .any(|(other, v)| other != var && v.alias == Some(group))
    })
}

/// Packages whose calls throw checked I/O exceptions in the normal course of things: an
/// exception path through one of their calls is one a real run takes.
const THROWING_PACKAGES: &[&str] = &[
    "java.io.",
    "java.net.",
    "java.nio.",
    "java.util.zip.",
    "java.sql.",
    "okhttp3.",
];

/// Calls that hand the object's resource to what they return: closing a `ResponseBody`'s
/// `source()`, `byteStream()` or `charStream()` closes the body (OkHttp `ResponseBody` KDoc),
/// and closing a `FileInputStream`'s `getChannel()` closes the stream (Java SE API).
const HANDING_OVER: &[&str] = &["source", "byteStream", "charStream", "getChannel"];

/// What one body loses: objects of locals at its end and on I/O exceptions thrown outside
/// every `try`, and objects whose name an assignment overwrites; with the names it gives a
/// new object.
/// `env_at` gives the state entering a node, `None` where no path reaches it.
/// An object whose resource a call hands over to code that keeps it ([`HANDING_OVER`], the
/// result passed on, returned or stored) is not followed in the body.
/// A field is followed wherever it is given its object: [`report`] keeps the names some body
/// owns.
pub(crate) fn scan_body<'e>(
    shared: &Shared<'_, '_>,
    cfg: &Cfg<'_>,
    env_at: impl Fn(NodeId) -> Option<&'e Env>,
) -> Losses {
    let owned = owned_in(shared, cfg, &env_at);
    // Resources of try-with-resources and `use {}` are closed by the language.
    let mut settled: Vec<Var> = cfg
        .nodes
        .iter()
        .filter_map(|node| match node.kind {
            NodeKind::Close(CloseTarget::Local(local)) => shared
                .res
                .declared_at(local.name_span.start_byte)
                .map(Var::Local),
            NodeKind::Close(CloseTarget::Expr(expr)) => shared.places.var(expr).cloned(),
            _ => None,
        })
        .collect();
    settled.extend(handed_over(shared, cfg));
    let views = views_in(shared, cfg);
    // A local some `return` returns holds the caller's object there; one it held before an
    // assignment gave it another is no longer returned.
    let kept = |var: &Var, kind: LeakKind| {
        !settled.contains(var)
            && match var {
                Var::Local(local) => {
                    !shared.captured.contains_key(local)
                        && !shared.places.escaping.contains(local)
                        && (kind == LeakKind::Overwritten
                            || !shared.places.returned.contains(local))
                }
                _ => true,
            }
    };
    // A view's resource is its origin's: the origin is followed, and is lost only where its
    // views are kept and still open too (closing a view closes the origin).
    let followed_in = |var: &Var, kind: LeakKind, env: &Env| {
        kept(var, kind)
            && (!matches!(var, Var::Local(_)) || owned.iter().any(|o| o.var == *var))
            && !views.iter().any(|view| view.view == *var)
            && views
                .iter()
                .filter(|view| view.origin == *var)
                .all(|view| kept(&view.view, kind) && still_open(shared, env, &view.view))
    };
    let mut found = Vec::new();
    if let Some(env) = env_at(cfg.exit) {
        for (var, value) in env {
            if matches!(var, Var::Local(_)) && followed_in(var, LeakKind::MethodEnd, env) {
                found.push(Dropped {
                    var: var.clone(),
                    value: value.clone(),
                    kind: LeakKind::MethodEnd,
                    at: None,
                });
            }
        }
    }
    for (index, node) in cfg.nodes.iter().enumerate() {
        let id = NodeId(u32::try_from(index).unwrap_or(u32::MAX));
        let Some(env) = env_at(id) else { continue };
        match node.kind {
            NodeKind::Assign { target, value } => {
                let Some(var) = shared.places.var(target) else {
                    continue;
                };
                let Some(old) = env.get(var) else { continue };
                let same_object = shared.places.var(value).is_some_and(|source| {
                    source == var
                        || env
                            .get(source)
                            .is_some_and(|v| v.alias.is_some() && v.alias == old.alias)
                });
                let kind = match (var, &value.kind) {
                    (_, ExprKind::Null) | (Var::Local(_), _) => LeakKind::Overwritten,
                    _ => LeakKind::Replaced,
                };
                if !followed_in(var, kind, env) || held_elsewhere(env, var, old) || same_object {
                    continue;
                }
                found.push(Dropped {
                    var: var.clone(),
                    value: old.clone(),
                    kind,
                    at: Some(target.span),
                });
            }
            NodeKind::Call(expr) | NodeKind::New(expr) => {
                // Only a `try` gives a call exception edges: one without any is outside every
                // `try`, so what it throws leaves the method (one inside may be caught, or
                // meet a `finally` that releases).
                let uncaught = !node
                    .succs
                    .iter()
                    .any(|&(_, edge)| edge == EdgeKind::Exception);
                if !uncaught || !throws_io(shared, expr, env) {
                    continue;
                }
                for (var, value) in env {
                    if matches!(var, Var::Local(_))
                        && followed_in(var, LeakKind::Exception, env)
                        && !releases(shared, expr, var, value)
                    {
                        found.push(Dropped {
                            var: var.clone(),
                            value: value.clone(),
                            kind: LeakKind::Exception,
                            at: Some(expr.span),
                        });
                    }
                }
            }
            _ => {}
        }
    }
    let mut made_only: HashMap<Var, bool> = HashMap::default();
    for dropped in &mut found {
        if !dropped.value.unknown || !matches!(dropped.var, Var::Local(_)) {
            continue;
        }
        let made = *made_only
            .entry(dropped.var.clone())
            .or_insert_with(|| holds_only_made(shared, cfg, &env_at, &dropped.var));
        if made {
            // Where no object was given to it yet, the local holds none.
            dropped.value.unknown = false;
            dropped.value.null = true;
        }
    }
    Losses {
        owned,
        dropped: found,
    }
}

/// The names the reachable declarations and assignments of `cfg` give a newly created object
/// that holds a resource, in the graph's order.
fn owned_in<'e>(
    shared: &Shared<'_, '_>,
    cfg: &Cfg<'_>,
    env_at: impl Fn(NodeId) -> Option<&'e Env>,
) -> Vec<Owned> {
    let foreign = foreign_wrappers(shared, cfg, &env_at);
    let creates = |var: &Var, mut value: &Expr| {
        // A callin that returns its receiver hands on the object it was called on.
        while let Some(receiver) = shared.receiver_returned(value) {
            value = receiver;
        }
        shared
            .creation(value, shared.protocol_of_var(var))
            .is_some()
            && !holds_nothing(shared, value)
            && !foreign.contains(&value.id)
    };
    let mut owned = Vec::new();
    for (index, node) in cfg.nodes.iter().enumerate() {
        if env_at(NodeId(u32::try_from(index).unwrap_or(u32::MAX))).is_none() {
            continue;
        }
        let given = match node.kind {
            NodeKind::Declare(local) => local.init.as_ref().and_then(|init| {
                let var = Var::Local(shared.res.declared_at(local.name_span.start_byte)?);
                creates(&var, init).then(|| Owned {
                    var,
                    written: local.name.clone(),
                    span: local.name_span,
                })
            }),
            NodeKind::Assign { target, value } => shared.places.var(target).and_then(|var| {
                creates(var, value).then(|| Owned {
                    var: var.clone(),
                    written: receiver_text(target),
                    span: target.span,
                })
            }),
            _ => None,
        };
        owned.extend(given);
    }
    owned
}

/// Whether local `var` is declared in `cfg` and every value it is given there is of known
/// origin (an object the body made, or `null`), as the state right after each store says.
/// Then [`Value::unknown`] on it only says that some path had not given it a value yet: a
/// path from before its declaration joined (a `catch` entered from the initializer), or a
/// declaration without initializer. There it holds nothing, not an object of unknown origin.
fn holds_only_made<'e>(
    shared: &Shared<'_, '_>,
    cfg: &Cfg<'_>,
    env_at: &impl Fn(NodeId) -> Option<&'e Env>,
    var: &Var,
) -> bool {
    let declared_here = |local: &crate::ir::Local| {
        shared
            .res
            .declared_at(local.name_span.start_byte)
            .map(Var::Local)
            .as_ref()
            == Some(var)
    };
    let mut declared = false;
    for node in &cfg.nodes {
        let stores = match node.kind {
            NodeKind::Declare(local) if declared_here(local) => {
                declared = true;
                local.init.is_some()
            }
            NodeKind::Assign { target, .. } => shared.places.var(target) == Some(var),
            _ => false,
        };
        let known_after = |&(next, _): &(NodeId, EdgeKind)| {
            env_at(next)
                .and_then(|env| env.get(var))
                .is_some_and(|value| !value.unknown)
        };
        if stores && !node.succs.iter().all(known_after) {
            return false;
        }
    }
    declared
}

/// The named object whose resource `expr`, a [`HANDING_OVER`] call, hands over.
fn handing_origin<'s>(shared: &'s Shared<'_, '_>, expr: &Expr) -> Option<&'s Var> {
    match &expr.kind {
        ExprKind::Call(call) if HANDING_OVER.contains(&call.name.as_str()) => {
            call.receiver.as_deref().and_then(|r| shared.places.var(r))
        }
        _ => None,
    }
}

/// The tracked names whose resource a [`HANDING_OVER`] call gives away in `cfg`: its result
/// is an argument, the returned value, or the value stored in a field.
/// (A local given it holds a [`View`].)
fn handed_over(shared: &Shared<'_, '_>, cfg: &Cfg<'_>) -> Vec<Var> {
    let mut out = Vec::new();
    for node in &cfg.nodes {
        let passed: Vec<&Expr> = match node.kind {
            NodeKind::Call(expr) | NodeKind::New(expr) => match &expr.kind {
                ExprKind::Call(call) => call.args.iter().collect(),
                ExprKind::New { args, .. } => args.iter().collect(),
                _ => Vec::new(),
            },
            NodeKind::Return(value) => vec![value],
            NodeKind::Assign { target, value }
                if !matches!(shared.places.var(target), Some(Var::Local(_))) =>
            {
                vec![value]
            }
            _ => Vec::new(),
        };
        out.extend(
            passed
                .into_iter()
                .filter_map(|expr| handing_origin(shared, expr).cloned()),
        );
    }
    out
}

/// A local given the result of a [`HANDING_OVER`] call on a named object: both hold one
/// resource, and closing either closes it (`FileChannel channel = in.getChannel()`).
struct View {
    /// The local given the result.
    view: Var,
    /// The name the call is made on.
    origin: Var,
}

/// The [`View`]s the declarations and assignments of `cfg` make.
fn views_in(shared: &Shared<'_, '_>, cfg: &Cfg<'_>) -> Vec<View> {
    let mut views = Vec::new();
    for node in &cfg.nodes {
        let (view, value) = match node.kind {
            NodeKind::Declare(local) => match (
                &local.init,
                shared.res.declared_at(local.name_span.start_byte),
            ) {
                (Some(init), Some(id)) => (Var::Local(id), init),
                _ => continue,
            },
            NodeKind::Assign { target, value } => match shared.places.var(target) {
                Some(var @ Var::Local(_)) => (var.clone(), value),
                _ => continue,
            },
            _ => continue,
        };
        if let Some(origin) = handing_origin(shared, value) {
            views.push(View {
                view,
                origin: origin.clone(),
            });
        }
    }
    views
}

/// Whether `var` holds, in `env`, an object of known origin in a state an obligation forbids
/// losing it in.
fn still_open(shared: &Shared<'_, '_>, env: &Env, var: &Var) -> bool {
    env.get(var).is_some_and(|value| {
        obligated(shared.protocols, value.protocol, LeakKind::MethodEnd)
            .is_some_and(|obligated| !open_states(value, &obligated).is_empty())
    })
}

/// Methods of streams, files, sockets and readers that declare `IOException` and fail in the
/// normal course of things (a read or write of a broken file or connection).
const THROWING_METHODS: &[&str] = &[
    "read",
    "readLine",
    "readFully",
    "write",
    "flush",
    "skip",
    "available",
    "reset",
    "seek",
    "length",
    "connect",
    "getInputStream",
    "getOutputStream",
    "append",
    "newLine",
    "ready",
    "transferTo",
    "transferFrom",
    "string",
    "bytes",
];

/// Classes whose objects hold no resource: closing them has no effect (Java SE API,
/// `ByteArrayInputStream`, `ByteArrayOutputStream`, `StringReader`, `StringWriter`,
/// `CharArrayReader`, `CharArrayWriter`).
const HOLDING_NOTHING: &[&str] = &[
    "java.io.ByteArrayInputStream",
    "java.io.ByteArrayOutputStream",
    "java.io.StringReader",
    "java.io.StringWriter",
    "java.io.CharArrayReader",
    "java.io.CharArrayWriter",
];

/// The methods that return an open file's `java.io.FileDescriptor`, which stays its owner's
/// (Java SE API `getFD()` of `FileInputStream`, `FileOutputStream` and `RandomAccessFile`;
/// Android's `getFileDescriptor()` of `ParcelFileDescriptor` and `AssetFileDescriptor`).
const DESCRIPTOR_ACCESSORS: &[&str] = &["getFD", "getFileDescriptor"];

/// Whether `arg` is a `java.io.FileDescriptor`: by its known type, or as the result of one of
/// [`DESCRIPTOR_ACCESSORS`].
fn is_descriptor(shared: &Shared<'_, '_>, arg: &Expr) -> bool {
    let typed = shared
        .res
        .type_of(arg.id)
        .is_some_and(|t| t.fqn == "java.io.FileDescriptor");
    let accessor = match &arg.kind {
        ExprKind::Call(call) => {
            call.args.is_empty() && DESCRIPTOR_ACCESSORS.contains(&call.name.as_str())
        }
        _ => false,
    };
    typed || accessor
}

/// The creations of `cfg` that wrap an object the body does not own
/// (`new BufferedReader(new InputStreamReader(in))` with `in` a parameter): a wrapper's
/// resource is the one it wraps (closing it closes that one), so the obligation stays with
/// whoever owns the wrapped object, as for the wrapped object itself.
/// An argument is foreign when it follows a protocol that obliges a release and is of unknown
/// origin where the creation runs (before the creation passes it on and forgets it), or is
/// itself a creation that wraps a foreign object.
/// A file descriptor is always foreign: a stream made over one does not own it (libcore's
/// `FileOutputStream(FileDescriptor)` is not the descriptor's owner); whoever opened it does.
fn foreign_wrappers<'e>(
    shared: &Shared<'_, '_>,
    cfg: &Cfg<'_>,
    env_at: &impl Fn(NodeId) -> Option<&'e Env>,
) -> HashSet<ExprId> {
    let obliges = |protocol| obligated(shared.protocols, protocol, LeakKind::MethodEnd).is_some();
    let mut foreign = HashSet::default();
    for (index, node) in cfg.nodes.iter().enumerate() {
        let (NodeKind::New(created) | NodeKind::Call(created)) = node.kind else {
            continue;
        };
        let Some(env) = env_at(NodeId(u32::try_from(index).unwrap_or(u32::MAX))) else {
            continue;
        };
        let args = match &created.kind {
            ExprKind::New { args, .. } => args,
            ExprKind::Call(call) => &call.args,
            _ => continue,
        };
        let wraps = args.iter().any(|arg| {
            if is_descriptor(shared, arg) {
                return true;
            }
            if shared.creation(arg, None).is_some() {
                return foreign.contains(&arg.id);
            }
            match shared.places.var(arg).and_then(|var| env.get(var)) {
                Some(value) => obliges(value.protocol) && value.unknown,
                None => shared
                    .protocol_of_type(shared.res.type_of(arg.id))
                    .is_some_and(obliges),
            }
        });
        if wraps && shared.creation(created, None).is_some() {
            foreign.insert(created.id);
        }
    }
    foreign
}

/// Whether `created`, an expression creating a protocol object, creates one that holds no
/// resource, so that nothing obliges its release.
fn holds_nothing(shared: &Shared<'_, '_>, created: &Expr) -> bool {
    shared
        .res
        .type_of(created.id)
        .is_some_and(|t| HOLDING_NOTHING.contains(&t.fqn.as_str()))
}

/// `(class, method)` pairs of [`THROWING_METHODS`] that cannot fail on an object of that class.
/// `FileOutputStream` does not override `flush()`, and `OutputStream.flush()` "does nothing"
/// (Java SE API): a claim from the documentation.
const NOT_THROWING: &[(&str, &str)] = &[("java.io.FileOutputStream", "flush")];

/// Whether `expr` may throw an I/O exception in the normal course of things: a constructor of
/// a protocol class in [`THROWING_PACKAGES`] that wraps no tracked object and opens a resource
/// (`new FileInputStream(path)`, not `new BufferedInputStream(in)` or `new
/// ByteArrayOutputStream()`), or one of
/// [`THROWING_METHODS`] called on a tracked object of such a class (but not [`NOT_THROWING`]).
fn throws_io(shared: &Shared<'_, '_>, expr: &Expr, env: &Env) -> bool {
    let tracked = |args: &[Expr]| {
        args.iter().any(|a| {
            shared
                .places
                .var(a)
                .is_some_and(|var| env.get(var).is_some())
        })
    };
    let class = match &expr.kind {
        ExprKind::New { args, .. } if tracked(args) || holds_nothing(shared, expr) => None,
        ExprKind::New { .. } => shared
            .res
            .type_of(expr.id)
            .filter(|t| shared.protocols.protocol_of(&t.fqn).is_some())
            .map(|t| t.fqn.clone()),
        ExprKind::Call(call) if THROWING_METHODS.contains(&call.name.as_str()) => call
            .receiver
            .as_deref()
            .and_then(|r| shared.places.var(r))
            .and_then(|var| env.get(var))
            .map(|value| shared.protocols.typestate(value.protocol).class.clone())
            .filter(|class| !NOT_THROWING.contains(&(class.as_str(), call.name.as_str()))),
        _ => None,
    };
    class.is_some_and(|class| THROWING_PACKAGES.iter().any(|p| class.starts_with(p)))
}

/// The tracked receiver `expr` releases, if it is a call of a callin that discharges an
/// obligation of the receiver's protocol: when that call throws, the object may be released
/// all the same (a stream's `close()` frees its descriptor before it reports a failed flush).
pub(crate) fn released_receiver(shared: &Shared<'_, '_>, expr: &Expr, env: &Env) -> Option<Var> {
    let ExprKind::Call(call) = &expr.kind else {
        return None;
    };
    let var = call
        .receiver
        .as_deref()
        .and_then(|r| shared.places.var(r))?;
    let value = env.get(var)?;
    releases(shared, expr, var, value).then(|| var.clone())
}

/// Whether `expr` is the call that releases `var` (a `close()` that throws leaves nothing to
/// release).
fn releases(shared: &Shared<'_, '_>, expr: &Expr, var: &Var, value: &Value) -> bool {
    let ExprKind::Call(call) = &expr.kind else {
        return false;
    };
    call.receiver.as_deref().and_then(|r| shared.places.var(r)) == Some(var)
        && obligated(shared.protocols, value.protocol, LeakKind::MethodEnd)
            .is_some_and(|o| o.releasing.contains(&call.name.as_str()))
}

/// The objects the fields of component `fqn` hold where its lifecycle ends: `returns` has the
/// state in which each lifecycle callback returns, by name, and `last` names the last one.
/// A field still holding an object when `last` returns leaks at the component's end; one
/// holding it when a callback with a deadline returns leaks there ([`Deadline`]).
pub(crate) fn at_lifecycle(fqn: &str, returns: &[(&str, Env)], last: Option<&str>) -> Vec<Dropped> {
    let mut found = Vec::new();
    let fields = |env: &Env| {
        env.iter()
            .filter(|(var, _)| matches!(var, Var::Field(class, _) if class == fqn))
            .map(|(var, value)| (var.clone(), value.clone()))
            .collect::<Vec<_>>()
    };
    for (method, env) in returns {
        if Some(*method) == last {
            found.extend(fields(env).into_iter().map(|(var, value)| Dropped {
                var,
                value,
                kind: LeakKind::ComponentEnd,
                at: None,
            }));
        }
        if let Some(deadline) = Deadline::from_method(method) {
            found.extend(fields(env).into_iter().map(|(var, value)| Dropped {
                var,
                value,
                kind: LeakKind::Lifecycle(deadline),
                at: None,
            }));
        }
    }
    found
}

/// One finding per owned name and kind of leak, its values joined over every place it is
/// lost there, at the first such place, in source order. With `all` off, only the leaks
/// [`ON_BY_DEFAULT`] lists.
pub(crate) fn report(protocols: &Protocols<'_>, losses: Losses, all: bool) -> Vec<Unreleased> {
    let owned = losses.owners();
    let mut joined: Vec<Dropped> = Vec::new();
    // Where in `joined` each name, kind and protocol is: a search of the list per loss was
    // quadratic in the objects lost.
    let mut index: HashMap<(Var, LeakKind, ProtocolId), usize> = HashMap::default();
    for d in losses
        .dropped
        .into_iter()
        .filter(|d| owned.contains_key(&d.var))
    {
        let key = (d.var.clone(), d.kind, d.value.protocol);
        match index.get(&key).map(|at| &mut joined[*at]) {
            Some(current) => {
                current.value.join(&d.value);
                if let (Some(at), Some(new)) = (current.at, d.at) {
                    if new.start_byte < at.start_byte {
                        current.at = Some(new);
                    }
                }
            }
            None => {
                index.insert(key, joined.len());
                joined.push(d);
            }
        }
    }
    let mut out: Vec<Unreleased> = joined
        .into_iter()
        .filter_map(|d| {
            let (name, span) = owned.get(&d.var)?;
            finding(protocols, &d, name, *span)
        })
        .collect();
    // An object lost otherwise is lost on its exception paths too: one report.
    // This comes before the filter, so the reports on by default are those `--unreleased` makes.
    let exception = LeakKind::Exception.code();
    let stored = |u: &Unreleased| u.related.first().map_or(u.span, |r| r.span);
    let lost_otherwise: HashSet<Span> = out
        .iter()
        .filter(|u| u.code != exception)
        .map(stored)
        .collect();
    out.retain(|u| u.code != exception || !lost_otherwise.contains(&stored(u)));
    // An object still held when `onDestroy()` returns, its deadline, is held when the component
    // ends: one report, the one naming the deadline (a `WakeLock` gave both).
    // An earlier deadline missed says less than never released: both stay.
    let destroy = LeakKind::Lifecycle(Deadline::Destroy);
    let due: HashSet<Span> = out
        .iter()
        .filter(|u| u.kind == destroy)
        .map(stored)
        .collect();
    out.retain(|u| u.kind != LeakKind::ComponentEnd || !due.contains(&stored(u)));
    out.retain(|u| all || on_by_default(&u.class, u.code));
    out.sort_by_key(|u| (u.span.start_byte, u.code));
    out
}

/// The finding for `dropped`, whose name `receiver` was given the object at `stored`.
fn finding(
    protocols: &Protocols<'_>,
    dropped: &Dropped,
    receiver: &str,
    stored: Span,
) -> Option<Unreleased> {
    let value = &dropped.value;
    let obligated = obligated(protocols, value.protocol, dropped.kind)?;
    let open = open_states(value, &obligated);
    if open.is_empty() {
        return None;
    }
    let ts = protocols.typestate(value.protocol);
    let definite = dropped.kind != LeakKind::Exception
        && !value.null
        && !value.approximate
        && open.len() == value.states.len();
    let states: Vec<String> = open.iter().map(|s| ts.state(*s).name.clone()).collect();
    let how = obligated
        .releasing
        .iter()
        .map(|m| format!("{m}()"))
        .collect::<Vec<_>>()
        .join(" or ");
    let message = format!(
        "`{receiver}` ({}) {} not released when {}: it {} still be {}; call {how} first{}",
        ts.simple_name(),
        if definite { "is" } else { "may be" },
        dropped.kind.when(),
        if definite { "would" } else { "may" },
        states.join(", "),
        if obligated.convention {
            " (a convention of the platform, not a requirement)"
        } else {
            ""
        }
    );
    let (span, related) = match dropped.at {
        Some(at) if at == stored => (at, Vec::new()),
        Some(at) => (
            at,
            vec![Related {
                span: stored,
                label: format!("`{receiver}` is given the object here"),
            }],
        ),
        None => (stored, Vec::new()),
    };
    Some(Unreleased {
        span,
        class: ts.class.clone(),
        receiver: receiver.to_owned(),
        states,
        definite,
        releasing: obligated
            .releasing
            .iter()
            .map(|m| (*m).to_owned())
            .collect(),
        message,
        code: if obligated.declared {
            dropped.kind.code()
        } else {
            GUESSED_CODE
        },
        convention: obligated.convention,
        kind: dropped.kind,
        related,
        fix: None,
    })
}
