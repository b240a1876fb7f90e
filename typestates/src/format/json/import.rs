//! Wire types to model: resolves names to indices and reports every name that does not resolve
//! at its JSON path.

use std::collections::HashMap;

use super::locate::JsonPath;
use super::{
    BackendDto, CallbackBindingDto, CodeDto, DeadlineDto, ExampleDto, MethodDto, MethodKindDto,
    ObligationDto, OriginDto, ParamsDto, ProvenanceDto, ProvenanceKindDto, StateDto, StepDto,
    TypestateDto, WaitDto,
};
use crate::binding::{Answer, CallbackBinding, CallinBinding, MethodKind, MethodRef, Params};
use crate::format::lexer::is_word;
use crate::format::{is_posted_callback, Diagnostic, MAX_ERRORS, METHOD_KINDS, RESERVED};
use crate::levels::ApiLevels;
use crate::model::{
    Callback, CallbackId, Callin, CallinId, Event, Example, Exclusion, Failure, LevelStep, Origin,
    PostedError, State, StateId, Step, Steps, Typestate, WaitOutcome,
};
use crate::obligation::{Basis, Deadline, Obligation};
use crate::provenance::{Backend, Code, LearningRun, LearningStats, Provenance, ProvenanceKind};

/// Reads the JSON text of a typestate, read from `path`, or returns every error found: a syntax
/// or shape error at serde_json's line:col, or each name that does not resolve, at the line:col
/// of its value with its JSON path in the message.
pub fn from_json(path: &str, text: &str) -> Result<Typestate, Vec<Diagnostic>> {
    let dto: TypestateDto = serde_json::from_str(text).map_err(|err| {
        let message = err.to_string();
        // serde_json appends " at line L column C"; the diagnostic carries that itself.
        let message = match message.rsplit_once(" at line ") {
            Some((message, _)) => message.to_owned(),
            None => message,
        };
        vec![Diagnostic::new(path, err.line(), err.column(), message)]
    })?;
    if let Some(message) = super::super::too_many_steps(dto.states.len(), dto.callins.len()) {
        return Err(vec![Diagnostic::new(path, 1, 1, message)]);
    }
    let mut importer = Importer {
        path,
        text,
        errors: Vec::new(),
        states: HashMap::new(),
        callins: HashMap::new(),
        callbacks: HashMap::new(),
    };
    let typestate = importer.typestate(dto);
    if importer.errors.is_empty() {
        Ok(typestate)
    } else {
        let mut errors = importer.errors;
        errors.sort_by_key(|e| (e.line, e.col));
        Err(errors)
    }
}

struct Importer<'a> {
    path: &'a str,
    text: &'a str,
    errors: Vec<Diagnostic>,
    states: HashMap<String, StateId>,
    callins: HashMap<String, (CallinId, bool)>,
    callbacks: HashMap<String, CallbackId>,
}

