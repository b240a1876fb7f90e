//! The typestate library as the checker sees it.
//! It says which protocol a class follows (itself or through a supertype) and which callins a call may be.
//! It also says what a creator call creates, and how callbacks reach client code.
//!
//! [`Protocols`] also implements [`KnownTypes`], so the resolver types factory calls by the
//! library's creators and listener parameters by its callback bindings.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};

use typestates::binding::{CallbackBinding, MethodKind};
use typestates::library::Library;
use typestates::model::{CallbackId, CallinId, StateId, Typestate, WaitOutcome};

use crate::platform;
use crate::resolve::{ExprType, KnownTypes, Resolution};

/// Method names that end an object's life: a final state entered by one of them is one the
/// object should reach before it is dropped.
pub const RELEASING: &[&str] = &["release", "close", "recycle", "destroy", "shutdown"];

/// Methods every object has, which no protocol changes state by.
const OBJECT_METHODS: &[&str] = &[
    "equals",
    "hashCode",
    "toString",
    "getClass",
    "notify",
    "notifyAll",
    "wait",
];

/// What a call does to a tracked object when its protocol names no callin for the method.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UnnamedCall {
    /// Declared harmless by the protocol, a method of `Object`, or a listener registration
    /// (followed separately): the state stays.
    Harmless,
    /// Anything may have happened: the object may now be in any state.
    Unknown,
}

/// Index of a protocol in [`Protocols`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct ProtocolId(pub u16);

/// Direct supertypes of classes, by fully qualified name.
pub type Supertypes = HashMap<String, Vec<String>>;

/// The declared types of the members of the project's classes, by class and member.
/// A member whose declarations disagree has no type.
pub type MemberTypes = HashMap<String, HashMap<String, Option<String>>>;

/// What the project's classes declare of their members, for the objects of those classes.
#[derive(Debug, Clone, Default)]
pub struct Members {
    /// The return types of their methods ([`crate::resolve::ClassInfo::returns`]).
    pub returns: MemberTypes,
    /// The types of the fields their subclasses inherit ([`crate::resolve::ClassInfo::fields`]).
    pub fields: MemberTypes,
}

/// Records the types a declaration of the class `fqn` gives its members: where two
/// declarations of the class disagree, the member's type is left unknown.
pub fn add_types(into: &mut MemberTypes, fqn: &str, types: &[(String, String)]) {
    let known = into.entry(fqn.to_owned()).or_default();
    for (member, ty) in types {
        known
            .entry(member.clone())
            .and_modify(|old| {
                if old.as_ref() != Some(ty) {
                    *old = None;
                }
            })
            .or_insert_with(|| Some(ty.clone()));
    }
}

/// Records that the class `fqn` extends `supertypes`, besides what it was known to extend: a
/// class declared more than once (twice in a file being edited, or in two build flavours)
/// extends what any of its declarations extends, whichever is read first.
pub fn add_supertypes(into: &mut Supertypes, fqn: &str, supertypes: &[String]) {
    extend_supertypes(into.entry(fqn.to_owned()).or_default(), supertypes);
}

/// Adds to a class's `known` supertypes those of `supertypes` it does not hold yet, in order.
pub(crate) fn extend_supertypes(known: &mut Vec<String>, supertypes: &[String]) {
    for ty in supertypes {
        if !known.contains(ty) {
            known.push(ty.clone());
        }
    }
}

/// How a call that may create a protocol object is shaped.
#[derive(Debug, Clone, Copy)]
pub enum CreatorCall<'a> {
    /// `new C(…)` or Kotlin `C(…)`.
    New {
        /// The instantiated class.
        class: &'a str,
        /// The number of arguments.
        arity: usize,
    },
    /// `C.name(…)`.
    Static {
        /// The class named before the dot.
        class: &'a str,
        /// The called method.
        name: &'a str,
        /// The number of arguments.
        arity: usize,
    },
    /// `receiver.name(…)` or an unqualified `name(…)`.
    Instance {
        /// The receiver's class, when known.
        receiver: Option<&'a str>,
        /// The called method.
        name: &'a str,
        /// The number of arguments.
        arity: usize,
    },
}

