//! Who calls the methods of the project's own classes.
//! It decides whether a method of a plain class may run at any time.
//!
//! # Terms
//! - A component runs in its lifecycle's order ([`crate::events`]).
//! - Any other class is plain: its methods run when something calls them.
//! - A *free* method may run at any time, in any order with the class's others.
//! - A *driven* method runs when its clients drive it, so they decide the order.
//! - A *last* method is free, and no other method runs after it ([`Order::Last`]).
//!
//! # Free or driven
//! - Free: nothing in the project calls it (the framework, JavaScript or an app does).
//! - Free: free code calls it on an object that outlives that code's run.
//!   That is a field, a map's element or a parameter.
//! - Free code is deferred code (a lambda, a listener), a component's method, or a free method.
//! - Driven: each call is on an object its caller created in the same run.
//!   Or driven code makes it.
//! - The checker runs a driven method from an unknown state of its fields.
//!   It reports what goes wrong within one call, whatever the clients did before.
//! - A wrapper a plugin keeps in a map, called from JavaScript in any order, stays free.
//! - A method only code outside the project calls may end its object ([`Clients::called_only_outside`]).
//!   The class's own calls do not count, and a call of that name on an untyped receiver does.
//! - A sink an engine drives step by step is driven.
//! - The task of an object the project hands over to run once is driven (`executor.submit(job)`).
//!   Every creation of its class goes straight to a hand-off, or into a local used only there.
//!   Its `run()` or `call()` then runs once per object, its steps in its own order.
//!
//! # Which calls count
//! - A call through a supertype or on a subclass counts for the class.
//!   An example is `sink.stop()` on an interface the class implements.
//! - A call the resolver cannot type counts for no class.
//!   A method called only that way looks free, and keeps the any-order answer.
//! - A project check types calls again once it knows what the project's methods return.
//!   An example is `segments.next().advance()` with `next()` declared in another file.
//!   So it does for a field inherited from a class in another file (`feed.play()`).
//! - Kotlin type aliases type what they stand for.
//! - A Kotlin companion's members are called through its class's name (`Clips.close()`).
//!   So a project check reads the files naming the class for its companion's callers.
//! - A lambda given to a Kotlin `inline` function of the file runs in place, as its caller's code.
//!   That holds when no parameter is `crossinline` or `noinline`.
//!   Any other lambda is deferred.
//! - A call from another top-level package ([`package_root`]) is deferred too.
//!   The project's classes are taken to share one package root.
//!   Calls of the libraries they use are not kept.
//! - A call on the object itself (`stop()`, `this.stop()`) runs whenever its caller does.
//!   So a helper of a free method is free.
//!
//! # Fresh objects
//! - A local holds a fresh object when every value assigned to it is one (or `null`).
//! - A field holds one after its method assigned it one.
//!   So `recorder = new Recorder(); recorder.start();` drives `start()`.
//! - It holds it until the assigning block ends.
//!   Assigning the field something else ends it too, as does a call of the class's own methods.
//!
//! # Last methods
//! - Each call of a last method is on an object a field of the caller holds.
//!   The caller then lets go of it, before the method ends.
//!   It lets go in the block of the call or one enclosing it.
//! - The field may hold the object itself.
//!   It may do so through a local copied from it, or a Kotlin `let` parameter.
//!   The caller lets go by assigning the field (`writer.finish(); writer = null`).
//! - Or the field may hold a standard collection the object came from.
//!   Examples are `voices.get(id)` and `voices[id]`.
//!   The caller lets go by taking it out by the same key in a local (`voices.remove(id)`).
//!   Or it lets go of every element (`voices.clear()`, `removeAll`, assigning the field).
//!
//! # Ending methods
//! - A method ends its object when it leaves a field kept from construction released ([`crate::events`]).
//!   What its callers call after it is their misuse of the wrapper, as after `release()`.
//!   That holds when only code outside the project calls it ([`Clients::called_only_outside`]).
//!   It holds too when the method is driven and no runtime may call it ([`Clients::ends_for_callers`]).
//!   Such misuse is the clients' error, found at the clients.
//!
//! # Checked at the clients
//! - A method called only on names is checked at its clients ([`Clients::at_clients`]).
//!   A name is a local, a field or a parameter ([`Receiver::Named`]).
//!   A map's element or a call's result is not.
//! - Not when a call of the name is untyped.
//! - Nor when a runtime may call a method of the class.
//! - The class then gets a derived protocol ([`crate::wrappers`]).
//!   Inside it, the method runs within one call.
//!   The clients' order is checked against the protocol.
//! - A runtime may call a method an annotation exposes (`@ReactMethod`, `@JavascriptInterface`).
//!   It may also call one that overrides a method of a supertype outside the project.
//!   In Java every method may override one unmarked; in Kotlin only an `override` may.
//!   JavaScript or the framework may call on after such a method ended the object.
//!
//! # Callers' catches
//! - A method's violations are handled where every call of it catches them.
//!   [`Clients::caught_by_callers`] says what they catch.
//! - A call catches what the method it is in has caught by its own callers, up the calls.
//!   Only through methods the project alone can call: private, package-private or `internal`.
//!   The files of callers with no `try` around the call are not read for it, so their calls count only when read anyway.
//!   A project check follows the calls down from each method called in a `try`, through such methods.
//! - A static call through the class's name counts too (`Utils.read(uri)`, [`Receiver::Static`]).
//!   So does one of a Kotlin `object`'s or companion's member (`Labels.label(uri)`).
//!   It counts for nothing else: no object is called, so its order is no client's.
//!   A call a Java `import static` brings is one through the class's name.
//!   A project check types a file with a wildcard one (`import static a.B.*`) again, with what the project declares.
//! - That holds for any plain class, with protocol fields or not.
//! - As for the order, the project's calls are taken to be all its calls.
//! - A call in deferred code is outside the `try` around the lambda.
//!
//! # Known misses
//! - Which paths reach the letting go is not asked.
//!   A `return` between the call and the assignment may leave the object in the field.
//! - Nor is it asked whether another field or collection holds the object too.
//! - A client holding a wrapper through a supertype is not checked: that type has no protocol.
//! - Nor is one that got it from a parameter: its state is unknown.
//!
//! # How to extend
//! - A new kind of fresh receiver: [`receiver_kind`] decides what a caller owns in its run.
//! - A new reason to be free or driven: [`Clients::new`] solves the rule.
//!   It runs over the methods the wrappers' callers reach back to.
//! - A new answer for the analysis: [`Clients::order`] gives it.
//! - Each new case gets a Java and a Kotlin fixture, beside those in
//!   `tests/fixtures/java/checks/Clients.java` and `tests/fixtures/kotlin/checks/Clients.kt`.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::sync::Arc;

use crate::diagnostics::caught_by_both;
use crate::events::Component;
use crate::inline::inlined;
use crate::inline::{Binds, Inlined};
use crate::ir::{
    BinaryOp, Body, Call, Class, ClassKind, Expr, ExprId, ExprKind, Language, Local, MethodKind,
    SourceIr, Span, StmtKind,
};
use crate::protocols::Protocols;
use crate::resolve::{is_collection, qualify, Binding, LocalId, Resolution};
use crate::visit::{walk_stmt, Visitor};

/// The class [`Walker::in_place`] files Kotlin's top-level functions under.
const TOP_LEVEL: &str = "<top-level>";

/// The functions `ir` declares whose lambdas run in place, as (class, name).
fn in_place_functions(ir: &SourceIr) -> HashSet<(String, String)> {
    let mut out = HashSet::default();
    let mut todo: Vec<(&Class, String)> = ir
        .classes
        .iter()
        .map(|class| {
            let fqn = match class.kind {
                ClassKind::TopLevel => TOP_LEVEL.to_owned(),
                _ => qualify(ir.package.as_deref(), &class.name),
            };
            (class, fqn)
        })
        .collect();
    while let Some((class, fqn)) = todo.pop() {
        for method in &class.methods {
            if method.modifiers.runs_lambdas_in_place {
                out.insert((fqn.clone(), method.name.clone()));
            }
        }
        todo.extend(
            class
                .classes
                .iter()
                .map(|nested| (nested, format!("{fqn}.{}", nested.name))),
        );
    }
    out
}

