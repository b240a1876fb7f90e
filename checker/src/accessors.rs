//! Kotlin's synthetic properties over Java accessors, turned back into the calls they are.
//!
//! Kotlin shows a Java getter `getFoo()` (or `isFoo()`) as a property `foo` (`isFoo`), and
//! assigning it calls the setter `setFoo(v)`: `helper.writableDatabase` is
//! `helper.getWritableDatabase()`, `player.isPlaying` is `player.isPlaying()`.
//! [`desugar`] rewrites such a read ([`ExprKind::Field`], or a bare [`ExprKind::Name`] on the
//! implicit `this`) into the getter's [`ExprKind::Call`], and such an assignment into the
//! setter's, wherever the receiver follows a protocol that binds the accessor as a callin, so
//! every later pass (places, control flow, typestate flow, diagnostics, hovers, summaries of
//! helpers) sees the call it compiles to; the call's name span is the property name's.
//! Which reads qualify is the resolver's business: only Kotlin reads that resolve to no local
//! and no field of an enclosing class ([`Resolution::properties`]), and of those only the ones
//! on a protocol object, so a client's own property stays what it is (Kotlin rejects a property
//! of a protocol subclass whose getter would override an accessor of the protocol class).
//! Java sources are left alone: Java's `obj.field` is a field.
//! A setter counts when the protocol binds it (Kotlin requires the Java getter too, which the
//! code compiling shows), and the rewritten call keeps the id of the assigned property.

use std::borrow::Cow;

use crate::ir::{Block, Body, Call, Class, Expr, ExprKind, Language, Local, SourceIr, StmtKind};
use crate::protocols::Protocols;
use crate::resolve::Resolution;

/// `ir` with every Kotlin property read or assignment that stands for a callin of the
/// receiver's protocol rewritten into that call; `ir` itself when there is none.
pub fn desugar<'i>(
    ir: &'i SourceIr,
    res: &Resolution,
    protocols: &Protocols<'_>,
) -> Cow<'i, SourceIr> {
    let rewriter = Rewriter { res, protocols };
    let any = ir.language == Language::Kotlin
        && res
            .properties()
            .any(|(_, receiver)| protocols.protocol_of(&receiver.fqn).is_some());
    if !any {
        return Cow::Borrowed(ir);
    }
    let mut ir = ir.clone();
    ir.classes
        .iter_mut()
        .for_each(|class| rewriter.class(class));
    Cow::Owned(ir)
}

/// The Java getter a Kotlin property reads: `isFoo` for `isFoo`, `getFoo` for `foo`.
fn getter(property: &str) -> String {
    if is_prefix_of_boolean(property) {
        property.to_owned()
    } else {
        format!("get{}", capitalized(property))
    }
}

/// The Java setter a Kotlin property assigns: `setFoo` for `foo` and for `isFoo`.
fn setter(property: &str) -> String {
    let base = if is_prefix_of_boolean(property) {
        &property[2..]
    } else {
        property
    };
    format!("set{}", capitalized(base))
}

/// Whether `property` is named after a boolean getter `isFoo()`: `is` and a capital letter.
fn is_prefix_of_boolean(property: &str) -> bool {
    property
        .strip_prefix("is")
        .is_some_and(|rest| rest.starts_with(char::is_uppercase))
}

fn capitalized(name: &str) -> String {
    let mut chars = name.chars();
    match chars.next() {
        Some(first) => first.to_uppercase().chain(chars).collect(),
        None => String::new(),
    }
}

struct Rewriter<'r, 'l> {
    res: &'r Resolution,
    protocols: &'r Protocols<'l>,
}

impl Rewriter<'_, '_> {
    /// The accessor `method` with `arity` arguments that the property expression `property`
    /// stands for, if its receiver's protocol binds it as a callin.
    fn accessor(
        &self,
        property: &Expr,
        method: impl Fn(&str) -> String,
        arity: usize,
    ) -> Option<String> {
        let name = match &property.kind {
            ExprKind::Field { name, .. } | ExprKind::Name(name) => name,
            _ => return None,
        };
        let receiver = self.res.property_receiver(property.id)?;
        let protocol = self.protocols.protocol_of(&receiver.fqn)?;
        let method = method(name);
        (!self.protocols.callins(protocol, &method, arity).is_empty()).then_some(method)
    }

    fn class(&self, class: &mut Class) {
        for field in &mut class.fields {
            field.init.iter_mut().for_each(|e| self.expr(e));
            field.delegate.iter_mut().for_each(|e| self.expr(e));
            field.getter.iter_mut().for_each(|b| self.body(b));
        }
        for method in &mut class.methods {
            method.body.iter_mut().for_each(|b| self.body(b));
        }
        class.initializers.iter_mut().for_each(|b| self.body(b));
        class.classes.iter_mut().for_each(|c| self.class(c));
    }

    fn body(&self, body: &mut Body) {
        self.block(&mut body.stmts);
    }

    fn block(&self, block: &mut Block) {
        for stmt in block {
            self.stmt(&mut stmt.kind);
        }
    }

