//! Name and type resolution without a build: which fully qualified type each expression has,
//! and which local or field each name denotes.
//!
//! A type name is resolved against these, in order:
//! 1. the classes declared in the file;
//! 2. the known member types the enclosing classes inherit (`Chain` in an `okhttp3.Interceptor`);
//! 3. the single imports and Kotlin aliases;
//! 4. the implicit imports (`java.lang`, `kotlin`);
//! 5. the wildcard imports;
//! 6. the file's own package.
//!
//! Classes outside the file are only known by name, through [`KnownTypes`] (the typestate library
//! will implement it).
//! Subtyping is known for the classes the file declares.
//!
//! Expression types come from declared types, constructor calls (`new X()`, Kotlin `X()`), casts,
//! static factories (`MediaPlayer.create(…)`) and the declared return types of the file's own
//! methods.
//! An unqualified call no enclosing class declares goes to the class a Java `import static` names.
//! A name that is no local and no field of an enclosing class may be a field it inherits.
//! A project check knows those of classes in other files ([`KnownTypes::field_type`]).
//! Inside Kotlin scope functions, `apply`/`run`/`with` rebind `this` and `also`/`let`/`use` bind
//! `it` to the receiver.
//! The untyped first parameter of a listener lambda gets the type of the object it is registered
//! on.
//! An example is `it` in `mp.setOnPreparedListener { it.start() }`; Android listeners are shaped
//! so.
//! A Kotlin property read may resolve to no local and no field of an enclosing class
//! (`player.duration`, or `duration` on the implicit `this`).
//! Then its receiver's type is recorded ([`Resolution::properties`]).
//! It may be a Java getter, which [`crate::accessors`] decides.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use crate::inline::{Binds, Returns};
use crate::ir::{
    BinaryOp, Body, Call, Class, ClassKind, Expr, ExprId, ExprKind, Language, Local, Method,
    MethodKind, Param, SourceIr, Stmt, StmtKind, TypeRef,
};
use crate::visit::{walk_stmt, Visitor};

/// What a resolver may assume about classes outside the file.
///
/// The typestate library implements it ([`crate::protocols::Protocols`]) from its creators and
/// callback bindings; the provided methods are the name-based guesses used without a library.
pub trait KnownTypes {
    /// Whether `fqn` names a known class or interface.
    fn is_known(&self, fqn: &str) -> bool;

    /// The class of the object that calling `name` with `arity` arguments on `receiver`
    /// creates, when the call is a known factory (`MediaPlayer.create(…)`,
    /// `client.newCall(…)`).
    fn factory_type(&self, receiver: &ExprType, name: &str, arity: usize) -> Option<String> {
        let _ = arity;
        (receiver.is_class_ref && is_factory_name(name)).then(|| receiver.fqn.clone())
    }

    /// Whether calling `name` on `receiver` registers a listener whose callback receives
    /// `receiver` as its first argument (`mp.setOnPreparedListener { it.start() }`).
    fn registers_listener(&self, receiver: &ExprType, name: &str) -> bool {
        let _ = receiver;
        is_listener_registration(name)
    }

    /// The type a call of `method` on a `class` returns, when another file of the project
    /// declares it ([`ClassInfo::returns`]).
    fn returns(&self, class: &str, method: &str) -> Option<String> {
        let _ = (class, method);
        None
    }

    /// The type of the field `name` that a `class` of the project declares or inherits, when
    /// another file declares it ([`ClassInfo::fields`]).
    fn field_type(&self, class: &str, name: &str) -> Option<String> {
        let _ = (class, name);
        None
    }
}

impl KnownTypes for &[&str] {
    fn is_known(&self, fqn: &str) -> bool {
        self.contains(&fqn)
    }
}

impl<S: std::hash::BuildHasher> KnownTypes for std::collections::HashSet<String, S> {
    fn is_known(&self, fqn: &str) -> bool {
        self.contains(fqn)
    }
}

/// The resolved type of an expression.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExprType {
    /// The fully qualified name, with `.` between nested classes.
    pub fqn: String,
    /// Whether the expression names the class itself (`MediaPlayer` in
    /// `MediaPlayer.create(…)`) rather than a value of that class.
    pub is_class_ref: bool,
    /// For a collection of the standard library, the type of its elements (the values of a
    /// map), when the declaration names it; boxed, as [`crate::ir::TypeRef::element`].
    pub element: Option<Box<String>>,
}

/// A local variable or parameter, numbered in declaration order within the file.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct LocalId(pub u32);

/// What a name (or `this.name`) refers to.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum Binding {
    /// A local variable, parameter or lambda parameter (also when captured by a lambda or an
    /// anonymous class).
    Local(LocalId),
    /// A field of a class declared in this file.
    Field {
        /// The fully qualified name of the declaring class.
        class: String,
        /// The field name.
        name: String,
    },
}

/// What resolution learned about one declared class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassInfo {
    /// The fully qualified name (anonymous classes get `Outer$line:col`).
    pub fqn: String,
    /// The resolved superclass and interfaces.
    pub supertypes: Vec<String>,
    /// Its methods with a declared return type that resolves, each with that type; a name
    /// whose overloads declare different types, or none, is left out.
    pub returns: Vec<(String, String)>,
    /// Its fields a subclass inherits (not private) whose declared type resolves, each with
    /// that type.
    pub fields: Vec<(String, String)>,
}