/// The name call sites give a constructor.
const CONSTRUCTOR: &str = "<init>";

/// Whether a method may run at any time or only when its clients call it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Order {
    /// Any time, in any order with the class's other free methods.
    Free,
    /// When its clients call it, in their order.
    Driven,
    /// Any time, but never before another method of the same object: every client lets go
    /// of the object after calling it.
    Last,
}

/// What the caller holds the receiver as.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Receiver {
    /// An object the caller created in the same run (`new C()`, a local initialised so, or a
    /// fluent call on one).
    Fresh,
    /// A name the caller holds otherwise: a local, a field, a parameter.
    /// A client's flow follows the object it names ([`Clients::at_clients`]).
    Named,
    /// Anything else: a map's element, a method's result.
    Held,
    /// No object: a static method called through its class's name (`Utils.read(uri)`), or a
    /// member of a Kotlin `object` or companion.
    /// Only the callers' catches read it ([`Graph::caught_up_from`]): the order of static
    /// calls is no client's order.
    Static,
}

/// The code a call is in.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
enum Caller {
    /// A lambda or an anonymous class's method, which runs later, as an event.
    Deferred,
    /// A method (or constructor, or initializer) of a named class.
    Method { class: Arc<str>, method: Arc<str> },
}

/// One call of a project method, or one object creation.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Site {
    /// The receiver's static type (the created class for a creation).
    class: Arc<str>,
    receiver: Receiver,
    caller: Caller,
    /// Whether the caller lets go of the receiver after the call ([`Holder`]), in the call's
    /// block or one enclosing it.
    let_go: bool,
    /// The exceptions the caller's `catch`es around the call catch (simple names); `None`
    /// when none does. The sites of one `try` share one list.
    caught: Option<Arc<[String]>>,
}

/// The calls a set of files makes on typed receivers, by method name.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Sites {
    by_method: HashMap<String, Vec<Site>>,
    /// The methods only the project can call, as (class, method): Java's private and
    /// package-private ones, Kotlin's private and internal ones.
    hidden: HashSet<(String, String)>,
    /// Each Kotlin companion object, with the class whose name its members are called through.
    companions: HashMap<String, String>,
    /// The methods called on receivers the resolver cannot type, as (the caller's
    /// [`package_root`], name).
    untyped: HashSet<(String, String)>,
    /// The methods a runtime may call whatever the project does, as (class, method): an
    /// annotation exposes them, or they may override a method ([`Exposure`]).
    exposed: HashMap<(String, String), Exposure>,
    /// Per class, how the file creates its objects.
    creations: HashMap<String, Creation>,
}

/// How the project creates the objects of a class.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Creation {
    /// Each object is handed over to run once ([`crate::platform::hands_off`]), and used no
    /// other way: its task runs once, in its own order.
    HandedOverOnce,
    /// Some object is kept, passed on, or used otherwise.
    Kept,
}

impl Creation {
    /// What two sets of creations make together: kept if either keeps one.
    fn and(self, other: Creation) -> Creation {
        if self == other {
            self
        } else {
            Creation::Kept
        }
    }
}

/// How a runtime may reach a method the project declares.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Exposure {
    /// An annotation names it for a runtime (`@ReactMethod`, `@JavascriptInterface`).
    Annotated,
    /// It may override a supertype's method: marked so, or in Java, where no mark is needed.
    Overriding,
}

impl Exposure {
    /// How overloads of one name are reached: an annotation on one exposes the name.
    fn or(self, other: Exposure) -> Exposure {
        if other == Exposure::Annotated {
            other
        } else {
            self
        }
    }
}

/// Annotations that say how a method behaves, not who calls it: a method carrying only these
/// is not exposed to a runtime.
const DESCRIBING_ANNOTATIONS: &[&str] = &[
    "AnyThread",
    "BinderThread",
    "CallSuper",
    "CheckResult",
    "Deprecated",
    "JvmOverloads",
    "JvmStatic",
    "MainThread",
    "NonNull",
    "NotNull",
    "Nullable",
    "Override",
    "RequiresApi",
    "RequiresPermission",
    "Suppress",
    "SuppressLint",
    "SuppressWarnings",
    "Synchronized",
    "TargetApi",
    "Throws",
    "UiThread",
    "VisibleForTesting",
    "WorkerThread",
];

/// How a runtime may reach `method` ([`Exposure`]), if at all.
fn exposure_of(method: &crate::ir::Method, language: Language) -> Option<Exposure> {
    let annotated = method.annotations.iter().any(|a| {
        let simple = a.name.rsplit('.').next().unwrap_or(&a.name);
        !DESCRIBING_ANNOTATIONS.contains(&simple)
    });
    if annotated {
        Some(Exposure::Annotated)
    } else if method.modifiers.is_override || language == Language::Java {
        Some(Exposure::Overriding)
    } else {
        None
    }
}

impl Sites {
    /// The calls and creations in `ir`, typed by `res`.
    pub(crate) fn of_file(ir: &SourceIr, res: &Resolution) -> Sites {
        let mut walker = Walker {
            res,
            language: ir.language,
            sites: Sites::default(),
            callers: Vec::new(),
            fresh: Fresh::default(),
            holders: HashMap::default(),
            pending: Vec::new(),
            types: HashSet::default(),
            in_place: in_place_functions(ir),
            catching: Vec::new(),
            caught_last: None,
            handoffs: Handoffs::default(),
        };
        for class in &ir.classes {
            walker.class(class, &qualify(ir.package.as_deref(), &class.name));
        }
        let mut sites = walker.sites;
        sites.creations = walker.handoffs.creations();
        sites
    }

    /// Notes that a runtime may reach `key` as `exposure`; an annotation on one overload
    /// exposes the name.
    fn expose(&mut self, key: (String, String), exposure: Exposure) {
        self.exposed
            .entry(key)
            .and_modify(|known| *known = known.or(exposure))
            .or_insert(exposure);
    }

    /// The same sites with their names in `names`: a few bytes a site, and no name kept twice.
    /// The order of each method's sites is kept.
    pub(crate) fn pack(self, names: &mut Names) -> FileSites {
        let mut sites = Vec::with_capacity(self.by_method.values().map(Vec::len).sum());
        for (method, list) in &self.by_method {
            let method = names.id(method);
            for site in list {
                sites.push(Packed {
                    method,
                    class: names.id(&site.class),
                    caller: match &site.caller {
                        Caller::Deferred => None,
                        Caller::Method { class, method } => {
                            Some((names.id(class), names.id(method)))
                        }
                    },
                    caught: site.caught.as_ref().map(|list| names.list_id(list)),
                    receiver: site.receiver,
                    let_go: site.let_go,
                });
            }
        }
        let mut pairs = |set: &mut dyn Iterator<Item = (&String, &String)>| -> Box<[(u32, u32)]> {
            set.map(|(a, b)| (names.id(a), names.id(b))).collect()
        };
        FileSites {
            sites: sites.into_boxed_slice(),
            hidden: pairs(&mut self.hidden.iter().map(|(a, b)| (a, b))),
            companions: pairs(&mut self.companions.iter()),
            untyped: pairs(&mut self.untyped.iter().map(|(a, b)| (a, b))),
            exposed: self
                .exposed
                .iter()
                .map(|((class, method), &exposure)| (names.id(class), names.id(method), exposure))
                .collect(),
            creations: self
                .creations
                .iter()
                .map(|(class, &creation)| (names.id(class), creation))
                .collect(),
        }
    }
}

/// The names of a project's call sites ([`FileSites`], [`SiteTable`]), each kept once
/// however many files name it.
#[derive(Debug, Default)]
pub(crate) struct Names {
    ids: HashMap<Arc<str>, u32>,
    names: Vec<Arc<str>>,
    /// The lists of [`Site::caught`], each kept once.
    list_ids: HashMap<Arc<[String]>, u32>,
    lists: Vec<Arc<[String]>>,
}

