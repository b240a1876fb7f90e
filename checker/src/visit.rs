//! One walk over the statements of the IR, shared by the passes that visit every statement in
//! source order (name resolution, places, clients).
//!
//! A pass implements [`Visitor`].
//! It says what to do with an expression and overrides the hooks it treats specially (a local declaration, a returned value, a new lexical scope).
//! [`walk_stmt`] visits the parts of each kind of statement, so no pass keeps its own copy of the traversal.
//! The expressions are the pass's business.
//! [`Visitor::visit_expr`] gets each expression a statement holds directly (a condition, an initializer).
//! A pass that finds statements inside an expression (a lambda body, Kotlin's `if` as a value) walks them with [`Visitor::visit_block`] or [`Visitor::visit_stmt`].
//! A pass that wants every part of an expression calls [`walk_expr`] from its `visit_expr`.

use crate::ir::{Body, Class, Expr, ExprKind, Local, Method, Param, Stmt, StmtKind};

/// A pass over statements; every hook but [`Visitor::visit_expr`] has a default.
pub trait Visitor<'a> {
    /// An expression a statement holds directly.
    fn visit_expr(&mut self, expr: &'a Expr);

    /// A block of statements: by default, each statement in order.
    fn visit_block(&mut self, stmts: &'a [Stmt]) {
        for stmt in stmts {
            self.visit_stmt(stmt);
        }
    }

    /// A statement: by default, its parts ([`walk_stmt`]).
    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        walk_stmt(self, stmt);
    }

    /// A lexical scope opens: around a `for` loop, a try-with-resources, a catch clause.
    fn enter_scope(&mut self) {}

    /// The scope [`Visitor::enter_scope`] opened closes.
    fn exit_scope(&mut self) {}

    /// A local variable declaration: by default, its initializer.
    fn visit_local(&mut self, local: &'a Local) {
        if let Some(init) = &local.init {
            self.visit_expr(init);
        }
    }

    /// The variable of a for-each loop, in the loop's scope, before the body.
    fn visit_loop_var(&mut self, var: &'a Local) {
        let _ = var;
    }

    /// The exception variable of a catch clause, in the clause's scope, before its body.
    fn visit_catch_param(&mut self, param: &'a Param) {
        let _ = param;
    }

    /// The value of a `return`: by default, the expression.
    fn visit_return(&mut self, value: &'a Expr) {
        self.visit_expr(value);
    }

    /// A class declared inside code.
    fn visit_local_class(&mut self, class: &'a Class) {
        let _ = class;
    }

    /// A Kotlin local function.
    fn visit_local_function(&mut self, method: &'a Method) {
        let _ = method;
    }

    /// A lambda `expr` with its body, met by [`walk_expr`]: by default, the body's statements.
    fn visit_lambda(&mut self, expr: &'a Expr, body: &'a Body) {
        let _ = expr;
        self.visit_block(&body.stmts);
    }

    /// The body of an anonymous class, met by [`walk_expr`]: by default, nothing.
    fn visit_anonymous_class(&mut self, class: &'a Class) {
        let _ = class;
    }
}

/// Visits the parts of `expr` in source order: its operands with [`Visitor::visit_expr`],
/// a lambda with [`Visitor::visit_lambda`], a `when` or `if` as a value with
/// [`Visitor::visit_stmt`], an anonymous class with [`Visitor::visit_anonymous_class`].
pub fn walk_expr<'a, V: Visitor<'a> + ?Sized>(visitor: &mut V, expr: &'a Expr) {
    match &expr.kind {
        ExprKind::Name(_)
        | ExprKind::This(_)
        | ExprKind::Super
        | ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Literal => {}
        ExprKind::Field { receiver, .. } | ExprKind::MethodRef { receiver, .. } => {
            visitor.visit_expr(receiver);
        }
        ExprKind::Call(call) => {
            call.receiver.iter().for_each(|r| visitor.visit_expr(r));
            call.args.iter().for_each(|a| visitor.visit_expr(a));
        }
        ExprKind::New { args, body, .. } => {
            args.iter().for_each(|a| visitor.visit_expr(a));
            body.iter()
                .for_each(|class| visitor.visit_anonymous_class(class));
        }
        ExprKind::Lambda { body, .. } => visitor.visit_lambda(expr, body),
        ExprKind::Binary { lhs, rhs, .. }
        | ExprKind::Assign {
            target: lhs,
            value: rhs,
        } => {
            visitor.visit_expr(lhs);
            visitor.visit_expr(rhs);
        }
        ExprKind::Not(inner)
        | ExprKind::Cast { expr: inner, .. }
        | ExprKind::TypeTest { expr: inner, .. } => visitor.visit_expr(inner),
        ExprKind::Control(stmt) => visitor.visit_stmt(stmt),
        ExprKind::Other(parts) => parts.iter().for_each(|p| visitor.visit_expr(p)),
    }
}

/// Visits the parts of `stmt` in source order.
pub fn walk_stmt<'a, V: Visitor<'a> + ?Sized>(visitor: &mut V, stmt: &'a Stmt) {
    match &stmt.kind {
        StmtKind::Local(local) => visitor.visit_local(local),
        StmtKind::Expr(expr) | StmtKind::Throw(expr) => visitor.visit_expr(expr),
        StmtKind::If {
            cond,
            then_branch,
            else_branch,
        } => {
            visitor.visit_expr(cond);
            visitor.visit_block(then_branch);
            if let Some(otherwise) = else_branch {
                visitor.visit_block(otherwise);
            }
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            visitor.visit_expr(cond);
            visitor.visit_block(body);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            visitor.enter_scope();
            init.iter().for_each(|stmt| visitor.visit_stmt(stmt));
            cond.iter()
                .chain(update)
                .for_each(|expr| visitor.visit_expr(expr));
            visitor.visit_block(body);
            visitor.exit_scope();
        }
        StmtKind::ForEach {
            var,
            iterable,
            body,
        } => {
            visitor.visit_expr(iterable);
            visitor.enter_scope();
            visitor.visit_loop_var(var);
            visitor.visit_block(body);
            visitor.exit_scope();
        }
        StmtKind::Switch {
            scrutinee, arms, ..
        } => {
            if let Some(scrutinee) = scrutinee {
                visitor.visit_expr(scrutinee);
            }
            for arm in arms {
                arm.labels
                    .iter()
                    .chain(&arm.guard)
                    .for_each(|expr| visitor.visit_expr(expr));
                visitor.visit_block(&arm.body);
            }
        }
        StmtKind::Try {
            resources,
            body,
            catches,
            finally,
        } => {
            visitor.enter_scope();
            resources.iter().for_each(|stmt| visitor.visit_stmt(stmt));
            visitor.visit_block(body);
            visitor.exit_scope();
            for catch in catches {
                visitor.enter_scope();
                visitor.visit_catch_param(&catch.param);
                visitor.visit_block(&catch.body);
                visitor.exit_scope();
            }
            if let Some(finally) = finally {
                visitor.visit_block(finally);
            }
        }
        StmtKind::Return { value, .. } => {
            if let Some(value) = value {
                visitor.visit_return(value);
            }
        }
        StmtKind::Break(_) | StmtKind::Continue(_) => {}
        StmtKind::Block(block) => visitor.visit_block(block),
        StmtKind::Labeled { body, .. } => visitor.visit_stmt(body),
        StmtKind::LocalClass(class) => visitor.visit_local_class(class),
        StmtKind::LocalFunction(method) => visitor.visit_local_function(method),
    }
}
