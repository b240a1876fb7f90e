//! Experiment files: what to learn about one Java class and how to run it, in TOML
//! (`learner/EXPERIMENTS.md`).
//!
//! The file mirrors the agent's JSON experiment (`agent-android/PROTOCOL.md` §5).
//! It differs in snake_case timeouts and `{ null = true }` for the null literal.
//! It adds a `[learn]` table the agent never sees (distinguisher bound, algorithm, query filters).
//! Loading checks everything that can be checked without a JVM and names the file, line, column and field of every problem.
//! The agent checks classes, methods and argument types when the experiment is loaded.
//! [`Experiment::locate`] maps the field it names back to the file.

mod spans;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use serde::Deserialize;
use serde_json::{json, Map, Value};
use thiserror::Error;
use toml::Spanned;
use typestates::mealy::Signature;
use typestates::{
    Answer, Callback, CallbackBinding, Callin, CallinBinding, CallinId, MethodKind, MethodRef,
    Params,
};

use crate::closure::Alphabet;
use crate::learn::Algorithm;
use crate::oracle::filter::QueryFilter;
use spans::{parse_path, render_path, Segment, Source};
pub use spans::{Location, PLACEHOLDER_PREFIX};

/// Why an experiment file cannot be used.
#[derive(Debug, Error)]
pub enum ExperimentError {
    /// The file could not be read.
    #[error("{}: cannot read the experiment: {source}", file.display())]
    Read {
        /// The file.
        file: PathBuf,
        /// What the system said.
        #[source]
        source: std::io::Error,
    },
    /// The file is not a valid experiment.
    #[error("{location}: {field}{message}", field = field_prefix(field))]
    Invalid {
        /// Where.
        location: Location,
        /// The field, as a path (`callins.schedule.args[0]`); empty for the file as a whole.
        field: String,
        /// What is wrong.
        message: String,
    },
}

fn field_prefix(field: &str) -> String {
    if field.is_empty() {
        String::new()
    } else {
        format!("`{field}`: ")
    }
}

/// One call of the agent's experiment (PROTOCOL.md §5.1–5.2): a constructor, static method
/// or instance method with argument literals, plus the keys of a step or a callin.
#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Call {
    new: Option<String>,
    #[serde(rename = "static")]
    static_: Option<String>,
    call: Option<String>,
    on: Option<String>,
    params: Option<Vec<String>>,
    args: Option<Vec<Value>>,
    #[serde(rename = "as")]
    as_: Option<String>,
    #[serde(rename = "type")]
    type_: Option<String>,
    variants: Option<Vec<Call>>,
    expect: Option<Value>,
    expect_not: Option<Value>,
    /// A step only this platform runs (PROTOCOL.md §5.1); other agents leave it out.
    platform: Option<StepPlatform>,
}

/// Where a step runs: setup that only one platform needs, such as telling a Robolectric shadow
/// what a device would read from a file.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum StepPlatform {
    Jvm,
    Robolectric,
    Android,
}

impl StepPlatform {
    /// The agent's name of the platform (`Platform.name()` in the agent).
    fn name(self) -> &'static str {
        match self {
            StepPlatform::Jvm => "jvm",
            StepPlatform::Robolectric => "robolectric",
            StepPlatform::Android => "android",
        }
    }
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct Listener {
    interface: String,
    #[serde(default)]
    reactions: BTreeMap<String, Call>,
    #[serde(default)]
    returns: BTreeMap<String, Value>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct CallbackSource {
    listener: Option<String>,
    method: Option<String>,
    harness: Option<String>,
    /// A call on the callback's arguments and the value it must return for this symbol
    /// (several symbols may share a listener method, told apart by their `when`).
    when: Option<Call>,
}

#[derive(Clone, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Errors {
    exceptions: Option<Vec<String>>,
    #[serde(default)]
    callbacks: Vec<String>,
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(deny_unknown_fields)]
struct Timeouts {
    quiescence_ms: Option<u64>,
    callin_ms: Option<u64>,
    step_ms: Option<u64>,
    drain_ms: Option<u64>,
    settle_ms: Option<u64>,
    clock: Option<Clock>,
}

