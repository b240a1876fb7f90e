//! One walk over the whole IR that may change it in place.
//! The passes that rewrite a lowered file share it.
//! They are the relocation of spans and expression ids across an edit ([`crate::incremental`]) and Kotlin's synthetic accessor properties ([`crate::accessors`]).
//!
//! A pass implements [`VisitMut`] and overrides the hooks it cares about.
//! Each hook defaults to its `walk_*` function, which visits every part of the node.
//! The walks destructure every node without `..`.
//! So a field added to the IR fails to compile here until the walk covers it.
//! No pass can silently miss a span or an expression.
//! Every [`Span`] of the IR reaches [`VisitMut::visit_span`], after the node's children.

use crate::ir::{
    Annotation, Block, Body, Call, Catch, Class, Expr, ExprKind, Field, Import, Local, Method,
    Param, SourceIr, Span, Stmt, StmtKind, SwitchArm, TypeRef,
};

/// A pass that may rewrite the IR; every hook has a default.
pub trait VisitMut {
    /// A span: by default, left as it is.
    fn visit_span(&mut self, span: &mut Span) {
        let _ = span;
    }

    /// A class: by default, its parts ([`walk_class`]).
    fn visit_class(&mut self, class: &mut Class) {
        walk_class(self, class);
    }

    /// A method or a local function: by default, its parts ([`walk_method`]).
    fn visit_method(&mut self, method: &mut Method) {
        walk_method(self, method);
    }

    /// A statement: by default, its parts ([`walk_stmt`]).
    fn visit_stmt(&mut self, stmt: &mut Stmt) {
        walk_stmt(self, stmt);
    }

    /// An expression: by default, its parts ([`walk_expr`]).
    fn visit_expr(&mut self, expr: &mut Expr) {
        walk_expr(self, expr);
    }
}

/// Visits everything in a file: imports, classes, file annotations, the spans of
/// `@ignore`-style comments and of syntax errors.
pub fn walk_source<V: VisitMut + ?Sized>(visitor: &mut V, ir: &mut SourceIr) {
    let SourceIr {
        language: _,
        package: _,
        imports,
        type_aliases,
        classes,
        file_annotations,
        ignore_comments,
        syntax_errors,
        n_exprs: _,
        too_deep,
    } = ir;
    imports.iter_mut().for_each(|it| walk_import(visitor, it));
    for alias in type_aliases {
        visitor.visit_span(&mut alias.target.span);
        visitor.visit_span(&mut alias.span);
    }
    classes.iter_mut().for_each(|it| visitor.visit_class(it));
    file_annotations
        .iter_mut()
        .for_each(|it| walk_annotation(visitor, it));
    ignore_comments
        .iter_mut()
        .chain(syntax_errors)
        .chain(too_deep.iter_mut().map(|it| &mut it.span))
        .for_each(|it| visitor.visit_span(it));
}

/// Visits an import's span.
pub fn walk_import<V: VisitMut + ?Sized>(visitor: &mut V, import: &mut Import) {
    let Import {
        path: _,
        is_wildcard: _,
        is_static: _,
        alias: _,
        span,
    } = import;
    visitor.visit_span(span);
}

/// Visits an annotation's span.
pub fn walk_annotation<V: VisitMut + ?Sized>(visitor: &mut V, annotation: &mut Annotation) {
    let Annotation {
        name: _,
        string_args: _,
        span,
    } = annotation;
    visitor.visit_span(span);
}

/// Visits a type reference's span.
pub fn walk_type_ref<V: VisitMut + ?Sized>(visitor: &mut V, ty: &mut TypeRef) {
    let TypeRef { span, .. } = ty;
    visitor.visit_span(span);
}

/// Visits a class's supertypes, annotations, fields, methods, initializers and nested
/// classes, then its span.
pub fn walk_class<V: VisitMut + ?Sized>(visitor: &mut V, class: &mut Class) {
    let Class {
        name: _,
        kind: _,
        superclass,
        interfaces,
        annotations,
        modifiers: _,
        fields,
        methods,
        initializers,
        classes,
        span,
    } = class;
    superclass
        .iter_mut()
        .chain(interfaces)
        .for_each(|it| walk_type_ref(visitor, it));
    annotations
        .iter_mut()
        .for_each(|it| walk_annotation(visitor, it));
    fields.iter_mut().for_each(|it| walk_field(visitor, it));
    methods.iter_mut().for_each(|it| visitor.visit_method(it));
    initializers
        .iter_mut()
        .for_each(|it| walk_body(visitor, it));
    classes.iter_mut().for_each(|it| visitor.visit_class(it));
    visitor.visit_span(span);
}

