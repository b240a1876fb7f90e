//! Kotlin's synthetic properties over Java accessors, turned back into the calls they are.
//!
//! Kotlin shows a Java getter `getFoo()` (or `isFoo()`) as a property `foo` (`isFoo`), and assigning it calls the setter `setFoo(v)`.
//! So `helper.writableDatabase` is `helper.getWritableDatabase()`, and `player.isPlaying` is `player.isPlaying()`.
//! [`desugar`] rewrites such a read into the getter's [`ExprKind::Call`], and such an assignment into the setter's.
//! A read is an [`ExprKind::Field`], or a bare [`ExprKind::Name`] on the implicit `this`.
//! It does so wherever the receiver follows a protocol that binds the accessor as a callin, or declares the getter harmless (`input.channel` is `input.getChannel()`).
//! Every later pass (places, control flow, typestate flow, diagnostics, hovers, summaries of helpers) then sees the call it compiles to.
//! The call's name span is the property name's.
//!
//! Which reads qualify is the resolver's business ([`Resolution::properties`]).
//! Only Kotlin reads that resolve to no local and no field of an enclosing class qualify, and of those only the ones on a protocol object.
//! So a client's own property stays what it is.
//! Kotlin rejects a property of a protocol subclass whose getter would override an accessor of the
//! protocol class.
//! Java sources are left alone: Java's `obj.field` is a field.
//! A setter counts when the protocol binds it (Kotlin requires the Java getter too, which the code compiling shows).
//! The rewritten call keeps the id of the assigned property.

use std::borrow::Cow;

use typestates::binding::MethodKind;

use crate::ir::{Call, Expr, ExprKind, Language, SourceIr};
use crate::protocols::Protocols;
use crate::resolve::Resolution;
use crate::visit_mut::{walk_expr, walk_source, VisitMut};

/// `ir` with every Kotlin property read or assignment that stands for a callin of the
/// receiver's protocol rewritten into that call; `ir` itself when there is none.
pub fn desugar<'i>(
    ir: &'i SourceIr,
    res: &Resolution,
    protocols: &Protocols<'_>,
) -> Cow<'i, SourceIr> {
    let mut rewriter = Rewriter { res, protocols };
    let any = ir.language == Language::Kotlin
        && res
            .properties()
            .any(|(_, receiver)| protocols.protocol_of(&receiver.fqn).is_some());
    if !any {
        return Cow::Borrowed(ir);
    }
    let mut ir = ir.clone();
    walk_source(&mut rewriter, &mut ir);
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
    /// stands for, if its receiver's protocol binds it as a callin or declares it a harmless
    /// getter (`input.channel`).
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
        let harmless_getter = || {
            arity == 0
                && self.protocols.typestate(protocol).harmless.iter().any(|m| {
                    m.kind == MethodKind::Instance && m.name == method && m.accepts_arity(0)
                })
        };
        (!self.protocols.callins(protocol, &method, arity).is_empty() || harmless_getter())
            .then_some(method)
    }

    /// `expr` rewritten into the accessor call it stands for, if it is a property read or
    /// assignment on a protocol object (its parts are already rewritten).
    fn rewrite(&self, expr: &mut Expr) {
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
}

impl VisitMut for Rewriter<'_, '_> {
    /// Rewrites the accessors inside `expr`, then `expr` itself if it is one. An assigned
    /// property is not read, so only its receiver is looked into.
    fn visit_expr(&mut self, expr: &mut Expr) {
        match &mut expr.kind {
            ExprKind::Assign { target, value } => {
                walk_expr(self, target);
                self.visit_expr(value);
            }
            _ => walk_expr(self, expr),
        }
        self.rewrite(expr);
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