/// How the agent's waits let time pass under Robolectric (`timeouts.clock`, PROTOCOL.md §5); on a
/// host JVM and on a device they are real time either way.
#[derive(Clone, Copy, Debug, Deserialize)]
#[serde(rename_all = "lowercase")]
enum Clock {
    /// The paused main looper's simulated clock (the default): a quiet wait costs no real time.
    Simulated,
    /// Real time: for classes whose work runs on threads of their own.
    Real,
}

impl Clock {
    fn agent_name(self) -> &'static str {
        match self {
            Clock::Simulated => "simulated",
            Clock::Real => "real",
        }
    }
}

/// A learning purpose of the `[learn]` table.
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FilterSpec {
    at_most_once: Option<Vec<Spanned<String>>>,
    at_most_pending: Option<Spanned<String>>,
    limit: Option<usize>,
    then_wait: Option<Vec<Spanned<String>>>,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct LearnSpec {
    #[serde(default = "default_bound")]
    distinguisher_bound: usize,
    #[serde(default)]
    algorithm: AlgorithmSpec,
    #[serde(default)]
    filters: Vec<Spanned<FilterSpec>>,
    /// Callins that create the object, to become creators of the learned typestate
    /// ([`crate::creators::creators_from_initial`]).
    #[serde(default)]
    creators: Vec<Spanned<String>>,
}

impl Default for LearnSpec {
    fn default() -> LearnSpec {
        LearnSpec {
            distinguisher_bound: default_bound(),
            algorithm: AlgorithmSpec::default(),
            filters: Vec::new(),
            creators: Vec::new(),
        }
    }
}

fn default_bound() -> usize {
    2
}

#[derive(Clone, Copy, Debug, Default, Deserialize)]
#[serde(rename_all = "lowercase")]
enum AlgorithmSpec {
    #[default]
    Lstar,
    Lsharp,
}

#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct ExperimentFile {
    class: String,
    /// Java sources of harness classes (PROTOCOL.md §6), relative to the experiment file;
    /// compiled against the agent and the class path before the agent starts.
    #[serde(default)]
    harness: Vec<Spanned<String>>,
    #[serde(default)]
    setup: Vec<Call>,
    #[serde(default)]
    listeners: BTreeMap<String, Listener>,
    build: Vec<Call>,
    #[serde(default)]
    teardown: Vec<Call>,
    #[serde(default)]
    callins: BTreeMap<String, Call>,
    #[serde(default)]
    callbacks: BTreeMap<String, CallbackSource>,
    #[serde(default)]
    errors: Errors,
    #[serde(default)]
    timeouts: Timeouts,
    #[serde(default)]
    learn: LearnSpec,
    fixtures: Option<FixturesSpec>,
}

/// Files the class fetches over HTTP from `http://127.0.0.1:PORT/NAME` ([`crate::backend::fixtures`]).
#[derive(Clone, Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct FixturesSpec {
    /// The folder of the files, relative to the experiment file.
    dir: String,
    /// The port the class fetches from, where it runs.
    port: u16,
}

/// An experiment's fixture files and the port they are fetched from where the class runs.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Fixtures {
    /// The folder of the files.
    pub dir: PathBuf,
    /// The port of `http://127.0.0.1:PORT/NAME` where the class runs.
    pub port: u16,
}

/// A loaded experiment: the agent's JSON experiment, the learning settings and the file it
/// came from, for error locations.
#[derive(Clone, Debug)]
pub struct Experiment {
    file: PathBuf,
    text: Arc<str>,
    spec: ExperimentFile,
    agent_json: Value,
}

impl Experiment {
    /// Reads and checks an experiment file.
    pub fn load(file: &Path) -> Result<Experiment, ExperimentError> {
        let text = std::fs::read_to_string(file).map_err(|source| ExperimentError::Read {
            file: file.to_owned(),
            source,
        })?;
        Experiment::parse(file, &text)
    }