/// The result of resolving one file.
#[derive(Debug, Clone, Default)]
pub struct Resolution {
    expr_types: HashMap<ExprId, ExprType>,
    receivers: HashMap<ExprId, ExprType>,
    constructor_calls: HashSet<ExprId>,
    properties: HashMap<ExprId, ExprType>,
    bindings: HashMap<ExprId, Binding>,
    declarations: HashMap<usize, LocalId>,
    local_types: HashMap<LocalId, ExprType>,
    field_types: HashMap<(String, String), ExprType>,
    classes: HashMap<String, ClassInfo>,
}

impl Resolution {
    /// The type of the expression `id`, if known.
    pub fn type_of(&self, id: ExprId) -> Option<&ExprType> {
        self.expr_types.get(&id)
    }

    /// The type of the receiver of the call expression `id`, explicit or implicit, if known;
    /// also of a Kotlin property read of [`Resolution::properties`], which may stand for a
    /// Java getter call ([`crate::accessors`]).
    pub fn receiver_of(&self, call: ExprId) -> Option<&ExprType> {
        self.receivers
            .get(&call)
            .or_else(|| self.properties.get(&call))
    }

    /// Whether the call expression `id` is a Kotlin constructor call (`X(…)`, `a.b.X(…)`,
    /// `Outer.Inner(…)`): it makes a new object, never `null`, and has no receiver.
    pub fn is_constructor_call(&self, id: ExprId) -> bool {
        self.constructor_calls.contains(&id)
    }

    /// The Kotlin property reads (and assignment targets) that resolve to no local and no field
    /// of an enclosing class (`player.duration`, `duration` on `this`), with the types of their
    /// receivers.
    pub fn properties(&self) -> impl Iterator<Item = (ExprId, &ExprType)> {
        self.properties.iter().map(|(id, ty)| (*id, ty))
    }

    /// The type of the receiver of the Kotlin property read `id`, if it is one of
    /// [`Resolution::properties`].
    pub fn property_receiver(&self, id: ExprId) -> Option<&ExprType> {
        self.properties.get(&id)
    }

    /// What the name (or field access) expression `id` refers to, if it is a tracked variable.
    pub fn binding_of(&self, id: ExprId) -> Option<&Binding> {
        self.bindings.get(&id)
    }

    /// The local declared at byte offset `at`: a [`crate::ir::Local`]'s `name_span`, a
    /// [`Param`]'s `span`, or, for the implicit `it` of a Kotlin lambda, the lambda body's span.
    pub fn declared_at(&self, at: usize) -> Option<LocalId> {
        self.declarations.get(&at).copied()
    }

    /// Every local with the byte offset it is declared at (see [`Resolution::declared_at`]).
    pub fn declarations(&self) -> impl Iterator<Item = (usize, LocalId)> + '_ {
        self.declarations.iter().map(|(at, id)| (*at, *id))
    }

    /// The declared or inferred type of a local, if known.
    pub fn type_of_local(&self, local: LocalId) -> Option<&ExprType> {
        self.local_types.get(&local)
    }

    /// The declared or inferred type of the field `name` of the class `class`, if known.
    pub fn type_of_field(&self, class: &str, name: &str) -> Option<&ExprType> {
        self.field_types.get(&(class.to_owned(), name.to_owned()))
    }

    /// The classes the file declares.
    pub fn classes(&self) -> impl Iterator<Item = &ClassInfo> {
        self.classes.values()
    }

    /// The declared class `fqn`, if the file declares it.
    pub fn class(&self, fqn: &str) -> Option<&ClassInfo> {
        self.classes.get(fqn)
    }

    /// Whether `ty` is `of` or, through the classes this file declares, a subtype of it.
    pub fn is_subtype(&self, ty: &str, of: &str) -> bool {
        let mut seen = HashSet::default();
        let mut todo = vec![ty];
        while let Some(next) = todo.pop() {
            if next == of {
                return true;
            }
            if seen.insert(next) {
                if let Some(info) = self.classes.get(next) {
                    todo.extend(info.supertypes.iter().map(String::as_str));
                }
            }
        }
        false
    }
}

/// Resolves the names and types of `ir`.
pub fn resolve(ir: &SourceIr, known: &dyn KnownTypes) -> Resolution {
    let mut resolver = Resolver::new(ir, known);
    for class in &ir.classes {
        resolver.class(class, qualify(ir.package.as_deref(), &class.name));
    }
    resolver.res
}

/// The type aliases `ir` declares, each with the type it stands for as written, with the
/// aliases of the file in it replaced; an alias whose chain loops stands for nothing.
fn type_aliases(ir: &SourceIr) -> HashMap<String, String> {
    let written: HashMap<&str, &str> = ir
        .type_aliases
        .iter()
        .map(|alias| (alias.name.as_str(), alias.target.name.as_str()))
        .collect();
    let mut out = HashMap::default();
    for (&name, &target) in &written {
        let mut target = target.to_owned();
        // Each step replaces the head by another alias's target: more steps than aliases
        // means a loop.
        let mut steps = 0;
        let expanded = loop {
            let (head, rest) = match target.split_once('.') {
                Some((head, rest)) => (head, Some(rest)),
                None => (target.as_str(), None),
            };
            let Some(next) = written.get(head) else {
                break Some(target);
            };
            if steps == written.len() {
                break None;
            }
            steps += 1;
            target = match rest {
                Some(rest) => format!("{next}.{rest}"),
                None => (*next).to_owned(),
            };
        };
        out.insert(name.to_owned(), expanded.unwrap_or_default());
    }
    out
}

