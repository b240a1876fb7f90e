//! Which tracked object each expression denotes, and which code runs later.
//!
//! One pass over a file, before any dataflow, maps expressions to a [`Var`].
//! A var is a local, a field, the object itself, or the temporary receiver of a Kotlin scope function.
//! It maps names, field accesses, `this` and the implicit receivers of unqualified calls.
//! Inside the lambdas the control-flow graph inlines ([`crate::inline`]), scope functions act on their subject:
//! - the lambda's parameter (or `it`) of `also`, `let` and `use` is an alias of the subject;
//! - an unqualified call inside `apply`, `run` and `with` goes to the subject, so `player.apply { start() }` acts on `player`;
//! - the elements `forEach` and the like pass are objects of unknown origin.
//!
//! Getters are aliases.
//! Reading a Kotlin property whose getter only returns a field (`val player get() = mPlayer`) denotes that field.
//! So does calling a method of the class that only returns a field (`player()`).
//! A property whose getter returns anything else denotes no tracked object.
//!
//! The same pass collects the [`Deferred`] code, which runs later as event handlers.
//! It is the lambdas that are not inlined and the methods of anonymous classes, with the call they are passed to.
//! It is also the methods named by method references (`this::onRecordClicked`).

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::inline::{Binds, Inlined, Returns};
use crate::ir::{
    BinaryOp, Body, Call, Class, Expr, ExprId, ExprKind, Language, Local, Method, MethodKind,
    Param, Span, Stmt, StmtKind,
};
use crate::resolve::{returned_expr, Binding, ExprType, LocalId, Resolution};
use crate::visit::{walk_stmt, Visitor};

/// A tracked object: where the analysis keeps its abstract state.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Var {
    /// A local variable or parameter.
    Local(LocalId),
    /// A field: the declaring class's fully qualified name and the field name.
    Field(String, String),
    /// The object whose method runs, of the class named (a subclass of a protocol class).
    This(String),
    /// The receiver of a Kotlin scope function that is not a variable
    /// (`MediaPlayer().apply { … }`), named by the receiver expression.
    Temp(ExprId),
}

/// How deferred code reaches the framework: the call it is an argument of.
#[derive(Debug, Clone, Copy)]
pub struct Registration<'a> {
    /// The registering call (`setOnPreparedListener`, `setOnClickListener`).
    pub call: &'a Call,
    /// The registering call's expression, which names the registration in
    /// [`crate::typestate_flow::Value::listeners`].
    pub site: ExprId,
    /// The object the call is made on, when it is tracked.
    pub receiver: Option<&'a Expr>,
}

/// Code that runs later: a lambda that is not inlined, or a method of an anonymous class.
#[derive(Debug, Clone, Copy)]
pub struct Deferred<'a> {
    /// The parameters.
    pub params: &'a [Param],
    /// The body.
    pub body: &'a Body,
    /// For anonymous class methods, the method name (the listener method it implements).
    pub method: Option<&'a str>,
    /// The call the lambda or anonymous object is passed to, if any.
    pub registration: Option<Registration<'a>>,
    /// The fully qualified name of the class whose code this is.
    pub class: &'a str,
}

/// What the pass found.
#[derive(Debug, Default)]
pub struct Places<'a> {
    vars: HashMap<ExprId, Var>,
    implicit_receivers: HashMap<ExprId, Var>,
    implicit_subjects: HashMap<ExprId, &'a Expr>,
    /// Deferred code, in source order.
    pub deferred: Vec<Deferred<'a>>,
    /// Names of methods referenced by `this::name` or `::name`.
    pub method_refs: Vec<String>,
    /// `(class, method)` for every call on the object itself (`name(…)`, `this.name(…)`).
    pub self_calls: HashSet<(String, String)>,
    /// Every call and object creation, for related locations.
    pub sites: HashMap<ExprId, Site>,
    /// Locals whose object may be kept elsewhere: passed as an argument, assigned or copied to
    /// another name (the unreleased-object report leaves them alone).
    pub escaping: HashSet<LocalId>,
    /// Locals some `return` returns: the object they hold there goes to the caller, but one
    /// they held before another was assigned did not.
    pub returned: HashSet<LocalId>,
    /// The names some condition tests: `if (playing)`, `state == RUNNING`, `x != null`,
    /// `switch (mode)`, an operand of `&&`, `||` or `!` there, and either side of any `==`,
    /// `!=` or comparison. Only their constants are worth following along paths.
    pub tested: HashSet<Var>,
    /// The fields assigned after their object is built: in a method, in deferred code, or by
    /// another class. Any other field keeps what construction gave it.
    pub reassigned: HashSet<Var>,
}