impl Names {
    fn id(&mut self, name: &str) -> u32 {
        if let Some(&id) = self.ids.get(name) {
            return id;
        }
        let id = u32::try_from(self.names.len()).expect("fewer than 2^32 names");
        let name: Arc<str> = Arc::from(name);
        self.ids.insert(name.clone(), id);
        self.names.push(name);
        id
    }

    fn list_id(&mut self, list: &Arc<[String]>) -> u32 {
        if let Some(&id) = self.list_ids.get(list) {
            return id;
        }
        let id = u32::try_from(self.lists.len()).expect("fewer than 2^32 lists");
        self.list_ids.insert(list.clone(), id);
        self.lists.push(list.clone());
        id
    }

    /// The id of `name`, if some site names it.
    fn get(&self, name: &str) -> Option<u32> {
        self.ids.get(name).copied()
    }

    fn name(&self, id: u32) -> &str {
        &self.names[id as usize]
    }
}

/// A [`Site`] with its names in [`Names`].
#[derive(Debug, Clone, Copy)]
struct Packed {
    /// The method called (the constructor's name for a creation).
    method: u32,
    class: u32,
    /// The caller, as (class, method); `None` for deferred code.
    caller: Option<(u32, u32)>,
    caught: Option<u32>,
    receiver: Receiver,
    let_go: bool,
}

/// The sites of one file, packed with the project's [`Names`]: what a project keeps of a file
/// until all its files are read.
#[derive(Debug, Default)]
pub(crate) struct FileSites {
    sites: Box<[Packed]>,
    hidden: Box<[(u32, u32)]>,
    companions: Box<[(u32, u32)]>,
    untyped: Box<[(u32, u32)]>,
    exposed: Box<[(u32, u32, Exposure)]>,
    creations: Box<[(u32, Creation)]>,
}

impl FileSites {
    /// Every Kotlin companion the file declares, as (companion, its class), names in `names`.
    pub(crate) fn companions<'n>(
        &'n self,
        names: &'n Names,
    ) -> impl Iterator<Item = (&'n str, &'n str)> {
        self.companions
            .iter()
            .map(|&(c, of)| (names.name(c), names.name(of)))
    }

    /// The methods some code calls inside a `try` with `catch`es, as (receiver type, method).
    pub(crate) fn calls_in_a_try<'n>(
        &'n self,
        names: &'n Names,
    ) -> impl Iterator<Item = (&'n str, &'n str)> {
        self.sites
            .iter()
            .filter(|site| site.caught.is_some())
            .map(|site| (names.name(site.class), names.name(site.method)))
    }

    /// Every call made by a method, static ones included, as (receiver type, method), with
    /// that method, as (class, method), when only the project can call it.
    pub(crate) fn calls_from_hidden<'n>(
        &'n self,
        names: &'n Names,
    ) -> impl Iterator<Item = ((&'n str, &'n str), (&'n str, &'n str))> {
        self.sites.iter().filter_map(|site| {
            let caller = site.caller.filter(|caller| self.hidden.contains(caller))?;
            Some((
                (names.name(site.class), names.name(site.method)),
                (names.name(caller.0), names.name(caller.1)),
            ))
        })
    }

    /// The methods some code calls on an object it does not own ([`Receiver::Held`]), as
    /// (receiver type, method), with the methods those calls are made from, as (class, method).
    pub(crate) fn held_calls<'n>(
        &'n self,
        names: &'n Names,
    ) -> impl Iterator<Item = ((&'n str, &'n str), (&'n str, &'n str))> {
        self.sites
            .iter()
            .filter(|site| !matches!(site.receiver, Receiver::Fresh | Receiver::Static))
            .filter_map(|site| {
                let (class, method) = site.caller?;
                Some((
                    (names.name(site.class), names.name(site.method)),
                    (names.name(class), names.name(method)),
                ))
            })
    }
}

/// The calls of a set of files by method, packed ([`FileSites`]): what [`Clients::new`] reads.
#[derive(Debug, Default)]
pub struct SiteTable {
    names: Names,
    by_method: HashMap<u32, Vec<Packed>>,
    hidden: HashSet<(u32, u32)>,
    untyped: HashSet<(u32, u32)>,
    exposed: HashMap<(u32, u32), Exposure>,
    creations: HashMap<u32, Creation>,
    /// Each Kotlin companion, with the class whose name its members are called through.
    companions: HashMap<u32, u32>,
}

impl SiteTable {
    /// An empty table for sites packed with `names`.
    pub(crate) fn new(names: Names) -> SiteTable {
        SiteTable {
            names,
            ..SiteTable::default()
        }
    }

    /// The sites of one file.
    pub(crate) fn of_file(sites: Sites) -> SiteTable {
        let mut names = Names::default();
        let file = sites.pack(&mut names);
        let mut table = SiteTable::new(names);
        table.add(&file);
        table
    }

    /// The names its sites are packed with.
    pub(crate) fn names(&self) -> &Names {
        &self.names
    }

    /// Adds the sites of a file packed with this table's names, after those added before.
    pub(crate) fn add(&mut self, file: &FileSites) {
        for site in &file.sites {
            self.by_method.entry(site.method).or_default().push(*site);
        }
        self.hidden.extend(file.hidden.iter().copied());
        self.untyped.extend(file.untyped.iter().copied());
        self.companions.extend(file.companions.iter().copied());
        for &(class, method, exposure) in &file.exposed {
            self.exposed
                .entry((class, method))
                .and_modify(|known| *known = known.or(exposure))
                .or_insert(exposure);
        }
        for &(class, creation) in &file.creations {
            self.creations
                .entry(class)
                .and_modify(|known| *known = known.and(creation))
                .or_insert(creation);
        }
    }

    /// How the project creates the objects of `class`, if it does.
    fn creation(&self, class: &str) -> Option<Creation> {
        self.creations.get(&self.names.get(class)?).copied()
    }

    /// How a runtime may reach `method` of `class` ([`Exposure`]), if at all.
    fn exposure(&self, class: &str, method: &str) -> Option<Exposure> {
        let key = (self.names.get(class)?, self.names.get(method)?);
        self.exposed.get(&key).copied()
    }

    /// The calls of `method` on objects, in the order they were added.
    fn of_method<'t>(&'t self, method: &str) -> impl Iterator<Item = View<'t>> {
        self.calls_of(method)
            .filter(|site| site.receiver != Receiver::Static)
    }

    /// The calls of `method`, static ones included, in the order they were added.
    fn calls_of<'t>(&'t self, method: &str) -> impl Iterator<Item = View<'t>> {
        let sites = self.names.get(method).and_then(|m| self.by_method.get(&m));
        sites.into_iter().flatten().map(|site| View {
            class: self.names.name(site.class),
            receiver: site.receiver,
            caller: site.caller,
            let_go: site.let_go,
            caught: site.caught.map_or(&[], |id| &self.names.lists[id as usize]),
            table: self,
        })
    }

    /// The class whose name the members of the Kotlin companion `class` are called through.
    fn companion_of(&self, class: &str) -> Option<&str> {
        let of = self.companions.get(&self.names.get(class)?)?;
        Some(self.names.name(*of))
    }

    /// Whether some code calls `method` on a receiver of unknown type, in the package root `root`.
    fn untyped(&self, root: &str, method: &str) -> bool {
        let (Some(root), Some(method)) = (self.names.get(root), self.names.get(method)) else {
            return false;
        };
        self.untyped.contains(&(root, method))
    }
}

/// A site of a [`SiteTable`], its names read.
struct View<'t> {
    class: &'t str,
    receiver: Receiver,
    caller: Option<(u32, u32)>,
    let_go: bool,
    /// The exceptions the caller's `catch`es around the call catch (simple names).
    caught: &'t [String],
    table: &'t SiteTable,
}

impl<'t> View<'t> {
    /// The caller, as (class, method); `None` for deferred code.
    fn caller(&self) -> Option<(&'t str, &'t str)> {
        let (class, method) = self.caller?;
        let names = &self.table.names;
        Some((names.name(class), names.name(method)))
    }

    /// Whether only the project can call the caller ([`Sites::hidden`]).
    fn caller_hidden(&self) -> bool {
        self.caller
            .is_some_and(|caller| self.table.hidden.contains(&caller))
    }
}

