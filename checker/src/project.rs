//! Checking many files as one project, lowering each file at most once.
//!
//! [`Project::new`] finds the files worth checking with the [`NameFilter`] text test, and lowers them in parallel.
//! It learns the classes they declare and their supertypes.
//! It repeats for files that name a project class found to extend a protocol class, until no new name turns up.
//! [`Project::check`] then analyses one file from its kept IR, with the whole project's supertypes shared by reference.
//!
//! The IR of the analysed files is kept up to [`KEPT_TEXT_BYTES`] of their source text, spent as files are lowered.
//! The IR and what is kept with it take about 17 times the text.
//! With 5 MiB, checking the benchmark corpus peaks near 145 MiB (`bench/checker/memory.sh`).
//! With 7 MiB it passed 200 MB.
//! The IR of files past it is dropped at once, and they are lowered again when checked.
//! That bounds the memory of very large projects, at the cost of a second lowering of those files.
//!
//! Parsing a file stops at [`CheckConfig::time_limit`] (tree-sitter's progress callback), as the analysis does.
//! A file whose parse runs out of time is reported as timed out, with no findings.
//! It does not hold a thread and its memory for minutes.
//!
//! A skipped file cannot produce a finding (see [`crate::prefilter`]).
//! The project keeps a 128-byte filter of each skipped file's capitalised names ([`Capitals`]).
//! It reads such a file again for a new class name only when the file may name it.
//! It is never parsed, so its syntax errors are not reported either.
//! Its classes are not in [`Project::supertypes`]: they extend no protocol class, and the checker asks the hierarchy only about protocol classes.
//! The results are those of [`crate::check`] with [`crate::project_config`] for every file that is checked.
//!
//! The project holds no file's text: it asks its [`Sources`] for one each time a pass needs it, and drops it after.
//! The passes that read texts are the prefilter, lowering, typing calls again, and the check.
//! Between passes it keeps a file's IR within the budget; the classes it declares go into the project's supertypes and member types as it is lowered.
//! It keeps its call sites, packed with names shared by all files ([`FileSites`]).
//! It keeps its wrappers only while a pass may still ask for them.
//! Each lowered file is taken in as it is done: a round's files are never all held at once.
//! A file whose text cannot be read again as it was first is reported by [`Project::unread`], without findings.

use rustc_hash::{FxHashMap as HashMap, FxHashSet as HashSet};
use std::panic::AssertUnwindSafe;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use typestates::library::Library;

use crate::check::{check_lowered, declared_classes};
use crate::clients::{
    package_root, wrappers, wrappers_with_spans, Clients, Fields, FileSites, Names, Order,
    PackedWrapper, SiteTable, Sites, Wrapper,
};
use crate::events::Component;
use crate::ir::Language;
use crate::ir::{SourceIr, Span};
use crate::prefilter::{simple_name, Capitals, NameFilter};
use crate::protocols::{add_supertypes, add_types, Members, Protocols, Supertypes};
use crate::resolve::ClassInfo;
use crate::source::Sources;
use crate::{CheckConfig, CheckResult};

/// How much source text the kept IR may stand for (see the module documentation).
pub const KEPT_TEXT_BYTES: usize = 5 << 20;

/// What the project keeps of a lowered file between passes.
/// The classes it declares are not kept: their supertypes and member types go into the
/// project's ([`Discovery::interim`], [`Discovery::members`]) as the file is lowered.
struct Lowered {
    /// The IR, unless keeping it would pass the memory budget ([`KEPT_TEXT_BYTES`]).
    ir: Option<SourceIr>,
    /// The calls it makes on typed receivers ([`crate::clients`]), their names in
    /// [`Discovery::names`].
    sites: FileSites,
    /// Its classes, with their methods (names in [`Discovery::names`]): kept only while a
    /// pass may ask for them.
    wrappers: Box<[PackedWrapper]>,
}

/// What the project holds of one file.
enum Slot {
    /// Skipped by the prefilter: no findings.
    Skipped,
    /// Analysed, with its IR.
    Kept(Box<SourceIr>),
    /// Analysed, and checked already (a wrapper's file whose methods all run in any order).
    Checked(Box<CheckResult>),
    /// Analysed, lowered again when checked (past the memory budget).
    Relower,
    /// Parsing ran out of time: reported as timed out, without findings.
    OutOfTime,
    /// Lowering panicked.
    Failed,
    /// The text could not be read again as it was first.
    Unread,
}