/// The named classes `ir` declares (top-level and nested, not those declared inside code)
/// with their resolved direct supertypes, as [`resolve`] records them, without resolving any
/// body: what other files of a project need to know of this one.
pub fn declared_classes(ir: &SourceIr, known: &dyn KnownTypes) -> Vec<ClassInfo> {
    let resolver = Resolver::new(ir, known);
    let mut out = Vec::new();
    let mut todo: Vec<(&Class, String)> = ir
        .classes
        .iter()
        .map(|class| (class, qualify(ir.package.as_deref(), &class.name)))
        .collect();
    while let Some((class, fqn)) = todo.pop() {
        todo.extend(
            class
                .classes
                .iter()
                .map(|nested| (nested, format!("{fqn}.{}", nested.name))),
        );
        out.push(ClassInfo {
            supertypes: resolver.supertypes(class),
            returns: resolver.returns(class),
            fields: resolver.inherited_fields(class),
            fqn,
        });
    }
    out
}

pub(crate) fn qualify(prefix: Option<&str>, name: &str) -> String {
    match prefix {
        Some(prefix) if !prefix.is_empty() => format!("{prefix}.{name}"),
        _ => name.to_owned(),
    }
}

/// Maps simple names (and `Outer.Inner` paths) of the named classes in the file to their
/// fully qualified names.
fn collect_declared(class: &Class, prefix: Option<&str>, out: &mut HashMap<String, String>) {
    if class.kind == ClassKind::Anonymous {
        return;
    }
    let fqn = qualify(prefix, &class.name);
    out.entry(class.name.clone()).or_insert_with(|| fqn.clone());
    for nested in &class.classes {
        collect_declared(nested, Some(&fqn), out);
    }
}

/// Names every Java source file sees without an import.
const JAVA_LANG: &[&str] = &[
    "Object",
    "String",
    "Thread",
    "Runnable",
    "Exception",
    "RuntimeException",
    "IllegalStateException",
    "IllegalArgumentException",
    "Throwable",
    "Error",
    "AutoCloseable",
    "Iterable",
    "Integer",
    "Long",
    "Boolean",
    "Math",
    "System",
];

/// Kotlin standard functions called without a receiver; an unqualified call to one of them
/// is not a call on `this`.
const KOTLIN_TOP_LEVEL_FUNCTIONS: &[&str] = &[
    "lazy",
    "with",
    "run",
    "repeat",
    "require",
    "check",
    "error",
    "println",
    "print",
    "listOf",
    "mutableListOf",
    "mapOf",
    "setOf",
    "arrayOf",
    "synchronized",
    "TODO",
    "maxOf",
    "minOf",
    "runCatching",
];

/// The expression a body consisting of one `return` statement returns: a getter
/// (`return player;`, `fun player() = player`, `get() = player`).
pub(crate) fn returned_expr(body: &Body) -> Option<&Expr> {
    match body.stmts.as_slice() {
        [Stmt {
            kind:
                StmtKind::Return {
                    value: Some(value),
                    label: None,
                },
            ..
        }] => Some(value),
        _ => None,
    }
}

/// Whether `fqn` is a collection of the standard library (`java.util.HashMap`,
/// `kotlin.collections.MutableList`).
pub(crate) fn is_collection(fqn: &str) -> bool {
    const KINDS: [&str; 8] = [
        "Map",
        "List",
        "Set",
        "Collection",
        "Queue",
        "Deque",
        "Vector",
        "Stack",
    ];
    let (package, name) = fqn.rsplit_once('.').unwrap_or(("", fqn));
    matches!(
        package,
        "java.util" | "java.util.concurrent" | "kotlin.collections"
    ) && KINDS.iter().any(|kind| name.ends_with(kind))
}

/// Whether a collection's method `name` of `arity` arguments returns one of its elements
/// (`get(key)`, `first()`, Kotlin's `map[key]`).
fn returns_element(name: &str, arity: usize) -> bool {
    const ONE: [&str; 5] = ["get", "getValue", "remove", "removeAt", "getOrNull"];
    const NONE: [&str; 16] = [
        "first",
        "last",
        "firstOrNull",
        "lastOrNull",
        "poll",
        "peek",
        "pop",
        "element",
        "removeFirst",
        "removeLast",
        "getFirst",
        "getLast",
        "pollFirst",
        "pollLast",
        "peekFirst",
        "peekLast",
    ];
    match arity {
        0 => NONE.contains(&name),
        1 => ONE.contains(&name),
        _ => false,
    }
}

/// Whether a static method named `name` is taken to be a factory returning its class.
fn is_factory_name(name: &str) -> bool {
    name.starts_with("create") || matches!(name, "newInstance" | "getInstance" | "open" | "obtain")
}

/// Whether a call named `name` registers a listener whose callback receives the object it
/// is registered on (`setOnPreparedListener`, `addListener`, `registerCallback`).
fn is_listener_registration(name: &str) -> bool {
    (name.starts_with("set") || name.starts_with("add") || name.starts_with("register"))
        && (name.ends_with("Listener") || name.ends_with("Callback"))
}

struct ClassCtx {
    fqn: String,
    /// The direct supertypes, whose member types the class's body names without qualifier.
    supertypes: Vec<String>,
    fields: HashMap<String, Option<ExprType>>,
    methods: HashMap<String, Option<ExprType>>,
}