/// A class of the project with its methods, whose clients decide their order and may catch
/// what they throw.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wrapper {
    /// The fully qualified name.
    pub class: String,
    /// Its methods' names.
    pub methods: Vec<String>,
    /// Whether its fields hold protocol objects: only then does the order of its methods
    /// matter.
    pub fields: Fields,
}

impl Wrapper {
    /// The same wrapper with its names in `names`.
    pub(crate) fn pack(&self, names: &mut Names) -> PackedWrapper {
        PackedWrapper {
            class: names.id(&self.class),
            methods: self.methods.iter().map(|m| names.id(m)).collect(),
            fields: self.fields,
        }
    }
}

/// A [`Wrapper`] with its names in [`Names`]: what a project keeps of a file's classes.
#[derive(Debug)]
pub(crate) struct PackedWrapper {
    class: u32,
    methods: Box<[u32]>,
    /// What its fields hold.
    pub(crate) fields: Fields,
}

impl PackedWrapper {
    /// The fully qualified name.
    pub(crate) fn class<'n>(&self, names: &'n Names) -> &'n str {
        names.name(self.class)
    }

    /// Its methods' names.
    pub(crate) fn methods<'n>(&'n self, names: &'n Names) -> impl Iterator<Item = &'n str> {
        self.methods.iter().map(|&m| names.name(m))
    }
}

/// What a [`Wrapper`]'s fields hold.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fields {
    /// Some field holds an object of a protocol.
    Tracked,
    /// None does.
    Untracked,
}

/// Which methods of the project's wrappers are driven ([`Order`]).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Clients {
    driven: HashSet<(String, String)>,
    last: HashSet<(String, String)>,
    /// The wrappers' methods the project calls; `None` when its calls are not known (the
    /// project check's first, any-order pass).
    called: Option<HashSet<(String, String)>>,
    /// The wrappers' methods the project calls and no runtime may call ([`Exposure`]).
    unexposed: HashSet<(String, String)>,
    /// Per method, what every call of it in the project catches, when that is something.
    caught: HashMap<(String, String), Vec<String>>,
    /// The wrappers' methods whose clients are checked against the wrapper's protocol
    /// ([`Clients::at_clients`]).
    at_clients: HashSet<(String, String)>,
    /// The protocols a project check derived from its wrappers ([`crate::wrappers`]).
    derived: Vec<typestates::Typestate>,
}

impl Clients {
    /// Solves the order of the methods of `wrappers` from `sites`, with `protocols` for the
    /// project's class hierarchy: the least set of free methods closed under the rule of the
    /// module documentation, over the methods the wrappers' callers reach back to.
    /// Finds what every call of the methods of `catching` catches.
    pub fn new(
        sites: &SiteTable,
        wrappers: &[Wrapper],
        catching: &[Wrapper],
        protocols: &Protocols<'_>,
    ) -> Clients {
        let mut graph = Graph {
            sites,
            protocols,
            ancestors: HashMap::default(),
            plain: HashMap::default(),
            nodes: HashMap::default(),
            keys: Vec::new(),
            calls: Vec::new(),
            todo: Vec::new(),
            caught_above: HashMap::default(),
        };
        for wrapper in wrappers {
            for method in &wrapper.methods {
                graph.node(&wrapper.class, method);
            }
        }
        while let Some(node) = graph.todo.pop() {
            graph.expand(node);
        }
        let methods = |of: &'_ [Wrapper]| {
            of.iter()
                .flat_map(|w| w.methods.iter().map(|m| (w.class.clone(), m.clone())))
                .collect::<Vec<_>>()
        };
        let last = methods(wrappers)
            .into_iter()
            .filter(|(class, method)| graph.let_go_by_every_caller(class, method))
            .collect();
        let called: HashSet<(String, String)> = methods(wrappers)
            .into_iter()
            .filter(|(class, method)| graph.called(class, method))
            .collect();
        // A class a runtime may call a method of runs that method in the runtime's order, not
        // only its clients': it keeps the any-order answer.
        let exposed: HashSet<&str> = wrappers
            .iter()
            .filter(|w| {
                w.methods
                    .iter()
                    .any(|m| graph.runtime_may_call(&w.class, m))
            })
            .map(|w| w.class.as_str())
            .collect();
        let at_clients = methods(wrappers)
            .into_iter()
            .filter(|(class, method)| {
                !exposed.contains(class.as_str()) && graph.at_clients(class, method)
            })
            .collect();
        let caught = methods(catching)
            .into_iter()
            .filter_map(|key| {
                let caught = graph.caught_by_every_caller(&key.0, &key.1)?;
                Some((key, caught))
            })
            .collect();
        // The least fixpoint: a method is free when some call of it is free.
        let mut free: Vec<bool> = graph
            .calls
            .iter()
            .map(|calls| matches!(calls, Calls::AnyTime))
            .collect();
        loop {
            let mut changed = false;
            for (node, calls) in graph.calls.iter().enumerate() {
                let Calls::Held(edges) = calls else {
                    continue;
                };
                if free[node] {
                    continue;
                }
                let by_free_call = edges.iter().any(|edge| match edge {
                    Edge::Deferred => true,
                    Edge::From(caller) => free[*caller],
                });
                if by_free_call {
                    free[node] = true;
                    changed = true;
                }
            }
            if !changed {
                break;
            }
        }
        // Every method reached, not only the wrappers' own: a helper's findings are made
        // where the method that calls it runs.
        let driven: HashSet<(String, String)> = std::mem::take(&mut graph.keys)
            .into_iter()
            .zip(free)
            .filter(|(_, free)| !free)
            .map(|(key, _)| key)
            .collect();
        // Driven, so only code that runs in its own order calls them, and no runtime may.
        let unexposed = called
            .iter()
            .filter(|key| driven.contains(*key) && !graph.runtime_may_call(&key.0, &key.1))
            .cloned()
            .collect();
        Clients {
            driven,
            last,
            called: Some(called),
            unexposed,
            caught,
            at_clients,
            derived: Vec::new(),
        }
    }

    /// These clients, with the protocols a project check derived from its wrappers: every
    /// file is checked with them, so that a wrapper's clients in other files are too.
    pub fn with_derived(mut self, derived: Vec<typestates::Typestate>) -> Clients {
        self.derived = derived;
        self
    }

    /// The protocols derived from the project's wrappers ([`Clients::with_derived`]).
    pub fn derived(&self) -> &[typestates::Typestate] {
        &self.derived
    }

    /// Whether the project calls `method` of a wrapper `class`, each time on a name its
    /// clients' flows follow, and nothing else may call it: no runtime, no untyped call.
    /// No runtime may call any method of the class either.
    /// Then the order of the clients' calls is theirs to get right: they are checked against
    /// the protocol derived from the wrapper ([`crate::wrappers`]), and the method inside the
    /// wrapper only within one call.
    pub fn at_clients(&self, class: &str, method: &str) -> bool {
        self.at_clients
            .contains(&(class.to_owned(), method.to_owned()))
    }

    /// The exceptions every call of `method` of `class` in the project catches (simple names):
    /// a violation it lets escape is handled by its callers.
    /// Nothing for a method that nothing in the project calls, or a component's.
    pub fn caught_by_callers(&self, class: &str, method: &str) -> &[String] {
        self.caught
            .get(&(class.to_owned(), method.to_owned()))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether only code outside the project calls `method` of a wrapper `class` (the
    /// framework, JavaScript, a library's users): the project's calls are known, and none is.
    pub fn called_only_outside(&self, class: &str, method: &str) -> bool {
        self.called
            .as_ref()
            .is_some_and(|called| !called.contains(&(class.to_owned(), method.to_owned())))
    }

    /// Whether what is called after `method` of `class` when it ends its object is the callers'
    /// misuse ([`crate::events`]): only code outside the project calls it, or it is driven.
    /// A runtime that may call it may call on after it: JavaScript, the framework.
    pub fn ends_for_callers(&self, class: &str, method: &str) -> bool {
        self.called_only_outside(class, method)
            || self
                .unexposed
                .contains(&(class.to_owned(), method.to_owned()))
    }

    /// Whether `method` of `class` may run at any time ([`Order`]).
    pub fn order(&self, class: &str, method: &str) -> Order {
        let key = (class.to_owned(), method.to_owned());
        if self.driven.contains(&key) {
            Order::Driven
        } else if self.last.contains(&key) {
            Order::Last
        } else {
            Order::Free
        }
    }
}

/// A call that may make a method free: from deferred code, or held by a method.
#[derive(Debug, Clone, Copy)]
enum Edge {
    Deferred,
    From(usize),
}

/// What calls a method.
#[derive(Debug, Clone)]
enum Calls {
    /// Nothing in the project, or the framework (a component's method): it runs any time.
    AnyTime,
    /// The project; the calls on objects the callers do not own (none when every caller
    /// made the object it calls).
    Held(Vec<Edge>),
}

/// The methods a solve looks at, each with the calls that may make it free.
struct Graph<'s, 'p, 'l> {
    sites: &'s SiteTable,
    protocols: &'p Protocols<'l>,
    /// Each class met with its supertypes.
    ancestors: HashMap<String, HashSet<String>>,
    /// Whether each class met is plain (not a component).
    plain: HashMap<String, bool>,
    nodes: HashMap<(String, String), usize>,
    keys: Vec<(String, String)>,
    /// Per node, what calls it.
    calls: Vec<Calls>,
    todo: Vec<usize>,
    /// What every call of a method catches, up the calls ([`Graph::caught_up_from`]).
    caught_above: HashMap<(String, String), Option<Vec<String>>>,
}

