//! Model to wire types: every field of a [`Typestate`], with indices replaced by names.

use super::{
    AnyOverload, BackendDto, CallbackBindingDto, CallbackDto, CallinDto, CodeDto, DeadlineDto,
    ExampleDto, ExclusionDto, LevelStepDto, MethodDto, MethodKindDto, ObligationDto, OriginDto,
    ParamsDto, ProvenanceDto, ProvenanceKindDto, RunDto, StateDto, StatsDto, StepDto, TypestateDto,
    Version, WaitDto,
};
use crate::binding::{CallbackBinding, MethodKind, MethodRef, Params};
use crate::model::{Origin, StateId, Step, Typestate, WaitOutcome};
use crate::obligation::{Basis, Deadline};
use crate::provenance::{Backend, Code, LearningStats, Provenance, ProvenanceKind};

/// The JSON text of `typestate`, pretty-printed with a final newline.
/// A state lists the callins whose step says more than an unknown error, as the text format
/// does, so the text grows with the steps the model holds, not with its states times its callins.
pub fn to_json(typestate: &Typestate) -> String {
    let mut text = serde_json::to_string_pretty(&dto(typestate)).expect("the wire types serialize");
    text.push('\n');
    text
}

fn dto(t: &Typestate) -> TypestateDto {
    let state_name = |id: crate::StateId| t.state(id).name.clone();
    TypestateDto {
        format: Version::V1,
        class: t.class.clone(),
        summary: t.summary.clone(),
        provenance: provenance(&t.provenance),
        notes: t.notes.clone(),
        callins: t
            .callins
            .iter()
            .map(|callin| CallinDto {
                name: callin.name.clone(),
                methods: callin.binding.methods.iter().map(method).collect(),
                condition: callin.binding.condition.clone(),
                returns: callin.binding.returns.as_ref().map(ToString::to_string),
                creates: callin.creates.map(state_name),
            })
            .collect(),
        callbacks: t
            .callbacks
            .iter()
            .map(|callback| CallbackDto {
                name: callback.name.clone(),
                binding: match &callback.binding {
                    CallbackBinding::Listener {
                        interface,
                        method,
                        register,
                        register_callin,
                    } => CallbackBindingDto::Listener {
                        interface: interface.clone(),
                        method: method.clone(),
                        register: register.clone(),
                        register_callin: register_callin.map(|id| t.callin(id).name.clone()),
                    },
                    CallbackBinding::Override { class, method } => CallbackBindingDto::Override {
                        class: class.clone(),
                        method: method.clone(),
                    },
                },
                condition: callback.condition.clone(),
            })
            .collect(),
        harmless: t.harmless.iter().map(method).collect(),
        excluded: (t.excluded.iter())
            .map(|exclusion| ExclusionDto {
                methods: exclusion.methods.iter().map(method).collect(),
                reason: exclusion.reason.clone(),
            })
            .collect(),
        initial: state_name(t.initial),
        states: t
            .state_ids()
            .map(|id| {
                let state = t.state(id);
                StateDto {
                    name: state.name.clone(),
                    description: state.description.clone(),
                    callins: state
                        .on_callin
                        .named()
                        .filter(|&(index, _)| !t.callins[index].is_creator())
                        .map(|(index, step)| {
                            (t.callins[index].name.clone(), step_dto(step, &state_name))
                        })
                        .collect(),
                    by_level: state
                        .by_level
                        .iter()
                        .map(|l| LevelStepDto {
                            callin: t.callin(l.callin).name.clone(),
                            levels: l.levels.to_string(),
                            step: step_dto(&l.step, &state_name),
                        })
                        .collect(),
                    wait: Some(match &state.on_wait {
                        WaitOutcome::Quiet { target, origin } => WaitDto::Quiet {
                            target: state_name(*target),
                            origin: self::origin(origin),
                        },
                        WaitOutcome::Callback {
                            callback,
                            target,
                            origin,
                        } => WaitDto::Callback {
                            callback: t.callback(*callback).name.clone(),
                            target: state_name(*target),
                            origin: self::origin(origin),
                        },
                        WaitOutcome::Error { origin } => WaitDto::Fails {
                            origin: self::origin(origin),
                        },
                        WaitOutcome::Restricted { origin } => WaitDto::Restricted {
                            origin: self::origin(origin),
                        },
                    }),
                }
            })
            .collect(),
        obligations: t
            .obligations
            .iter()
            .map(|o| ObligationDto {
                states: o.states.iter().map(|&s| state_name(s)).collect(),
                until: o.until.iter().map(|&c| t.callin(c).name.clone()).collect(),
                by: o.by.map(|by| match by {
                    Deadline::Pause => DeadlineDto::Pause,
                    Deadline::Stop => DeadlineDto::Stop,
                    Deadline::Destroy => DeadlineDto::Destroy,
                }),
                convention: o.basis == Basis::Convention,
                origin: origin(&o.origin),
            })
            .collect(),
        examples: t
            .examples
            .iter()
            .map(|example| ExampleDto {
                accepted: example.accepted,
                trace: example
                    .trace
                    .iter()
                    .map(|event| t.event_name(*event).to_owned())
                    .collect(),
            })
            .collect(),
    }
}