    /// Checks an experiment given as text; `file` names it in errors.
    pub fn parse(file: &Path, text: &str) -> Result<Experiment, ExperimentError> {
        let source = Source::new(file, text);
        let spec: ExperimentFile = toml::from_str(text).map_err(|error| {
            let location = source.location(error.span().map_or(0, |it| it.start));
            ExperimentError::Invalid {
                location,
                field: String::new(),
                message: error.message().trim_end().to_owned(),
            }
        })?;
        if let Some((path, location, text)) = source.placeholders().into_iter().next() {
            return Err(ExperimentError::Invalid {
                location,
                field: render_path(&path),
                message: format!(
                    "{text} is a placeholder of the draft: replace it with a real value before learning"
                ),
            });
        }
        // A symbol the typestate format reserves would give a typestate that does not parse.
        let symbols = (spec.callins.keys().map(|it| ("callins", it)))
            .chain(spec.callbacks.keys().map(|it| ("callbacks", it)));
        for (table, name) in symbols {
            if typestates::format::is_reserved(name) {
                let path = parse_path(&format!("{table}.{name}"));
                return Err(ExperimentError::Invalid {
                    location: source.locate(&path),
                    field: render_path(&path),
                    message: format!(
                        "`{name}` is a reserved word of the typestate format, so the learned typestate could not name this symbol; pick another name"
                    ),
                });
            }
        }
        let experiment = Experiment {
            file: file.to_owned(),
            text: Arc::from(text),
            agent_json: agent_json(&spec),
            spec,
        };
        experiment.check_learn_settings()?;
        Ok(experiment)
    }

    /// The class under study.
    pub fn class(&self) -> &str {
        &self.spec.class
    }

    /// The file the experiment came from.
    pub fn file(&self) -> &Path {
        &self.file
    }

    /// The harness sources the experiment names, resolved against its folder.
    pub fn harness_sources(&self) -> Vec<PathBuf> {
        let folder = self.file.parent().unwrap_or(Path::new(""));
        self.spec
            .harness
            .iter()
            .map(|it| folder.join(it.get_ref()))
            .collect()
    }

    /// The fixture files it serves the class, resolved against its folder.
    pub fn fixtures(&self) -> Option<Fixtures> {
        let folder = self.file.parent().unwrap_or(Path::new(""));
        self.spec.fixtures.as_ref().map(|it| Fixtures {
            dir: folder.join(&it.dir),
            port: it.port,
        })
    }

    /// The experiment as the agent's `load` request takes it.
    pub fn agent_json(&self) -> &Value {
        &self.agent_json
    }

    /// The callin symbols, in the order the agent declares them (sorted by name).
    pub fn callins(&self) -> Vec<String> {
        self.spec.callins.keys().cloned().collect()
    }

    /// The callback symbols (sorted by name).
    pub fn callbacks(&self) -> Vec<String> {
        self.spec.callbacks.keys().cloned().collect()
    }

    /// The class's symbols: a callin per `[callins]` entry, a callback per `[callbacks]` entry,
    /// bound to the Java methods the experiment calls.
    pub fn signature(&self) -> Signature {
        let callins = self
            .spec
            .callins
            .iter()
            .map(|(name, call)| Callin {
                name: name.clone(),
                binding: CallinBinding {
                    methods: vec![method_ref(call)],
                    returns: refinement(call).and_then(|(expected, negated)| {
                        if negated {
                            not_answer(&expected)
                        } else {
                            answer(&expected)
                        }
                    }),
                    condition: refinement(call)
                        .filter(|(expected, negated)| {
                            if *negated {
                                not_answer(expected).is_none()
                            } else {
                                answer(expected).is_none()
                            }
                        })
                        .map(|(expected, negated)| {
                            format!("returns {}{expected}", if negated { "not " } else { "" })
                        }),
                },
                creates: None,
            })
            .collect();
        let callbacks = self
            .spec
            .callbacks
            .iter()
            .map(|(name, source)| Callback {
                name: name.clone(),
                binding: match (&source.listener, &source.harness) {
                    (Some(listener), _) => self.listener_binding(listener, source),
                    (None, harness) => CallbackBinding::Override {
                        class: None,
                        method: harness.clone().unwrap_or_default(),
                    },
                },
                condition: source.when.as_ref().and_then(|when| {
                    Some(format!(
                        "{}.{}() returns {}",
                        when.on.as_deref()?,
                        when.call.as_deref()?,
                        when.expect.as_ref()?
                    ))
                }),
            })
            .collect();
        Signature {
            class: self.spec.class.clone(),
            callins,
            callbacks,
            harmless: Vec::new(),
            excluded: Vec::new(),
            creators: Vec::new(),
        }
    }