impl Graph<'_, '_, '_> {
    fn node(&mut self, class: &str, method: &str) -> usize {
        let key = (class.to_owned(), method.to_owned());
        if let Some(&node) = self.nodes.get(&key) {
            return node;
        }
        let node = self.keys.len();
        self.nodes.insert(key.clone(), node);
        self.keys.push(key);
        self.calls.push(Calls::AnyTime);
        self.todo.push(node);
        node
    }

    fn ancestors(&mut self, class: &str) -> &HashSet<String> {
        let protocols = self.protocols;
        self.ancestors
            .entry(class.to_owned())
            .or_insert_with(|| protocols.ancestors(class).map(str::to_owned).collect())
    }

    /// Whether a call on a `receiver` counts for `class`: one is a subtype of the other.
    fn related(&mut self, class: &str, receiver: &str) -> bool {
        self.ancestors(class).contains(receiver) || self.ancestors(receiver).contains(class)
    }

    /// Whether code of the project other than the class's own calls `method` of `class`, on
    /// the object or through a relative.
    /// The project is the class's package root: a framework's code elsewhere is outside.
    /// A call there on a receiver of unknown type may be one.
    fn called(&mut self, class: &str, method: &str) -> bool {
        let sites = self.sites;
        let root = package_root(class);
        let by_project = |site: &View<'_>| match site.caller() {
            Some((owner, _)) => owner != class && package_root(owner) == root,
            None => true,
        };
        sites.untyped(root, method)
            || sites
                .of_method(method)
                .filter(by_project)
                .any(|site| self.related(class, site.class))
    }

    /// Whether `method` of `class` has calls, and every caller lets go of the object after
    /// its call ([`Site::let_go`]).
    fn let_go_by_every_caller(&mut self, class: &str, method: &str) -> bool {
        let sites = self.sites;
        let mut any = false;
        for site in sites.of_method(method) {
            if self.related(class, site.class) {
                if !site.let_go {
                    return false;
                }
                any = true;
            }
        }
        any
    }

    /// What every call of `method` of `class` catches, if the class is plain, something calls
    /// the method, and every call catches something.
    /// A call catches what its `try`s catch, and what every call of the method it is in
    /// catches in turn, up the project's calls.
    fn caught_by_every_caller(&mut self, class: &str, method: &str) -> Option<Vec<String>> {
        self.caught_up_from(class, method, &mut Vec::new())
    }

    /// [`Graph::caught_by_every_caller`], not going back into the methods of `visiting`.
    /// Each answer is kept: one cut short by a cycle catches less, never more.
    fn caught_up_from(
        &mut self,
        class: &str,
        method: &str,
        visiting: &mut Vec<(String, String)>,
    ) -> Option<Vec<String>> {
        let key = (class.to_owned(), method.to_owned());
        if let Some(known) = self.caught_above.get(&key) {
            return known.clone();
        }
        let caught = self.caught_up_uncached(class, method, visiting);
        self.caught_above.insert(key, caught.clone());
        caught
    }

    fn caught_up_uncached(
        &mut self,
        class: &str,
        method: &str,
        visiting: &mut Vec<(String, String)>,
    ) -> Option<Vec<String>> {
        let protocols = self.protocols;
        if Component::of(protocols, class) != Component::Plain {
            return None;
        }
        visiting.push((class.to_owned(), method.to_owned()));
        let sites = self.sites;
        let mut caught: Option<Vec<String>> = None;
        let companion_of = sites.companion_of(class);
        for site in sites.calls_of(method) {
            let through_name =
                site.receiver == Receiver::Static && companion_of == Some(site.class);
            if !through_name && !self.related(class, site.class) {
                continue;
            }
            let mut here = site.caught.to_vec();
            if let Some((class, method)) = site.caller() {
                let key = (class.to_string(), method.to_string());
                // Code outside the project may call an exported method with no `try`.
                if site.caller_hidden() && !visiting.contains(&key) {
                    let above = self.caught_up_from(&key.0, &key.1, visiting);
                    here.extend(
                        above
                            .into_iter()
                            .flatten()
                            .filter(|t| !site.caught.contains(t)),
                    );
                }
            }
            match &mut caught {
                None => caught = Some(here),
                Some(all) => *all = caught_by_both(all, &here),
            }
        }
        visiting.pop();
        caught.filter(|all| !all.is_empty())
    }

    /// Finds what calls `node`.
    fn expand(&mut self, node: usize) {
        let (class, method) = self.keys[node].clone();
        let protocols = self.protocols;
        let plain = *self
            .plain
            .entry(class.clone())
            .or_insert_with(|| Component::of(protocols, &class) == Component::Plain);
        if !plain {
            return;
        }
        let sites = self.sites;
        let mut edges = Vec::new();
        let mut related = false;
        for site in sites.of_method(&method) {
            if !self.related(&class, site.class) {
                continue;
            }
            related = true;
            if site.receiver == Receiver::Fresh {
                continue;
            }
            edges.push(match site.caller() {
                None => Edge::Deferred,
                Some((class, method)) => Edge::From(self.node(class, method)),
            });
        }
        // The task of an object handed over to run once runs once, in its own order.
        let task = matches!(method.as_str(), "run" | "call")
            && self.sites.creation(&class) == Some(Creation::HandedOverOnce);
        if related || task {
            self.calls[node] = Calls::Held(edges);
        }
    }

    /// Whether a runtime may call `method` of `class` whatever the project does: an
    /// annotation exposes it, or it may override a method of a supertype outside the project.
    /// A method the files read do not declare is not known to be reachable so.
    /// Whether every call of `method` of `class` by the project is on a name ([`Receiver`] not
    /// held otherwise), there is one, no call of the name is untyped, and no runtime may call it.
    fn at_clients(&mut self, class: &str, method: &str) -> bool {
        let sites = self.sites;
        let root = package_root(class);
        if sites.untyped(root, method) || self.runtime_may_call(class, method) {
            return false;
        }
        let mut any = false;
        for site in sites.of_method(method) {
            let by_project = match site.caller() {
                Some((owner, _)) => owner != class && package_root(owner) == root,
                None => true,
            };
            if !by_project || !self.related(class, site.class) {
                continue;
            }
            if site.receiver == Receiver::Held {
                return false;
            }
            any = true;
        }
        any
    }

    fn runtime_may_call(&mut self, class: &str, method: &str) -> bool {
        match self.sites.exposure(class, method) {
            Some(Exposure::Annotated) => true,
            Some(Exposure::Overriding) => {
                let root = package_root(class);
                self.ancestors(class)
                    .iter()
                    .any(|a| package_root(a) != root)
            }
            None => false,
        }
    }
}

