//! The JSON format of typestates (`"format": "typestar/1"`), for tools rather than people.
//!
//! The wire types here are a deliberate, versioned format, separate from the model.
//! States, callins and callbacks are referenced by name, never by index, so a file stays readable and diffable.
//! [`to_json`] writes every field of the model.
//! [`from_json`] reads it back and reports syntax errors at the line:col serde_json gives.
//! It reports name errors at the JSON path (`states[2].callins.start.target`) and the line:col of that value.
//! [`json_schema`] is the
//! JSON Schema derived from the same types, committed as `typestates/schema/typestate.schema.json`.

mod export;
mod import;
mod locate;

use std::collections::BTreeMap;

use schemars::JsonSchema;
use serde::{Deserialize, Serialize};

pub use export::to_json;
pub use import::from_json;

/// The JSON Schema of the format, pretty-printed with a final newline.
pub fn json_schema() -> String {
    let schema = schemars::schema_for!(TypestateDto);
    let mut text = serde_json::to_string_pretty(&schema).expect("a schema serializes");
    text.push('\n');
    text
}

/// The callback typestate of one class: an interface automaton over callins and callbacks.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(title = "typestar typestate")]
struct TypestateDto {
    /// The version of this format.
    format: Version,
    /// Fully qualified name of the class: `android.media.MediaRecorder`.
    class: String,
    /// One-line summary shown in hovers and listings.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    summary: Option<String>,
    /// Where the protocol comes from.
    #[serde(default)]
    provenance: ProvenanceDto,
    /// Free-form notes, one paragraph each.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    notes: Vec<String>,
    /// The callins (methods the client calls), creators included.
    #[serde(default)]
    callins: Vec<CallinDto>,
    /// The callbacks (client methods the framework calls).
    #[serde(default)]
    callbacks: Vec<CallbackDto>,
    /// Methods that never change the state: a checker lets them pass.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    harmless: Vec<MethodDto>,
    /// Public methods deliberately left out of the protocol, each group with the reason.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    excluded: Vec<ExclusionDto>,
    /// The name of the state a fresh object starts in.
    initial: String,
    /// The states, each with its transitions.
    states: Vec<StateDto>,
    /// The states the object must not be abandoned in, and how and by when it leaves them.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    obligations: Vec<ObligationDto>,
    /// Traces the protocol must accept or reject.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    examples: Vec<ExampleDto>,
}

/// The format version; readers reject versions they do not know.
#[derive(Serialize, Deserialize, JsonSchema)]
enum Version {
    /// Version 1.
    #[serde(rename = "typestar/1")]
    V1,
}

/// Where a typestate comes from.
#[derive(Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Provenance")]
struct ProvenanceDto {
    /// How the typestate came to be.
    #[serde(default)]
    kind: ProvenanceKindDto,
    /// Sources in words: a paper section, a reference page, a learning run.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    sources: Vec<String>,
    /// The platform it was learned or documented on: `Android 23 (LG Nexus 5)`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    platform: Option<String>,
    /// Statistics of the learning run, when learned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    stats: Option<StatsDto>,
    /// Where and when the class ran, when learned by a backend that runs it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    run: Option<RunDto>,
}

/// Where and when a learned class ran.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Run")]
struct RunDto {
    /// The backend that ran the class.
    backend: BackendDto,
    /// The Android SDK level, on an Android backend.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    sdk: Option<u32>,
    /// What ran: the class's own code, or a simulation standing in for it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    code: Option<CodeDto>,
    /// The day of the run, `YYYY-MM-DD` (UTC).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    date: Option<String>,
}

/// A backend that runs the class under study.
#[derive(Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "Backend")]
enum BackendDto {
    /// The host JVM.
    Jvm,
    /// Robolectric on the host JVM.
    Robolectric,
    /// Android devices over adb.
    Android,
}

/// What ran when a class was learned.
#[derive(Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "Code")]
enum CodeDto {
    /// The class's own code, with nothing intercepting it.
    Real,
    /// The class's own code, behind shadow methods that call through to it.
    CallsThrough,
    /// A simulation (Robolectric's shadow), not the class's code.
    Simulated,
}