/// A set of files checked together.
pub struct Project<'a> {
    library: &'a Library,
    files: &'a dyn Sources,
    slots: Vec<Slot>,
    config: CheckConfig,
    /// The files whose text could not be read again when checked.
    unread: Vec<AtomicBool>,
}

impl<'a> Project<'a> {
    /// Prepares `files` for checking against `library` with `config` (whose supertypes are
    /// extended by the project's own classes), using up to `jobs` threads.
    pub fn new(
        library: &'a Library,
        files: &'a dyn Sources,
        mut config: CheckConfig,
        jobs: usize,
    ) -> Project<'a> {
        let library_only = Protocols::new(library, Supertypes::default());
        let budget = AtomicUsize::new(KEPT_TEXT_BYTES);
        let mut found = Discovery {
            library,
            files,
            lowering: Lowering {
                files,
                library_only: &library_only,
                limit: config.time_limit,
                budget: &budget,
                wrappers: true,
            },
            jobs,
            filter: NameFilter::new(library),
            lowered: (0..files.len()).map(|_| None).collect(),
            failed: vec![false; files.len()],
            out_of_time: vec![false; files.len()],
            unread: vec![false; files.len()],
            interim: config.supertypes.clone(),
            members: Members::default(),
            pending: Vec::new(),
            needed: HashSet::default(),
            names: Names::default(),
            capitals: vec![Capitals::default(); files.len()],
        };
        let mut todo = Vec::new();
        for i in 0..files.len() {
            match files.text(i) {
                Some(text) if found.filter.matches(&text) => todo.push(i),
                Some(text) => found.capitals[i] = Capitals::of(&text),
                None => found.unread[i] = true,
            }
        }
        found.lower(todo);
        // Only these can have findings; the files lowered later are read for their calls.
        let mut analysed: Vec<bool> = found.lowered.iter().map(Option::is_some).collect();
        // The wrappers whose methods have findings when run in any order are the ones whose
        // clients may change that ([`crate::clients`]): follow their callers, and check
        // again the files that declare one whose methods turn out driven.
        let mut first = vec![None; files.len()];
        let mut any_order = config.clone();
        any_order.supertypes = found.interim.clone();
        any_order.clients = Some(Arc::new(Clients::default()));
        let mut suspects = Vec::new();
        for (i, slot) in found.lowered.iter().enumerate() {
            let Some(Lowered { ir, wrappers, .. }) = slot.as_deref() else {
                continue;
            };
            if !wrappers.iter().any(|w| w.fields == Fields::Tracked) {
                continue;
            }
            let Some(text) = files.text(i) else {
                found.unread[i] = true;
                continue;
            };
            let relowered;
            let ir = match ir {
                Some(ir) => ir,
                None => match lower_within(files.language(i), &text, config.time_limit) {
                    Some(ir) => {
                        relowered = ir;
                        &relowered
                    }
                    None => continue,
                },
            };
            let result = check_lowered(library, &text, ir, &any_order);
            // Only the wrappers with findings, leak reports included: the others have nothing
            // a client could change. All their methods: one without findings may be the last
            // its clients call.
            let reported = |span: &Span| {
                let found = result.violations.iter().map(|v| v.span);
                found
                    .chain(result.unreleased.iter().map(|u| u.span))
                    .any(|at| span.contains(at))
            };
            // Where the methods are declared is asked again of the IR: it is not kept.
            if !result.violations.is_empty() || !result.unreleased.is_empty() {
                let res = crate::resolve::resolve(ir, &library_only);
                suspects.extend(
                    wrappers_with_spans(ir, &res, &library_only)
                        .into_iter()
                        .filter(|(w, _)| w.fields == Fields::Tracked)
                        .filter(|(_, spans)| spans.iter().any(reported))
                        .map(|(w, _)| w),
                );
            }
            first[i] = Some(Box::new(result));
        }
        // A method of a class with no protocol fields may have findings its callers catch:
        // follow the callers of those some call in a `try` ([`Clients::caught_by_callers`]).
        // Their callers pass their catches down to the methods only the project can call
        // (`called_in_a_try`); the files naming those methods' classes are read, with no chain up.
        found.retype_static_imports();
        let called = found.called_in_a_try();
        // From here on only the final pass asks for wrappers, and only of the files with a
        // first result: the others are dropped, and the files read from here on keep none.
        found.lowering.wrappers = false;
        for (file, first) in found.lowered.iter_mut().zip(&first) {
            if let Some(file) = file.as_mut().filter(|_| first.is_none()) {
                file.wrappers = Box::default();
            }
        }
        let mut catching = suspects.clone();
        let methods = suspects
            .iter()
            .flat_map(|w| w.methods.iter().map(|m| (w.class.clone(), m.clone())))
            .collect();
        need(&mut found.needed, &found.interim, methods);
        // The files read from here on are read for their calls: their IR is not kept.
        budget.store(0, Ordering::Relaxed);
        let todo = found.naming_any(&called);
        found.lower(todo);
        catching.extend(called);
        let todo = found.follow_callers();
        found.lower(todo);
        // Lowering typed each file's calls against the library alone; typed again with what
        // the project declares (a local holding what a project method returns, a field
        // inherited from a class of another file), they may name more callers, whose files
        // are read in turn.
        let mut retyped = vec![false; files.len()];
        let mut typing = NameFilter::default();
        let members = loop {
            let supertypes = found.interim.clone();
            let members = found.members.clone();
            let protocols = Protocols::with_project(library, &supertypes).with_members(&members);
            // Only a project method that returns a class whose callers are followed, or a
            // field that holds one, can type a receiver that matters: a file is typed again
            // when it names a new one.
            let followed: HashSet<&str> = found.needed.iter().map(|(c, _)| c.as_str()).collect();
            let mut new_names = NameFilter::default();
            let typing_members = [&members.returns, &members.fields]
                .into_iter()
                .flat_map(|types| types.values().flatten())
                .filter_map(|(member, ty)| {
                    let ty = ty.as_deref()?;
                    protocols
                        .ancestors(ty)
                        .any(|class| followed.contains(class))
                        .then_some(member)
                });
            for member in typing_members {
                if typing.add(member) {
                    new_names.add(member);
                }
            }
            found.retype(&protocols, &typing, &new_names, &mut retyped);
            let todo = found.follow_callers();
            if todo.is_empty() {
                break members;
            }
            found.lower(todo);
        };
        config.supertypes = found.interim.clone();
        let protocols = Protocols::with_project(library, &config.supertypes).with_members(&members);
        let mut sites = SiteTable::new(std::mem::take(&mut found.names));
        for file in found.lowered.iter_mut().flatten() {
            sites.add(&std::mem::take(&mut file.sites));
        }
        let clients = Clients::new(&sites, &suspects, &catching, &protocols);
        // A first result stands only where nothing it was checked with changed: a class read
        // for its calls may extend a checked class (which decides which methods are helpers),
        // or declare again one already known.
        let before = &any_order.supertypes;
        let changed = config
            .supertypes
            .iter()
            .any(|(class, sups)| match before.get(class) {
                Some(known) => known != sups,
                None => sups.iter().any(|sup| before.contains_key(sup)),
            });
        if changed {
            first.iter_mut().for_each(|result| *result = None);
        }
        let names = sites.names();
        for (i, slot) in found.lowered.iter().enumerate() {
            let drives = |w: &PackedWrapper| {
                let class = w.class(names);
                w.methods(names).any(|m| {
                    clients.order(class, m) != Order::Free
                        || !clients.caught_by_callers(class, m).is_empty()
                        || clients.ends_for_callers(class, m)
                        || clients.at_clients(class, m)
                })
            };
            if slot
                .as_ref()
                .is_some_and(|file| file.wrappers.iter().any(drives))
            {
                first[i] = None;
            }
        }
        // The wrappers' protocols, derived before any file is checked, so that their clients
        // in every file are checked against them ([`crate::wrappers`]).
        let derived = derive_wrappers(library, files, &found, names, &config, &clients);
        let clients = clients.with_derived(derived);
        config.clients = Some(Arc::new(clients));
        if config
            .clients
            .as_deref()
            .is_some_and(|c| !c.derived().is_empty())
        {
            for (i, slot) in found.lowered.iter().enumerate() {
                if slot.is_none() {
                    continue;
                }
                let names_one = files
                    .text(i)
                    .is_some_and(|text| crate::check::names_derived(&config, &text));
                if names_one {
                    analysed[i] = true;
                    first[i] = None;
                }
            }
        }
        let Discovery {
            lowered,
            failed,
            out_of_time,
            unread,
            ..
        } = found;
        let slots = lowered
            .into_iter()
            .zip(failed.iter().zip(&out_of_time))
            .zip(first.into_iter().zip(analysed.into_iter().zip(&unread)))
            .map(
                |((lowered, (&failed, &out_of_time)), (first, (analysed, &unread)))| match (
                    lowered, first,
                ) {
                    _ if unread => Slot::Unread,
                    (Some(_), _) if !analysed => Slot::Skipped,
                    (Some(_), Some(result)) => Slot::Checked(result),
                    (Some(file), None) => match file.ir {
                        Some(ir) => Slot::Kept(Box::new(ir)),
                        None => Slot::Relower,
                    },
                    (None, _) if failed => Slot::Failed,
                    (None, _) if out_of_time => Slot::OutOfTime,
                    (None, _) => Slot::Skipped,
                },
            )
            .collect();
        Project {
            library,
            files,
            slots,
            config,
            unread: (0..files.len()).map(|_| AtomicBool::new(false)).collect(),
        }
    }

    /// The number of files.
    pub fn len(&self) -> usize {
        self.files.len()
    }

    /// Whether the project has no files.
    pub fn is_empty(&self) -> bool {
        self.files.is_empty()
    }

    /// Whether file `index` is analysed (its text names something a protocol object can come
    /// from, and it was parsed in time); the others have no findings.
    pub fn is_analysed(&self, index: usize) -> bool {
        matches!(
            self.slots.get(index),
            Some(Slot::Kept(_) | Slot::Relower | Slot::Checked(_))
        )
    }

    /// Whether the text of file `index` could not be read again as it was first (removed or
    /// changed during the check); such a file has no findings.
    pub fn unread(&self, index: usize) -> bool {
        matches!(self.slots.get(index), Some(Slot::Unread))
            || self
                .unread
                .get(index)
                .is_some_and(|unread| unread.load(Ordering::Relaxed))
    }

    /// Whether lowering file `index` failed with an internal error.
    pub fn failed(&self, index: usize) -> bool {
        matches!(self.slots.get(index), Some(Slot::Failed))
    }

    /// The supertypes of the project's analysed classes (and of the configuration's).
    pub fn supertypes(&self) -> &Supertypes {
        &self.config.supertypes
    }

    /// The configuration each file is checked with: the one given, with the project's
    /// supertypes and clients.
    pub fn config(&self) -> &CheckConfig {
        &self.config
    }

    /// Checks file `index` (an empty result for a skipped file or an index out of range).
    pub fn check(&self, index: usize) -> CheckResult {
        let text = || {
            let text = self.files.text(index);
            if text.is_none() {
                self.unread[index].store(true, Ordering::Relaxed);
            }
            text
        };
        match self.slots.get(index) {
            Some(Slot::Kept(ir)) => match text() {
                Some(text) => check_lowered(self.library, &text, ir, &self.config),
                None => CheckResult::default(),
            },
            Some(Slot::Relower) => match text() {
                Some(text) => {
                    let language = self.files.language(index);
                    match lower_within(language, &text, self.config.time_limit) {
                        Some(ir) => check_lowered(self.library, &text, &ir, &self.config),
                        None => timed_out(),
                    }
                }
                None => CheckResult::default(),
            },
            Some(Slot::Checked(result)) => CheckResult::clone(result),
            Some(Slot::OutOfTime) => timed_out(),
            _ => CheckResult::default(),
        }
    }
}