/// The classes `ir` declares (typed by `res`), each marked by whether it keeps objects of a
/// protocol of `protocols` in fields ([`Fields`]).
pub(crate) fn wrappers(ir: &SourceIr, res: &Resolution, protocols: &Protocols<'_>) -> Vec<Wrapper> {
    wrappers_with_spans(ir, res, protocols)
        .into_iter()
        .map(|(wrapper, _)| wrapper)
        .collect()
}

/// [`wrappers`], each with where its methods are declared, in the order of
/// [`Wrapper::methods`].
pub(crate) fn wrappers_with_spans(
    ir: &SourceIr,
    res: &Resolution,
    protocols: &Protocols<'_>,
) -> Vec<(Wrapper, Vec<Span>)> {
    fn visit(
        class: &Class,
        fqn: &str,
        res: &Resolution,
        protocols: &Protocols<'_>,
        out: &mut Vec<(Wrapper, Vec<Span>)>,
    ) {
        let Some(fqn) = res.class(fqn).map(|info| info.fqn.as_str()) else {
            return;
        };
        let tracks = class.fields.iter().any(|field| {
            res.type_of_field(fqn, &field.name)
                .is_some_and(|ty| protocols.protocol_of(&ty.fqn).is_some())
        });
        let methods = class
            .methods
            .iter()
            .filter(|m| m.kind == MethodKind::Method);
        let wrapper = Wrapper {
            class: fqn.to_owned(),
            methods: methods.clone().map(|m| m.name.clone()).collect(),
            fields: if tracks {
                Fields::Tracked
            } else {
                Fields::Untracked
            },
        };
        out.push((wrapper, methods.map(|m| m.span).collect()));
        for nested in class
            .classes
            .iter()
            .filter(|c| c.kind != ClassKind::Anonymous)
        {
            visit(
                nested,
                &format!("{fqn}.{}", nested.name),
                res,
                protocols,
                out,
            );
        }
    }
    let mut out = Vec::new();
    for class in &ir.classes {
        let fqn = qualify(ir.package.as_deref(), &class.name);
        visit(class, &fqn, res, protocols, &mut out);
    }
    out
}

/// What holds an object a caller did not make, so that the caller may let go of it.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Holder {
    /// A field (class, name).
    Field((String, String)),
    /// An element of the collection a field holds, got by a key a local holds
    /// (`voices.get(id)`), or by a key the walk does not follow (`voices.get(i + 1)`).
    Element {
        container: (String, String),
        key: Option<LocalId>,
    },
}

impl Holder {
    /// The field that holds the object, or the collection it is in.
    fn field(&self) -> &(String, String) {
        match self {
            Holder::Field(field)
            | Holder::Element {
                container: field, ..
            } => field,
        }
    }
}

/// A call on an object a field holds, waiting for the caller to let go of it.
#[derive(Debug, Clone)]
struct Waiting {
    /// The method called.
    method: String,
    /// The call's index among the sites of `method` ([`Sites::by_method`]).
    index: usize,
    holder: Holder,
}

/// What holds an object the enclosing method created in this run.
#[derive(Debug, Clone, Default)]
struct Fresh {
    /// Locals every value assigned to is such an object (or `null`).
    locals: HashSet<LocalId>,
    /// Fields (class, name) assigned such an object earlier on every path to here.
    fields: HashSet<(String, String)>,
}

struct Walker<'r> {
    res: &'r Resolution,
    language: Language,
    sites: Sites,
    /// The enclosing code, innermost last.
    callers: Vec<Caller>,
    /// Locals and fields holding an object the enclosing method created.
    fresh: Fresh,
    /// Locals holding what a field holds, or an element of its collection: copied from it,
    /// or a `let`'s parameter on it.
    holders: HashMap<LocalId, Holder>,
    /// Per enclosing block, innermost last, the calls made in it on an object a field holds,
    /// until the block lets go of it.
    pending: Vec<Vec<Waiting>>,
    /// The receiver types met, shared by their sites.
    types: HashSet<Arc<str>>,
    /// The file's functions whose lambdas run in place ([`crate::ir::Modifiers::runs_lambdas_in_place`]),
    /// as (class, name); Kotlin's top-level ones under [`TOP_LEVEL`].
    in_place: HashSet<(String, String)>,
    /// The exceptions the enclosing `try`s of the method catch (simple names).
    catching: Vec<String>,
    /// The last list of [`Site::caught`] made, shared by the sites that catch the same.
    caught_last: Option<Arc<[String]>>,
    /// The objects the file creates, and which it hands over to run.
    handoffs: Handoffs,
}

/// The objects a file creates, and which it hands over to run once.
#[derive(Default)]
struct Handoffs {
    /// Each creation, with the class created.
    created: Vec<(ExprId, Arc<str>)>,
    /// The creations that initialise a local's declaration.
    declared: HashMap<ExprId, LocalId>,
    /// The creations passed straight to a hand-off.
    handed: HashSet<ExprId>,
    /// Per local, how often it is passed to a hand-off.
    handed_locals: HashMap<LocalId, u32>,
    /// Per local, how often its name is used.
    uses: HashMap<LocalId, u32>,
}

impl Handoffs {
    /// How the file creates the objects of each class: an object is handed over once when it
    /// goes straight to a hand-off, or into a local whose only use is one.
    fn creations(self) -> HashMap<String, Creation> {
        let mut out: HashMap<String, Creation> = HashMap::default();
        for (id, class) in &self.created {
            let once = self.handed.contains(id)
                || self.declared.get(id).is_some_and(|local| {
                    self.handed_locals.get(local) == Some(&1) && self.uses.get(local) == Some(&1)
                });
            let creation = if once {
                Creation::HandedOverOnce
            } else {
                Creation::Kept
            };
            out.entry(class.to_string())
                .and_modify(|known| *known = known.and(creation))
                .or_insert(creation);
        }
        out
    }
}

impl<'a> Walker<'a> {
    fn interned(&mut self, class: &str) -> Arc<str> {
        if let Some(known) = self.types.get(class) {
            return known.clone();
        }
        let class: Arc<str> = Arc::from(class);
        self.types.insert(class.clone());
        class
    }

    fn class(&mut self, class: &'a Class, fqn: &str) {
        let Some(fqn) = self
            .res
            .class(fqn)
            .map(|info| Arc::<str>::from(info.fqn.as_str()))
        else {
            return;
        };
        self.callers.push(Caller::Method {
            class: fqn.clone(),
            method: Arc::from(CONSTRUCTOR),
        });
        for field in &class.fields {
            field
                .init
                .iter()
                .chain(&field.delegate)
                .for_each(|e| self.expr(e));
        }
        for init in &class.initializers {
            self.body(init);
        }
        self.callers.pop();
        for method in &class.methods {
            let name = match method.kind {
                MethodKind::Constructor => CONSTRUCTOR,
                MethodKind::Method => &method.name,
            };
            if method.kind == MethodKind::Method {
                let key = (fqn.to_string(), method.name.clone());
                if !method.modifiers.is_exported {
                    self.sites.hidden.insert(key.clone());
                }
                if let Some(exposure) = exposure_of(method, self.language) {
                    self.sites.expose(key, exposure);
                }
            }
            self.callers.push(Caller::Method {
                class: fqn.clone(),
                method: Arc::from(name),
            });
            if let Some(body) = &method.body {
                self.body(body);
            }
            self.callers.pop();
        }
        for nested in &class.classes {
            if nested.kind == ClassKind::Companion {
                let companion = format!("{fqn}.{}", nested.name);
                self.sites.companions.insert(companion, fqn.to_string());
            }
            if nested.kind != ClassKind::Anonymous {
                self.class(nested, &format!("{fqn}.{}", nested.name));
            }
        }
    }

    /// Whether `call` (the expression `expr`) is of a function of this file that runs its
    /// lambdas in place.
    fn runs_in_place(&self, expr: &Expr, call: &Call) -> bool {
        if !matches!(
            call.receiver.as_deref().map(|r| &r.kind),
            None | Some(ExprKind::This(_))
        ) {
            return false;
        }
        let class = match self.res.receiver_of(expr.id) {
            Some(ty) => ty.fqn.as_str(),
            None => TOP_LEVEL,
        };
        self.in_place
            .contains(&(class.to_owned(), call.name.clone()))
    }