/// How a typestate came to be.
#[derive(Default, Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "ProvenanceKind")]
enum ProvenanceKindDto {
    /// Learned by typestar by running the class.
    Learned,
    /// Transcribed from an automaton DroidStar learned on a device.
    Droidstar,
    /// Written by hand from papers and reference documentation.
    #[default]
    Documented,
}

/// Statistics of a learning run, in the columns of DroidStar's Table 1.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Stats")]
struct StatsDto {
    /// Number of states (error sink excluded).
    states: u32,
    /// Wall-clock or simulated time in milliseconds.
    time_ms: u64,
    /// Membership queries asked by the learner.
    mq_asked: u64,
    /// Membership queries actually executed.
    mq_executed: u64,
    /// Equivalence queries.
    eq: u32,
    /// The distinguisher bound used.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    distinguisher_bound: Option<u32>,
}

/// A method the client calls.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Callin")]
struct CallinDto {
    /// The symbol, unique among callins and callbacks.
    name: String,
    /// The Java methods this symbol stands for.
    methods: Vec<MethodDto>,
    /// The argument or environment that singles this callin out among callins bound to the
    /// same method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    condition: Option<String>,
    /// For an observer: the answer this callin stands for (`true`, `false`, `null`,
    /// `nonnull`, `zero`, `nonzero`, `negative`, `nonnegative`, or a constant's simple name).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    returns: Option<String>,
    /// For a creator (constructor or factory): the name of the state a new object starts in.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    creates: Option<String>,
}

/// Public methods deliberately left out of the protocol: a call of one has an unknown effect.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Exclusion")]
struct ExclusionDto {
    /// The methods.
    methods: Vec<MethodDto>,
    /// Why they are left out.
    reason: String,
}

/// One Java method, constructor or static factory.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Method")]
struct MethodDto {
    /// Constructor, static method or instance method.
    kind: MethodKindDto,
    /// The declaring class when it is not the typestate's class.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    class: Option<String>,
    /// The method name; `<init>` for constructors.
    name: String,
    /// The parameter types as written in Java source, or `"any"` for any overload.
    params: ParamsDto,
}

/// What kind of member a method is.
#[derive(Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[serde(rename_all = "snake_case")]
#[schemars(rename = "MethodKind")]
enum MethodKindDto {
    /// `new C(...)`.
    Constructor,
    /// `C.m(...)`.
    Static,
    /// `obj.m(...)`.
    Instance,
}

/// A parameter list: exact types, or any overload.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(untagged)]
#[schemars(rename = "Params")]
enum ParamsDto {
    /// Any overload of the name.
    Any(AnyOverload),
    /// Exactly these parameter types.
    Exact(Vec<String>),
}

/// The marker for "any overload".
#[derive(Serialize, Deserialize, JsonSchema)]
enum AnyOverload {
    /// Any overload.
    #[serde(rename = "any")]
    Any,
}

/// A method of the client the framework calls.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Callback")]
struct CallbackDto {
    /// The symbol, unique among callins and callbacks.
    name: String,
    /// How the client receives it.
    binding: CallbackBindingDto,
    /// What singles this callback out among callbacks bound to the same method.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    condition: Option<String>,
}

/// How the client receives a callback.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "CallbackBinding")]
enum CallbackBindingDto {
    /// A method of a listener interface, delivered to a listener registered by a callin.
    Listener {
        /// The listener interface, fully qualified.
        interface: String,
        /// The interface method.
        method: String,
        /// The Java method that registers the listener.
        register: String,
        /// The name of the callin for `register`, when the typestate has one.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        register_callin: Option<String>,
    },
    /// A method the client overrides.
    Override {
        /// The declaring class when it is not the typestate's class.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        class: Option<String>,
        /// The overridden method.
        method: String,
    },
}

/// One state of the automaton.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "State")]
struct StateDto {
    /// The state's name, unique among states.
    name: String,
    /// What this state means, for hovers.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    description: Option<String>,
    /// What each callin does here, by callin name; a callin not listed is an error.
    #[serde(default)]
    callins: BTreeMap<String, StepDto>,
    /// What happens here when time passes; absent means a quiet self-loop.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    wait: Option<WaitDto>,
    /// Steps that replace a callin's step on some API levels only; the ranges of one callin
    /// are disjoint.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    by_level: Vec<LevelStepDto>,
}

