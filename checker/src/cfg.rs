//! Control-flow graphs over the IR, one per method body, lambda or initializer.
//!
//! Nodes are the effects the typestate analysis cares about, in evaluation order.
//! They are calls, object creations, assignments, declarations, branches on conditions, closes of resources, entries into catch handlers, throws and returned values.
//! The value each branch of an `if` or `when` used as a value gives it is a node too ([`NodeKind::Yield`]).
//! Conditions are split at `&&`, `||` and `!`, so each [`NodeKind::Branch`] tests one condition.
//! Its `True` and `False` edges can then refine null checks.
//!
//! Exceptions:
//! - Inside a `try`, every call and throw has an [`EdgeKind::Exception`] edge to each catch handler.
//!   It also has one, through a copy of the `finally` block, to the enclosing handler (or the exceptional exit).
//! - Outside a `try`, only `throw` reaches the exceptional exit: an exception escaping a call ends that path.
//! - `finally` blocks are copied onto every path that leaves them (normal, exceptional, `return`, `break`, `continue`).
//!
//! Lambdas passed to the Kotlin inline functions of [`crate::inline`] run in place and are inlined.
//! They run once (after a [`NodeKind::EnterScope`] node where the lambda gets the subject), or as a loop that runs them zero or more times.
//! `use` closes its subject afterwards, and `runCatching` catches what its lambda throws.
//! A safe call (`x?.let { … }`) runs only after a [`NodeKind::NotNull`] test of its receiver.
//! An assertion (`assertTrue(ok)`, [`crate::assertions`]) branches on its condition; the failing side throws.
//! Try-with-resources closes its resources in reverse order.
//! Other lambdas and anonymous class bodies get graphs of their own.

use crate::assertions::Asserted;
use crate::inline::{Binds, Inlined, Runs};
use crate::ir::{
    BinaryOp, Block, Body, Call, Catch, Expr, ExprKind, Language, Local, Stmt, StmtKind,
};

/// Index of a node in its [`Cfg`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId(pub u32);

/// The kind of a control-flow edge.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum EdgeKind {
    /// Ordinary sequencing.
    Normal,
    /// Taken when the source [`NodeKind::Branch`] condition holds.
    True,
    /// Taken when the source [`NodeKind::Branch`] condition does not hold.
    False,
    /// Taken when the source call or throw raises an exception; the source's effect did not
    /// happen.
    Exception,
}