/// A call or object creation, as related locations name it.
#[derive(Debug, Clone)]
pub struct Site {
    /// The called name (`release`), or the class for `new`.
    pub name: String,
    /// Where the name is.
    pub span: Span,
    /// Whether this is `new C(…)` or a Kotlin constructor call.
    pub is_new: bool,
    /// The enclosing method, if any (`onStop`).
    pub method: Option<String>,
}

impl<'a> Places<'a> {
    /// The tracked object `expr` denotes, if any.
    pub fn var(&self, expr: &Expr) -> Option<&Var> {
        self.vars.get(&expr.id)
    }

    /// The object an unqualified call `call` (by its expression id) is made on.
    pub fn implicit_receiver(&self, call: ExprId) -> Option<&Var> {
        self.implicit_receivers.get(&call)
    }

    /// The subject of the enclosing inlined lambda an unqualified call `call` goes to
    /// (`player` for `start()` in `player.apply { start() }`), as written.
    pub fn implicit_subject(&self, call: ExprId) -> Option<&'a Expr> {
        self.implicit_subjects.get(&call).copied()
    }
}

/// The tracked object the receiver of a scope function call stands for.
pub fn scope_receiver(places: &Places<'_>, receiver: &Expr) -> Var {
    places
        .var(receiver)
        .cloned()
        .unwrap_or(Var::Temp(receiver.id))
}

/// Finds the places of every class of a file.
pub fn collect<'a>(
    classes: &'a [Class],
    package: Option<&str>,
    language: Language,
    res: &'a Resolution,
) -> Places<'a> {
    let mut walker = Walker {
        res,
        language,
        places: Places::default(),
        aliases: HashMap::default(),
        scopes: Vec::new(),
        class_names: Vec::new(),
        methods: Vec::new(),
        deferred_depth: 0,
        property_getters: HashMap::default(),
        method_getters: HashMap::default(),
    };
    for class in classes {
        let fqn = match package {
            Some(package) if !package.is_empty() => format!("{package}.{}", class.name),
            _ => class.name.clone(),
        };
        walker.class(class, fqn);
    }
    walker.places
}

/// What [`Site::method`] says of code in a constructor.
const CONSTRUCTOR: &str = "the constructor";

struct Walker<'a> {
    res: &'a Resolution,
    /// The file's language: only Kotlin has inline lambdas.
    language: Language,
    places: Places<'a>,
    aliases: HashMap<LocalId, Var>,
    /// Subjects of the enclosing inlined `apply`/`run`/`with` lambdas, innermost last: the
    /// object, its type and the expression.
    scopes: Vec<(Var, Option<ExprType>, &'a Expr)>,
    /// Fully qualified names of the enclosing classes, innermost last (interned here so
    /// [`Deferred::class`] can borrow them for the walk's lifetime).
    class_names: Vec<&'a str>,
    /// Names of the enclosing methods, innermost last.
    methods: Vec<&'a str>,
    /// How many enclosing lambdas and anonymous classes run later than the code around them.
    deferred_depth: usize,
    /// Kotlin properties with a custom getter, by `(class, name)`: the field the getter
    /// returns, or `None` when it returns anything else (a new object each time, an element
    /// of a list), which no name stands for.
    property_getters: HashMap<(&'a str, &'a str), Option<Var>>,
    /// Methods without parameters whose body only returns a field, by `(class, name)`.
    method_getters: HashMap<(&'a str, &'a str), Var>,
}

impl<'a> Walker<'a> {
    fn class(&mut self, class: &'a Class, fqn: String) {
        let fqn: &'a str = self.intern(fqn);
        self.class_names.push(fqn);
        self.getters(class, fqn);
        for field in &class.fields {
            field
                .init
                .iter()
                .chain(&field.delegate)
                .for_each(|e| self.expr(e));
            field.getter.iter().for_each(|g| self.visit_block(&g.stmts));
        }
        for init in &class.initializers {
            self.visit_block(&init.stmts);
        }
        for method in &class.methods {
            self.method(method);
        }
        for nested in &class.classes {
            self.class(nested, format!("{fqn}.{}", nested.name));
        }
        self.class_names.pop();
    }