/// The files lowered so far and what they taught: the state of [`Project::new`]'s search.
struct Discovery<'a, 'p, 'l> {
    library: &'a Library,
    files: &'a dyn Sources,
    lowering: Lowering<'a, 'p, 'l>,
    jobs: usize,
    filter: NameFilter,
    /// What is kept of each file lowered, boxed: most files of a large project are not.
    lowered: Vec<Option<Box<Lowered>>>,
    failed: Vec<bool>,
    out_of_time: Vec<bool>,
    /// The files whose text could not be read again as it was first.
    unread: Vec<bool>,
    /// The supertypes of the project's classes learnt so far (and the configuration's): a
    /// class declared more than once extends what any of its declarations does.
    interim: Supertypes,
    /// What the project's classes learnt so far declare of their members ([`add_types`]).
    members: Members,
    /// The classes not yet known to extend a protocol class.
    pending: Vec<String>,
    /// The methods, as (class, method), whose callers must be seen: wrappers' methods with
    /// findings, and the methods that call them on objects they do not own.
    needed: HashSet<(String, String)>,
    /// The names of the lowered files' call sites, each kept once.
    names: Names,
    /// The capitalised identifiers of each file the prefilter skipped (see [`Capitals`]):
    /// the files looked at again for a class name are read only when they may name it.
    capitals: Vec<Capitals>,
}