/// The library, with what the checker knows of class hierarchies.
pub struct Protocols<'l> {
    typestates: Vec<&'l Typestate>,
    by_class: HashMap<&'l str, ProtocolId>,
    /// The project's classes, shared by every file of a project check; they win over
    /// [`Protocols::supertypes`] for a class both name.
    project: Option<&'l Supertypes>,
    /// What the project's classes declare of their members, for calls on their objects and
    /// the fields their subclasses inherit.
    members: Option<&'l Members>,
    supertypes: Supertypes,
    /// The names of the library's static and instance creators: any other call creates
    /// nothing, which [`Protocols::creation`] answers without looking further.
    factory_names: HashSet<&'l str>,
    /// The other classes whose methods the library binds (`okhttp3.Interceptor.Chain`, which
    /// declares `proceed()`): they exist, so a name may resolve to them.
    binding_classes: HashSet<&'l str>,
    /// Per protocol, whether the experiment left part of it unexplored
    /// ([`Typestate::is_partial`]).
    partial: Vec<bool>,
    /// The index of the first protocol derived from the project's own wrappers
    /// ([`Protocols::with_derived`]); the library's come before it.
    first_derived: usize,
}

impl<'l> Protocols<'l> {
    /// The protocols of `library`, with `supertypes` of classes declared in the project.
    pub fn new(library: &'l Library, supertypes: Supertypes) -> Protocols<'l> {
        let typestates: Vec<&Typestate> = library.iter().map(|e| &e.typestate).collect();
        let by_class = typestates
            .iter()
            .enumerate()
            .map(|(i, ts)| {
                let id = ProtocolId(u16::try_from(i).unwrap_or(u16::MAX));
                (ts.class.as_str(), id)
            })
            .collect();
        let factory_names = typestates
            .iter()
            .flat_map(|ts| ts.creators().map(move |c| ts.callin(c)))
            .flat_map(|callin| &callin.binding.methods)
            .filter(|m| m.kind != MethodKind::Constructor)
            .map(|m| m.name.as_str())
            .collect();
        let binding_classes = typestates
            .iter()
            .flat_map(|ts| ts.callins.iter())
            .flat_map(|callin| &callin.binding.methods)
            .filter_map(|m| m.class.as_deref())
            .collect();
        let partial = typestates.iter().map(|ts| ts.is_partial()).collect();
        Protocols {
            binding_classes,
            typestates,
            partial,
            by_class,
            project: None,
            members: None,
            supertypes,
            factory_names,
            first_derived: usize::MAX,
        }
    }

    /// These protocols, with the protocols derived from the project's wrappers
    /// ([`crate::wrappers`]): their clients' objects are then tracked and checked.
    /// A class the library binds keeps the library's protocol.
    pub fn with_derived(mut self, derived: &'l [Typestate]) -> Protocols<'l> {
        self.first_derived = self.typestates.len();
        for ts in derived {
            if self.by_class.contains_key(ts.class.as_str()) {
                continue;
            }
            let id = ProtocolId(u16::try_from(self.typestates.len()).unwrap_or(u16::MAX));
            self.typestates.push(ts);
            self.partial.push(false);
            self.by_class.insert(ts.class.as_str(), id);
        }
        self
    }

    /// Whether `id` is a wrapper's protocol the checker derived ([`Protocols::with_derived`]).
    pub fn is_derived(&self, id: ProtocolId) -> bool {
        usize::from(id.0) >= self.first_derived
    }

    /// The protocols of `library`, with the `supertypes` of classes declared in the project,
    /// borrowed rather than copied (a project check shares one map over all files).
    pub fn with_project(library: &'l Library, supertypes: &'l Supertypes) -> Protocols<'l> {
        let mut protocols = Protocols::new(library, Supertypes::default());
        protocols.project = Some(supertypes);
        protocols
    }

    /// These protocols, knowing what the project's methods return and its fields hold.
    pub fn with_members(mut self, members: &'l Members) -> Protocols<'l> {
        self.members = Some(members);
        self
    }

    /// Adds the classes a resolved file declares to the known hierarchy.
    pub fn add_classes(&mut self, res: &Resolution) {
        for info in res.classes() {
            if self.project.is_some_and(|p| p.contains_key(&info.fqn)) {
                continue;
            }
            self.supertypes
                .entry(info.fqn.clone())
                .or_insert_with(|| info.supertypes.clone());
        }
    }

    /// The typestate of `id`.
    pub fn typestate(&self, id: ProtocolId) -> &'l Typestate {
        self.typestates[usize::from(id.0)]
    }

    /// Whether the experiment left part of `id` unexplored, so that an object of unknown
    /// state may be in a state the protocol does not name.
    pub fn is_partial(&self, id: ProtocolId) -> bool {
        self.partial[usize::from(id.0)]
    }

    /// Every protocol id.
    pub fn ids(&self) -> impl Iterator<Item = ProtocolId> {
        (0..self.typestates.len()).map(|i| ProtocolId(u16::try_from(i).unwrap_or(u16::MAX)))
    }

    fn direct_supertypes<'s>(&'s self, fqn: &'s str) -> impl Iterator<Item = &'s str> + 's {
        self.project
            .and_then(|p| p.get(fqn))
            .or_else(|| self.supertypes.get(fqn))
            .into_iter()
            .flatten()
            .map(String::as_str)
            .chain(platform::supertypes(fqn).map(|sup: &'static str| -> &'s str { sup }))
    }

