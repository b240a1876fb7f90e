//! Deferred code that runs once per creation, and the locals only it and its creator use.
//!
//! A lambda or anonymous object handed to a `Handler`, an executor or `runOnUiThread` runs once ([`crate::platform::hands_off`]).
//! So does one handed to a helper that runs it, or hands it over, at most once on every path.
//! Each run of the code that creates it makes a new one, with its own copy of the locals it captures.
//! So what it leaves in such a local, no later run sees.
//! The event model keeps that out of the hub ([`crate::events`]).
//!
//! A local counts only when all of these hold:
//! - It is declared in the creating body, inside every loop of that body around the creation.
//! - Only that body and the deferred code itself use it: no other lambda or listener does.
//!
//! To extend: a new way to hand code over is a row of the platform's hand-off table.
//! A helper that passes the code on to another helper is not followed yet.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::cfg::{Cfg, NodeId, NodeKind};
use crate::ir::{Body, Class, Expr, ExprKind, Language, Method, Span, Stmt, StmtKind};
use crate::places::{Deferred, Places, Registration};
use crate::protocols::Protocols;
use crate::resolve::{Binding, LocalId, Resolution};
use crate::typestate_flow::Helper;
use crate::visit::{walk_expr, walk_stmt, Visitor};

/// Per deferred body that runs once, by its first byte: the locals it alone captures.
pub type OnceCaptures = HashMap<usize, Vec<LocalId>>;

/// What [`captures`] reads of the file.
pub struct Context<'s, 'a> {
    /// The named classes with their fully qualified names.
    pub classes: &'s [(&'a Class, String)],
    /// The file's deferred code.
    pub places: &'s Places<'a>,
    /// Names and types.
    pub res: &'s Resolution,
    /// The class hierarchy, for the hand-off table.
    pub protocols: &'s Protocols<'s>,
    /// The helpers a lambda may be handed to.
    pub helpers: &'s HashMap<(&'a str, &'a str), Vec<Helper<'a>>>,
    /// The file's language, for the helpers' graphs.
    pub language: Language,
}

/// The locals each deferred body that runs once alone captures.
pub fn captures(cx: &Context<'_, '_>) -> OnceCaptures {
    if cx.places.deferred.is_empty() {
        return OnceCaptures::default();
    }
    let mut layout = Layout {
        res: cx.res,
        code: Vec::new(),
        loops: Vec::new(),
        uses: Vec::new(),
        stack: Vec::new(),
    };
    for (class, _) in cx.classes {
        layout.class(class);
    }
    let declared: HashMap<LocalId, usize> = cx
        .res
        .declarations()
        .map(|(at, local)| (local, at))
        .collect();
    let by_body: HashMap<usize, usize> = layout
        .code
        .iter()
        .enumerate()
        .map(|(index, code)| (code.body.start_byte, index))
        .collect();
    let mut by_local: HashMap<LocalId, Vec<Use>> = HashMap::default();
    for used in &layout.uses {
        by_local.entry(used.local).or_default().push(*used);
    }
    let mut out = OnceCaptures::default();
    for deferred in &cx.places.deferred {
        let Some(registration) = deferred.registration else {
            continue;
        };
        if !runs_once(cx, &layout, deferred, registration) {
            continue;
        }
        let Some(&own) = by_body.get(&deferred.body.span.start_byte) else {
            continue;
        };
        let Some(creator) = layout.code[own].parent else {
            continue;
        };
        let mut locals: Vec<LocalId> = layout
            .uses
            .iter()
            .filter(|used| used.owner == Some(own))
            .map(|used| used.local)
            .collect::<HashSet<_>>()
            .into_iter()
            .filter(|local| {
                declared.get(local).is_some_and(|&at| {
                    let uses = by_local.get(local).map_or(&[][..], Vec::as_slice);
                    layout.per_creation(at, uses, own, creator)
                })
            })
            .collect();
        if !locals.is_empty() {
            locals.sort_unstable();
            out.insert(deferred.body.span.start_byte, locals);
        }
    }
    out
}