    /// The alphabet of the experiment: its signature's callins, then `wait`.
    pub fn alphabet(&self) -> Alphabet {
        Alphabet::of(self.signature())
    }

    fn listener_binding(&self, listener: &str, source: &CallbackSource) -> CallbackBinding {
        let reference = json!({ "ref": listener });
        let passes_listener = |call: &Call| call.args.iter().flatten().any(|it| *it == reference);
        let registering = self
            .spec
            .callins
            .iter()
            .find(|(_, call)| passes_listener(call));
        let register = registering
            .and_then(|(_, call)| call.call.clone())
            .or_else(|| {
                self.spec
                    .build
                    .iter()
                    .find(|it| passes_listener(it))
                    .and_then(|it| it.call.clone())
            })
            .unwrap_or_default();
        CallbackBinding::Listener {
            interface: self
                .spec
                .listeners
                .get(listener)
                .map(|it| it.interface.replace('$', "."))
                .unwrap_or_default(),
            method: source.method.clone().unwrap_or_default(),
            register,
            register_callin: registering.map(|(name, _)| {
                CallinId(
                    self.spec
                        .callins
                        .keys()
                        .position(|it| it == name)
                        .unwrap_or(0) as u32,
                )
            }),
        }
    }

    /// The distinguisher bound of the equivalence oracle.
    pub fn distinguisher_bound(&self) -> usize {
        self.spec.learn.distinguisher_bound
    }

    /// The learning algorithm.
    pub fn algorithm(&self) -> Algorithm {
        match self.spec.learn.algorithm {
            AlgorithmSpec::Lstar => Algorithm::LStar,
            AlgorithmSpec::Lsharp => Algorithm::default(),
        }
    }

    /// The exception every `err` of a callin not refined by its result is an instance of: the
    /// one class `[errors] exceptions` lists, when it lists one and no error callbacks.
    pub fn sole_exception(&self) -> Option<&str> {
        match (
            &self.spec.errors.exceptions,
            &self.spec.errors.callbacks[..],
        ) {
            (Some(exceptions), []) if exceptions.len() == 1 => Some(&exceptions[0]),
            _ => None,
        }
    }

    /// The callins of `[learn] creators`: the learned typestate makes them creators.
    pub fn creators(&self) -> Vec<String> {
        self.spec
            .learn
            .creators
            .iter()
            .map(|it| it.get_ref().clone())
            .collect()
    }

    /// Where `[learn] creators` is written, for errors about it.
    pub fn creators_location(&self) -> Location {
        let source = Source::new(&self.file, &self.text);
        match self.spec.learn.creators.first() {
            Some(first) => source.location(first.span().start),
            None => source.locate(&parse_path("learn")),
        }
    }

    /// The longest time one `wait` takes (t_max), in milliseconds.
    pub fn quiescence_ms(&self) -> u64 {
        self.spec.timeouts.quiescence_ms.unwrap_or(500)
    }

    /// The longest time a request can take before the agent must have answered: the
    /// watchdogs of a teardown, a build and a callin, plus t_max (PROTOCOL.md §7).
    pub fn longest_request_ms(&self) -> u64 {
        let t = &self.spec.timeouts;
        let step = t.step_ms.unwrap_or(10_000);
        let steps =
            (self.spec.build.len() + self.spec.teardown.len() + self.spec.setup.len()) as u64;
        step * steps.max(1)
            + t.callin_ms.unwrap_or(5_000)
            + t.settle_ms.unwrap_or(0)
            + self.quiescence_ms()
    }