    /// Records the getters of `class` (named `fqn`): reading a property with a getter, or
    /// calling a method that only returns a field, denotes that field. A getter is assumed
    /// not to be overridden.
    fn getters(&mut self, class: &'a Class, fqn: &'a str) {
        for field in &class.fields {
            if let Some(getter) = &field.getter {
                let target = self.getter_target(getter);
                self.property_getters.insert((fqn, &field.name), target);
            }
        }
        for method in &class.methods {
            let is_getter = method.kind == MethodKind::Method
                && method.params.is_empty()
                && !method.modifiers.is_static;
            let target = method.body.as_ref().and_then(|b| self.getter_target(b));
            if let (true, Some(target)) = (is_getter, target) {
                self.method_getters.insert((fqn, &method.name), target);
            }
        }
    }

    /// The field a getter body returns, if it only returns a field.
    fn getter_target(&self, body: &Body) -> Option<Var> {
        match self.res.binding_of(returned_expr(body)?.id)? {
            Binding::Field { class, name } => self.field_var(class, name),
            Binding::Local(_) => None,
        }
    }

    /// What reading the field `name` of `class` denotes: the field, or what its getter
    /// returns.
    fn field_var(&self, class: &str, name: &str) -> Option<Var> {
        match self.property_getters.get(&(class, name)) {
            Some(target) => target.clone(),
            None => Some(Var::Field(class.to_owned(), name.to_owned())),
        }
    }