/// Whether the code `registration` hands `deferred` to runs it at most once.
fn runs_once(
    cx: &Context<'_, '_>,
    layout: &Layout<'_>,
    deferred: &Deferred<'_>,
    registration: Registration<'_>,
) -> bool {
    let call = registration.call;
    let Some(receiver) = cx.res.receiver_of(registration.site) else {
        return false;
    };
    if hands_off(cx, &receiver.fqn, &call.name) {
        return true;
    }
    let unqualified = call
        .receiver
        .as_deref()
        .is_none_or(|r| matches!(r.kind, ExprKind::This(None)));
    if !unqualified {
        return false;
    }
    let Some(index) = call
        .args
        .iter()
        .position(|arg| arg.span.contains(deferred.body.span))
    else {
        return false;
    };
    let Some(helper) = cx
        .helpers
        .get(&(receiver.fqn.as_str(), call.name.as_str()))
        .and_then(|found| {
            found
                .iter()
                .find(|h| h.method.params.len() == call.args.len())
        })
    else {
        return false;
    };
    helper_runs_once(cx, layout, helper.method, index)
}

/// Whether `method` runs its parameter `index`, or hands it over, at most once on every path,
/// and does nothing else with it.
fn helper_runs_once(
    cx: &Context<'_, '_>,
    layout: &Layout<'_>,
    method: &Method,
    index: usize,
) -> bool {
    let (Some(body), Some(param)) = (&method.body, method.params.get(index)) else {
        return false;
    };
    let Some(task) = cx.res.declared_at(param.span.start_byte) else {
        return false;
    };
    let names_task = |expr: &Expr| {
        matches!(expr.kind, ExprKind::Name(_))
            && cx.res.binding_of(expr.id) == Some(&Binding::Local(task))
    };
    let cfg = Cfg::build(body, cx.language);
    let mut runs: Vec<NodeId> = Vec::new();
    let mut covered: HashSet<usize> = HashSet::default();
    for (at, node) in cfg.nodes.iter().enumerate() {
        let NodeKind::Call(expr) = node.kind else {
            continue;
        };
        let ExprKind::Call(call) = &expr.kind else {
            continue;
        };
        // `task.run()`, `task.call()`, or a Kotlin function value's `task()` and `task.invoke()`.
        let invoked = call.receiver.is_none() && call.name == param.name;
        let run = call.args.is_empty()
            && (invoked
                || matches!(call.name.as_str(), "run" | "call" | "invoke")
                    && call.receiver.as_deref().is_some_and(names_task));
        let handed = call.args.iter().find(|arg| names_task(arg)).filter(|_| {
            cx.res
                .receiver_of(expr.id)
                .is_some_and(|receiver| hands_off(cx, &receiver.fqn, &call.name))
        });
        if let Some(used) = call.receiver.as_deref().filter(|_| run).or(handed) {
            covered.insert(used.span.start_byte);
        }
        if run || handed.is_some() {
            runs.push(NodeId(u32::try_from(at).unwrap_or(u32::MAX)));
        }
    }
    let every_use_runs = layout
        .uses
        .iter()
        .filter(|used| {
            used.local == task
                && method.span.start_byte <= used.at
                && used.at < method.span.end_byte
        })
        .all(|used| covered.contains(&used.at));
    every_use_runs && !runs.is_empty() && !runs.iter().any(|&run| reaches_again(&cfg, run, &runs))
}

/// Whether a path from after `from` reaches one of `runs` (`from` itself included).
fn reaches_again(cfg: &Cfg<'_>, from: NodeId, runs: &[NodeId]) -> bool {
    let mut seen: HashSet<NodeId> = HashSet::default();
    let mut todo: Vec<NodeId> = cfg.node(from).succs.iter().map(|(to, _)| *to).collect();
    while let Some(next) = todo.pop() {
        if runs.contains(&next) {
            return true;
        }
        if seen.insert(next) {
            todo.extend(cfg.node(next).succs.iter().map(|(to, _)| *to));
        }
    }
    false
}