/// Visits a field's type, initializer, delegate, getter and annotations, then its span.
pub fn walk_field<V: VisitMut + ?Sized>(visitor: &mut V, field: &mut Field) {
    let Field {
        name: _,
        ty,
        init,
        delegate,
        getter,
        annotations,
        modifiers: _,
        span,
    } = field;
    ty.iter_mut().for_each(|it| walk_type_ref(visitor, it));
    init.iter_mut()
        .chain(delegate)
        .for_each(|it| visitor.visit_expr(it));
    getter.iter_mut().for_each(|it| walk_body(visitor, it));
    annotations
        .iter_mut()
        .for_each(|it| walk_annotation(visitor, it));
    visitor.visit_span(span);
}

/// Visits a method's return type, annotations, parameters and body, then its span (its
/// expression ids are the pass's business).
pub fn walk_method<V: VisitMut + ?Sized>(visitor: &mut V, method: &mut Method) {
    let Method {
        name: _,
        kind: _,
        return_type,
        annotations,
        modifiers: _,
        params,
        body,
        span,
        ids: _,
    } = method;
    return_type
        .iter_mut()
        .for_each(|it| walk_type_ref(visitor, it));
    annotations
        .iter_mut()
        .for_each(|it| walk_annotation(visitor, it));
    params.iter_mut().for_each(|it| walk_param(visitor, it));
    body.iter_mut().for_each(|it| walk_body(visitor, it));
    visitor.visit_span(span);
}

/// Visits a parameter's type, then its span.
pub fn walk_param<V: VisitMut + ?Sized>(visitor: &mut V, param: &mut Param) {
    let Param { name: _, ty, span } = param;
    ty.iter_mut().for_each(|it| walk_type_ref(visitor, it));
    visitor.visit_span(span);
}

/// Visits a body's statements, then its span.
pub fn walk_body<V: VisitMut + ?Sized>(visitor: &mut V, body: &mut Body) {
    let Body { stmts, span } = body;
    walk_block(visitor, stmts);
    visitor.visit_span(span);
}

/// Visits each statement of a block in order.
pub fn walk_block<V: VisitMut + ?Sized>(visitor: &mut V, block: &mut Block) {
    block.iter_mut().for_each(|it| visitor.visit_stmt(it));
}

/// Visits a local declaration's type and initializer, then its name's span.
pub fn walk_local<V: VisitMut + ?Sized>(visitor: &mut V, local: &mut Local) {
    let Local {
        name: _,
        ty,
        init,
        name_span,
    } = local;
    ty.iter_mut().for_each(|it| walk_type_ref(visitor, it));
    init.iter_mut().for_each(|it| visitor.visit_expr(it));
    visitor.visit_span(name_span);
}

/// Visits the parts of a statement in source order, then its span.
pub fn walk_stmt<V: VisitMut + ?Sized>(visitor: &mut V, stmt: &mut Stmt) {
    let Stmt { kind, span } = stmt;
    match kind {
        StmtKind::Local(local) => walk_local(visitor, local),
        StmtKind::Expr(expr) | StmtKind::Throw(expr) => visitor.visit_expr(expr),
        StmtKind::If {
            cond,
            then_branch,
            else_branch,
        } => {
            visitor.visit_expr(cond);
            walk_block(visitor, then_branch);
            else_branch
                .iter_mut()
                .for_each(|it| walk_block(visitor, it));
        }
        StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
            visitor.visit_expr(cond);
            walk_block(visitor, body);
        }
        StmtKind::For {
            init,
            cond,
            update,
            body,
        } => {
            walk_block(visitor, init);
            cond.iter_mut()
                .chain(update)
                .for_each(|it| visitor.visit_expr(it));
            walk_block(visitor, body);
        }
        StmtKind::ForEach {
            var,
            iterable,
            body,
        } => {
            walk_local(visitor, var);
            visitor.visit_expr(iterable);
            walk_block(visitor, body);
        }
        StmtKind::Switch {
            scrutinee,
            arms,
            fallthrough: _,
        } => {
            scrutinee.iter_mut().for_each(|it| visitor.visit_expr(it));
            arms.iter_mut().for_each(|it| walk_arm(visitor, it));
        }
        StmtKind::Try {
            resources,
            body,
            catches,
            finally,
        } => {
            walk_block(visitor, resources);
            walk_block(visitor, body);
            catches.iter_mut().for_each(|it| walk_catch(visitor, it));
            finally.iter_mut().for_each(|it| walk_block(visitor, it));
        }
        StmtKind::Return { value, label: _ } => {
            value.iter_mut().for_each(|it| visitor.visit_expr(it))
        }
        StmtKind::Break(_) | StmtKind::Continue(_) => {}
        StmtKind::Block(block) => walk_block(visitor, block),
        StmtKind::Labeled { label: _, body } => visitor.visit_stmt(body),
        StmtKind::LocalClass(class) => visitor.visit_class(class),
        StmtKind::LocalFunction(method) => visitor.visit_method(method),
    }
    visitor.visit_span(span);
}