/// A lexical scope: the locals it declares and, for lambdas with a receiver, the implicit
/// `this`.
#[derive(Default)]
struct Scope {
    locals: HashMap<String, (LocalId, Option<ExprType>)>,
    receiver: Option<ExprType>,
}

struct Resolver<'a> {
    ir: &'a SourceIr,
    known: &'a dyn KnownTypes,
    declared: HashMap<String, String>,
    /// The file's type aliases, each with the type it stands for as written, through any
    /// chain of aliases ([`type_aliases`]).
    aliases: HashMap<String, String>,
    /// The single-type imports, by the name they bring in (the first import of a name wins).
    imported: HashMap<&'a str, &'a str>,
    res: Resolution,
    scopes: Vec<Scope>,
    classes: Vec<ClassCtx>,
    next_local: u32,
}

impl<'a> Resolver<'a> {
    /// A resolver of `ir`'s names, before any class is entered.
    fn new(ir: &'a SourceIr, known: &'a dyn KnownTypes) -> Resolver<'a> {
        let mut declared = HashMap::default();
        for class in &ir.classes {
            collect_declared(class, ir.package.as_deref(), &mut declared);
        }
        let mut imported = HashMap::default();
        for import in ir.imports.iter().filter(|i| !i.is_wildcard) {
            let local_name = import
                .alias
                .as_deref()
                .unwrap_or_else(|| import.path.rsplit('.').next().unwrap_or(&import.path));
            imported.entry(local_name).or_insert(import.path.as_str());
        }
        Resolver {
            ir,
            known,
            declared,
            aliases: type_aliases(ir),
            imported,
            res: Resolution::default(),
            scopes: Vec::new(),
            classes: Vec::new(),
            next_local: 0,
        }
    }

    /// Resolves a type name as written.
    fn type_name(&self, written: &str) -> Option<String> {
        let written = written.trim_end_matches("[]");
        let (head, rest) = match written.split_once('.') {
            Some((head, rest)) => (head, Some(rest)),
            None => (written, None),
        };
        let head_fqn = self.simple_type_name(head);
        match (head_fqn, rest) {
            (Some(fqn), Some(rest)) => Some(format!("{fqn}.{rest}")),
            (Some(fqn), None) => Some(fqn),
            (None, Some(_)) if head.starts_with(char::is_lowercase) => Some(written.to_owned()),
            (None, _) => None,
        }
    }

    fn simple_type_name(&self, name: &str) -> Option<String> {
        if let Some(target) = self.aliases.get(name) {
            return self.type_name(target);
        }
        if let Some(fqn) = self.declared.get(name) {
            return Some(fqn.clone());
        }
        // A member type the enclosing classes inherit, innermost first (`Chain` in a class
        // implementing `okhttp3.Interceptor`); it shadows the imports (JLS 6.4.1).
        for class in self.classes.iter().rev() {
            for supertype in &class.supertypes {
                let candidate = format!("{supertype}.{name}");
                if self.known.is_known(&candidate) {
                    return Some(candidate);
                }
            }
        }
        if let Some(path) = self.imported.get(name) {
            return Some((*path).to_owned());
        }
        let implicit: &[&str] = match self.ir.language {
            Language::Java => &["java.lang"],
            Language::Kotlin => &["kotlin", "kotlin.collections", "java.lang"],
        };
        if self.ir.language == Language::Java && JAVA_LANG.contains(&name) {
            return Some(format!("java.lang.{name}"));
        }
        let wildcards = self
            .ir
            .imports
            .iter()
            .filter(|i| i.is_wildcard)
            .map(|i| i.path.as_str());
        for package in implicit.iter().copied().chain(wildcards) {
            let candidate = format!("{package}.{name}");
            if self.known.is_known(&candidate) {
                return Some(candidate);
            }
        }
        if !name.starts_with(char::is_uppercase) {
            return None;
        }
        Some(qualify(self.ir.package.as_deref(), name))
    }

    fn type_ref(&self, ty: &TypeRef) -> Option<ExprType> {
        let fqn = self.type_name(&ty.name)?;
        let element = (ty.element.as_deref())
            .filter(|_| is_collection(&fqn))
            .and_then(|element| self.type_name(element))
            .map(Box::new);
        Some(ExprType {
            fqn,
            is_class_ref: false,
            element,
        })
    }

    fn declare(&mut self, name: &str, ty: Option<ExprType>, at: usize) -> LocalId {
        let id = LocalId(self.next_local);
        self.next_local += 1;
        self.res.declarations.insert(at, id);
        if let Some(ty) = &ty {
            self.res.local_types.insert(id, ty.clone());
        }
        if let Some(scope) = self.scopes.last_mut() {
            scope.locals.insert(name.to_owned(), (id, ty));
        }
        id
    }

    /// Each parameter's name, declared type and declaration offset, for [`Resolver::body`].
    fn typed_params(&self, params: &[Param]) -> Vec<(String, Option<ExprType>, usize)> {
        params
            .iter()
            .map(|p| {
                let ty = p.ty.as_ref().and_then(|ty| self.type_ref(ty));
                (p.name.clone(), ty, p.span.start_byte)
            })
            .collect()
    }

    fn declare_params(&mut self, params: &[Param]) {
        for param in params {
            let ty = param.ty.as_ref().and_then(|ty| self.type_ref(ty));
            self.declare(&param.name, ty, param.span.start_byte);
        }
    }

    fn supertypes(&self, class: &Class) -> Vec<String> {
        class
            .superclass
            .iter()
            .chain(&class.interfaces)
            .filter_map(|ty| self.type_name(&ty.name))
            .collect()
    }

    /// The methods of `class` whose every declaration names one return type that resolves,
    /// with that type ([`ClassInfo::returns`]).
    fn returns(&self, class: &Class) -> Vec<(String, String)> {
        let mut by_name: HashMap<&str, Option<String>> = HashMap::default();
        for method in class
            .methods
            .iter()
            .filter(|m| m.kind == MethodKind::Method)
        {
            let ty = method
                .return_type
                .as_ref()
                .and_then(|ty| self.type_ref(ty))
                .map(|ty| ty.fqn);
            by_name
                .entry(&method.name)
                .and_modify(|known| {
                    if *known != ty {
                        *known = None;
                    }
                })
                .or_insert(ty);
        }
        let mut out: Vec<(String, String)> = by_name
            .into_iter()
            .filter_map(|(name, ty)| Some((name.to_owned(), ty?)))
            .collect();
        out.sort();
        out
    }

    /// The fields of `class` a subclass inherits, with their declared types
    /// ([`ClassInfo::fields`]).
    fn inherited_fields(&self, class: &Class) -> Vec<(String, String)> {
        class
            .fields
            .iter()
            .filter(|field| !field.modifiers.is_private && !field.modifiers.is_static)
            .filter_map(|field| {
                let ty = self.type_ref(field.ty.as_ref()?)?;
                Some((field.name.clone(), ty.fqn))
            })
            .collect()
    }

    /// The type of the field `name` an enclosing class inherits from a class of another file,
    /// innermost first.
    fn inherited_field(&self, name: &str) -> Option<ExprType> {
        self.classes.iter().rev().find_map(|ctx| {
            ctx.supertypes
                .iter()
                .find_map(|sup| self.known.field_type(sup, name))
                .map(Self::instance)
        })
    }

    fn class(&mut self, class: &Class, fqn: String) {
        // A class declared twice extends what either declaration extends.
        let supertypes = self.supertypes(class);
        let returns = self.returns(class);
        let fields = self.inherited_fields(class);
        let info = self
            .res
            .classes
            .entry(fqn.clone())
            .or_insert_with(|| ClassInfo {
                fqn: fqn.clone(),
                supertypes: Vec::new(),
                returns,
                fields,
            });
        crate::protocols::extend_supertypes(&mut info.supertypes, &supertypes);
        // Pushed first: the return types may name the member types the class inherits.
        self.classes.push(ClassCtx {
            fqn: fqn.clone(),
            supertypes,
            fields: HashMap::default(),
            methods: HashMap::default(),
        });
        let methods = class
            .methods
            .iter()
            .map(|m| {
                let ret = m.return_type.as_ref().and_then(|ty| self.type_ref(ty));
                (m.name.clone(), ret)
            })
            .collect();
        if let Some(ctx) = self.classes.last_mut() {
            ctx.methods = methods;
        }
        self.scopes.push(Scope::default());
        for field in &class.fields {
            let declared = field.ty.as_ref().and_then(|ty| self.type_ref(ty));
            let init = field.init.as_ref().and_then(|init| self.expr(init));
            let delegate = field.delegate.as_ref().and_then(|d| self.delegate(d));
            let ty = declared.or(init).or(delegate);
            if let Some(ty) = &ty {
                self.res
                    .field_types
                    .insert((fqn.clone(), field.name.clone()), ty.clone());
            }
            if let Some(ctx) = self.classes.last_mut() {
                ctx.fields.insert(field.name.clone(), ty);
            }
        }
        for field in &class.fields {
            let Some(getter) = &field.getter else {
                continue;
            };
            self.body(&[], getter, None);
            let key = (fqn.clone(), field.name.clone());
            if !self.res.field_types.contains_key(&key) {
                if let Some(ty) = returned_expr(getter).and_then(|e| self.res.type_of(e.id)) {
                    let ty = ty.clone();
                    if let Some(ctx) = self.classes.last_mut() {
                        ctx.fields.insert(field.name.clone(), Some(ty.clone()));
                    }
                    self.res.field_types.insert(key, ty);
                }
            }
        }
        for init in &class.initializers {
            self.body(&[], init, None);
        }
        for method in &class.methods {
            self.method(method);
        }
        for nested in &class.classes {
            self.class(nested, format!("{fqn}.{}", nested.name));
        }
        self.scopes.pop();
        self.classes.pop();
    }

    /// The type of a property delegated to `expr`: for `by lazy { … }`, the lambda's value.
    fn delegate(&mut self, expr: &Expr) -> Option<ExprType> {
        let ty = self.expr(expr);
        let ExprKind::Call(call) = &expr.kind else {
            return ty;
        };
        let Some(ExprKind::Lambda { body, .. }) = call.args.last().map(|arg| &arg.kind) else {
            return ty;
        };
        match body.stmts.last().map(|stmt| &stmt.kind) {
            Some(StmtKind::Expr(value)) if call.name == "lazy" => {
                self.res.type_of(value.id).cloned()
            }
            _ => ty,
        }
    }

    fn method(&mut self, method: &Method) {
        self.scopes.push(Scope::default());
        self.declare_params(&method.params);
        if let Some(body) = &method.body {
            self.visit_block(&body.stmts);
        }
        self.scopes.pop();
    }

    /// Resolves a lambda or initializer body in a new scope with `params` and an optional
    /// implicit receiver.
    fn body(
        &mut self,
        params: &[(String, Option<ExprType>, usize)],
        body: &Body,
        receiver: Option<ExprType>,
    ) {
        self.scopes.push(Scope {
            locals: HashMap::default(),
            receiver,
        });
        for (name, ty, at) in params {
            self.declare(name, ty.clone(), *at);
        }
        self.visit_block(&body.stmts);
        self.scopes.pop();
    }

    /// The name given to a class declared inside code: `Outer$line:col`.
    fn anonymous_fqn(&self, class: &Class) -> String {
        let outer = self.classes.last().map_or("", |c| c.fqn.as_str());
        format!("{outer}${}", class.span.start)
    }

    fn lookup_local(&self, name: &str) -> Option<(LocalId, Option<ExprType>)> {
        self.scopes
            .iter()
            .rev()
            .find_map(|scope| scope.locals.get(name).cloned())
    }

    fn lookup_field(&self, name: &str) -> Option<(String, Option<ExprType>)> {
        self.classes
            .iter()
            .rev()
            .find_map(|ctx| ctx.fields.get(name).map(|ty| (ctx.fqn.clone(), ty.clone())))
    }

    /// The innermost implicit receiver: a scope function's receiver or the enclosing class.
    fn implicit_this(&self) -> Option<ExprType> {
        let lambda_receiver = self.scopes.iter().rev().find_map(|s| s.receiver.clone());
        lambda_receiver.or_else(|| self.enclosing_class(None))
    }

    fn enclosing_class(&self, label: Option<&str>) -> Option<ExprType> {
        let ctx = match label {
            Some(label) => self
                .classes
                .iter()
                .rev()
                .find(|ctx| ctx.fqn == label || ctx.fqn.rsplit('.').next() == Some(label))?,
            None => self.classes.iter().rev().find(|ctx| {
                self.res
                    .classes
                    .get(&ctx.fqn)
                    .is_some_and(|_| !ctx.fqn.ends_with("<top-level>"))
            })?,
        };
        Some(Self::instance(ctx.fqn.clone()))
    }

    /// The receiver of an unqualified call `name(…)`: a scope function's receiver, else the
    /// innermost enclosing class that declares `name`, else the innermost class.
    fn implicit_receiver_for(&self, name: &str) -> Option<ExprType> {
        if self.ir.language == Language::Kotlin && KOTLIN_TOP_LEVEL_FUNCTIONS.contains(&name) {
            return None;
        }
        if let Some(receiver) = self.scopes.iter().rev().find_map(|s| s.receiver.clone()) {
            return Some(receiver);
        }
        let declaring = self
            .classes
            .iter()
            .rev()
            .find(|ctx| ctx.methods.contains_key(name))
            .map(|ctx| Self::instance(ctx.fqn.clone()));
        declaring
            .or_else(|| self.statically_imported(name))
            .or_else(|| self.implicit_this())
    }

    /// The class a Java `import static` brings the method `name` from.
    /// A single import names it (`import static a.B.name`).
    /// A wildcard (`import static a.B.*`) brings it when the project says that `a.B` declares it.
    fn statically_imported(&self, name: &str) -> Option<ExprType> {
        let statics = self.ir.imports.iter().filter(|i| i.is_static);
        let single = statics.clone().find_map(|import| {
            let (class, member) = import.path.rsplit_once('.')?;
            (!import.is_wildcard && member == name).then(|| class.to_owned())
        });
        let wildcard = || {
            statics
                .filter(|i| i.is_wildcard)
                .map(|i| i.path.clone())
                .find(|class| self.known.returns(class, name).is_some())
        };
        single.or_else(wildcard).map(Self::class_ref)
    }

    /// If `expr` spells a fully qualified class name in code (`android.media.MediaPlayer`):
    /// a dotted chain starting with a lowercase name that is no variable, ending with a
    /// capitalised one.
    fn qualified_class_name(&self, expr: &Expr) -> Option<String> {
        self.qualified_name(expr.dotted_name()?)
    }

    /// `dotted` if it is a fully qualified class name (see
    /// [`Resolver::qualified_class_name`]).
    fn qualified_name(&self, dotted: String) -> Option<String> {
        let head = dotted.split('.').next()?;
        let last = dotted.rsplit('.').next()?;
        let is_variable = self.lookup_local(head).is_some() || self.lookup_field(head).is_some();
        (!is_variable
            && head.starts_with(char::is_lowercase)
            && last.starts_with(char::is_uppercase))
        .then_some(dotted)
    }

    fn class_ref(fqn: String) -> ExprType {
        ExprType {
            fqn,
            is_class_ref: true,
            element: None,
        }
    }

    fn instance(fqn: String) -> ExprType {
        ExprType {
            fqn,
            is_class_ref: false,
            element: None,
        }
    }

    /// Resolves `expr` and its sub-expressions; returns (and records) its type.
    fn expr(&mut self, expr: &Expr) -> Option<ExprType> {
        let ty = self.expr_kind(expr);
        if let Some(ty) = &ty {
            self.res.expr_types.insert(expr.id, ty.clone());
        }
        ty
    }

    fn expr_kind(&mut self, expr: &Expr) -> Option<ExprType> {
        match &expr.kind {
            ExprKind::Name(name) => {
                if let Some((id, ty)) = self.lookup_local(name) {
                    self.res.bindings.insert(expr.id, Binding::Local(id));
                    return ty;
                }
                if let Some((class, ty)) = self.lookup_field(name) {
                    let name = name.clone();
                    self.res
                        .bindings
                        .insert(expr.id, Binding::Field { class, name });
                    return ty;
                }
                if name.starts_with(char::is_uppercase) {
                    return self.type_name(name).map(Self::class_ref);
                }
                if let Some(ty) = self.inherited_field(name) {
                    return Some(ty);
                }
                if self.ir.language == Language::Kotlin {
                    if let Some(receiver) = self.implicit_this() {
                        self.res.properties.insert(expr.id, receiver);
                    }
                }
                None
            }
            ExprKind::This(label) => match label {
                Some(label) => self.enclosing_class(Some(label)),
                None => self.implicit_this(),
            },
            ExprKind::Super => {
                let class = self.enclosing_class(None)?;
                let info = self.res.classes.get(&class.fqn)?;
                info.supertypes.first().cloned().map(Self::instance)
            }
            ExprKind::Field { receiver, name, .. } => {
                if let Some(fqn) = self.qualified_class_name(expr) {
                    return Some(Self::class_ref(fqn));
                }
                let receiver_ty = self.expr(receiver);
                if matches!(receiver.kind, ExprKind::This(None)) {
                    if let Some((class, ty)) = self.lookup_field(name) {
                        let name = name.clone();
                        self.res
                            .bindings
                            .insert(expr.id, Binding::Field { class, name });
                        return ty;
                    }
                    if let Some(ty) = self.inherited_field(name) {
                        return Some(ty);
                    }
                }
                let receiver_ty = receiver_ty?;
                if receiver_ty.is_class_ref {
                    return name
                        .starts_with(char::is_uppercase)
                        .then(|| Self::class_ref(format!("{}.{name}", receiver_ty.fqn)));
                }
                if self.ir.language == Language::Kotlin {
                    self.res.properties.insert(expr.id, receiver_ty);
                }
                None
            }
            ExprKind::Call(call) => self.call(expr.id, call),
            ExprKind::New { ty, args, body } => {
                for arg in args {
                    self.expr(arg);
                }
                let ty = self.type_ref(ty);
                if let Some(class) = body {
                    let fqn = self.anonymous_fqn(class);
                    self.class(class, fqn);
                }
                ty
            }
            ExprKind::Lambda { params, body } => {
                let params = self.typed_params(params);
                self.body(&params, body, None);
                None
            }
            ExprKind::MethodRef { receiver, .. } => {
                self.expr(receiver);
                None
            }
            ExprKind::Binary { op, lhs, rhs } => {
                let lhs_ty = self.expr(lhs);
                let rhs_ty = self.expr(rhs);
                match op {
                    BinaryOp::Elvis => lhs_ty.or(rhs_ty),
                    _ => None,
                }
            }
            ExprKind::Not(inner) => {
                self.expr(inner);
                None
            }
            ExprKind::Assign { target, value } => {
                self.expr(target);
                self.expr(value)
            }
            ExprKind::Cast { expr, ty } => {
                self.expr(expr);
                self.type_ref(ty)
            }
            ExprKind::TypeTest { expr, .. } => {
                self.expr(expr);
                None
            }
            ExprKind::Control(stmt) => {
                self.visit_stmt(stmt);
                // The type every branch's value has (`if (…) MediaRecorder(c) else MediaRecorder()`).
                let values = stmt.branch_values()?;
                let (first, rest) = values.split_first()?;
                let ty = self.res.type_of(first.id)?;
                rest.iter()
                    .all(|value| self.res.type_of(value.id) == Some(ty))
                    .then(|| ty.clone())
            }
            ExprKind::Other(parts) => {
                for part in parts {
                    self.expr(part);
                }
                None
            }
            ExprKind::Null | ExprKind::Bool(_) | ExprKind::Int(_) | ExprKind::Literal => None,
        }
    }

    fn call(&mut self, id: ExprId, call: &Call) -> Option<ExprType> {
        let receiver = match &call.receiver {
            // A Kotlin constructor call by its qualified name: the receiver is a package.
            Some(package)
                if self.ir.language == Language::Kotlin
                    && package
                        .dotted_name()
                        .and_then(|p| self.qualified_name(format!("{p}.{}", call.name)))
                        .is_some() =>
            {
                None
            }
            Some(receiver) => self.expr(receiver),
            None => self.implicit_receiver_for(&call.name),
        };
        let inlined = crate::inline::inlined(call, self.ir.language);
        // The subject an inlined lambda gets: the receiver, or `with`'s first argument.
        let mut subject = receiver.clone();
        for (index, arg) in call.args.iter().enumerate() {
            match &arg.kind {
                ExprKind::Lambda { params, body } => {
                    let binds = inlined
                        .filter(|_| index + 1 == call.args.len())
                        .map(|i| i.function.binds);
                    self.lambda_arg(call, params, body, binds, subject.clone());
                }
                _ => {
                    let ty = self.expr(arg);
                    let is_subject = inlined
                        .and_then(|i| i.subject)
                        .is_some_and(|s| s.id == arg.id);
                    if is_subject {
                        subject = ty;
                    }
                }
            }
        }
        if let Some(ty) = self.constructor_type(call, receiver.as_ref()) {
            self.res.constructor_calls.insert(id);
            return Some(ty);
        }
        if let Some(receiver) = &receiver {
            self.res.receivers.insert(id, receiver.clone());
        }
        if inlined.is_some_and(|i| i.function.returns == Returns::Subject) {
            return receiver.filter(|r| !r.is_class_ref);
        }
        let receiver = receiver?;
        if let Some(fqn) = self
            .known
            .factory_type(&receiver, &call.name, call.args.len())
        {
            return Some(Self::instance(fqn));
        }
        if let Some(element) = &receiver.element {
            if returns_element(&call.name, call.args.len()) {
                return Some(Self::instance(String::clone(element)));
            }
        }
        match self
            .classes
            .iter()
            .rev()
            .find(|ctx| ctx.fqn == receiver.fqn)
        {
            Some(ctx) => ctx.methods.get(&call.name).cloned().flatten(),
            None => self
                .known
                .returns(&receiver.fqn, &call.name)
                .map(Self::instance),
        }
    }

    /// If `call` is a Kotlin constructor call (`X(…)`, `a.b.X(…)`, `Outer.Inner(…)`), the
    /// constructed type.
    fn constructor_type(&self, call: &Call, receiver: Option<&ExprType>) -> Option<ExprType> {
        if self.ir.language != Language::Kotlin || !call.name.starts_with(char::is_uppercase) {
            return None;
        }
        match (&call.receiver, receiver) {
            (None, _) => self.type_name(&call.name).map(Self::instance),
            (Some(_), Some(owner)) if owner.is_class_ref => {
                Some(Self::instance(format!("{}.{}", owner.fqn, call.name)))
            }
            (Some(receiver), _) => {
                let dotted = receiver.dotted_name()?;
                dotted
                    .starts_with(char::is_lowercase)
                    .then(|| Self::instance(format!("{dotted}.{}", call.name)))
            }
        }
    }

    /// Resolves a lambda passed to `call`, binding its receiver or parameter to the subject
    /// as an inlined lambda's contract `binds` says, or to the object a listener is
    /// registered on.
    fn lambda_arg(
        &mut self,
        call: &Call,
        params: &[Param],
        body: &Body,
        binds: Option<Binds>,
        subject: Option<ExprType>,
    ) {
        let name = call.name.as_str();
        let value_receiver = subject.filter(|r| !r.is_class_ref);
        let binds_receiver = binds == Some(Binds::This);
        let binds_argument = binds == Some(Binds::Parameter)
            || (binds.is_none()
                && value_receiver
                    .as_ref()
                    .is_some_and(|r| self.known.registers_listener(r, name)));
        let mut resolved = self.typed_params(params);
        let implicit_it = body.span.start_byte;
        if binds_argument {
            match resolved.first_mut() {
                Some((_, ty @ None, _)) => *ty = value_receiver.clone(),
                Some(_) => {}
                None if self.ir.language == Language::Kotlin => {
                    resolved.push(("it".to_owned(), value_receiver.clone(), implicit_it));
                }
                None => {}
            }
        } else if params.is_empty() && self.ir.language == Language::Kotlin {
            resolved.push(("it".to_owned(), None, implicit_it));
        }
        let receiver = if binds_receiver { value_receiver } else { None };
        self.body(&resolved, body, receiver);
    }
}