/// Whether calling `method` on a `class` hands its task over to run once.
fn hands_off(cx: &Context<'_, '_>, class: &str, method: &str) -> bool {
    crate::platform::hands_off(|of| cx.protocols.is_subtype(class, of), method)
}

/// One piece of code: a method, a lambda or an anonymous class's method.
struct Code {
    /// The whole of it, parameters included.
    extent: Span,
    /// Its body.
    body: Span,
    /// The innermost code around it.
    parent: Option<usize>,
}

/// A use of a local by name.
#[derive(Clone, Copy)]
struct Use {
    /// Its first byte.
    at: usize,
    local: LocalId,
    /// The innermost code it is in.
    owner: Option<usize>,
}

/// Where the file's code, loops and uses of locals are.
struct Layout<'r> {
    res: &'r Resolution,
    code: Vec<Code>,
    /// Every loop statement.
    loops: Vec<Span>,
    /// Every use of a local by name.
    uses: Vec<Use>,
    /// The code being walked, innermost last.
    stack: Vec<usize>,
}

impl Layout<'_> {
    fn class(&mut self, class: &Class) {
        for method in &class.methods {
            if let Some(body) = &method.body {
                self.code(method.span, body);
            }
        }
        for field in &class.fields {
            field.init.iter().for_each(|init| self.visit_expr(init));
        }
    }

    fn code(&mut self, extent: Span, body: &Body) {
        self.code.push(Code {
            extent,
            body: body.span,
            parent: self.stack.last().copied(),
        });
        self.stack.push(self.code.len() - 1);
        self.visit_block(&body.stmts);
        self.stack.pop();
    }

    /// The innermost code that holds byte `at`.
    fn innermost(&self, at: usize) -> Option<usize> {
        self.code
            .iter()
            .enumerate()
            .filter(|(_, c)| c.extent.start_byte <= at && at < c.extent.end_byte)
            .min_by_key(|(_, c)| c.extent.end_byte - c.extent.start_byte)
            .map(|(index, _)| index)
    }

    /// Whether a local declared at byte `at` and used at `uses` is new at each creation of code
    /// `own` by code `creator`, and only they use it.
    fn per_creation(&self, at: usize, uses: &[Use], own: usize, creator: usize) -> bool {
        let (inner, outer) = (self.code[own].extent, self.code[creator].extent);
        let in_loops = self
            .loops
            .iter()
            .filter(|l| outer.contains(**l) && l.contains(inner))
            .all(|l| l.start_byte <= at && at < l.end_byte);
        self.innermost(at) == Some(creator)
            && in_loops
            && uses
                .iter()
                .all(|used| matches!(used.owner, Some(c) if c == own || c == creator))
    }
}

impl<'a> Visitor<'a> for Layout<'_> {
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        if matches!(
            stmt.kind,
            StmtKind::While { .. }
                | StmtKind::DoWhile { .. }
                | StmtKind::For { .. }
                | StmtKind::ForEach { .. }
        ) {
            self.loops.push(stmt.span);
        }
        walk_stmt(self, stmt);
    }

    fn visit_local_class(&mut self, class: &'a Class) {
        self.class(class);
    }

    fn visit_local_function(&mut self, method: &'a Method) {
        if let Some(body) = &method.body {
            self.code(method.span, body);
        }
    }

    fn visit_lambda(&mut self, expr: &'a Expr, body: &'a Body) {
        self.code(expr.span, body);
    }

    fn visit_anonymous_class(&mut self, class: &'a Class) {
        self.class(class);
    }

    fn visit_expr(&mut self, expr: &'a Expr) {
        if let (ExprKind::Name(_), Some(Binding::Local(local))) =
            (&expr.kind, self.res.binding_of(expr.id))
        {
            self.uses.push(Use {
                at: expr.span.start_byte,
                local: *local,
                owner: self.stack.last().copied(),
            });
        }
        walk_expr(self, expr);
    }
}