    /// Leaks nothing: the names live in the resolution, which outlives the walk.
    fn intern(&self, fqn: String) -> &'a str {
        self.res
            .class(&fqn)
            .map(|info| info.fqn.as_str())
            .unwrap_or("")
    }

    fn current_class(&self) -> &'a str {
        self.class_names.last().copied().unwrap_or("")
    }

    fn method(&mut self, method: &'a Method) {
        if let Some(body) = &method.body {
            let name = match method.kind {
                MethodKind::Constructor => CONSTRUCTOR,
                MethodKind::Method => method.name.as_str(),
            };
            self.methods.push(name);
            self.visit_block(&body.stmts);
            self.methods.pop();
        }
    }

    fn site(&mut self, expr: &Expr, name: &str, span: Span, is_new: bool) {
        let site = Site {
            name: name.to_owned(),
            span,
            is_new,
            method: self.methods.last().map(|m| (*m).to_owned()),
        };
        self.places.sites.insert(expr.id, site);
    }

    /// The object `this` (or an unqualified call resolved to `ty`) stands for.
    fn this_var(&self, ty: Option<&ExprType>) -> Option<Var> {
        if let Some((var, _, _)) = self.scope_of(ty) {
            return Some(var.clone());
        }
        self.res
            .class(&ty?.fqn)
            .map(|info| Var::This(info.fqn.clone()))
    }

    /// The innermost enclosing inlined lambda whose `this` has type `ty`.
    fn scope_of(&self, ty: Option<&ExprType>) -> Option<&(Var, Option<ExprType>, &'a Expr)> {
        let ty = ty?;
        self.scopes
            .iter()
            .rev()
            .find(|(_, scope_ty, _)| scope_ty.as_ref() == Some(ty))
    }

    fn expr(&mut self, expr: &'a Expr) {
        match &expr.kind {
            ExprKind::Name(_) => {
                let var = match self.res.binding_of(expr.id) {
                    Some(Binding::Local(id)) => {
                        Some(self.aliases.get(id).cloned().unwrap_or(Var::Local(*id)))
                    }
                    Some(Binding::Field { class, name }) => self.field_var(class, name),
                    None => None,
                };
                if let Some(var) = var {
                    self.places.vars.insert(expr.id, var);
                }
            }
            ExprKind::This(None) => {
                if let Some(var) = self.this_var(self.res.type_of(expr.id)) {
                    self.places.vars.insert(expr.id, var);
                }
            }
            ExprKind::Field { receiver, .. } => {
                self.expr(receiver);
                if let Some(Binding::Field { class, name }) = self.res.binding_of(expr.id) {
                    if let Some(var) = self.field_var(class, name) {
                        self.places.vars.insert(expr.id, var);
                    }
                }
            }
            ExprKind::Call(call) => self.call(expr, call),
            ExprKind::New { args, body, ty } => {
                self.site(expr, &ty.name, ty.span, true);
                args.iter().for_each(|a| self.expr(a));
                if let Some(class) = body {
                    self.anonymous(class, None);
                }
            }
            ExprKind::Lambda { params, body } => self.lambda(params, body, None),
            ExprKind::MethodRef { receiver, name } => {
                if matches!(receiver.kind, ExprKind::This(_)) || receiver.span == expr.span {
                    self.places.method_refs.push(name.clone());
                }
                self.expr(receiver);
            }
            ExprKind::Binary { lhs, rhs, op } => {
                self.expr(lhs);
                self.expr(rhs);
                if op.is_comparison() {
                    self.tested(lhs);
                    self.tested(rhs);
                }
            }
            ExprKind::Assign { target, value } => {
                self.expr(target);
                self.escaping_expr(value);
                if let Some(field @ Var::Field(class, _)) = self.places.vars.get(&target.id) {
                    let constructing = self.deferred_depth == 0
                        && class == self.current_class()
                        && self.methods.last().is_none_or(|m| *m == CONSTRUCTOR);
                    if !constructing {
                        self.places.reassigned.insert(field.clone());
                    }
                }
            }
            ExprKind::Cast { expr: inner, .. } => {
                self.expr(inner);
                if let Some(var) = self.places.vars.get(&inner.id).cloned() {
                    self.places.vars.insert(expr.id, var);
                }
            }
            ExprKind::Not(inner) | ExprKind::TypeTest { expr: inner, .. } => self.expr(inner),
            ExprKind::Control(stmt) => self.visit_stmt(stmt),
            ExprKind::Other(parts) => parts.iter().for_each(|p| self.escaping_expr(p)),
            ExprKind::This(Some(_))
            | ExprKind::Super
            | ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Literal => {}
        }
    }

    /// Notes the names the condition `cond` tests (see [`Places::tested`]).
    fn tested(&mut self, cond: &Expr) {
        match &cond.kind {
            ExprKind::Not(inner) | ExprKind::Cast { expr: inner, .. } => self.tested(inner),
            ExprKind::Binary { op, lhs, rhs }
                if op.is_comparison() || matches!(op, BinaryOp::And | BinaryOp::Or) =>
            {
                self.tested(lhs);
                self.tested(rhs);
            }
            _ => {
                if let Some(var) = self.places.vars.get(&cond.id) {
                    self.places.tested.insert(var.clone());
                }
            }
        }
    }

    /// Walks `expr`, whose value goes somewhere a local's object may outlive it.
    fn escaping_expr(&mut self, expr: &'a Expr) {
        self.expr(expr);
        if let Some(Var::Local(local)) = self.places.vars.get(&expr.id) {
            self.places.escaping.insert(*local);
        }
    }

    fn call(&mut self, expr: &'a Expr, call: &'a Call) {
        let is_new = self.res.receiver_of(expr.id).is_none()
            && call.name.starts_with(char::is_uppercase)
            && self.res.type_of(expr.id).is_some();
        self.site(expr, &call.name, call.name_span, is_new);
        if call.receiver.is_none()
            || call
                .receiver
                .as_ref()
                .is_some_and(|r| matches!(r.kind, ExprKind::This(None)))
        {
            let key = (self.current_class().to_owned(), call.name.clone());
            self.places.self_calls.insert(key);
        }
        if let Some(receiver) = &call.receiver {
            self.expr(receiver);
        } else if let Some(var) = self.this_var(self.res.receiver_of(expr.id)) {
            self.places.implicit_receivers.insert(expr.id, var);
            if let Some((_, _, subject)) = self.scope_of(self.res.receiver_of(expr.id)) {
                self.places.implicit_subjects.insert(expr.id, subject);
            }
        }
        let on_this = call
            .receiver
            .as_ref()
            .is_none_or(|r| matches!(r.kind, ExprKind::This(None)));
        if let (true, true, Some(owner)) = (
            on_this && call.args.is_empty(),
            !self.method_getters.is_empty(),
            self.res.receiver_of(expr.id),
        ) {
            let key = (owner.fqn.as_str(), call.name.as_str());
            if let Some(var) = self.method_getters.get(&key) {
                self.places.vars.insert(expr.id, var.clone());
            }
        }
        let inlined = crate::inline::inlined(call, self.language);
        let borrows = self.res.receiver_of(expr.id).is_some_and(|receiver| {
            crate::platform::borrows_arguments(&receiver.fqn, &call.name, call.args.len())
        });
        for arg in inlined.map_or(call.args.as_slice(), |i| i.args) {
            match &arg.kind {
                ExprKind::Lambda { params, body } => {
                    let registration = Registration {
                        call,
                        site: expr.id,
                        receiver: call.receiver.as_deref(),
                    };
                    self.lambda(params, body, Some(registration));
                }
                ExprKind::New {
                    args,
                    body: Some(class),
                    ..
                } => {
                    args.iter().for_each(|a| self.expr(a));
                    let registration = Registration {
                        call,
                        site: expr.id,
                        receiver: call.receiver.as_deref(),
                    };
                    self.anonymous(class, Some(registration));
                }
                _ if borrows => self.expr(arg),
                _ => self.escaping_expr(arg),
            }
        }
        let Some(inlined) = inlined else {
            return;
        };
        self.inline_lambda(inlined);
        if let (Returns::Subject, Some(receiver)) = (inlined.function.returns, &call.receiver) {
            let var = scope_receiver(&self.places, receiver);
            self.places.vars.insert(expr.id, var);
        }
    }

    /// Walks an inlined lambda, whose `this` or parameter is an alias of the subject.
    fn inline_lambda(&mut self, inlined: Inlined<'a>) {
        let body = &inlined.body.stmts;
        let Some(subject) = inlined.subject else {
            self.visit_block(body);
            return;
        };
        let var = scope_receiver(&self.places, subject);
        match inlined.function.binds {
            Binds::This => {
                let ty = self.res.type_of(subject.id).cloned();
                self.scopes.push((var, ty, subject));
                self.visit_block(body);
                self.scopes.pop();
            }
            Binds::Parameter => {
                if let Some(local) = self.res.declared_at(inlined.parameter_at()) {
                    self.aliases.insert(local, var);
                }
                self.visit_block(body);
            }
            Binds::Nothing => self.visit_block(body),
        }
    }

    fn lambda(
        &mut self,
        params: &'a [Param],
        body: &'a Body,
        registration: Option<Registration<'a>>,
    ) {
        self.places.deferred.push(Deferred {
            params,
            body,
            method: None,
            registration,
            class: self.current_class(),
        });
        // Code that runs later sees no enclosing scope-function receiver.
        let scopes = std::mem::take(&mut self.scopes);
        self.deferred_depth += 1;
        self.visit_block(&body.stmts);
        self.deferred_depth -= 1;
        self.scopes = scopes;
    }

    fn anonymous(&mut self, class: &'a Class, registration: Option<Registration<'a>>) {
        let scopes = std::mem::take(&mut self.scopes);
        self.deferred_depth += 1;
        let fqn = format!("{}${}", self.current_class(), class.span.start);
        let fqn: &'a str = self.intern(fqn);
        self.class_names.push(fqn);
        for method in &class.methods {
            if let Some(body) = &method.body {
                self.places.deferred.push(Deferred {
                    params: &method.params,
                    body,
                    method: Some(&method.name),
                    registration,
                    class: fqn,
                });
                self.methods.push(&method.name);
                self.visit_block(&body.stmts);
                self.methods.pop();
            }
        }
        for field in &class.fields {
            field.init.iter().for_each(|e| self.expr(e));
        }
        self.class_names.pop();
        self.deferred_depth -= 1;
        self.scopes = scopes;
    }
}