    /// The location of a field named by the agent (`experiment.callins.next.params[0]`).
    pub fn locate(&self, agent_field: &str) -> (Location, String) {
        let mut path = parse_path(agent_field);
        if path.first() == Some(&Segment::Key("experiment".to_owned())) {
            path.remove(0);
        }
        for segment in &mut path {
            if let Segment::Key(key) = segment {
                *key = toml_key(key);
            }
        }
        let source = Source::new(&self.file, &self.text);
        (source.locate(&path), render_path(&path))
    }

    /// The query filters of the `[learn]` table over `alphabet`.
    pub fn filters(&self, alphabet: &Alphabet) -> Vec<QueryFilter> {
        self.spec
            .learn
            .filters
            .iter()
            .map(|filter| {
                let filter = filter.get_ref();
                let input = |name: &Spanned<String>| {
                    alphabet
                        .input_named(name.get_ref())
                        .expect("filter symbols are checked at load")
                };
                let named = |names: &[Spanned<String>]| {
                    names
                        .iter()
                        .map(|it| it.get_ref().clone())
                        .collect::<Vec<_>>()
                };
                match (
                    &filter.at_most_once,
                    &filter.at_most_pending,
                    &filter.then_wait,
                ) {
                    (Some(names), _, _) if names.len() == 1 => {
                        QueryFilter::AtMostOnce(input(&names[0]))
                    }
                    (Some(names), _, _) => QueryFilter::at_most_one_of(
                        names.iter().map(input).collect(),
                        &named(names).iter().map(String::as_str).collect::<Vec<_>>(),
                    ),
                    (None, Some(request), _) => QueryFilter::AtMostPending {
                        request: input(request),
                        limit: filter.limit.unwrap_or(1),
                    },
                    (None, None, Some(names)) => QueryFilter::then_wait(
                        names.iter().map(input).collect(),
                        &named(names).iter().map(String::as_str).collect::<Vec<_>>(),
                    ),
                    (None, None, None) => unreachable!("filters are checked at load"),
                }
            })
            .collect()
    }

    fn check_learn_settings(&self) -> Result<(), ExperimentError> {
        let source = Source::new(&self.file, &self.text);
        let invalid = |span: std::ops::Range<usize>, field: String, message: String| {
            ExperimentError::Invalid {
                location: source.location(span.start),
                field,
                message,
            }
        };
        if self.spec.learn.distinguisher_bound == 0 {
            let path = parse_path("learn.distinguisher_bound");
            return Err(ExperimentError::Invalid {
                location: source.locate(&path),
                field: render_path(&path),
                message: "the distinguisher bound must be at least 1".to_owned(),
            });
        }
        for (index, (source_file, path)) in self
            .spec
            .harness
            .iter()
            .zip(self.harness_sources())
            .enumerate()
        {
            let problem = if path.extension().is_none_or(|it| it != "java") {
                Some("a harness is a Java source file (`.java`)")
            } else if !path.is_file() {
                Some("no such file")
            } else {
                None
            };
            if let Some(problem) = problem {
                return Err(invalid(
                    source_file.span(),
                    format!("harness[{index}]"),
                    format!("{problem}: {}", path.display()),
                ));
            }
        }
        for creator in &self.spec.learn.creators {
            if !self.spec.callins.contains_key(creator.get_ref()) {
                return Err(invalid(
                    creator.span(),
                    "learn.creators".to_owned(),
                    format!(
                        "`{}` is not a callin of this experiment (callins: {})",
                        creator.get_ref(),
                        self.callins().join(", ")
                    ),
                ));
            }
        }
        for (index, filter) in self.spec.learn.filters.iter().enumerate() {
            let field = format!("learn.filters[{index}]");
            let spec = filter.get_ref();
            let names: Vec<&Spanned<String>> =
                match (&spec.at_most_once, &spec.at_most_pending, &spec.then_wait) {
                    (Some(names), None, None) | (None, None, Some(names))
                        if !names.is_empty() && spec.limit.is_none() =>
                    {
                        names.iter().collect()
                    }
                    (None, Some(request), None) => vec![request],
                    _ => return Err(invalid(
                        filter.span(),
                        field,
                        "a filter is `{ at_most_once = [\"callin\", …] }`, `{ at_most_pending = \"callin\", limit = K }` or `{ then_wait = [\"callin\", …] }`".to_owned(),
                    )),
                };
            for name in names {
                if !self.spec.callins.contains_key(name.get_ref()) {
                    return Err(invalid(
                        name.span(),
                        field,
                        format!(
                            "`{}` is not a callin of this experiment (callins: {})",
                            name.get_ref(),
                            self.callins().join(", ")
                        ),
                    ));
                }
            }
        }
        Ok(())
    }
}