    fn body(&mut self, body: &'a Body) {
        self.visit_block(&body.stmts);
    }

    /// Code that runs later: its calls are made by an event, on objects that outlive the
    /// method that created them.
    fn deferred(&mut self, visit: impl FnOnce(&mut Self)) {
        self.callers.push(Caller::Deferred);
        let fresh = std::mem::take(&mut self.fresh);
        let pending = std::mem::take(&mut self.pending);
        let catching = std::mem::take(&mut self.catching);
        visit(self);
        self.fresh = fresh;
        self.pending = pending;
        self.catching = catching;
        self.callers.pop();
    }

    /// What holds the object `expr` is, if a field does.
    fn holder(&self, expr: &Expr) -> Option<Holder> {
        match &expr.kind {
            ExprKind::Name(_) | ExprKind::Field { .. } => match self.res.binding_of(expr.id)? {
                Binding::Field { class, name } => {
                    Some(Holder::Field((class.clone(), name.clone())))
                }
                Binding::Local(id) => self.holders.get(id).cloned(),
            },
            ExprKind::Cast { expr, .. } => self.holder(expr),
            // `field ?: throw …`
            ExprKind::Binary {
                op: BinaryOp::Elvis,
                lhs,
                ..
            } => self.holder(lhs),
            ExprKind::Call(call) if call.name == "get" && call.args.len() == 1 => {
                Some(Holder::Element {
                    container: self.collection(call)?,
                    key: self.local(&call.args[0]),
                })
            }
            _ => None,
        }
    }

    /// The field (class, name) `call`'s receiver names, when it holds a collection.
    fn collection(&self, call: &Call) -> Option<(String, String)> {
        let receiver = call.receiver.as_deref()?;
        let ty = self.res.type_of(receiver.id)?;
        if !is_collection(&ty.fqn) {
            return None;
        }
        match self.res.binding_of(receiver.id)? {
            Binding::Field { class, name } => Some((class.clone(), name.clone())),
            Binding::Local(_) => None,
        }
    }

    /// The local `expr` names.
    fn local(&self, expr: &Expr) -> Option<LocalId> {
        match (&expr.kind, self.res.binding_of(expr.id)?) {
            (ExprKind::Name(_), Binding::Local(id)) => Some(*id),
            _ => None,
        }
    }

    /// Records the call `method` on `receiver`, of type `class`, as `kind`.
    /// Notes the creation `id` of an object of `class`.
    fn created(&mut self, id: ExprId, class: &str) {
        let class = self.interned(class);
        self.handoffs.created.push((id, class));
    }

    /// `args` are handed over to run once: a creation there, or a local's object.
    fn handed_over(&mut self, args: &[Expr]) {
        for arg in args {
            let creation =
                matches!(arg.kind, ExprKind::New { .. }) || self.res.is_constructor_call(arg.id);
            if creation {
                self.handoffs.handed.insert(arg.id);
            } else if let Some(local) = self.local(arg) {
                *self.handoffs.handed_locals.entry(local).or_default() += 1;
            }
        }
    }

    fn record_call(&mut self, class: &str, method: &str, receiver: &Expr, kind: Receiver) {
        let Some(index) = self.record(class, method, kind) else {
            return;
        };
        if let (Some(holder), Some(block)) = (self.holder(receiver), self.pending.last_mut()) {
            block.push(Waiting {
                method: method.to_owned(),
                index,
                holder,
            });
        }
    }

    /// The caller let go of what `released` holders hold: the calls waiting on such objects
    /// in the innermost block let go of them.
    fn let_go(&mut self, released: impl Fn(&Holder) -> bool) {
        let Some(block) = self.pending.last_mut() else {
            return;
        };
        let sites = &mut self.sites.by_method;
        block.retain(|waiting| {
            if !released(&waiting.holder) {
                return true;
            }
            let site = sites
                .get_mut(&waiting.method)
                .and_then(|s| s.get_mut(waiting.index));
            if let Some(site) = site {
                site.let_go = true;
            }
            false
        });
    }

    /// The caller assigned `field`: it lets go of the object the field held, and of the
    /// elements of the collection it held.
    fn assigned(&mut self, field: &(String, String)) {
        self.let_go(|holder| holder.field() == field);
    }

    /// `call` takes elements out of a collection a field holds: `voices.remove(id)` lets go
    /// of what `voices.get(id)` gave, `voices.clear()` of every element.
    fn removed(&mut self, call: &Call) {
        let Some(container) = self.collection(call) else {
            return;
        };
        match (call.name.as_str(), call.args.as_slice()) {
            ("remove", [key]) => {
                let Some(key) = self.local(key) else {
                    return;
                };
                self.let_go(|holder| {
                    *holder
                        == Holder::Element {
                            container: container.clone(),
                            key: Some(key),
                        }
                });
            }
            ("clear", []) | ("removeAll", [_]) => self.let_go(
                |holder| matches!(holder, Holder::Element { container: c, .. } if *c == container),
            ),
            _ => {}
        }
    }

    /// The parameter of `fileWriter?.let { writer -> … }` holds what the field holds.
    fn hold_parameter(&mut self, inline: &Inlined<'_>) {
        if inline.function.binds != Binds::Parameter {
            return;
        }
        let Some(holder) = inline.subject.and_then(|subject| self.holder(subject)) else {
            return;
        };
        if let Some(local) = self.res.declared_at(inline.parameter_at()) {
            self.holders.insert(local, holder);
        }
    }

    /// Records a call of `method` on a receiver of unknown type.
    fn record_untyped(&mut self, method: &str) {
        let owner = self.callers.iter().rev().find_map(|c| match c {
            Caller::Method { class, .. } => Some(class),
            Caller::Deferred => None,
        });
        if let Some(owner) = owner {
            let key = (package_root(owner).to_owned(), method.to_owned());
            self.sites.untyped.insert(key);
        }
    }

    /// Records a site; returns its index among the sites of `method`.
    fn record(&mut self, class: &str, method: &str, receiver: Receiver) -> Option<usize> {
        let caller = self.callers.last().cloned()?;
        let Some(Caller::Method { class: owner, .. }) = self
            .callers
            .iter()
            .rev()
            .find(|c| matches!(c, Caller::Method { .. }))
        else {
            return None;
        };
        // A call into another top-level package is a call of a library, not of a wrapper of
        // the project (whose classes share one).
        if package_root(class) != package_root(owner) {
            return None;
        }
        let class = self.interned(class);
        let caught = match &self.caught_last {
            _ if self.catching.is_empty() => None,
            Some(last) if **last == *self.catching => Some(last.clone()),
            _ => {
                let list: Arc<[String]> = Arc::from(self.catching.as_slice());
                self.caught_last = Some(list.clone());
                Some(list)
            }
        };
        let sites = self.sites.by_method.entry(method.to_owned()).or_default();
        sites.push(Site {
            class,
            receiver,
            caller,
            let_go: false,
            caught,
        });
        Some(sites.len() - 1)
    }

