//! `typestar draft`: a first experiment file for a class, written from the agent's
//! `describe` of its public API (PROTOCOL.md §4.1).
//!
//! Listener setters become callins that register a listener proxy, and the listener's methods
//! become callbacks.
//! Public instance methods become callins (getters are written commented out: they rarely change
//! state).
//! A public constructor or factory becomes the build.
//! Callbacks received by overriding get a harness class ([`super::harness`]).
//! For an abstract class under study (or one with `on…` hooks) the build makes the harness.
//! For each abstract class a callin takes (`TimerTask` for `Timer.schedule`), a build step makes
//! one and the callin passes it.
//! Every argument the draft cannot know is a `"<fill: TYPE>"` placeholder.
//! The loader rejects it with its line, so a draft cannot be run by accident.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;

use serde::Deserialize;

use super::experiment::PLACEHOLDER_PREFIX;
use super::harness::{harness_source, HarnessCallback, HarnessConstructor, HarnessSource};

/// A drafted experiment and the harness sources it names, to be written side by side.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Draft {
    /// The experiment file (TOML).
    pub experiment: String,
    /// Harness classes the experiment's `harness` key names, by file name.
    pub harnesses: Vec<HarnessSource>,
}

/// The `description` reply.
/// A public instance method, as the agent's `describe` lists it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PublicMethod {
    /// The method name.
    pub name: String,
    /// The parameter types, in the agent's wire form (`java.lang.String`, `int[]`).
    pub params: Vec<String>,
    /// The return type, absent for `void`.
    pub returns: Option<String>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Description {
    class: ClassInfo,
    constructors: Vec<Member>,
    factories: Vec<Member>,
    methods: Vec<Member>,
    listener_setters: Vec<ListenerSetter>,
    overridable: Vec<Member>,
    #[serde(default)]
    subclass_constructors: Vec<Member>,
    /// What runs when the class is called, from an agent with a platform (PROTOCOL.md §4.1).
    #[serde(default)]
    pub(crate) implementation: Option<serde_json::Value>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClassInfo {
    name: String,
    kind: String,
    #[serde(rename = "abstract")]
    is_abstract: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct Member {
    #[serde(default)]
    name: String,
    params: Vec<String>,
    #[serde(default)]
    returns: Option<String>,
    #[serde(default)]
    declaring_class: Option<String>,
    #[serde(default)]
    throws: Vec<String>,
    #[serde(default, rename = "abstract")]
    is_abstract: bool,
    #[serde(default, rename = "protected")]
    is_protected: bool,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ListenerSetter {
    name: String,
    params: Vec<String>,
    interface: String,
    callbacks: Vec<Member>,
}

/// A TOML basic string.
fn quote(text: &str) -> String {
    let mut out = String::from("\"");
    for c in text.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let _ = write!(out, "\\u{:04x}", u32::from(c));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

fn string_list(items: &[String]) -> String {
    let quoted: Vec<String> = items.iter().map(|it| quote(it)).collect();
    format!("[{}]", quoted.join(", "))
}

fn placeholders(params: &[String]) -> String {
    arguments(params, &BTreeMap::new())
}

/// The `args` of a call: a reference to the harness built for a parameter's type, else a
/// placeholder.
fn arguments(params: &[String], harness_names: &BTreeMap<String, String>) -> String {
    let args: Vec<String> = params
        .iter()
        .map(|it| match harness_names.get(it) {
            Some(name) => format!("{{ ref = {} }}", quote(name)),
            None => quote(&format!("{PLACEHOLDER_PREFIX} {it}>")),
        })
        .collect();
    format!("[{}]", args.join(", "))
}

/// Whether an overridable method is a callback: abstract, or an `on…` hook.
fn is_callback_method(method: &Member) -> bool {
    let mut chars = method.name.chars();
    method.is_abstract
        || (chars.next() == Some('o')
            && chars.next() == Some('n')
            && chars.next().is_some_and(|it| it.is_ascii_uppercase()))
}

/// Types a callin passes that are not worth describing for a harness: primitives, arrays,
/// and final `java.lang` values.
fn is_plain_value(wire: &str) -> bool {
    !wire.contains('.')
        || wire.ends_with("[]")
        || matches!(
            wire,
            "java.lang.String"
                | "java.lang.Object"
                | "java.lang.Integer"
                | "java.lang.Long"
                | "java.lang.Boolean"
                | "java.lang.Double"
                | "java.lang.Float"
                | "java.lang.Short"
                | "java.lang.Byte"
                | "java.lang.Character"
                | "java.lang.CharSequence"
        )
}

/// Whether a method only reads state: `getX()`, `isX()`, `hasX()` with no parameters.
fn is_getter(method: &Member) -> bool {
    let reads = ["get", "is", "has", "size", "toString", "hashCode"]
        .iter()
        .any(|prefix| method.name.starts_with(prefix));
    reads && method.params.is_empty() && method.returns.as_deref() != Some("void")
}

/// The symbol of a member: its name, with a suffix for the second and later overloads.
fn symbol(name: &str, used: &mut BTreeSet<String>) -> String {
    let mut candidate = name.to_owned();
    let mut n = 2;
    while !used.insert(candidate.clone()) {
        candidate = format!("{name}_{n}");
        n += 1;
    }
    candidate
}

/// The listener name of an interface: its simple name in lower camel case.
fn listener_name(interface: &str) -> String {
    let simple = interface.rsplit(['.', '$']).next().unwrap_or(interface);
    let mut chars = simple.chars();
    chars.next().map_or_else(String::new, |first| {
        first.to_lowercase().chain(chars).collect()
    })
}

/// A harness the draft writes: the class it extends, its source, and the name the build binds
/// an instance to (`subject` for the class under study).
struct PlannedHarness<'d> {
    of: &'d Description,
    source: HarnessSource,
    bound_as: String,
    /// The callback symbols it reports.
    symbols: Vec<String>,
}

/// The name the build binds the object under study to.
const SUBJECT: &str = "subject";

impl PlannedHarness<'_> {
    fn is_subject(&self) -> bool {
        self.bound_as == SUBJECT
    }

    /// The ways to build this harness: one per constructor of the class it extends, the
    /// argument-less one first.
    fn builds(&self) -> Vec<String> {
        let mut candidates: Vec<String> = self
            .of
            .subclass_constructors
            .iter()
            .map(|it| new_step(&self.source.class, &it.params, &self.bound_as))
            .collect();
        candidates.sort_by_key(|it| !it.contains("params = []"));
        candidates
    }
}

impl Description {
    /// The public instance methods described.
    pub(crate) fn public_methods(&self) -> Vec<PublicMethod> {
        self.methods
            .iter()
            .map(|method| PublicMethod {
                name: method.name.clone(),
                params: method.params.clone(),
                returns: method.returns.clone().filter(|r| r != "void"),
            })
            .collect()
    }

    /// The types of the parameters of the draft's callins that may need a harness; the caller
    /// describes them and passes back those that do to [`Description::to_draft`].
    pub(crate) fn parameter_types(&self) -> BTreeSet<String> {
        self.methods
            .iter()
            .filter(|it| !is_getter(it))
            .flat_map(|it| it.params.iter())
            .filter(|it| !is_plain_value(it))
            .cloned()
            .collect()
    }

    /// The overridable methods that are callbacks.
    fn callback_methods(&self) -> Vec<&Member> {
        self.overridable
            .iter()
            .filter(|it| is_callback_method(it))
            .collect()
    }

    /// Whether a callin parameter of this type gets a harness: an abstract class with
    /// callbacks and a constructor a subclass can call.
    pub(crate) fn wants_parameter_harness(&self) -> bool {
        self.class.kind == "class"
            && self.class.is_abstract
            && !self.callback_methods().is_empty()
            && !self.subclass_constructors.is_empty()
    }

    /// Whether the class under study is built as a harness: it is abstract, or has `on…` hooks.
    fn wants_subject_harness(&self) -> bool {
        self.class.kind == "class"
            && !self.callback_methods().is_empty()
            && !self.subclass_constructors.is_empty()
    }

    fn plan_harness<'d>(
        &'d self,
        bound_as: String,
        used: &mut BTreeSet<String>,
    ) -> PlannedHarness<'d> {
        let callbacks: Vec<HarnessCallback> = self
            .callback_methods()
            .into_iter()
            .map(|it| HarnessCallback {
                symbol: symbol(&it.name, used),
                method: it.name.clone(),
                params: it.params.clone(),
                returns: it.returns.clone().unwrap_or_else(|| "void".to_owned()),
                throws: it.throws.clone(),
                is_abstract: it.is_abstract,
                is_protected: it.is_protected,
            })
            .collect();
        let constructors: Vec<HarnessConstructor> = self
            .subclass_constructors
            .iter()
            .map(|it| HarnessConstructor {
                params: it.params.clone(),
                throws: it.throws.clone(),
            })
            .collect();
        PlannedHarness {
            of: self,
            source: harness_source(&self.class.name, &constructors, &callbacks),
            bound_as,
            symbols: callbacks.into_iter().map(|it| it.symbol).collect(),
        }
    }

    /// The draft experiment, with harnesses for the class itself if it needs one and for the
    /// described parameter types in `parameter_classes` (by wire name) that want one.
    pub(crate) fn to_draft(&self, parameter_classes: &BTreeMap<String, Description>) -> Draft {
        let class = &self.class.name;
        let mut used = BTreeSet::new();
        let mut harnesses: Vec<PlannedHarness> = Vec::new();
        if self.wants_subject_harness() {
            harnesses.push(self.plan_harness(SUBJECT.to_owned(), &mut used));
        }
        let mut harness_names = BTreeMap::new();
        for (wire, description) in parameter_classes {
            if description.wants_parameter_harness() {
                let name = listener_name(wire);
                harness_names.insert(wire.clone(), name.clone());
                harnesses.push(description.plan_harness(name, &mut used));
            }
        }
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Draft experiment for {class}, written by `typestar draft` from its public API."
        );
        let _ = writeln!(out, "# Replace every \"{PLACEHOLDER_PREFIX} TYPE>\" with a literal of that type (learner/EXPERIMENTS.md);");
        let _ = writeln!(out, "# the loader rejects a file that still has one. Delete the callins that do not matter.");
        let _ = writeln!(out, "class = {}", quote(class));
        if !harnesses.is_empty() {
            let files: Vec<String> = harnesses
                .iter()
                .map(|it| it.source.file_name.clone())
                .collect();
            let _ = writeln!(
                out,
                "# Harness classes written with this draft, compiled before learning: they report"
            );
            let _ = writeln!(
                out,
                "# the callbacks received by overriding (agent-android/PROTOCOL.md §6)."
            );
            let _ = writeln!(out, "harness = {}", string_list(&files));
        }
        out.push('\n');
        out.push_str("[learn]\ndistinguisher_bound = 2\n\n");
        out.push_str("[timeouts]\nquiescence_ms = 500\ncallin_ms = 5000\n\n");
        let mut exceptions: BTreeSet<String> =
            ["java.lang.IllegalStateException".to_owned()].into();
        for method in &self.methods {
            exceptions.extend(method.throws.iter().cloned());
        }
        let exceptions: Vec<String> = exceptions.into_iter().collect();
        let _ = writeln!(out, "[errors]\n# Exceptions that mean \"not allowed in this state\" (err); any other is a failure of the run.\nexceptions = {}\n", string_list(&exceptions));
        self.write_listeners(&mut out);
        self.write_build(&mut out, &harnesses);
        let subject_harness = harnesses.iter().any(PlannedHarness::is_subject);
        self.write_callins(&mut out, &mut used, &harness_names, subject_harness);
        self.write_callbacks(&mut out, &mut used, &harnesses);
        Draft {
            experiment: out,
            harnesses: harnesses.into_iter().map(|it| it.source).collect(),
        }
    }

    fn write_listeners(&self, out: &mut String) {
        let interfaces: BTreeSet<&str> = self
            .listener_setters
            .iter()
            .map(|it| it.interface.as_str())
            .collect();
        for interface in interfaces {
            let _ = writeln!(
                out,
                "[listeners.{}]\ninterface = {}\n",
                listener_name(interface),
                quote(interface)
            );
        }
    }

    fn write_build(&self, out: &mut String, harnesses: &[PlannedHarness]) {
        out.push_str("# The build: how each query makes a fresh object (bound as \"subject\").\n");
        for harness in harnesses.iter().filter(|it| !it.is_subject()) {
            let _ = writeln!(
                out,
                "# A fresh {} for every query, reporting its callbacks.",
                harness.of.class.name
            );
            write_candidates(out, &harness.builds());
        }
        let subject = harnesses.iter().find(|it| it.is_subject());
        let candidates = match subject {
            Some(harness) => harness.builds(),
            None => self.subject_builds(),
        };
        if candidates.is_empty() {
            let class = &self.class.name;
            let why = if self.class.is_abstract {
                "is abstract"
            } else {
                "has no public constructor or factory"
            };
            let _ = writeln!(out, "# {class} {why}: build a concrete harness subclass (agent-android/PROTOCOL.md §6).");
            let _ = writeln!(
                out,
                "[[build]]\nnew = {}\nas = \"subject\"\n",
                quote(&format!(
                    "{PLACEHOLDER_PREFIX} concrete subclass of {class}>"
                ))
            );
        } else {
            write_candidates(out, &candidates);
        }
    }

    /// The ways to build the class under study: its constructors (the argument-less one
    /// first: it needs nothing from the user), then its factories.
    fn subject_builds(&self) -> Vec<String> {
        let class = &self.class.name;
        let mut candidates: Vec<String> = self
            .constructors
            .iter()
            .map(|it| new_step(class, &it.params, SUBJECT))
            .collect();
        candidates.sort_by_key(|it| !it.contains("params = []"));
        candidates.extend(self.factories.iter().map(|it| {
            format!(
                "static = {}\ncall = {}\nparams = {}\nargs = {}\nas = \"subject\"",
                quote(it.declaring_class.as_deref().unwrap_or(class)),
                quote(&it.name),
                string_list(&it.params),
                placeholders(&it.params)
            )
        }));
        candidates
    }

    fn write_callins(
        &self,
        out: &mut String,
        used: &mut BTreeSet<String>,
        harness_names: &BTreeMap<String, String>,
        subject_harness: bool,
    ) {
        let setters: BTreeSet<(&str, &[String])> = self
            .listener_setters
            .iter()
            .map(|it| (it.name.as_str(), it.params.as_slice()))
            .collect();
        for setter in &self.listener_setters {
            let name = symbol(&setter.name, used);
            let _ = writeln!(
                out,
                "[callins.{name}]\ncall = {}\nparams = {}\nargs = [{{ ref = {} }}]\n",
                quote(&setter.name),
                string_list(&setter.params),
                quote(&listener_name(&setter.interface))
            );
        }
        // A subject harness's callback methods are the framework's to call, not callins.
        let callbacks: BTreeSet<(&str, &[String])> = if subject_harness {
            self.callback_methods()
                .into_iter()
                .map(|it| (it.name.as_str(), it.params.as_slice()))
                .collect()
        } else {
            BTreeSet::new()
        };
        // Of several overloads, the one with the fewest parameters gets the plain name.
        let mut methods: Vec<&Member> = self.methods.iter().collect();
        methods.sort_by_key(|it| (it.name.as_str(), it.params.len()));
        for method in methods {
            let key = (method.name.as_str(), method.params.as_slice());
            if setters.contains(&key) || callbacks.contains(&key) {
                continue;
            }
            let name = symbol(&method.name, used);
            let mut text = format!(
                "[callins.{name}]\ncall = {}\nparams = {}\n",
                quote(&method.name),
                string_list(&method.params)
            );
            if !method.params.is_empty() {
                let _ = writeln!(text, "args = {}", arguments(&method.params, harness_names));
            }
            if is_getter(method) {
                out.push_str("# A getter: it probably does not change the state; uncomment to learn it anyway.\n");
                for line in text.lines() {
                    let _ = writeln!(out, "# {line}");
                }
                out.push('\n');
            } else {
                let _ = writeln!(out, "{text}");
            }
        }
    }

    fn write_callbacks(
        &self,
        out: &mut String,
        used: &mut BTreeSet<String>,
        harnesses: &[PlannedHarness],
    ) {
        for setter in &self.listener_setters {
            for callback in &setter.callbacks {
                let name = symbol(&callback.name, used);
                let _ = writeln!(
                    out,
                    "[callbacks.{name}]\nlistener = {}\nmethod = {}\n",
                    quote(&listener_name(&setter.interface)),
                    quote(&callback.name)
                );
            }
        }
        for harness in harnesses {
            let _ = writeln!(
                out,
                "# Reported by {} ({}).",
                harness.source.class, harness.source.file_name
            );
            for symbol in &harness.symbols {
                let _ = writeln!(out, "[callbacks.{symbol}]\nharness = {}\n", quote(symbol));
            }
        }
    }
}

/// A `[[build]]` step making `class` with placeholder arguments, bound to `bound_as`.
fn new_step(class: &str, params: &[String], bound_as: &str) -> String {
    let args = if params.is_empty() {
        String::new()
    } else {
        format!("args = {}\n", placeholders(params))
    };
    format!(
        "new = {}\nparams = {}\n{args}as = {}",
        quote(class),
        string_list(params),
        quote(bound_as)
    )
}

/// The first candidate as a build step, the others commented out as alternatives.
fn write_candidates(out: &mut String, candidates: &[String]) {
    let Some((first, others)) = candidates.split_first() else {
        return;
    };
    let _ = writeln!(out, "[[build]]\n{first}\n");
    for other in others {
        out.push_str("# Or:\n");
        for line in other.lines() {
            let _ = writeln!(out, "# {line}");
        }
        out.push('\n');
    }
}