    /// Whether a class of the project or of this file names `class` as a direct supertype.
    pub fn has_subclass(&self, class: &str) -> bool {
        let names = |sups: &Vec<String>| sups.iter().any(|sup| sup == class);
        self.project.is_some_and(|p| p.values().any(names)) || self.supertypes.values().any(names)
    }

    /// Whether `class` is `of` or one of its known subtypes.
    pub fn is_subtype(&self, class: &str, of: &str) -> bool {
        self.ancestors(class).any(|ancestor| ancestor == of)
    }

    /// `class` and its known supertypes, breadth first.
    pub(crate) fn ancestors<'s>(&'s self, class: &'s str) -> impl Iterator<Item = &'s str> + 's {
        let mut seen = HashSet::default();
        let mut todo = std::collections::VecDeque::from([class]);
        std::iter::from_fn(move || {
            while let Some(next) = todo.pop_front() {
                if seen.insert(next) {
                    todo.extend(self.direct_supertypes(next));
                    return Some(next);
                }
            }
            None
        })
    }

    /// The protocol objects of `class` follow: its own, or the nearest supertype's.
    pub fn protocol_of(&self, class: &str) -> Option<ProtocolId> {
        self.ancestors(class)
            .find_map(|ancestor| self.by_class.get(ancestor).copied())
    }

    /// The input callins a call `name(…)` with `arity` arguments on an object of protocol
    /// `id` may be; several when the library splits one method by condition.
    pub fn callins(&self, id: ProtocolId, name: &str, arity: usize) -> Vec<CallinId> {
        let ts = self.typestate(id);
        ts.input_callins()
            .filter(|&callin| {
                ts.callin(callin).binding.methods.iter().any(|m| {
                    m.kind == MethodKind::Instance
                        && m.class.is_none()
                        && m.name == name
                        && m.accepts_arity(arity)
                })
            })
            .collect()
    }

    /// What calling `name` with `arity` arguments does to an object of protocol `id` when no
    /// callin is bound to it ([`Protocols::callins`] is empty).
    pub fn unnamed_call(&self, id: ProtocolId, name: &str, arity: usize) -> UnnamedCall {
        let ts = self.typestate(id);
        let harmless = OBJECT_METHODS.contains(&name)
            || ts.harmless.iter().any(|m| {
                m.kind == MethodKind::Instance && m.name == name && m.accepts_arity(arity)
            })
            || !self.callbacks_registered_by(id, name).is_empty();
        if harmless {
            UnnamedCall::Harmless
        } else {
            UnnamedCall::Unknown
        }
    }

    /// The protocol and start states of the object `call` creates, if it is a creator.
    /// With `expected`, only that protocol's creators are considered (the declared type or
    /// cast the value flows into).
    pub fn creation(
        &self,
        call: CreatorCall<'_>,
        expected: Option<ProtocolId>,
    ) -> Option<(ProtocolId, Vec<StateId>)> {
        if let CreatorCall::New { class, arity } = call {
            let id = self.protocol_of(class)?;
            return Some((id, self.constructor_states(id, class, arity)));
        }
        let name = match call {
            CreatorCall::Static { name, .. } | CreatorCall::Instance { name, .. } => name,
            CreatorCall::New { .. } => return None,
        };
        if !self.factory_names.contains(name) {
            return None;
        }
        let candidates: Vec<ProtocolId> = match expected {
            Some(id) => vec![id],
            None => self.ids().collect(),
        };
        candidates.into_iter().find_map(|id| {
            let states = self.factory_states(id, call, expected.is_some());
            (!states.is_empty()).then_some((id, states))
        })
    }

    fn constructor_states(&self, id: ProtocolId, class: &str, arity: usize) -> Vec<StateId> {
        let ts = self.typestate(id);
        let constructors: Vec<(usize, StateId)> = ts
            .creators()
            .flat_map(|c| {
                let callin = ts.callin(c);
                callin
                    .binding
                    .methods
                    .iter()
                    .filter(|m| m.kind == MethodKind::Constructor)
                    .filter_map(|m| Some((usize::from(m.accepts_arity(arity)), callin.creates?)))
            })
            .collect();
        // A subclass's constructors have their own parameters: any creator applies.
        let exact = class == ts.class && constructors.iter().any(|(fits, _)| *fits == 1);
        let mut states: Vec<StateId> = constructors
            .iter()
            .filter(|(fits, _)| !exact || *fits == 1)
            .map(|(_, state)| *state)
            .collect();
        if states.is_empty() {
            states.push(ts.initial);
        }
        states.sort();
        states.dedup();
        states
    }

    fn factory_states(
        &self,
        id: ProtocolId,
        call: CreatorCall<'_>,
        expected: bool,
    ) -> Vec<StateId> {
        let ts = self.typestate(id);
        let mut states: Vec<StateId> = ts
            .creators()
            .filter(|&c| {
                ts.callin(c).binding.methods.iter().any(|m| match call {
                    CreatorCall::Static { class, name, arity } => {
                        m.kind == MethodKind::Static
                            && m.name == name
                            && m.accepts_arity(arity)
                            && self.is_subtype(class, m.class.as_deref().unwrap_or(&ts.class))
                    }
                    CreatorCall::Instance {
                        receiver,
                        name,
                        arity,
                    } => {
                        let Some(owner) = m.class.as_deref() else {
                            return false;
                        };
                        let receiver_fits = match receiver {
                            Some(receiver) => self.is_subtype(receiver, owner),
                            None => expected,
                        };
                        m.kind == MethodKind::Instance
                            && m.name == name
                            && m.accepts_arity(arity)
                            && receiver_fits
                            && (expected || !platform::is_untyped_factory(owner, name))
                    }
                    CreatorCall::New { .. } => false,
                })
            })
            .filter_map(|c| ts.callin(c).creates)
            .collect();
        states.sort();
        states.dedup();
        states
    }

    /// The callbacks of protocol `id` a client method named `method` receives: overrides,
    /// and methods of listener interfaces.
    pub fn callbacks_for_method(&self, id: ProtocolId, method: &str) -> Vec<CallbackId> {
        let ts = self.typestate(id);
        (0..ts.callbacks.len())
            .map(|i| CallbackId(u32::try_from(i).unwrap_or(u32::MAX)))
            .filter(|&cb| ts.callback(cb).binding.method() == method)
            .collect()
    }

    /// The callbacks of protocol `id` whose listener `register` installs.
    pub fn callbacks_registered_by(&self, id: ProtocolId, register: &str) -> Vec<CallbackId> {
        let ts = self.typestate(id);
        (0..ts.callbacks.len())
            .map(|i| CallbackId(u32::try_from(i).unwrap_or(u32::MAX)))
            .filter(|&cb| {
                matches!(&ts.callback(cb).binding,
                    CallbackBinding::Listener { register: r, .. } if r == register)
            })
            .collect()
    }

    /// The listener interface method a callback of protocol `id` is delivered to.
    pub fn listener_method(&self, id: ProtocolId, callback: CallbackId) -> &'l str {
        self.typestate(id).callback(callback).binding.method()
    }

    /// The final states of protocol `id`: states other than the initial one that no callin
    /// leaves (each is an error or returns to the state), that no wait leaves, and that a
    /// releasing callin ([`RELEASING`]) enters from another state (`End` after `release()`,
    /// `Closed` after `close()`). Iterators, ciphers, calls and other objects that are simply
    /// dropped when done have none.
    pub fn final_states(&self, id: ProtocolId) -> Vec<StateId> {
        let ts = self.typestate(id);
        let stays = |s: StateId| {
            ts.input_callins()
                .all(|c| ts.step(s, c).target().is_none_or(|t| t == s))
                && match &ts.state(s).on_wait {
                    WaitOutcome::Quiet { target, .. } | WaitOutcome::Callback { target, .. } => {
                        *target == s
                    }
                    WaitOutcome::Error { .. } | WaitOutcome::Restricted { .. } => true,
                }
        };
        let releasing = |c: CallinId| {
            ts.callin(c)
                .binding
                .methods
                .iter()
                .any(|m| RELEASING.contains(&m.name.as_str()))
        };
        let entered = |s: StateId| {
            ts.state_ids().any(|from| {
                from != s
                    && ts
                        .input_callins()
                        .any(|c| releasing(c) && ts.step(from, c).target() == Some(s))
            })
        };
        ts.state_ids()
            .filter(|&s| s != ts.initial && stays(s) && entered(s))
            .collect()
    }

    /// The releasing callins that lead to a final state from some state, by method name, for
    /// hints.
    pub fn releasing_methods(&self, id: ProtocolId) -> Vec<&'l str> {
        let ts = self.typestate(id);
        let finals = self.final_states(id);
        let mut names: Vec<&'l str> = ts
            .input_callins()
            .filter(|&c| {
                ts.state_ids().any(|s| {
                    !finals.contains(&s)
                        && ts.step(s, c).target().is_some_and(|t| finals.contains(&t))
                })
            })
            .flat_map(|c| ts.callin(c).binding.methods.iter().map(|m| m.name.as_str()))
            .filter(|name| RELEASING.contains(name))
            .collect();
        names.sort_unstable();
        names.dedup();
        names
    }

    /// The states `callback` leads to, from the states in which it may arrive.
    pub fn callback_targets(&self, id: ProtocolId, callback: CallbackId) -> Vec<StateId> {
        let ts = self.typestate(id);
        let mut targets: Vec<StateId> = ts
            .states
            .iter()
            .filter_map(|s| match &s.on_wait {
                WaitOutcome::Callback {
                    callback: cb,
                    target,
                    ..
                } if *cb == callback => Some(*target),
                _ => None,
            })
            .collect();
        targets.sort();
        targets.dedup();
        targets
    }
}