impl Discovery<'_, '_, '_> {
    /// Lowers the files `todo` names, then, round by round, the files that name a class
    /// found to extend a protocol class or a caller [`Discovery::needed`] names, until no new
    /// name turns up.
    fn lower(&mut self, mut todo: Vec<usize>) {
        while !todo.is_empty() {
            // Each file is taken in as it is lowered: a round's files are never all held at once.
            self.lowering
                .all(&todo, self.jobs, |i, result| match result {
                    Outcome::Lowered(file) => {
                        let Read {
                            ir,
                            sites,
                            wrappers,
                            classes,
                        } = *file;
                        for info in classes {
                            add_supertypes(&mut self.interim, &info.fqn, &info.supertypes);
                            add_types(&mut self.members.returns, &info.fqn, &info.returns);
                            add_types(&mut self.members.fields, &info.fqn, &info.fields);
                            self.pending.push(info.fqn);
                        }
                        let wrappers = wrappers.iter().map(|w| w.pack(&mut self.names)).collect();
                        self.lowered[i] = Some(Box::new(Lowered {
                            ir,
                            sites: sites.pack(&mut self.names),
                            wrappers,
                        }));
                    }
                    Outcome::OutOfTime => self.out_of_time[i] = true,
                    Outcome::Panicked => self.failed[i] = true,
                    Outcome::Unread => self.unread[i] = true,
                });
            let mut new_names = NameFilter::default();
            let protocols = Protocols::with_project(self.library, &self.interim);
            let filter = &mut self.filter;
            self.pending.retain(|fqn| {
                if protocols.protocol_of(fqn).is_none() {
                    return true;
                }
                let name = simple_name(fqn);
                if filter.add(name) {
                    new_names.add(name);
                }
                false
            });
            todo = self.unlowered_naming(&new_names);
            todo.extend(self.follow_callers());
            todo.sort_unstable();
            todo.dedup();
        }
    }

    /// The methods of the classes with no protocol fields lowered so far that some call in a
    /// `try` may reach.
    /// Whether every call of one catches what it throws depends on callers that may be in
    /// files not lowered yet.
    /// A method no lowered file calls in a `try` is not followed.
    /// Following every one doubled the project check's time; these cost about a tenth.
    /// A method only the project can call passes its callers' catches on to its own calls,
    /// so the methods those calls reach are followed too, down the calls.
    fn called_in_a_try(&self) -> Vec<Wrapper> {
        let files = || self.lowered.iter().flatten();
        let mut called: HashSet<(&str, &str)> = files()
            .flat_map(|file| file.sites.calls_in_a_try(&self.names))
            .collect();
        let protocols = Protocols::with_project(self.library, &self.interim);
        // A Kotlin companion's members are called through its class's name.
        let companions: HashMap<&str, &str> = files()
            .flat_map(|file| file.sites.companions(&self.names))
            .collect();
        let reached = |called: &HashSet<(&str, &str)>, (class, method): (&str, &str)| {
            let mut types = protocols.ancestors(class);
            let companion_of = companions.get(class).copied();
            types.any(|ty| called.contains(&(ty, method)))
                || companion_of.is_some_and(|of| called.contains(&(of, method)))
        };
        let mut below: Vec<_> = files()
            .flat_map(|file| file.sites.calls_from_hidden(&self.names))
            .collect();
        loop {
            let (down, rest): (Vec<_>, Vec<_>) = below
                .into_iter()
                .partition(|(_, caller)| reached(&called, *caller));
            if down.is_empty() {
                break;
            }
            called.extend(down.into_iter().map(|(callee, _)| callee));
            below = rest;
        }
        let mut out = Vec::new();
        let untracked = files().flat_map(|f| &f.wrappers);
        for wrapper in untracked.filter(|w| w.fields == Fields::Untracked) {
            let class = wrapper.class(&self.names);
            let methods: Vec<_> = wrapper
                .methods(&self.names)
                .filter(|m| reached(&called, (class, m)))
                .map(str::to_owned)
                .collect();
            if !methods.is_empty() {
                out.push(Wrapper {
                    class: class.to_owned(),
                    methods,
                    fields: wrapper.fields,
                });
            }
        }
        out
    }

    /// The files not lowered yet that name one of `classes` or a project supertype of one.
    fn naming_any(&mut self, classes: &[Wrapper]) -> Vec<usize> {
        let protocols = Protocols::with_project(self.library, &self.interim);
        let mut names = NameFilter::default();
        for class in classes {
            let project = |ty: &&str| *ty == class.class || self.interim.contains_key(*ty);
            for ty in protocols.ancestors(&class.class).filter(project) {
                if self.filter.add(simple_name(ty)) {
                    names.add(simple_name(ty));
                }
            }
        }
        self.unlowered_naming(&names)
    }

    /// Adds the methods of plain classes that call a [`Discovery::needed`] method on an object
    /// they do not own to it, up the chain of callers; returns the files not lowered yet that
    /// name a class of a new one.
    fn follow_callers(&mut self) -> Vec<usize> {
        // A component's methods are events: who calls them does not matter.
        let protocols = Protocols::with_project(self.library, &self.interim);
        loop {
            // Looked up by borrowed names: no key is built for each call site.
            let needed: HashSet<(&str, &str)> = self
                .needed
                .iter()
                .map(|(class, method)| (class.as_str(), method.as_str()))
                .collect();
            let callers: Vec<(String, String)> = self
                .lowered
                .iter()
                .flatten()
                .flat_map(|file| file.sites.held_calls(&self.names))
                .filter(|(callee, caller)| needed.contains(callee) && !needed.contains(caller))
                .map(|(_, caller)| own(caller))
                .filter(|(class, _)| Component::of(&protocols, class) == Component::Plain)
                .collect();
            if callers.is_empty() {
                break;
            }
            need(&mut self.needed, &self.interim, callers);
        }
        let mut new_names = NameFilter::default();
        // A Kotlin companion's members are called through its class's name: the first file
        // that declares one names it, looked up once for all needed classes.
        let mut companions: HashMap<&str, &str> = HashMap::default();
        for file in self.lowered.iter().flatten() {
            for (companion, of) in file.sites.companions(&self.names) {
                companions.entry(companion).or_insert(of);
            }
        }
        for (class, _) in &self.needed {
            let companion_of = companions.get(class.as_str()).copied();
            for name in [Some(simple_name(class)), companion_of.map(simple_name)]
                .into_iter()
                .flatten()
            {
                if self.filter.add(name) {
                    new_names.add(name);
                }
            }
        }
        self.unlowered_naming(&new_names)
    }

    /// The files not lowered yet whose text matches `names`.
    fn unlowered_naming(&self, names: &NameFilter) -> Vec<usize> {
        if names.is_empty() {
            return Vec::new();
        }
        (0..self.files.len())
            .filter(|&i| self.lowered[i].is_none() && !self.failed[i] && !self.out_of_time[i])
            .filter(|&i| !self.unread[i] && names.may_match(&self.capitals[i]))
            .filter(|&i| self.files.text(i).is_some_and(|text| names.matches(&text)))
            .collect()
    }

    /// Types again, with what the project declares (`protocols`), the calls of the files
    /// lowered that name one of the methods `typing` (`new_names` for the files `retyped`
    /// already): lowering typed them against the library alone, before the files declaring
    /// the receivers' classes were read.
    fn retype(
        &mut self,
        protocols: &Protocols<'_>,
        typing: &NameFilter,
        new_names: &NameFilter,
        retyped: &mut [bool],
    ) {
        for (i, slot) in self.lowered.iter_mut().enumerate() {
            let names = if retyped[i] { new_names } else { typing };
            let Some(file) = slot.as_mut().filter(|_| !names.is_empty()) else {
                continue;
            };
            let Some(text) = self.files.text(i) else {
                self.unread[i] = true;
                continue;
            };
            if !names.matches(&text) {
                continue;
            }
            retyped[i] = true;
            self.lowering
                .retype(i, file, &text, protocols, &mut self.names);
        }
    }

    /// Types again, with what the project's lowered files declare, the calls of the lowered
    /// files that import a class's members by a wildcard (`import static a.B.*`).
    /// Lowering typed them against the library alone, so it could not tell which unqualified
    /// calls go to `a.B`.
    fn retype_static_imports(&mut self) {
        let protocols =
            Protocols::with_project(self.library, &self.interim).with_members(&self.members);
        for (i, slot) in self.lowered.iter_mut().enumerate() {
            let Some(file) = slot.as_mut() else {
                continue;
            };
            if self.files.language(i) != Language::Java {
                continue;
            }
            let Some(text) = self.files.text(i) else {
                self.unread[i] = true;
                continue;
            };
            if !text.contains("import static") || !text.contains(".*;") {
                continue;
            }
            self.lowering
                .retype(i, file, &text, &protocols, &mut self.names);
        }
    }
}