fn provenance(p: &Provenance) -> ProvenanceDto {
    ProvenanceDto {
        kind: match p.kind {
            ProvenanceKind::Learned => ProvenanceKindDto::Learned,
            ProvenanceKind::Droidstar => ProvenanceKindDto::Droidstar,
            ProvenanceKind::Documented => ProvenanceKindDto::Documented,
        },
        sources: p.sources.clone(),
        platform: p.platform.clone(),
        stats: p.stats.as_ref().map(|s: &LearningStats| StatsDto {
            states: s.states,
            time_ms: s.time_ms,
            mq_asked: s.mq_asked,
            mq_executed: s.mq_executed,
            eq: s.eq,
            distinguisher_bound: s.distinguisher_bound,
        }),
        run: p.run.as_ref().map(|run| RunDto {
            backend: match run.backend {
                Backend::Jvm => BackendDto::Jvm,
                Backend::Robolectric => BackendDto::Robolectric,
                Backend::Android => BackendDto::Android,
            },
            sdk: run.sdk,
            code: run.code.map(|code| match code {
                Code::Real => CodeDto::Real,
                Code::CallsThrough => CodeDto::CallsThrough,
                Code::Simulated => CodeDto::Simulated,
            }),
            date: run.date.clone(),
        }),
    }
}

fn method(m: &MethodRef) -> MethodDto {
    MethodDto {
        kind: match m.kind {
            MethodKind::Constructor => MethodKindDto::Constructor,
            MethodKind::Static => MethodKindDto::Static,
            MethodKind::Instance => MethodKindDto::Instance,
        },
        class: m.class.clone(),
        name: m.name.clone(),
        params: match &m.params {
            Params::Any => ParamsDto::Any(AnyOverload::Any),
            Params::Exact(types) => ParamsDto::Exact(types.clone()),
        },
    }
}

fn origin(o: &Origin) -> OriginDto {
    OriginDto {
        source: o.source.clone(),
        unverified: o.unverified,
    }
}

/// A step as JSON, naming its target with `state_name`.
fn step_dto(step: &Step, state_name: &impl Fn(StateId) -> String) -> StepDto {
    match step {
        Step::Enabled {
            target,
            ignored,
            origin: o,
        } => StepDto::Enabled {
            target: state_name(*target),
            ignored: *ignored,
            origin: origin(o),
        },
        Step::Error { failure, origin: o } => StepDto::Error {
            exception: failure.exception().map(str::to_owned),
            posts: failure.posted().map(|posted| posted.callback.clone()),
            origin: origin(o),
        },
        Step::Restricted { origin: o } => StepDto::Restricted { origin: origin(o) },
    }
}