impl Walker<'_> {
    /// Marks the local `value` names as returned, or those a control expression's branches
    /// give as its value (`return try { …; bitmap } catch …`, `return ok ? player : null`).
    fn returned(&mut self, value: &Expr) {
        if let Some(Var::Local(local)) = self.places.vars.get(&value.id) {
            self.places.returned.insert(*local);
        }
        if let ExprKind::Control(stmt) = &value.kind {
            for branch in stmt.branch_values().into_iter().flatten() {
                self.returned(branch);
            }
        }
    }
}

/// Places sees every expression; a declared local's initializer and a returned value are
/// values that may outlive their name.
impl<'a> Visitor<'a> for Walker<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        self.expr(expr);
    }

    fn visit_stmt(&mut self, stmt: &'a Stmt) {
        walk_stmt(self, stmt);
        match &stmt.kind {
            StmtKind::If { cond, .. }
            | StmtKind::While { cond, .. }
            | StmtKind::DoWhile { cond, .. }
            | StmtKind::For {
                cond: Some(cond), ..
            } => self.tested(cond),
            StmtKind::Switch {
                scrutinee: Some(scrutinee),
                ..
            } => self.tested(scrutinee),
            StmtKind::Switch {
                scrutinee: None,
                arms,
                ..
            } => arms
                .iter()
                .flat_map(|arm| &arm.labels)
                .for_each(|label| self.tested(label)),
            _ => {}
        }
    }

    fn visit_local(&mut self, local: &'a Local) {
        if let Some(init) = &local.init {
            self.escaping_expr(init);
        }
    }

    fn visit_return(&mut self, value: &'a Expr) {
        self.expr(value);
        self.returned(value);
    }

    fn visit_local_class(&mut self, class: &'a Class) {
        let fqn = format!("{}${}", self.current_class(), class.span.start);
        self.class(class, fqn);
    }

    fn visit_local_function(&mut self, method: &'a Method) {
        self.method(method);
    }
}