impl Importer<'_> {
    /// Records an error at `at`; past [`MAX_ERRORS`] only says that there are more, since
    /// locating each one walks the text.
    fn error(&mut self, at: &JsonPath, message: String) {
        if self.errors.len() >= MAX_ERRORS {
            if self.errors.len() == MAX_ERRORS {
                self.errors.push(Diagnostic::new(
                    self.path,
                    1,
                    1,
                    format!("more than {MAX_ERRORS} errors: the others are not listed"),
                ));
            }
            return;
        }
        let (line, col) = at.locate(self.text).unwrap_or((1, 1));
        self.errors.push(Diagnostic::new(
            self.path,
            line,
            col,
            format!("{at}: {message}"),
        ));
    }

    fn typestate(&mut self, dto: TypestateDto) -> Typestate {
        let root = JsonPath::default();
        if !is_word(&dto.class) {
            self.error(
                &root.key("class"),
                format!("expected a qualified class name, found {:?}", dto.class),
            );
        }
        self.declare_names(&dto);
        if dto.states.is_empty() {
            self.error(
                &root.key("states"),
                "expected at least one state".to_owned(),
            );
        }
        let callins = dto
            .callins
            .into_iter()
            .enumerate()
            .map(|(i, callin)| {
                let at = root.key("callins").index(i);
                if callin.methods.is_empty() {
                    self.error(
                        &at.key("methods"),
                        "expected at least one method".to_owned(),
                    );
                }
                Callin {
                    creates: callin
                        .creates
                        .map(|state| self.state(&at.key("creates"), &state)),
                    name: callin.name,
                    binding: CallinBinding {
                        methods: callin
                            .methods
                            .into_iter()
                            .enumerate()
                            .map(|(j, m)| self.method(&at.key("methods").index(j), m))
                            .collect(),
                        condition: callin.condition,
                        returns: callin.returns.and_then(|word| {
                            let answer = Answer::parse(&word);
                            if answer.is_none() {
                                self.error(
                                    &at.key("returns"),
                                    format!("expected `true`, `false`, `null`, `nonnull`, `zero`, `nonzero`, `negative`, `nonnegative` or a constant's name, found {word:?}"),
                                );
                            }
                            answer
                        }),
                    },
                }
            })
            .collect::<Vec<_>>();
        let callbacks = dto
            .callbacks
            .into_iter()
            .enumerate()
            .map(|(i, callback)| {
                let at = root.key("callbacks").index(i).key("binding");
                let binding = match callback.binding {
                    CallbackBindingDto::Listener {
                        interface,
                        method,
                        register,
                        register_callin,
                    } => CallbackBinding::Listener {
                        interface: self.word(&at.key("interface"), interface),
                        method: self.simple_name(&at.key("method"), method),
                        register: self.word(&at.key("register"), register),
                        register_callin: register_callin
                            .and_then(|name| self.callin(&at.key("register_callin"), &name)),
                    },
                    CallbackBindingDto::Override { class, method } => CallbackBinding::Override {
                        class: class.map(|class| self.word(&at.key("class"), class)),
                        method: self.simple_name(&at.key("method"), method),
                    },
                };
                Callback {
                    name: callback.name,
                    binding,
                    condition: callback.condition,
                }
            })
            .collect();
        let harmless = dto
            .harmless
            .into_iter()
            .enumerate()
            .map(|(i, m)| self.method(&root.key("harmless").index(i), m))
            .collect();
        let excluded = (dto.excluded.into_iter().enumerate())
            .map(|(i, exclusion)| {
                let at = root.key("excluded").index(i).key("methods");
                Exclusion {
                    methods: (exclusion.methods.into_iter().enumerate())
                        .map(|(j, m)| self.method(&at.index(j), m))
                        .collect(),
                    reason: exclusion.reason,
                }
            })
            .collect();
        let initial = self.state(&root.key("initial"), &dto.initial);
        let states = dto
            .states
            .into_iter()
            .enumerate()
            .map(|(i, state)| self.state_of(&root.key("states").index(i), state, callins.len()))
            .collect();
        let examples = dto
            .examples
            .into_iter()
            .enumerate()
            .filter_map(|(i, example)| self.example(&root.key("examples").index(i), example))
            .collect();
        let obligations: Vec<(JsonPath, Obligation)> = dto
            .obligations
            .into_iter()
            .enumerate()
            .filter_map(|(i, o)| {
                let at = root.key("obligations").index(i);
                let obligation = self.obligation(&at, o)?;
                Some((at, obligation))
            })
            .collect();
        let places: Vec<JsonPath> = obligations.iter().map(|(at, _)| at.clone()).collect();
        let typestate = Typestate {
            class: dto.class,
            summary: dto.summary,
            provenance: provenance(dto.provenance),
            notes: dto.notes,
            callins,
            callbacks,
            harmless,
            excluded,
            states,
            initial,
            obligations: obligations.into_iter().map(|(_, o)| o).collect(),
            examples,
        };
        for (at, obligation) in places.iter().zip(&typestate.obligations) {
            if let Some(problem) = typestate.obligation_problem(obligation) {
                self.error(at, problem);
            }
        }
        typestate
    }

    /// The obligation `dto` at `at`, or `None` when a callin it names does not resolve.
    fn obligation(&mut self, at: &JsonPath, dto: ObligationDto) -> Option<Obligation> {
        let states = dto
            .states
            .iter()
            .enumerate()
            .map(|(i, name)| self.state(&at.key("states").index(i), name))
            .collect();
        let until = dto
            .until
            .iter()
            .enumerate()
            .map(|(i, name)| self.input_callin(&at.key("until").index(i), name))
            .collect::<Option<Vec<_>>>()?;
        Some(Obligation {
            states,
            until,
            by: dto.by.map(|by| match by {
                DeadlineDto::Pause => Deadline::Pause,
                DeadlineDto::Stop => Deadline::Stop,
                DeadlineDto::Destroy => Deadline::Destroy,
            }),
            basis: if dto.convention {
                Basis::Convention
            } else {
                Basis::Required
            },
            origin: origin(dto.origin),
        })
    }

    /// The method `dto`, at `at`, reporting a class, name or parameter type the text format
    /// could not write.
    fn method(&mut self, at: &JsonPath, dto: MethodDto) -> MethodRef {
        // The text format writes a constructor as `new(…)`, which reads back as `<init>`.
        if matches!(dto.kind, MethodKindDto::Constructor) && dto.name != "<init>" {
            self.error(
                &at.key("name"),
                format!("a constructor is named \"<init>\", not {:?}", dto.name),
            );
        }
        // `new(…)` and `static(…)` in the text format read as a constructor and a static method.
        if matches!(dto.kind, MethodKindDto::Instance) && METHOD_KINDS.contains(&dto.name.as_str())
        {
            self.error(
                &at.key("name"),
                format!("{:?} cannot name an instance method", dto.name),
            );
        }
        MethodRef {
            kind: match dto.kind {
                MethodKindDto::Constructor => MethodKind::Constructor,
                MethodKindDto::Static => MethodKind::Static,
                MethodKindDto::Instance => MethodKind::Instance,
            },
            class: dto.class.map(|class| self.word(&at.key("class"), class)),
            name: self.simple_name(&at.key("name"), dto.name),
            params: match dto.params {
                ParamsDto::Any(_) => Params::Any,
                ParamsDto::Exact(types) => Params::Exact(
                    types
                        .into_iter()
                        .enumerate()
                        .map(|(i, ty)| self.word(&at.key("params").index(i), ty))
                        .collect(),
                ),
            },
        }
    }

    /// `text`, a method's simple name at `at`: a word without a dot, since the text format
    /// reads `a.b` as member `b` of class `a` (the `typestate_json` fuzz target found an
    /// override of `onFinis.`, printed as a method of class `onFinis` with no name).
    fn simple_name(&mut self, at: &JsonPath, text: String) -> String {
        if text.contains('.') {
            self.error(
                at,
                format!("a method is named by its simple name (its class goes in \"class\" or \"interface\"), not {text:?}"),
            );
            return text;
        }
        self.word(at, text)
    }

    /// `text`, a Java name or type at `at`, reported unless the text format can write it as
    /// one word (no spaces, quotes or punctuation beyond `.`, `$`, `<>`, `[]`, `?`, `*`).
    fn word(&mut self, at: &JsonPath, text: String) -> String {
        if !is_word(&text) {
            self.error(
                at,
                format!("{text:?} is not a Java name the text format can write"),
            );
        }
        text
    }

    /// A posted error callback's listener method, which must be qualified (`Type.method`).
    fn posted_callback(&mut self, at: &JsonPath, callback: String) -> String {
        let callback = self.word(at, callback);
        if !is_posted_callback(&callback) {
            self.error(
                at,
                format!("{callback:?} is not a qualified listener method (`Type.method`)"),
            );
        }
        callback
    }

    /// Records every state and symbol name, reporting duplicates, reserved words and names
    /// the text format could not write.
    fn declare_names(&mut self, dto: &TypestateDto) {
        let root = JsonPath::default();
        for (i, state) in dto.states.iter().enumerate() {
            let at = root.key("states").index(i).key("name");
            if !is_word(&state.name) {
                self.error(&at, format!("{:?} is not a valid state name", state.name));
            }
            if self.states.contains_key(&state.name) {
                self.error(&at, format!("state `{}` is declared twice", state.name));
            } else {
                self.states.insert(state.name.clone(), StateId(i as u32));
            }
        }
        let symbols = dto
            .callins
            .iter()
            .enumerate()
            .map(|(i, c)| (root.key("callins").index(i), &c.name))
            .chain(
                dto.callbacks
                    .iter()
                    .enumerate()
                    .map(|(i, c)| (root.key("callbacks").index(i), &c.name)),
            )
            .collect::<Vec<_>>();
        for (at, name) in symbols {
            let at = at.key("name");
            if !is_word(name) || RESERVED.contains(&name.as_str()) {
                self.error(&at, format!("{name:?} cannot name a symbol"));
            } else if self.callins.contains_key(name) || self.callbacks.contains_key(name) {
                self.error(&at, format!("symbol `{name}` is declared twice"));
            }
        }
        for (i, callin) in dto.callins.iter().enumerate() {
            self.callins
                .entry(callin.name.clone())
                .or_insert((CallinId(i as u32), callin.creates.is_some()));
        }
        for (i, callback) in dto.callbacks.iter().enumerate() {
            if !self.callins.contains_key(&callback.name) {
                self.callbacks
                    .entry(callback.name.clone())
                    .or_insert(CallbackId(i as u32));
            }
        }
    }

    fn state(&mut self, at: &JsonPath, name: &str) -> StateId {
        self.states.get(name).copied().unwrap_or_else(|| {
            self.error(at, format!("unknown state `{name}`"));
            StateId(0)
        })
    }

    fn callin(&mut self, at: &JsonPath, name: &str) -> Option<CallinId> {
        let found = self.callins.get(name).map(|(id, _)| *id);
        if found.is_none() {
            self.error(at, format!("unknown callin `{name}`"));
        }
        found
    }

    /// The callin `name`, reported unless it is an input (not a creator).
    fn input_callin(&mut self, at: &JsonPath, name: &str) -> Option<CallinId> {
        let id = self.callin(at, name)?;
        if self.callins[name].1 {
            self.error(
                at,
                format!("`{name}` creates the object; it discharges nothing"),
            );
            return None;
        }
        Some(id)
    }

    fn callback(&mut self, at: &JsonPath, name: &str) -> Option<CallbackId> {
        let found = self.callbacks.get(name).copied();
        if found.is_none() {
            self.error(at, format!("unknown callback `{name}`"));
        }
        found
    }

    fn state_of(&mut self, at: &JsonPath, dto: StateDto, n_callins: usize) -> State {
        let id = self.states.get(&dto.name).copied().unwrap_or(StateId(0));
        let mut on_callin = Steps::new(n_callins);
        for (name, step) in dto.callins {
            let at = at.key("callins").key(&name);
            let Some(callin) = self.callin(&at, &name) else {
                continue;
            };
            if self.callins[&name].1 {
                self.error(
                    &at,
                    format!("`{name}` creates the object; it has no transitions in states"),
                );
                continue;
            }
            on_callin[callin.index()] = self.step_of(&at, step);
        }
        let mut by_level: Vec<LevelStep> = Vec::new();
        for (index, dto) in dto.by_level.into_iter().enumerate() {
            let at = at.key("by_level").index(index);
            let Some(callin) = self.callin(&at.key("callin"), &dto.callin) else {
                continue;
            };
            if self.callins[&dto.callin].1 {
                self.error(
                    &at.key("callin"),
                    format!(
                        "`{}` creates the object; it has no transitions in states",
                        dto.callin
                    ),
                );
                continue;
            }
            let Some(levels) = ApiLevels::parse(&dto.levels) else {
                self.error(
                    &at.key("levels"),
                    format!(
                        "expected API levels `23..28`, `..22` or `29..` (a range holding some but not all levels), found `{}`",
                        dto.levels
                    ),
                );
                continue;
            };
            if by_level
                .iter()
                .any(|l| l.callin == callin && l.levels.overlaps(levels))
            {
                self.error(
                    &at.key("levels"),
                    format!(
                        "callin `{}` already has a step on some of the levels {levels}: the ranges of one callin must be disjoint",
                        dto.callin
                    ),
                );
                continue;
            }
            let step = self.step_of(&at.key("step"), dto.step);
            by_level.push(LevelStep {
                callin,
                levels,
                step,
            });
        }
        by_level.sort_by_key(|l| l.callin);
        let wait_at = at.key("wait");
        let on_wait = match dto.wait {
            None => WaitOutcome::quiet_loop(id),
            Some(WaitDto::Quiet { target, origin: o }) => WaitOutcome::Quiet {
                target: self.state(&wait_at.key("target"), &target),
                origin: origin(o),
            },
            Some(WaitDto::Callback {
                callback,
                target,
                origin: o,
            }) => {
                let target = self.state(&wait_at.key("target"), &target);
                let callback = self
                    .callback(&wait_at.key("callback"), &callback)
                    .unwrap_or(CallbackId(0));
                WaitOutcome::Callback {
                    callback,
                    target,
                    origin: origin(o),
                }
            }
            Some(WaitDto::Fails { origin: o }) => WaitOutcome::Error { origin: origin(o) },
            Some(WaitDto::Restricted { origin: o }) => {
                WaitOutcome::Restricted { origin: origin(o) }
            }
        };
        State {
            name: dto.name,
            description: dto.description,
            on_callin,
            on_wait,
            by_level,
        }
    }

    /// The step a JSON step at `at` stands for.
    fn step_of(&mut self, at: &JsonPath, step: StepDto) -> Step {
        match step {
            StepDto::Enabled {
                target,
                ignored,
                origin: o,
            } => Step::Enabled {
                target: self.state(&at.key("target"), &target),
                ignored,
                origin: origin(o),
            },
            StepDto::Error {
                exception,
                posts,
                origin: o,
            } => {
                let failure = match (exception, posts) {
                    (exception, None) => {
                        Failure::Throws(exception.map(|name| self.word(&at.key("exception"), name)))
                    }
                    (None, Some(callback)) => Failure::Posts(PostedError {
                        callback: self.posted_callback(&at.key("posts"), callback),
                    }),
                    (Some(_), Some(callback)) => {
                        self.error(
                            &at.key("posts"),
                            "an error either throws `exception` or posts a callback, not both"
                                .to_owned(),
                        );
                        Failure::Posts(PostedError { callback })
                    }
                };
                Step::Error {
                    failure,
                    origin: origin(o),
                }
            }
            StepDto::Restricted { origin: o } => Step::Restricted { origin: origin(o) },
        }
    }

    fn example(&mut self, at: &JsonPath, dto: ExampleDto) -> Option<Example> {
        let trace = dto
            .trace
            .iter()
            .enumerate()
            .map(|(i, name)| {
                if name == "quiet" {
                    Some(Event::Quiet)
                } else if let Some((id, _)) = self.callins.get(name) {
                    Some(Event::Callin(*id))
                } else if let Some(id) = self.callbacks.get(name) {
                    Some(Event::Callback(*id))
                } else {
                    self.error(
                        &at.key("trace").index(i),
                        format!(
                            "unknown event `{name}` (expected a callin, a callback or `quiet`)"
                        ),
                    );
                    None
                }
            })
            .collect::<Vec<_>>();
        Some(Example {
            accepted: dto.accepted,
            trace: trace.into_iter().collect::<Option<_>>()?,
        })
    }
}