/// The Java method a call names, for the signature.
fn method_ref(call: &Call) -> MethodRef {
    let params = match &call.params {
        Some(params) => Params::Exact(params.iter().map(|it| it.replace('$', ".")).collect()),
        None => Params::Any,
    };
    let (kind, class, name) = match (&call.new, &call.static_, &call.call) {
        (Some(class), _, _) => (
            MethodKind::Constructor,
            Some(class.clone()),
            "<init>".to_owned(),
        ),
        (None, Some(class), name) => (
            MethodKind::Static,
            Some(class.clone()),
            name.clone().unwrap_or_default(),
        ),
        (None, None, name) => (MethodKind::Instance, None, name.clone().unwrap_or_default()),
    };
    MethodRef {
        kind,
        class: class.map(|it| it.replace('$', ".")),
        name,
        params,
    }
}

/// The TOML key of an agent JSON key (timeouts and `expectNot` are camelCase there, `class` is
/// `name`).
fn toml_key(json_key: &str) -> String {
    match json_key {
        "name" => "class".to_owned(),
        "quiescenceMs" => "quiescence_ms".to_owned(),
        "callinMs" => "callin_ms".to_owned(),
        "stepMs" => "step_ms".to_owned(),
        "drainMs" => "drain_ms".to_owned(),
        "settleMs" => "settle_ms".to_owned(),
        "expectNot" => "expect_not".to_owned(),
        other => other.to_owned(),
    }
}

/// The agent's JSON experiment of a checked file.
fn agent_json(spec: &ExperimentFile) -> Value {
    let mut out = Map::new();
    out.insert("name".into(), json!(spec.class));
    let steps = |calls: &[Call]| Value::Array(calls.iter().map(call_json).collect());
    if !spec.setup.is_empty() {
        out.insert("setup".into(), steps(&spec.setup));
    }
    if !spec.listeners.is_empty() {
        let listeners = spec.listeners.iter().map(|(name, listener)| {
            let mut l = Map::new();
            l.insert("interface".into(), json!(listener.interface));
            if !listener.reactions.is_empty() {
                let reactions = listener
                    .reactions
                    .iter()
                    .map(|(m, c)| (m.clone(), call_json(c)));
                l.insert("reactions".into(), Value::Object(reactions.collect()));
            }
            if !listener.returns.is_empty() {
                let returns = listener
                    .returns
                    .iter()
                    .map(|(m, v)| (m.clone(), literal(v)));
                l.insert("returns".into(), Value::Object(returns.collect()));
            }
            (name.clone(), Value::Object(l))
        });
        out.insert("listeners".into(), Value::Object(listeners.collect()));
    }
    out.insert("build".into(), steps(&spec.build));
    if !spec.teardown.is_empty() {
        out.insert("teardown".into(), steps(&spec.teardown));
    }
    let callins = spec.callins.iter().map(|(s, c)| (s.clone(), call_json(c)));
    out.insert("callins".into(), Value::Object(callins.collect()));
    let callbacks = spec.callbacks.iter().map(|(symbol, source)| {
        let mut c = Map::new();
        for (key, value) in [
            ("listener", &source.listener),
            ("method", &source.method),
            ("harness", &source.harness),
        ] {
            if let Some(value) = value {
                c.insert(key.into(), json!(value));
            }
        }
        if let Some(when) = &source.when {
            c.insert("when".into(), call_json(when));
        }
        (symbol.clone(), Value::Object(c))
    });
    out.insert("callbacks".into(), Value::Object(callbacks.collect()));
    let mut errors = Map::new();
    if let Some(exceptions) = &spec.errors.exceptions {
        errors.insert("exceptions".into(), json!(exceptions));
    }
    errors.insert("callbacks".into(), json!(spec.errors.callbacks));
    out.insert("errors".into(), Value::Object(errors));
    let t = spec.timeouts;
    let mut timeouts = Map::new();
    for (key, value) in [
        ("quiescenceMs", t.quiescence_ms),
        ("callinMs", t.callin_ms),
        ("stepMs", t.step_ms),
        ("drainMs", t.drain_ms),
        ("settleMs", t.settle_ms),
    ] {
        if let Some(value) = value {
            timeouts.insert(key.into(), json!(value));
        }
    }
    if let Some(clock) = t.clock {
        timeouts.insert("clock".into(), json!(clock.agent_name()));
    }
    out.insert("timeouts".into(), Value::Object(timeouts));
    Value::Object(out)
}