    fn local(&self, local: &mut Local) {
        local.init.iter_mut().for_each(|e| self.expr(e));
    }

    fn stmt(&self, stmt: &mut StmtKind) {
        match stmt {
            StmtKind::Local(local) => self.local(local),
            StmtKind::Expr(e) | StmtKind::Throw(e) => self.expr(e),
            StmtKind::If {
                cond,
                then_branch,
                else_branch,
            } => {
                self.expr(cond);
                self.block(then_branch);
                else_branch.iter_mut().for_each(|b| self.block(b));
            }
            StmtKind::While { cond, body } | StmtKind::DoWhile { body, cond } => {
                self.expr(cond);
                self.block(body);
            }
            StmtKind::For {
                init,
                cond,
                update,
                body,
            } => {
                self.block(init);
                cond.iter_mut().for_each(|e| self.expr(e));
                update.iter_mut().for_each(|e| self.expr(e));
                self.block(body);
            }
            StmtKind::ForEach {
                var,
                iterable,
                body,
            } => {
                self.local(var);
                self.expr(iterable);
                self.block(body);
            }
            StmtKind::Switch {
                scrutinee, arms, ..
            } => {
                scrutinee.iter_mut().for_each(|e| self.expr(e));
                for arm in arms {
                    arm.labels.iter_mut().for_each(|e| self.expr(e));
                    arm.guard.iter_mut().for_each(|e| self.expr(e));
                    self.block(&mut arm.body);
                }
            }
            StmtKind::Try {
                resources,
                body,
                catches,
                finally,
            } => {
                self.block(resources);
                self.block(body);
                catches.iter_mut().for_each(|c| self.block(&mut c.body));
                finally.iter_mut().for_each(|b| self.block(b));
            }
            StmtKind::Return { value, .. } => value.iter_mut().for_each(|e| self.expr(e)),
            StmtKind::Block(block) => self.block(block),
            StmtKind::Labeled { body, .. } => self.stmt(&mut body.kind),
            StmtKind::LocalClass(class) => self.class(class),
            StmtKind::LocalFunction(method) => method.body.iter_mut().for_each(|b| self.body(b)),
            StmtKind::Break(_) | StmtKind::Continue(_) => {}
        }
    }

    /// Rewrites the accessors inside `expr`, then `expr` itself if it is one.
    fn expr(&self, expr: &mut Expr) {
        self.parts(expr);
        let (id, span) = (expr.id, expr.span);
        let kind = std::mem::replace(&mut expr.kind, ExprKind::Literal);
        *expr = match kind {
            ExprKind::Assign { target, value } => match self.accessor(&target, setter, 1) {
                Some(setter) => Expr {
                    id: target.id,
                    kind: ExprKind::Call(accessor_call(*target, setter, vec![*value])),
                    span,
                },
                None => Expr {
                    id,
                    kind: ExprKind::Assign { target, value },
                    span,
                },
            },
            kind => {
                let read = Expr { id, kind, span };
                match self.accessor(&read, getter, 0) {
                    Some(getter) => Expr {
                        id,
                        kind: ExprKind::Call(accessor_call(read, getter, Vec::new())),
                        span,
                    },
                    None => read,
                }
            }
        };
    }

    /// Rewrites the accessors inside `expr`, not `expr` itself; an assigned property is not
    /// read, so only its receiver is looked into.
    fn parts(&self, expr: &mut Expr) {
        match &mut expr.kind {
            ExprKind::Field { receiver, .. } | ExprKind::MethodRef { receiver, .. } => {
                self.expr(receiver)
            }
            ExprKind::Call(call) => {
                call.receiver.iter_mut().for_each(|r| self.expr(r));
                call.args.iter_mut().for_each(|a| self.expr(a));
            }
            ExprKind::New { args, body, .. } => {
                args.iter_mut().for_each(|a| self.expr(a));
                body.iter_mut().for_each(|c| self.class(c));
            }
            ExprKind::Lambda { body, .. } => self.body(body),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Assign { target, value } => {
                self.parts(target);
                self.expr(value);
            }
            ExprKind::Not(inner)
            | ExprKind::Cast { expr: inner, .. }
            | ExprKind::TypeTest { expr: inner, .. } => self.expr(inner),
            ExprKind::Control(stmt) => self.stmt(&mut stmt.kind),
            ExprKind::Other(parts) => parts.iter_mut().for_each(|p| self.expr(p)),
            ExprKind::Name(_)
            | ExprKind::This(_)
            | ExprKind::Super
            | ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Literal => {}
        }
    }
}

/// The call of the accessor `name`, with `args`, that the property expression `property`
/// stands for.
fn accessor_call(property: Expr, name: String, args: Vec<Expr>) -> Call {
    let (receiver, name_span) = match property.kind {
        ExprKind::Field {
            receiver,
            name_span,
            ..
        } => (Some(receiver), name_span),
        _ => (None, property.span),
    };
    Call {
        receiver,
        name,
        name_span,
        args,
        is_safe: false,
    }
}