/// Adds `methods` to `needed`, each also on the class's supertypes of the project (calls
/// through them reach it): those `supertypes` has (declared in a lowered file), and those in
/// the class's own top-level package (the first two parts of its name), which a file not
/// lowered yet may declare (an interface the wrapper implements and its clients call).
fn need(
    needed: &mut HashSet<(String, String)>,
    supertypes: &Supertypes,
    methods: Vec<(String, String)>,
) {
    let mut todo = methods;
    while let Some((class, method)) = todo.pop() {
        if let Some(sups) = supertypes.get(&class) {
            let root = package_root(&class);
            todo.extend(
                sups.iter()
                    .filter(|s| supertypes.contains_key(*s) || package_root(s) == root)
                    .map(|s| (s.clone(), method.clone()))
                    .filter(|key| !needed.contains(key)),
            );
        }
        needed.insert((class, method));
    }
}

/// An owned (class, method) key.
fn own((class, method): (&str, &str)) -> (String, String) {
    (class.to_owned(), method.to_owned())
}

/// The result of a file that ran out of time: no findings, marked as cut short.
fn timed_out() -> CheckResult {
    CheckResult {
        timed_out: true,
        ..CheckResult::default()
    }
}

/// Parses `text`, giving up when parsing takes longer than `limit`, and lowers it; `None`
/// when parsing ran out of time.
/// The protocols of the project's wrappers whose clients are checked against them
/// ([`Clients::at_clients`]), derived from the files that declare them.
fn derive_wrappers(
    library: &Library,
    files: &dyn Sources,
    found: &Discovery<'_, '_, '_>,
    names: &Names,
    config: &CheckConfig,
    clients: &Clients,
) -> Vec<typestates::Typestate> {
    let mut with_clients = config.clone();
    with_clients.clients = Some(Arc::new(clients.clone()));
    let mut derived = Vec::new();
    for (i, slot) in found.lowered.iter().enumerate() {
        let Some(file) = slot.as_deref() else {
            continue;
        };
        let declares = file.wrappers.iter().any(|w| {
            let class = w.class(names);
            w.methods(names).any(|m| clients.at_clients(class, m))
        });
        if !declares {
            continue;
        }
        let relowered;
        let ir = match &file.ir {
            Some(ir) => ir,
            None => {
                let Some(text) = files.text(i) else { continue };
                match lower_within(files.language(i), &text, config.time_limit) {
                    Some(ir) => {
                        relowered = ir;
                        &relowered
                    }
                    None => continue,
                }
            }
        };
        derived.extend(crate::check::derive_file(library, ir, &with_clients));
    }
    derived
}