fn provenance(dto: ProvenanceDto) -> Provenance {
    Provenance {
        kind: match dto.kind {
            ProvenanceKindDto::Learned => ProvenanceKind::Learned,
            ProvenanceKindDto::Droidstar => ProvenanceKind::Droidstar,
            ProvenanceKindDto::Documented => ProvenanceKind::Documented,
        },
        sources: dto.sources,
        platform: dto.platform,
        stats: dto.stats.map(|s| LearningStats {
            states: s.states,
            time_ms: s.time_ms,
            mq_asked: s.mq_asked,
            mq_executed: s.mq_executed,
            eq: s.eq,
            distinguisher_bound: s.distinguisher_bound,
        }),
        run: dto.run.map(|run| LearningRun {
            backend: match run.backend {
                BackendDto::Jvm => Backend::Jvm,
                BackendDto::Robolectric => Backend::Robolectric,
                BackendDto::Android => Backend::Android,
            },
            sdk: run.sdk,
            code: run.code.map(|code| match code {
                CodeDto::Real => Code::Real,
                CodeDto::CallsThrough => Code::CallsThrough,
                CodeDto::Simulated => Code::Simulated,
            }),
            date: run.date,
        }),
    }
}

fn origin(dto: OriginDto) -> Origin {
    Origin {
        source: dto.source,
        unverified: dto.unverified,
    }
}