    fn expr(&mut self, expr: &'a Expr) {
        match &expr.kind {
            ExprKind::Call(call) => {
                if let Some(receiver) = &call.receiver {
                    match self.res.receiver_of(expr.id) {
                        // A static call: no object, and the order is no client's, but its
                        // `catch`es count for what the method lets escape.
                        Some(ty) if ty.is_class_ref => {
                            let class = ty.fqn.clone();
                            self.record(&class, &call.name, Receiver::Static);
                            self.record_untyped(&call.name);
                        }
                        Some(ty) => {
                            let kind = receiver_kind(self.res, &self.fresh, receiver);
                            let class = ty.fqn.clone();
                            self.record_call(&class, &call.name, receiver, kind);
                            if crate::platform::hands_off(|c| c == class, &call.name) {
                                self.handed_over(&call.args);
                            }
                        }
                        None => self.record_untyped(&call.name),
                    }
                    self.removed(call);
                    self.expr(receiver);
                } else if self.res.is_constructor_call(expr.id) {
                    if let Some(ty) = self.res.type_of(expr.id) {
                        let class = ty.fqn.clone();
                        self.record(&class, CONSTRUCTOR, Receiver::Fresh);
                        self.created(expr.id, &class);
                    }
                } else if let Some(ty) = self.res.receiver_of(expr.id).filter(|t| t.is_class_ref) {
                    // A Java `import static`'s: a call through the class's name.
                    let class = ty.fqn.clone();
                    self.record(&class, &call.name, Receiver::Static);
                    self.record_untyped(&call.name);
                } else if let Some(ty) = self.res.receiver_of(expr.id) {
                    // A call on the object itself runs whenever its caller does, and may
                    // assign any field.
                    self.record(&ty.fqn.clone(), &call.name, Receiver::Held);
                    self.fresh.fields.clear();
                }
                let inline = inlined(call, self.language);
                if let Some(inline) = &inline {
                    self.hold_parameter(inline);
                }
                let in_place = inline.is_some() || self.runs_in_place(expr, call);
                for arg in &call.args {
                    match &arg.kind {
                        ExprKind::Lambda { body, .. } if in_place => self.body(body),
                        _ => self.expr(arg),
                    }
                }
            }
            ExprKind::New { args, body, .. } => {
                if let Some(ty) = self.res.type_of(expr.id) {
                    let class = ty.fqn.clone();
                    self.record(&class, CONSTRUCTOR, Receiver::Fresh);
                    self.created(expr.id, &class);
                }
                args.iter().for_each(|a| self.expr(a));
                if let Some(class) = body {
                    self.anonymous(class);
                }
            }
            ExprKind::Lambda { body, .. } => self.deferred(|w| w.body(body)),
            ExprKind::MethodRef { receiver, .. } => self.expr(receiver),
            ExprKind::Field { receiver, .. } => self.expr(receiver),
            ExprKind::Binary { lhs, rhs, .. } => {
                self.expr(lhs);
                self.expr(rhs);
            }
            ExprKind::Assign { target, value } => {
                self.expr(target);
                self.expr(value);
                let created = receiver_kind(self.res, &self.fresh, value) == Receiver::Fresh;
                match self.res.binding_of(target.id) {
                    Some(Binding::Local(id)) => {
                        match self.holder(value) {
                            Some(holder) => self.holders.insert(*id, holder),
                            None => self.holders.remove(id),
                        };
                        if created {
                            self.fresh.locals.insert(*id);
                        } else if !matches!(value.kind, ExprKind::Null) {
                            self.fresh.locals.remove(id);
                        }
                    }
                    Some(Binding::Field { class, name }) => {
                        let field = (class.clone(), name.clone());
                        self.assigned(&field);
                        if created {
                            self.fresh.fields.insert(field);
                        } else {
                            self.fresh.fields.remove(&field);
                        }
                    }
                    None => {}
                }
            }
            ExprKind::Not(inner)
            | ExprKind::Cast { expr: inner, .. }
            | ExprKind::TypeTest { expr: inner, .. } => self.expr(inner),
            ExprKind::Control(stmt) => self.visit_stmt(stmt),
            ExprKind::Other(parts) => parts.iter().for_each(|p| self.expr(p)),
            ExprKind::Name(_) => {
                if let Some(Binding::Local(id)) = self.res.binding_of(expr.id) {
                    *self.handoffs.uses.entry(*id).or_default() += 1;
                }
            }
            ExprKind::This(_)
            | ExprKind::Super
            | ExprKind::Null
            | ExprKind::Bool(_)
            | ExprKind::Int(_)
            | ExprKind::Literal => {}
        }
    }

    /// The methods of an anonymous class (or a class declared in code): events.
    fn anonymous(&mut self, class: &'a Class) {
        self.deferred(|w| {
            for field in &class.fields {
                field.init.iter().for_each(|e| w.expr(e));
            }
            for init in &class.initializers {
                w.body(init);
            }
            for method in &class.methods {
                if let Some(body) = &method.body {
                    w.body(body);
                }
            }
        });
    }
}

impl<'a> Visitor<'a> for Walker<'a> {
    fn visit_expr(&mut self, expr: &'a Expr) {
        self.expr(expr);
    }

    /// A `try`: its `catch`es catch what the calls of its resources and body throw.
    fn visit_stmt(&mut self, stmt: &'a crate::ir::Stmt) {
        let StmtKind::Try {
            resources,
            body,
            catches,
            finally,
        } = &stmt.kind
        else {
            return walk_stmt(self, stmt);
        };
        let outer = self.catching.len();
        self.catching.extend(
            catches
                .iter()
                .flat_map(|c| &c.types)
                .map(|ty| ty.simple_name().to_owned()),
        );
        resources.iter().for_each(|stmt| self.visit_stmt(stmt));
        self.visit_block(body);
        self.catching.truncate(outer);
        for catch in catches {
            self.visit_block(&catch.body);
        }
        if let Some(finally) = finally {
            self.visit_block(finally);
        }
    }

    fn visit_local(&mut self, local: &'a Local) {
        if let Some(init) = &local.init {
            if let Some(id) = self.res.declared_at(local.name_span.start_byte) {
                self.handoffs.declared.insert(init.id, id);
            }
            self.expr(init);
            if let Some(holder) = self.holder(init) {
                if let Some(id) = self.res.declared_at(local.name_span.start_byte) {
                    self.holders.insert(id, holder);
                }
            }
            if receiver_kind(self.res, &self.fresh, init) == Receiver::Fresh {
                if let Some(id) = self.res.declared_at(local.name_span.start_byte) {
                    self.fresh.locals.insert(id);
                }
            }
        }
    }

    /// A block: a field made fresh inside it may not be on the paths that skip it.
    fn visit_block(&mut self, stmts: &'a [crate::ir::Stmt]) {
        let before = self.fresh.fields.clone();
        self.pending.push(Vec::new());
        for stmt in stmts {
            self.visit_stmt(stmt);
        }
        // Calls still waiting for their field's assignment wait in the enclosing block.
        let waiting = self.pending.pop().unwrap_or_default();
        if let Some(outer) = self.pending.last_mut() {
            outer.extend(waiting);
        }
        self.fresh.fields.retain(|field| before.contains(field));
    }

    fn visit_local_class(&mut self, class: &'a Class) {
        self.anonymous(class);
    }

    fn visit_local_function(&mut self, method: &'a crate::ir::Method) {
        if let Some(body) = &method.body {
            self.body(body);
        }
    }
}

/// The first two parts of a class's package (`com.example` of `com.example.app.Player`,
/// `a` of `a.Sink`, nothing for a class in no package), which the classes of one project
/// share.
pub(crate) fn package_root(fqn: &str) -> &str {
    let package = fqn.rfind('.').map_or("", |end| &fqn[..end]);
    let end = package
        .match_indices('.')
        .nth(1)
        .map_or(package.len(), |(i, _)| i);
    &package[..end]
}

/// What the caller holds `receiver` as: an object it created in this run, or one that may
/// outlive it.
fn receiver_kind(res: &Resolution, fresh: &Fresh, receiver: &Expr) -> Receiver {
    let created = match &receiver.kind {
        ExprKind::New { .. } => true,
        ExprKind::Call(call) => match &call.receiver {
            None => res.is_constructor_call(receiver.id),
            // A fluent call on a fresh object (`Builder().add(x)`) returns the object.
            Some(inner) => {
                let same_type = res
                    .type_of(receiver.id)
                    .zip(res.type_of(inner.id))
                    .is_some_and(|(outer, inner)| outer.fqn == inner.fqn);
                same_type && receiver_kind(res, fresh, inner) == Receiver::Fresh
            }
        },
        ExprKind::Cast { expr, .. } => receiver_kind(res, fresh, expr) == Receiver::Fresh,
        ExprKind::Name(_) | ExprKind::Field { .. } => match res.binding_of(receiver.id) {
            Some(Binding::Local(id)) if fresh.locals.contains(id) => true,
            Some(Binding::Field { class, name })
                if fresh.fields.contains(&(class.clone(), name.clone())) =>
            {
                true
            }
            Some(_) => return Receiver::Named,
            None => false,
        },
        _ => false,
    };
    if created {
        Receiver::Fresh
    } else {
        Receiver::Held
    }
}