pub(crate) fn lower_within(language: Language, text: &str, limit: Duration) -> Option<SourceIr> {
    crate::lang::lower_within(language, text, Instant::now().checked_add(limit)).ok()
}

/// What lowering one file gave.
enum Outcome {
    /// What is kept of the file, and the classes it declares.
    Lowered(Box<Read>),
    /// Parsing ran out of time.
    OutOfTime,
    /// Lowering panicked.
    Panicked,
    /// The text could not be read again as it was first.
    Unread,
}

/// A file lowered: its IR while the budget lasts, its calls, wrappers and classes.
struct Read {
    ir: Option<SourceIr>,
    sites: Sites,
    wrappers: Vec<Wrapper>,
    classes: Vec<ClassInfo>,
}

/// What lowering a round of files needs.
struct Lowering<'f, 'p, 'l> {
    files: &'f dyn Sources,
    library_only: &'p Protocols<'l>,
    /// How long parsing one file may take.
    limit: Duration,
    /// The source bytes whose IR may still be kept.
    budget: &'f AtomicUsize,
    /// Whether to find the files' wrappers.
    wrappers: bool,
}

impl Lowering<'_, '_, '_> {
    /// Types the calls of the lowered file `i` (its `text` read as `file`) again with
    /// `protocols`.
    /// A file whose parsing runs out of time this once keeps the calls typed at lowering.
    fn retype(
        &self,
        i: usize,
        file: &mut Lowered,
        text: &str,
        protocols: &Protocols<'_>,
        names: &mut Names,
    ) {
        let relowered;
        let ir = match &file.ir {
            Some(ir) => ir,
            None => match lower_within(self.files.language(i), text, self.limit) {
                Some(ir) => {
                    relowered = ir;
                    &relowered
                }
                None => return,
            },
        };
        let res = crate::resolve::resolve(ir, protocols);
        file.sites = Sites::of_file(ir, &res).pack(names);
    }

    /// Lowers the files `todo` names and resolves their class declarations, on up to `jobs`
    /// threads, parsing each within the limit and keeping its IR while the budget lasts.
    /// Gives each file to `take` as it is done, on the calling thread (in `todo`'s order on one).
    fn all(&self, todo: &[usize], jobs: usize, mut take: impl FnMut(usize, Outcome)) {
        let jobs = jobs.clamp(1, todo.len().max(1));
        if jobs == 1 {
            todo.iter().for_each(|&i| take(i, self.one(i)));
            return;
        }
        let next = AtomicUsize::new(0);
        let (send, receive) = std::sync::mpsc::sync_channel(jobs);
        std::thread::scope(|scope| {
            for _ in 0..jobs {
                let send = send.clone();
                let next = &next;
                scope.spawn(move || {
                    while let Some(&i) = todo.get(next.fetch_add(1, Ordering::Relaxed)) {
                        if send.send((i, self.one(i))).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(send);
            receive
                .into_iter()
                .for_each(|(i, outcome)| take(i, outcome));
        });
    }

    fn one(&self, i: usize) -> Outcome {
        let Some(text) = self.files.text(i) else {
            return Outcome::Unread;
        };
        let language = self.files.language(i);
        std::panic::catch_unwind(AssertUnwindSafe(|| {
            lower_within(language, &text, self.limit).map(|ir| {
                let classes = declared_classes(&ir, self.library_only);
                let res = crate::resolve::resolve(&ir, self.library_only);
                let sites = Sites::of_file(&ir, &res);
                let wrappers = if self.wrappers {
                    wrappers(&ir, &res, self.library_only)
                } else {
                    Vec::new()
                };
                let len = text.len();
                let kept = self
                    .budget
                    .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |left| {
                        left.checked_sub(len)
                    })
                    .is_ok();
                Read {
                    ir: kept.then_some(ir),
                    sites,
                    wrappers,
                    classes,
                }
            })
        }))
        .map_or(Outcome::Panicked, |lowered| {
            lowered.map_or(Outcome::OutOfTime, |file| Outcome::Lowered(Box::new(file)))
        })
    }
}