/// What a node does.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum NodeKind<'a> {
    /// The start of the body.
    Entry,
    /// Normal completion, including `return`.
    Exit,
    /// Completion by an exception.
    ExceptionalExit,
    /// A local variable comes into scope, after its initializer was evaluated.
    Declare(&'a Local),
    /// An assignment, after both sides were evaluated.
    Assign {
        /// The assigned place.
        target: &'a Expr,
        /// The assigned value.
        value: &'a Expr,
    },
    /// A call ([`ExprKind::Call`]), after its receiver and arguments were evaluated.
    Call(&'a Expr),
    /// An object creation ([`ExprKind::New`]), after its arguments were evaluated.
    New(&'a Expr),
    /// A test of a condition; leaves by a `True` and a `False` edge.
    Branch(&'a Expr),
    /// A test whether the value of the expression is not `null`, before a Kotlin safe call
    /// whose inlined lambda runs only then (`x?.let { … }`); leaves by a `True` edge (not
    /// `null`) and a `False` edge (`null`: the call is skipped).
    NotNull(&'a Expr),
    /// An arm of a `switch` or `when` on `scrutinee` is entered from the dispatch: the
    /// scrutinee equals one of the labels of `arms[arm]`, or, for the default arm (`arm` is
    /// `None`), none of the labels of `arms`.
    Case {
        /// The switched-on expression.
        scrutinee: &'a Expr,
        /// Every arm of the switch.
        arms: &'a [crate::ir::SwitchArm],
        /// The arm entered; `None` for the default arm.
        arm: Option<usize>,
    },
    /// An inlined lambda starts with this subject (the receiver, or `with`'s first argument)
    /// as its `this` or its parameter.
    EnterScope(&'a Expr),
    /// A resource is closed (end of try-with-resources, end of Kotlin `use`).
    Close(CloseTarget<'a>),
    /// A catch handler is entered.
    Catch(&'a Catch),
    /// An exception is thrown.
    Throw(&'a Expr),
    /// A branch of a control expression (`if`/`when` as a value) ends with this value, which
    /// becomes the control expression's.
    Yield {
        /// The control expression ([`ExprKind::Control`]).
        control: &'a Expr,
        /// The branch's value.
        value: &'a Expr,
    },
    /// The body returns this value, after it was evaluated (only a `return` that leaves the
    /// body itself: not Kotlin's `return@label` out of an inlined lambda).
    Return(&'a Expr),
    /// A point where paths meet; no effect.
    Join,
}

/// What a [`NodeKind::Close`] closes.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum CloseTarget<'a> {
    /// A try-with-resources variable.
    Local(&'a Local),
    /// A try-with-resources expression or the receiver of Kotlin `use`.
    Expr(&'a Expr),
}

/// A node and its outgoing edges.
#[derive(Debug, Clone)]
pub struct Node<'a> {
    /// What the node does.
    pub kind: NodeKind<'a>,
    /// The successors, with the kind of each edge.
    pub succs: Vec<(NodeId, EdgeKind)>,
}

/// A control-flow graph.
#[derive(Debug, Clone)]
pub struct Cfg<'a> {
    /// The nodes; [`Cfg::entry`] is the first.
    pub nodes: Vec<Node<'a>>,
    /// The normal exit.
    pub exit: NodeId,
    /// The exceptional exit.
    pub exceptional_exit: NodeId,
}

impl<'a> Cfg<'a> {
    /// The entry node.
    pub fn entry(&self) -> NodeId {
        NodeId(0)
    }

    /// The node `id`.
    pub fn node(&self, id: NodeId) -> &Node<'a> {
        &self.nodes[id.0 as usize]
    }

    /// Builds the graph of `body`, written in `language`.
    pub fn build(body: &'a Body, language: Language) -> Cfg<'a> {
        let mut builder = Builder {
            nodes: Vec::new(),
            current: Vec::new(),
            jump_targets: Vec::new(),
            language,
            exit: NodeId(1),
            exceptional_exit: NodeId(2),
            value_of: None,
        };
        builder.add_node(NodeKind::Entry);
        builder.exit = builder.add_detached(NodeKind::Exit);
        builder.exceptional_exit = builder.add_detached(NodeKind::ExceptionalExit);
        builder.block(&body.stmts);
        builder.connect_current(builder.exit);
        Cfg {
            nodes: builder.nodes,
            exit: builder.exit,
            exceptional_exit: builder.exceptional_exit,
        }
    }

    /// The branches each node is control-dependent on (Ferrante, Ottenstein and Warren): the
    /// node runs on one outcome of the branch but not necessarily on the other.
    /// Post-dominators are computed over normal edges only (Cooper, Harvey and Kennedy, "A
    /// Simple, Fast Dominance Algorithm"), so a call that may throw does not hide the branch
    /// that guards what follows it. A node from which no normal path leaves the body (an
    /// endless loop) counts as dependent on itself, so that nothing there is taken as
    /// unconditional.
    pub fn control_dependences(&self) -> Vec<Vec<NodeId>> {
        let n = self.nodes.len();
        // The reverse graph, rooted at a virtual exit `n` that every node without a normal
        // successor leads to.
        let mut preds: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        let mut succs: Vec<Vec<usize>> = vec![Vec::new(); n + 1];
        for (index, node) in self.nodes.iter().enumerate() {
            let normal: Vec<usize> = node
                .succs
                .iter()
                .filter(|(_, edge)| *edge != EdgeKind::Exception)
                .map(|(succ, _)| succ.0 as usize)
                .collect();
            let targets = if normal.is_empty() { vec![n] } else { normal };
            for target in targets {
                succs[index].push(target);
                preds[target].push(index);
            }
        }
        // Postorder of the reverse graph from the virtual exit (iteratively: bodies nest deep).
        let mut order = Vec::with_capacity(n + 1);
        let mut visited = vec![false; n + 1];
        let mut stack = vec![(n, 0usize)];
        visited[n] = true;
        while let Some((node, next)) = stack.pop() {
            if let Some(&pred) = preds[node].get(next) {
                stack.push((node, next + 1));
                if !visited[pred] {
                    visited[pred] = true;
                    stack.push((pred, 0));
                }
            } else {
                order.push(node);
            }
        }
        let mut rank = vec![usize::MAX; n + 1];
        for (position, &node) in order.iter().enumerate() {
            rank[node] = position;
        }
        let mut ipdom = vec![usize::MAX; n + 1];
        ipdom[n] = n;
        let intersect = |ipdom: &[usize], mut a: usize, mut b: usize| {
            while a != b {
                while rank[a] < rank[b] {
                    a = ipdom[a];
                }
                while rank[b] < rank[a] {
                    b = ipdom[b];
                }
            }
            a
        };
        let mut changed = true;
        while changed {
            changed = false;
            for &node in order.iter().rev() {
                if node == n {
                    continue;
                }
                let mut new = usize::MAX;
                for &succ in &succs[node] {
                    if ipdom[succ] == usize::MAX {
                        continue;
                    }
                    new = if new == usize::MAX {
                        succ
                    } else {
                        intersect(&ipdom, succ, new)
                    };
                }
                if new != usize::MAX && ipdom[node] != new {
                    ipdom[node] = new;
                    changed = true;
                }
            }
        }
        let mut dependences: Vec<Vec<NodeId>> = vec![Vec::new(); n];
        for (index, node) in self.nodes.iter().enumerate() {
            if ipdom[index] == usize::MAX {
                dependences[index].push(NodeId(index as u32));
                continue;
            }
            if !matches!(node.kind, NodeKind::Branch(_)) {
                continue;
            }
            for (succ, _) in node.succs.iter().filter(|(_, e)| *e != EdgeKind::Exception) {
                let mut runner = succ.0 as usize;
                while runner != ipdom[index] && runner != n && ipdom[runner] != usize::MAX {
                    let id = NodeId(index as u32);
                    if !dependences[runner].contains(&id) {
                        dependences[runner].push(id);
                    }
                    runner = ipdom[runner];
                }
            }
        }
        dependences
    }
}

/// Dangling edges waiting for their target: (source, kind).
type Pending = Vec<(NodeId, EdgeKind)>;

/// Adds to `into` the edges of `more` it does not hold yet.
/// Paths that meet again (`a ?: b` when `b` adds no node) bring the same edges twice, and
/// keeping both would double the list at every such join: 2^n edges for a chain of n.
fn join(into: &mut Pending, more: Pending) {
    for edge in more {
        if !into.contains(&edge) {
            into.push(edge);
        }
    }
}

/// Something a jump can leave: a loop, a labeled block, a switch, a `try` with a `finally`,
/// an exception handler scope, or an inlined lambda.
enum JumpTarget<'a> {
    Loop {
        label: Option<String>,
        breaks: Pending,
        continues: Pending,
    },
    Breakable {
        label: Option<String>,
        breaks: Pending,
    },
    Handler {
        /// Nodes that may throw inside the protected region.
        throwers: Vec<NodeId>,
    },
    Finally(&'a Block),
    Inline {
        label: String,
        returns: Pending,
    },
}

struct Builder<'a> {
    nodes: Vec<Node<'a>>,
    /// The edges that flow into the next node; empty when the current point is unreachable.
    current: Pending,
    jump_targets: Vec<JumpTarget<'a>>,
    language: Language,
    exit: NodeId,
    exceptional_exit: NodeId,
    /// The control expression whose statement is built next, so that its branches yield
    /// their values to it.
    value_of: Option<&'a Expr>,
}

impl<'a> Builder<'a> {
    fn add_detached(&mut self, kind: NodeKind<'a>) -> NodeId {
        let id = NodeId(u32::try_from(self.nodes.len()).unwrap_or(u32::MAX));
        self.nodes.push(Node {
            kind,
            succs: Vec::new(),
        });
        id
    }

    /// Adds a node after the current point and makes it the current point.
    fn add_node(&mut self, kind: NodeKind<'a>) -> NodeId {
        let id = self.add_detached(kind);
        self.connect_current(id);
        self.current = vec![(id, EdgeKind::Normal)];
        id
    }

    fn connect(&mut self, pending: Pending, target: NodeId) {
        for (source, kind) in pending {
            let succs = &mut self.nodes[source.0 as usize].succs;
            if !succs.contains(&(target, kind)) {
                succs.push((target, kind));
            }
        }
    }

    fn connect_current(&mut self, target: NodeId) {
        let pending = std::mem::take(&mut self.current);
        self.connect(pending, target);
    }

    /// Adds a node that may throw, registering it with the innermost handler.
    fn add_throwing(&mut self, kind: NodeKind<'a>) -> NodeId {
        let id = self.add_node(kind);
        let handler = self
            .jump_targets
            .iter_mut()
            .rev()
            .find_map(|target| match target {
                JumpTarget::Handler { throwers } => Some(throwers),
                _ => None,
            });
        if let Some(throwers) = handler {
            throwers.push(id);
        }
        id
    }

    fn block(&mut self, stmts: &'a [Stmt]) {
        for stmt in stmts {
            self.stmt(stmt, None);
        }
    }

    fn stmt(&mut self, stmt: &'a Stmt, label: Option<&str>) {
        let value_of = self.value_of.take();
        match &stmt.kind {
            StmtKind::Local(local) => {
                if let Some(init) = &local.init {
                    self.expr(init);
                }
                self.add_node(NodeKind::Declare(local));
            }
            StmtKind::Expr(expr) => self.expr(expr),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                let (on_true, on_false) = self.cond(cond);
                self.current = on_true;
                self.branch(then_branch, value_of);
                let after_then = std::mem::replace(&mut self.current, on_false);
                if let Some(otherwise) = else_branch {
                    self.branch(otherwise, value_of);
                }
                join(&mut self.current, after_then);
            }
            StmtKind::While { cond, body } => {
                let head = self.add_node(NodeKind::Join);
                let (on_true, on_false) = self.cond(cond);
                self.current = on_true;
                let continues = self.loop_body(label, body);
                join(&mut self.current, continues);
                self.connect_current(head);
                self.current = on_false;
                self.finish_loop();
            }
            StmtKind::DoWhile { body, cond } => {
                let head = self.add_node(NodeKind::Join);
                let continues = self.loop_body(label, body);
                join(&mut self.current, continues);
                let (on_true, on_false) = self.cond(cond);
                self.connect(on_true, head);
                self.current = on_false;
                self.finish_loop();
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.block(init);
                let head = self.add_node(NodeKind::Join);
                let on_false = match cond {
                    Some(cond) => {
                        let (on_true, on_false) = self.cond(cond);
                        self.current = on_true;
                        on_false
                    }
                    None => Vec::new(),
                };
                let continues = self.loop_body(label, body);
                join(&mut self.current, continues);
                for expr in update {
                    self.expr(expr);
                }
                self.connect_current(head);
                self.current = on_false;
                self.finish_loop();
            }
            StmtKind::ForEach {
                var,
                iterable,
                body,
            } => {
                self.expr(iterable);
                let head = self.add_node(NodeKind::Join);
                self.add_node(NodeKind::Declare(var));
                let continues = self.loop_body(label, body);
                join(&mut self.current, continues);
                self.connect_current(head);
                self.current = vec![(head, EdgeKind::Normal)];
                self.finish_loop();
            }
            StmtKind::Switch {
                scrutinee,
                arms,
                fallthrough,
            } => self.switch(scrutinee.as_ref(), arms, *fallthrough, label, value_of),
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => self.try_stmt(resources, body, catches, finally.as_ref()),
            StmtKind::Return { value, label } => {
                if let Some(value) = value {
                    self.expr(value);
                    if label.is_none() {
                        self.add_node(NodeKind::Return(value));
                    }
                }
                self.jump(Jump::Return, |target| match target {
                    JumpTarget::Inline { label: inline, .. } => {
                        label.as_deref() == Some(inline.as_str())
                    }
                    _ => false,
                });
            }
            StmtKind::Break(target_label) => {
                let is_java = self.language == Language::Java;
                self.jump(Jump::Break, |target| match target {
                    JumpTarget::Loop { label, .. } => {
                        target_label.is_none() || target_label == label
                    }
                    JumpTarget::Breakable { label, .. } => match target_label {
                        Some(_) => target_label == label,
                        None => is_java && label.is_none(),
                    },
                    _ => false,
                });
            }
            StmtKind::Continue(target_label) => {
                self.jump(Jump::Continue, |target| match target {
                    JumpTarget::Loop { label, .. } => {
                        target_label.is_none() || target_label == label
                    }
                    _ => false,
                });
            }
            StmtKind::Throw(value) => {
                self.expr(value);
                self.add_node(NodeKind::Throw(value));
                self.propagate_exception();
            }
            StmtKind::Block(block) => {
                if let Some(label) = label {
                    self.jump_targets.push(JumpTarget::Breakable {
                        label: Some(label.to_owned()),
                        breaks: Vec::new(),
                    });
                    self.block(block);
                    self.finish_breakable();
                } else {
                    self.block(block);
                }
            }
            StmtKind::Labeled { label, body } => self.stmt(body, Some(label)),
            StmtKind::LocalClass(_) | StmtKind::LocalFunction(_) => {}
        }
    }

    /// Builds a branch of an `if` or `when`; in a control expression `value_of`, the branch's
    /// last expression statement is its value.
    fn branch(&mut self, stmts: &'a [Stmt], value_of: Option<&'a Expr>) {
        self.block(stmts);
        let value = match stmts.last().map(|stmt| &stmt.kind) {
            Some(StmtKind::Expr(value)) => value,
            _ => return,
        };
        if let (Some(control), false) = (value_of, self.current.is_empty()) {
            self.add_node(NodeKind::Yield { control, value });
        }
    }

    /// Builds a loop body inside a loop context; returns the pending `continue` edges.
    fn loop_body(&mut self, label: Option<&str>, body: &'a [Stmt]) -> Pending {
        self.jump_targets.push(JumpTarget::Loop {
            label: label.map(str::to_owned),
            breaks: Vec::new(),
            continues: Vec::new(),
        });
        self.block(body);
        match self.jump_targets.last_mut() {
            Some(JumpTarget::Loop { continues, .. }) => std::mem::take(continues),
            _ => Vec::new(),
        }
    }

    /// Pops the loop context; its `break`s join the current point.
    fn finish_loop(&mut self) {
        if let Some(JumpTarget::Loop { breaks, .. }) = self.jump_targets.pop() {
            join(&mut self.current, breaks);
        }
    }

    fn finish_breakable(&mut self) {
        if let Some(JumpTarget::Breakable { breaks, .. }) = self.jump_targets.pop() {
            join(&mut self.current, breaks);
        }
    }

    /// Leaves the current point with `jump` for the innermost target accepted by
    /// `is_target` (or the exit, if none), running the `finally` blocks in between.
    fn jump(&mut self, jump: Jump, is_target: impl Fn(&JumpTarget<'a>) -> bool) {
        let position = self.jump_targets.iter().rposition(is_target);
        let stop = position.map_or(0, |p| p + 1);
        let finallies: Vec<&'a Block> = self.jump_targets[stop..]
            .iter()
            .rev()
            .filter_map(|target| match target {
                JumpTarget::Finally(block) => Some(*block),
                _ => None,
            })
            .collect();
        // Each copy of a finally block runs outside the constructs it belongs to.
        let inner = self.jump_targets.split_off(stop);
        for block in finallies {
            self.block(block);
        }
        self.jump_targets.extend(inner);
        let pending = std::mem::take(&mut self.current);
        match (position.map(|p| &mut self.jump_targets[p]), jump) {
            (Some(JumpTarget::Loop { continues, .. }), Jump::Continue) => {
                join(continues, pending);
            }
            (Some(JumpTarget::Loop { breaks, .. } | JumpTarget::Breakable { breaks, .. }), _) => {
                join(breaks, pending)
            }
            (Some(JumpTarget::Inline { returns, .. }), _) => join(returns, pending),
            _ => self.connect(pending, self.exit),
        }
    }

    fn switch(
        &mut self,
        scrutinee: Option<&'a Expr>,
        arms: &'a [crate::ir::SwitchArm],
        fallthrough: bool,
        label: Option<&str>,
        value_of: Option<&'a Expr>,
    ) {
        if let Some(scrutinee) = scrutinee {
            self.expr(scrutinee);
        }
        let dispatch = self.add_node(NodeKind::Join);
        if self.language == Language::Java {
            self.jump_targets.push(JumpTarget::Breakable {
                label: label.map(str::to_owned),
                breaks: Vec::new(),
            });
        }
        let mut done = Vec::new();
        let mut falling: Pending = Vec::new();
        let mut has_default = false;
        for (index, arm) in arms.iter().enumerate() {
            has_default |= arm.is_default;
            self.current = vec![(dispatch, EdgeKind::Normal)];
            if let Some(scrutinee) = scrutinee {
                self.add_node(NodeKind::Case {
                    scrutinee,
                    arms,
                    arm: (!arm.is_default).then_some(index),
                });
            }
            for label in &arm.labels {
                self.expr(label);
            }
            if let Some(guard) = &arm.guard {
                let (on_true, on_false) = self.cond(guard);
                self.current = on_true;
                join(&mut done, on_false);
            }
            self.current.append(&mut falling);
            self.branch(&arm.body, value_of.filter(|_| !fallthrough));
            if fallthrough {
                falling = std::mem::take(&mut self.current);
            } else {
                done.append(&mut self.current);
            }
        }
        done.append(&mut falling);
        if !has_default {
            // No arm matched: the scrutinee is none of the labels.
            self.current = vec![(dispatch, EdgeKind::Normal)];
            if let Some(scrutinee) = scrutinee {
                self.add_node(NodeKind::Case {
                    scrutinee,
                    arms,
                    arm: None,
                });
            }
            done.append(&mut self.current);
        }
        self.current = done;
        if self.language == Language::Java {
            self.finish_breakable();
        }
    }

    fn try_stmt(
        &mut self,
        resources: &'a [Stmt],
        body: &'a [Stmt],
        catches: &'a [Catch],
        finally: Option<&'a Block>,
    ) {
        if let Some(finally) = finally {
            self.jump_targets.push(JumpTarget::Finally(finally));
        }
        self.jump_targets.push(JumpTarget::Handler {
            throwers: Vec::new(),
        });
        self.block(resources);
        self.block(body);
        for resource in resources.iter().rev() {
            self.close_resource(resource);
        }
        let Some(JumpTarget::Handler { throwers }) = self.jump_targets.pop() else {
            return;
        };
        let mut after = std::mem::take(&mut self.current);
        // Catch handlers run outside the protected region but inside the finally.
        self.jump_targets.push(JumpTarget::Handler {
            throwers: Vec::new(),
        });
        for catch in catches {
            let handler = self.add_detached(NodeKind::Catch(catch));
            for thrower in &throwers {
                self.connect(vec![(*thrower, EdgeKind::Exception)], handler);
            }
            self.current = vec![(handler, EdgeKind::Normal)];
            self.block(&catch.body);
            after.append(&mut self.current);
        }
        let Some(JumpTarget::Handler {
            throwers: catch_throwers,
        }) = self.jump_targets.pop()
        else {
            return;
        };
        if finally.is_some() {
            self.jump_targets.pop();
        }
        // Exceptions no catch handles, and exceptions from the handlers, leave through a
        // copy of the finally block to the enclosing handler.
        let escaping: Vec<NodeId> = throwers.into_iter().chain(catch_throwers).collect();
        if !escaping.is_empty() {
            let rethrow_entry = self.add_detached(NodeKind::Join);
            for thrower in escaping {
                self.connect(vec![(thrower, EdgeKind::Exception)], rethrow_entry);
            }
            self.current = vec![(rethrow_entry, EdgeKind::Normal)];
            if let Some(finally) = finally {
                self.block(finally);
            }
            self.propagate_exception();
        }
        self.current = after;
        if let Some(finally) = finally {
            self.block(finally);
        }
    }

    /// Sends the current point to the innermost handler, or the exceptional exit.
    fn propagate_exception(&mut self) {
        if self.current.is_empty() {
            return;
        }
        let has_handler = self
            .jump_targets
            .iter()
            .any(|target| matches!(target, JumpTarget::Handler { .. }));
        if has_handler {
            self.add_throwing(NodeKind::Join);
        } else {
            self.connect_current(self.exceptional_exit);
        }
        self.current.clear();
    }

    fn close_resource(&mut self, resource: &'a Stmt) {
        let target = match &resource.kind {
            StmtKind::Local(local) => CloseTarget::Local(local),
            StmtKind::Expr(expr) => CloseTarget::Expr(expr),
            _ => return,
        };
        self.add_throwing(NodeKind::Close(target));
    }

    /// Builds a condition; returns the edges taken when it holds and when it does not.
    fn cond(&mut self, cond: &'a Expr) -> (Pending, Pending) {
        match &cond.kind {
            ExprKind::Binary {
                op: BinaryOp::And,
                lhs,
                rhs,
            } => {
                let (lhs_true, mut lhs_false) = self.cond(lhs);
                self.current = lhs_true;
                let (on_true, rhs_false) = self.cond(rhs);
                join(&mut lhs_false, rhs_false);
                (on_true, lhs_false)
            }
            ExprKind::Binary {
                op: BinaryOp::Or,
                lhs,
                rhs,
            } => {
                let (mut lhs_true, lhs_false) = self.cond(lhs);
                self.current = lhs_false;
                let (rhs_true, on_false) = self.cond(rhs);
                join(&mut lhs_true, rhs_true);
                (lhs_true, on_false)
            }
            ExprKind::Not(inner) => {
                let (on_true, on_false) = self.cond(inner);
                (on_false, on_true)
            }
            ExprKind::Bool(value) => {
                self.expr(cond);
                let current = std::mem::take(&mut self.current);
                if *value {
                    (current, Vec::new())
                } else {
                    (Vec::new(), current)
                }
            }
            _ => {
                self.expr(cond);
                let branch = self.add_node(NodeKind::Branch(cond));
                self.current.clear();
                (
                    vec![(branch, EdgeKind::True)],
                    vec![(branch, EdgeKind::False)],
                )
            }
        }
    }

    /// Builds an assertion call (`assertTrue(ok)`, `check(ok)`): the path goes on only where its
    /// condition is as asserted; where it is not, the call throws.
    /// A message after the condition is evaluated on the path that goes on.
    fn assertion(&mut self, expr: &'a Expr, call: &'a Call, asserted: Asserted<'a>) {
        if let Some(receiver) = &call.receiver {
            self.expr(receiver);
        }
        for arg in &call.args[..asserted.index] {
            self.expr(arg);
        }
        let (on_true, on_false) = self.cond(asserted.condition);
        let (goes_on, throws) = if asserted.holds {
            (on_true, on_false)
        } else {
            (on_false, on_true)
        };
        self.current = throws;
        self.propagate_exception();
        self.current = goes_on;
        for arg in &call.args[asserted.index + 1..] {
            self.expr(arg);
        }
        self.add_node(NodeKind::Call(expr));
    }

    /// Builds the evaluation of `expr`, in evaluation order.
    fn expr(&mut self, expr: &'a Expr) {
        match &expr.kind {
            ExprKind::Call(call) => {
                if let Some(asserted) = crate::assertions::asserted(call, self.language) {
                    self.assertion(expr, call, asserted);
                    return;
                }
                if let Some(receiver) = &call.receiver {
                    self.expr(receiver);
                }
                let Some(inlined) = crate::inline::inlined(call, self.language) else {
                    for arg in &call.args {
                        self.expr(arg);
                    }
                    self.add_throwing(NodeKind::Call(expr));
                    return;
                };
                // `x?.let { … }` runs nothing where `x` is null.
                let skipped = match (&call.receiver, call.is_safe) {
                    (Some(receiver), true) => {
                        let test = self.add_node(NodeKind::NotNull(receiver));
                        self.current = vec![(test, EdgeKind::True)];
                        vec![(test, EdgeKind::False)]
                    }
                    _ => Vec::new(),
                };
                for arg in inlined.args {
                    self.expr(arg);
                }
                self.inline_lambda(&call.name, inlined);
                // What may throw is in the lambda, which was inlined with its exception edges.
                self.add_node(NodeKind::Call(expr));
                join(&mut self.current, skipped);
            }
            ExprKind::New { args, .. } => {
                for arg in args {
                    self.expr(arg);
                }
                self.add_throwing(NodeKind::New(expr));
            }
            ExprKind::Assign { target, value } => {
                if let ExprKind::Field { receiver, .. } = &target.kind {
                    self.expr(receiver);
                }
                self.expr(value);
                self.add_node(NodeKind::Assign { target, value });
            }
            ExprKind::Binary {
                op: BinaryOp::And | BinaryOp::Or,
                ..
            }
            | ExprKind::Not(_) => {
                let (on_true, on_false) = self.cond(expr);
                self.current = on_true;
                join(&mut self.current, on_false);
            }
            ExprKind::Binary {
                op: BinaryOp::Elvis,
                lhs,
                rhs,
            } => {
                self.expr(lhs);
                let skip_rhs = self.current.clone();
                self.expr(rhs);
                join(&mut self.current, skip_rhs);
            }
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Field { receiver, .. }
            | ExprKind::MethodRef { receiver, .. }
            | ExprKind::Cast { expr: receiver, .. }
            | ExprKind::TypeTest { expr: receiver, .. } => self.expr(receiver),
            ExprKind::Control(stmt) => {
                self.value_of = Some(expr);
                self.stmt(stmt, None);
            }
            ExprKind::Other(parts) => {
                for part in parts {
                    self.expr(part);
                }
            }
            ExprKind::Lambda { .. }
            | ExprKind::Name(_)
            | ExprKind::This(_)
            | ExprKind::Super
            | ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Literal => {}
        }
    }

    /// Inlines the lambda of the inline function `name` as its contract says.
    fn inline_lambda(&mut self, name: &str, inlined: Inlined<'a>) {
        if let (Some(subject), Binds::This | Binds::Parameter) =
            (inlined.subject, inlined.function.binds)
        {
            self.add_node(NodeKind::EnterScope(subject));
        }
        let body = &inlined.body.stmts;
        match inlined.function.runs {
            Runs::Once => self.lambda_body(name, body),
            Runs::OnceThenClose => {
                self.lambda_body(name, body);
                if let Some(subject) = inlined.subject {
                    self.add_throwing(NodeKind::Close(CloseTarget::Expr(subject)));
                }
            }
            Runs::OnceCatching => {
                self.jump_targets.push(JumpTarget::Handler {
                    throwers: Vec::new(),
                });
                self.lambda_body(name, body);
                if let Some(JumpTarget::Handler { throwers }) = self.jump_targets.pop() {
                    if !throwers.is_empty() {
                        let caught = self.add_detached(NodeKind::Join);
                        for thrower in throwers {
                            self.connect(vec![(thrower, EdgeKind::Exception)], caught);
                        }
                        self.current.push((caught, EdgeKind::Normal));
                    }
                }
            }
            Runs::Repeatedly => {
                let head = self.add_node(NodeKind::Join);
                self.lambda_body(name, body);
                self.connect_current(head);
                self.current = vec![(head, EdgeKind::Normal)];
            }
        }
    }

    /// One run of an inlined lambda: `return@name` ends the run, a plain `return` leaves the
    /// enclosing function (Kotlin inline semantics).
    fn lambda_body(&mut self, name: &str, body: &'a [Stmt]) {
        self.jump_targets.push(JumpTarget::Inline {
            label: name.to_owned(),
            returns: Vec::new(),
        });
        self.block(body);
        if let Some(JumpTarget::Inline { returns, .. }) = self.jump_targets.pop() {
            join(&mut self.current, returns);
        }
    }
}

/// How a jump leaves.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Jump {
    Break,
    Continue,
    Return,
}