/// Visits a switch arm's labels, guard and body, then its span.
pub fn walk_arm<V: VisitMut + ?Sized>(visitor: &mut V, arm: &mut SwitchArm) {
    let SwitchArm {
        labels,
        guard,
        is_default: _,
        body,
        span,
    } = arm;
    labels
        .iter_mut()
        .chain(guard)
        .for_each(|it| visitor.visit_expr(it));
    walk_block(visitor, body);
    visitor.visit_span(span);
}

/// Visits a catch clause's parameter, types and body, then its span.
pub fn walk_catch<V: VisitMut + ?Sized>(visitor: &mut V, catch: &mut Catch) {
    let Catch {
        param,
        types,
        body,
        span,
    } = catch;
    walk_param(visitor, param);
    types.iter_mut().for_each(|it| walk_type_ref(visitor, it));
    walk_block(visitor, body);
    visitor.visit_span(span);
}

/// Visits the parts of an expression in source order, then its span (its id is the pass's
/// business).
pub fn walk_expr<V: VisitMut + ?Sized>(visitor: &mut V, expr: &mut Expr) {
    let Expr { id: _, kind, span } = expr;
    match kind {
        ExprKind::Name(_)
        | ExprKind::This(_)
        | ExprKind::Super
        | ExprKind::Null
        | ExprKind::Bool(_)
        | ExprKind::Int(_)
        | ExprKind::Literal => {}
        ExprKind::Field {
            receiver,
            name: _,
            name_span,
        } => {
            visitor.visit_expr(receiver);
            visitor.visit_span(name_span);
        }
        ExprKind::MethodRef { receiver, name: _ } => visitor.visit_expr(receiver),
        ExprKind::Call(call) => walk_call(visitor, call),
        ExprKind::New { ty, args, body } => {
            walk_type_ref(visitor, ty);
            args.iter_mut().for_each(|it| visitor.visit_expr(it));
            body.iter_mut().for_each(|it| visitor.visit_class(it));
        }
        ExprKind::Lambda { params, body } => {
            params.iter_mut().for_each(|it| walk_param(visitor, it));
            walk_body(visitor, body);
        }
        ExprKind::Binary { op: _, lhs, rhs }
        | ExprKind::Assign {
            target: lhs,
            value: rhs,
        } => {
            visitor.visit_expr(lhs);
            visitor.visit_expr(rhs);
        }
        ExprKind::Not(inner) => visitor.visit_expr(inner),
        ExprKind::Cast { expr: inner, ty }
        | ExprKind::TypeTest {
            expr: inner,
            ty,
            negated: _,
        } => {
            visitor.visit_expr(inner);
            walk_type_ref(visitor, ty);
        }
        ExprKind::Control(stmt) => visitor.visit_stmt(stmt),
        ExprKind::Other(parts) => parts.iter_mut().for_each(|it| visitor.visit_expr(it)),
    }
    visitor.visit_span(span);
}

/// Visits a call's receiver and arguments, then its name's span.
pub fn walk_call<V: VisitMut + ?Sized>(visitor: &mut V, call: &mut Call) {
    let Call {
        receiver,
        name: _,
        name_span,
        args,
        is_safe: _,
    } = call;
    receiver.iter_mut().for_each(|it| visitor.visit_expr(it));
    args.iter_mut().for_each(|it| visitor.visit_expr(it));
    visitor.visit_span(name_span);
}