/// Resolution visits statements in lexical scopes: a block, a loop, a try-with-resources and a
/// catch clause each open one, and declarations add their locals to the innermost.
impl<'v> Visitor<'v> for Resolver<'_> {
    fn visit_expr(&mut self, expr: &'v Expr) {
        self.expr(expr);
    }

    fn visit_block(&mut self, stmts: &'v [Stmt]) {
        self.scopes.push(Scope::default());
        for stmt in stmts {
            self.visit_stmt(stmt);
        }
        self.scopes.pop();
    }

    fn enter_scope(&mut self) {
        self.scopes.push(Scope::default());
    }

    fn exit_scope(&mut self) {
        self.scopes.pop();
    }

    fn visit_local(&mut self, local: &'v Local) {
        let init = local.init.as_ref().and_then(|init| self.expr(init));
        let declared = local.ty.as_ref().and_then(|ty| self.type_ref(ty));
        self.declare(&local.name, declared.or(init), local.name_span.start_byte);
    }

    fn visit_stmt(&mut self, stmt: &'v Stmt) {
        let StmtKind::ForEach {
            var,
            iterable,
            body,
        } = &stmt.kind
        else {
            return walk_stmt(self, stmt);
        };
        // The loop variable takes the collection's element type unless it declares one.
        let element = self.expr(iterable).and_then(|ty| ty.element);
        self.enter_scope();
        let declared = var.ty.as_ref().and_then(|ty| self.type_ref(ty));
        let ty = declared.or(element.map(|element| Self::instance(*element)));
        self.declare(&var.name, ty, var.name_span.start_byte);
        self.visit_block(body);
        self.exit_scope();
    }

    fn visit_catch_param(&mut self, param: &'v Param) {
        self.declare_params(std::slice::from_ref(param));
    }

    fn visit_local_class(&mut self, class: &'v Class) {
        let fqn = self.anonymous_fqn(class);
        self.class(class, fqn);
    }

    fn visit_local_function(&mut self, method: &'v Method) {
        self.method(method);
    }
}

#[cfg(test)]
mod tests;