impl KnownTypes for Protocols<'_> {
    fn returns(&self, class: &str, method: &str) -> Option<String> {
        let returns = &self.members?.returns;
        self.ancestors(class)
            .find_map(|class| returns.get(class)?.get(method))?
            .clone()
    }

    fn field_type(&self, class: &str, name: &str) -> Option<String> {
        let fields = &self.members?.fields;
        self.ancestors(class)
            .find_map(|class| fields.get(class)?.get(name))?
            .clone()
    }

    fn is_known(&self, fqn: &str) -> bool {
        self.by_class.contains_key(fqn)
            || self.binding_classes.contains(fqn)
            || self.supertypes.contains_key(fqn)
            || self.project.is_some_and(|p| p.contains_key(fqn))
            || platform::is_known(fqn)
    }

    fn factory_type(&self, receiver: &ExprType, name: &str, arity: usize) -> Option<String> {
        let call = if receiver.is_class_ref {
            CreatorCall::Static {
                class: &receiver.fqn,
                name,
                arity,
            }
        } else {
            CreatorCall::Instance {
                receiver: Some(&receiver.fqn),
                name,
                arity,
            }
        };
        let (id, _) = self.creation(call, None)?;
        Some(self.typestate(id).class.clone())
    }

    fn registers_listener(&self, receiver: &ExprType, name: &str) -> bool {
        self.protocol_of(&receiver.fqn)
            .is_some_and(|id| !self.callbacks_registered_by(id, name).is_empty())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn final_states_of_the_library() {
        let library = Library::bundled();
        let protocols = Protocols::new(&library, Supertypes::default());
        let mut found = Vec::new();
        for id in protocols.ids() {
            let ts = protocols.typestate(id);
            let finals: Vec<&str> = protocols
                .final_states(id)
                .into_iter()
                .map(|s| ts.state(s).name.as_str())
                .collect();
            found.push(format!(
                "{}: {finals:?} by {:?}",
                ts.simple_name(),
                protocols.releasing_methods(id)
            ));
        }
        for expected in [
            r#"MediaPlayer: ["End"] by ["release"]"#,
            r#"InputStream: ["Closed"] by ["close"]"#,
            r#"VelocityTracker: ["Recycled"] by ["recycle"]"#,
            "Iterator: [] by []",
            "Call: [] by []",
            "AsyncTask: [] by []",
        ] {
            assert!(
                found.contains(&expected.to_owned()),
                "{expected}: {found:?}"
            );
        }
    }
}