/// What a callin does in a state on some API levels, instead of its step on the others.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "LevelStep")]
struct LevelStepDto {
    /// The callin's name.
    callin: String,
    /// The API levels, both ends included: `23..28`, `..22` or `29..`.
    levels: String,
    /// What the callin does on those levels.
    step: StepDto,
}

/// What a callin does in a state.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "Step")]
enum StepDto {
    /// The callin is allowed.
    Enabled {
        /// The name of the state after the call.
        target: String,
        /// Accepted but without effect.
        #[serde(default, skip_serializing_if = "is_false")]
        ignored: bool,
        /// Where this transition comes from.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
    /// The callin is not allowed.
    Error {
        /// The exception the framework throws, when known.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        exception: Option<String>,
        /// The error callback the call posts instead of throwing (fully qualified listener
        /// method); never with `exception`.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        posts: Option<String>,
        /// Where this fact comes from.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
    /// The experiment never ran the callin here (a query filter forbade it): nothing is known
    /// of the API. Learning treats it as an error; a checker does not report it.
    Restricted {
        /// The rule of the experiment that forbade it.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
}

/// What happens in a state when the client lets time pass.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(tag = "kind", rename_all = "snake_case", deny_unknown_fields)]
#[schemars(rename = "Wait")]
enum WaitDto {
    /// No callback arrives; the object moves to `target`.
    Quiet {
        /// The name of the state after quiescence.
        target: String,
        /// Where this transition comes from.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
    /// The framework calls `callback` and the object moves to `target`.
    Callback {
        /// The name of the callback that arrives.
        callback: String,
        /// The name of the state after the callback.
        target: String,
        /// Where this transition comes from.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
    /// The object fails asynchronously; nothing is allowed afterwards.
    Fails {
        /// Where this fact comes from.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
    /// The experiment never let time pass here (a query filter forbade it): nothing is known.
    Restricted {
        /// The rule of the experiment that forbade it.
        #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
        origin: OriginDto,
    },
}

/// States an object must not be abandoned in, and the callins that end them.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Obligation")]
struct ObligationDto {
    /// The names of the states the object must not be abandoned in.
    states: Vec<String>,
    /// The names of the callins that discharge the obligation.
    until: Vec<String>,
    /// The lifecycle callback of the owning component by which it must be discharged.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    by: Option<DeadlineDto>,
    /// A convention rather than a requirement of the platform.
    #[serde(default, skip_serializing_if = "is_false")]
    convention: bool,
    /// Where the obligation comes from.
    #[serde(default, skip_serializing_if = "OriginDto::is_empty")]
    origin: OriginDto,
}

/// A lifecycle callback of the component owning an object.
#[derive(Clone, Copy, Serialize, Deserialize, JsonSchema)]
#[schemars(rename = "Deadline")]
enum DeadlineDto {
    /// `onPause()`.
    #[serde(rename = "onPause")]
    Pause,
    /// `onStop()`.
    #[serde(rename = "onStop")]
    Stop,
    /// `onDestroy()`.
    #[serde(rename = "onDestroy")]
    Destroy,
}

/// Where one transition comes from.
#[derive(Default, Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Origin")]
struct OriginDto {
    /// A citation.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    source: Option<String>,
    /// True when nobody has run the class to confirm it.
    #[serde(default, skip_serializing_if = "is_false")]
    unverified: bool,
}

impl OriginDto {
    fn is_empty(&self) -> bool {
        self.source.is_none() && !self.unverified
    }
}

/// A trace the protocol must accept or reject.
#[derive(Serialize, Deserialize, JsonSchema)]
#[serde(deny_unknown_fields)]
#[schemars(rename = "Example")]
struct ExampleDto {
    /// Whether the trace is allowed.
    accepted: bool,
    /// Callin names, callback names and `quiet`, in order.
    trace: Vec<String>,
}

fn is_false(value: &bool) -> bool {
    !value
}
