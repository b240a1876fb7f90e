//! `typestar draft`: a first experiment file for a class, written from the agent's
//! `describe` of its public API (PROTOCOL.md §4.1).
//!
//! Listener setters become callins that register a listener proxy, and the listener's
//! methods become callbacks; public instance methods become callins (getters are written
//! commented out: they rarely change state); a public constructor or factory becomes the
//! build. Every argument the draft cannot know is a `"<fill: TYPE>"` placeholder, which the
//! loader rejects with its line, so a draft cannot be run by accident.

use std::collections::BTreeSet;
use std::fmt::Write as _;

use serde::Deserialize;

use super::experiment::PLACEHOLDER_PREFIX;

/// The `description` reply.
#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(crate) struct Description {
    class: ClassInfo,
    constructors: Vec<Member>,
    factories: Vec<Member>,
    methods: Vec<Member>,
    listener_setters: Vec<ListenerSetter>,
    overridable: Vec<Member>,
}

#[derive(Debug, Deserialize)]
#[serde(rename_all = "camelCase")]
struct ClassInfo {
    name: String,
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
    let args: Vec<String> = params
        .iter()
        .map(|it| quote(&format!("{PLACEHOLDER_PREFIX} {it}>")))
        .collect();
    format!("[{}]", args.join(", "))
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

impl Description {
    /// The draft experiment file.
    pub(crate) fn to_toml(&self) -> String {
        let class = &self.class.name;
        let mut out = String::new();
        let _ = writeln!(
            out,
            "# Draft experiment for {class}, written by `typestar draft` from its public API."
        );
        let _ = writeln!(out, "# Replace every \"{PLACEHOLDER_PREFIX} TYPE>\" with a literal of that type (learner/EXPERIMENTS.md);");
        let _ = writeln!(out, "# the loader rejects a file that still has one. Delete the callins that do not matter.");
        let _ = writeln!(out, "class = {}\n", quote(class));
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
        self.write_build(&mut out);
        let mut used = BTreeSet::new();
        self.write_callins(&mut out, &mut used);
        self.write_callbacks(&mut out, &mut used);
        out
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

    fn write_build(&self, out: &mut String) {
        let class = &self.class.name;
        let mut candidates: Vec<String> = self
            .constructors
            .iter()
            .map(|it| {
                format!(
                    "new = {}\nparams = {}\nargs = {}\nas = \"subject\"",
                    quote(class),
                    string_list(&it.params),
                    placeholders(&it.params)
                )
            })
            .collect();
        // The no-argument constructor, if any, needs nothing from the user.
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
        out.push_str("# The build: how each query makes a fresh object (bound as \"subject\").\n");
        match candidates.split_first() {
            Some((first, others)) => {
                let _ = writeln!(out, "[[build]]\n{}\n", first.replace("args = []\n", ""));
                for other in others {
                    out.push_str("# Or:\n");
                    for line in other.lines() {
                        let _ = writeln!(out, "# {line}");
                    }
                    out.push('\n');
                }
            }
            None => {
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
            }
        }
    }

    fn write_callins(&self, out: &mut String, used: &mut BTreeSet<String>) {
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
        for method in &self.methods {
            if setters.contains(&(method.name.as_str(), method.params.as_slice())) {
                continue;
            }
            let name = symbol(&method.name, used);
            let mut text = format!(
                "[callins.{name}]\ncall = {}\nparams = {}\n",
                quote(&method.name),
                string_list(&method.params)
            );
            if !method.params.is_empty() {
                let _ = writeln!(text, "args = {}", placeholders(&method.params));
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

    fn write_callbacks(&self, out: &mut String, used: &mut BTreeSet<String>) {
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
        if !self.overridable.is_empty() {
            out.push_str(
                "# Overridable methods: callbacks through a harness subclass that reports them\n",
            );
            out.push_str(
                "# (agent-android/PROTOCOL.md §6), mapped with `{ harness = \"name\" }`:\n",
            );
            for method in &self.overridable {
                let _ = writeln!(out, "#   {}({})", method.name, method.params.join(", "));
            }
        }
    }
}