fn call_json(call: &Call) -> Value {
    let mut out = Map::new();
    let strings = [
        ("new", &call.new),
        ("static", &call.static_),
        ("call", &call.call),
        ("on", &call.on),
        ("as", &call.as_),
        ("type", &call.type_),
    ];
    for (key, value) in strings {
        if let Some(value) = value {
            out.insert(key.into(), json!(value));
        }
    }
    if let Some(params) = &call.params {
        out.insert("params".into(), json!(params));
    }
    if let Some(args) = &call.args {
        out.insert(
            "args".into(),
            Value::Array(args.iter().map(literal).collect()),
        );
    }
    if let Some(expect) = &call.expect {
        out.insert("expect".into(), literal(expect));
    }
    if let Some(expect_not) = &call.expect_not {
        out.insert("expectNot".into(), literal(expect_not));
    }
    if let Some(platform) = call.platform {
        out.insert("platform".into(), json!(platform.name()));
    }
    if let Some(variants) = &call.variants {
        out.insert(
            "variants".into(),
            Value::Array(variants.iter().map(call_json).collect()),
        );
    }
    Value::Object(out)
}

/// A TOML literal as the agent's JSON literal: `{ null = true }` is `null`, the rest is
/// structural.
fn literal(value: &Value) -> Value {
    match value {
        Value::Object(map) if map.len() == 1 && map.get("null") == Some(&Value::Bool(true)) => {
            Value::Null
        }
        Value::Object(map) => Value::Object(
            map.iter()
                .map(|(key, value)| (key.clone(), literal(value)))
                .collect(),
        ),
        Value::Array(items) => Value::Array(items.iter().map(literal).collect()),
        other => other.clone(),
    }
}

/// The return value a callin is refined by, as the agent reads it, and whether it is the value
/// the call must not return (`expect_not`).
fn refinement(call: &Call) -> Option<(Value, bool)> {
    match (&call.expect, &call.expect_not) {
        (Some(expected), _) => Some((literal(expected), false)),
        (None, Some(unexpected)) => Some((literal(unexpected), true)),
        (None, None) => None,
    }
}

/// The observer answer "anything but `unexpected`" stands for: not null, or not zero.
fn not_answer(unexpected: &Value) -> Option<Answer> {
    match answer(unexpected)? {
        Answer::Null => Some(Answer::NonNull),
        Answer::Zero => Some(Answer::NonZero),
        _ => None,
    }
}

/// The observer answer an expected return value stands for, when it is one a branch can test:
/// a boolean, `null`, zero, or an enum constant's name.
fn answer(expected: &Value) -> Option<Answer> {
    match expected {
        Value::Bool(true) => Some(Answer::True),
        Value::Bool(false) => Some(Answer::False),
        Value::Null => Some(Answer::Null),
        Value::Number(n) if n.as_f64() == Some(0.0) => Some(Answer::Zero),
        // Enum constants travel as their names; only the conventional UPPER_CASE ones are
        // taken for constants, so that an ordinary string result stays a plain condition.
        Value::String(name)
            if name.starts_with(|c: char| c.is_ascii_uppercase())
                && name
                    .chars()
                    .all(|c| c.is_ascii_uppercase() || c.is_ascii_digit() || c == '_') =>
        {
            Some(Answer::Constant(name.clone()))
        }
        _ => None,
    }
}
