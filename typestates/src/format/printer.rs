//! Writes a typestate in the canonical text form, which [`super::parse`] reads back unchanged.

use std::fmt::Write;

use super::lexer::quote;
use crate::binding::{CallbackBinding, MethodKind, MethodRef, Params};
use crate::levels::ApiLevels;
use crate::model::{Failure, LevelStep, Step, Typestate, WaitOutcome};
use crate::obligation::Basis;
use crate::Origin;

/// The canonical text of `typestate`.
pub fn print(typestate: &Typestate) -> String {
    let mut out = String::new();
    // Writing to a String cannot fail.
    let _ = write_typestate(&mut out, typestate);
    out
}

fn write_typestate(out: &mut String, t: &Typestate) -> std::fmt::Result {
    writeln!(out, "typestate {}", t.class)?;
    if let Some(summary) = &t.summary {
        writeln!(out, "summary {}", quote(summary))?;
    }
    writeln!(out, "provenance {}", t.provenance.kind.keyword())?;
    if let Some(platform) = &t.provenance.platform {
        writeln!(out, "platform {}", quote(platform))?;
    }
    for source in &t.provenance.sources {
        writeln!(out, "source {}", quote(source))?;
    }
    if let Some(stats) = &t.provenance.stats {
        write!(
            out,
            "stats states={} time_ms={} mq_asked={} mq_executed={} eq={}",
            stats.states, stats.time_ms, stats.mq_asked, stats.mq_executed, stats.eq
        )?;
        if let Some(bound) = stats.distinguisher_bound {
            write!(out, " bound={bound}")?;
        }
        writeln!(out)?;
    }
    if let Some(run) = &t.provenance.run {
        write!(out, "run backend={}", run.backend.keyword())?;
        if let Some(sdk) = run.sdk {
            write!(out, " sdk={sdk}")?;
        }
        if let Some(code) = run.code {
            write!(out, " code={}", code.keyword())?;
        }
        if let Some(date) = &run.date {
            write!(out, " date={}", quote(date))?;
        }
        writeln!(out)?;
    }
    for note in &t.notes {
        writeln!(out, "note {}", quote(note))?;
    }
    writeln!(out)?;
    for callin in &t.callins {
        let methods: Vec<String> = callin.binding.methods.iter().map(method_ref).collect();
        write!(out, "callin {}: {}", callin.name, methods.join(" | "))?;
        if let Some(answer) = &callin.binding.returns {
            write!(out, " returns {answer}")?;
        }
        if let Some(condition) = &callin.binding.condition {
            write!(out, " when {}", quote(condition))?;
        }
        if let Some(state) = callin.creates {
            write!(out, " creates {}", t.state(state).name)?;
        }
        writeln!(out)?;
    }
    for callback in &t.callbacks {
        match &callback.binding {
            CallbackBinding::Listener {
                interface,
                method,
                register,
                ..
            } => write!(
                out,
                "callback {}: listener {interface}.{method} via {register}",
                callback.name
            )?,
            CallbackBinding::Override { class, method } => write!(
                out,
                "callback {}: override {}",
                callback.name,
                qualified(class.as_deref(), method)
            )?,
        }
        if let Some(condition) = &callback.condition {
            write!(out, " when {}", quote(condition))?;
        }
        writeln!(out)?;
    }
    if !t.harmless.is_empty() {
        let methods: Vec<String> = t.harmless.iter().map(method_ref).collect();
        writeln!(out, "harmless: {}", methods.join(" | "))?;
    }
    for exclusion in &t.excluded {
        let methods: Vec<String> = exclusion.methods.iter().map(method_ref).collect();
        writeln!(
            out,
            "excluded: {} because {}",
            methods.join(" | "),
            quote(&exclusion.reason)
        )?;
    }
    for obligation in &t.obligations {
        let states: Vec<&str> = obligation
            .states
            .iter()
            .map(|&s| t.state(s).name.as_str())
            .collect();
        let until: Vec<&str> = obligation
            .until
            .iter()
            .map(|&c| t.callin(c).name.as_str())
            .collect();
        write!(
            out,
            "obligation {} until {}",
            states.join(" | "),
            until.join(" | ")
        )?;
        if let Some(by) = obligation.by {
            write!(out, " by {}", by.method())?;
        }
        if obligation.basis == Basis::Convention {
            write!(out, " convention")?;
        }
        write_origin(out, &obligation.origin)?;
    }
    for state in t.state_ids() {
        let s = t.state(state);
        writeln!(out)?;
        write!(out, "state {}", s.name)?;
        if state == t.initial {
            write!(out, " initial")?;
        }
        if let Some(description) = &s.description {
            write!(out, " {}", quote(description))?;
        }
        writeln!(out)?;
        // The callins this state says something of, in callin order: a step that is not an
        // unknown error, or steps on some levels. Visiting every callin of every state made
        // printing a sparse model quadratic (bench/scale, `typestate-sparse`).
        let mut named: std::collections::BTreeMap<usize, (Option<&Step>, Vec<&LevelStep>)> =
            std::collections::BTreeMap::new();
        for (index, step) in s.on_callin.named() {
            named.entry(index).or_default().0 = Some(step);
        }
        for level_step in &s.by_level {
            named
                .entry(level_step.callin.index())
                .or_default()
                .1
                .push(level_step);
        }
        for (index, (step, level_steps)) in named {
            let callin = &t.callins[index];
            if callin.is_creator() {
                continue;
            }
            if let Some(step) = step {
                write_step(out, t, &callin.name, step, None)?;
            }
            for level_step in level_steps {
                write_step(
                    out,
                    t,
                    &callin.name,
                    &level_step.step,
                    Some(level_step.levels),
                )?;
            }
        }
        match &s.on_wait {
            WaitOutcome::Quiet { target, origin } => {
                if *target != state || *origin != Origin::default() {
                    write!(out, "  quiet -> {}", t.state(*target).name)?;
                    write_origin(out, origin)?;
                }
            }
            WaitOutcome::Callback {
                callback,
                target,
                origin,
            } => {
                write!(
                    out,
                    "  on {} -> {}",
                    t.callback(*callback).name,
                    t.state(*target).name
                )?;
                write_origin(out, origin)?;
            }
            WaitOutcome::Error { origin } => {
                write!(out, "  fails")?;
                write_origin(out, origin)?;
            }
            WaitOutcome::Restricted { origin } => {
                write!(out, "  wait restricted")?;
                write_origin(out, origin)?;
            }
        }
    }
    if !t.examples.is_empty() {
        writeln!(out)?;
    }
    for example in &t.examples {
        let events: Vec<&str> = example.trace.iter().map(|e| t.event_name(*e)).collect();
        let keyword = if example.accepted { "accept" } else { "reject" };
        writeln!(out, "{keyword}: {}", events.join(" "))?;
    }
    Ok(())
}

/// Writes the line of a callin's step, on some levels only when `levels` says so; an error with
/// nothing to say on every level is what an unmentioned callin means, and is left out.
fn write_step(
    out: &mut String,
    t: &Typestate,
    name: &str,
    step: &Step,
    levels: Option<ApiLevels>,
) -> std::fmt::Result {
    let origin = match step {
        Step::Enabled {
            target,
            ignored,
            origin,
        } => {
            write!(out, "  {name} -> {}", t.state(*target).name)?;
            if *ignored {
                write!(out, " ignored")?;
            }
            origin
        }
        Step::Error { failure, origin } => {
            if *failure == Failure::Throws(None) && *origin == Origin::default() && levels.is_none()
            {
                return Ok(());
            }
            write!(out, "  {name} error")?;
            match failure {
                Failure::Throws(Some(exception)) => write!(out, " {exception}")?,
                Failure::Throws(None) => {}
                Failure::Posts(posted) => write!(out, " posts {}", posted.callback)?,
            }
            origin
        }
        Step::Restricted { origin } => {
            write!(out, "  {name} restricted")?;
            origin
        }
    };
    if let Some(levels) = levels {
        write!(out, " levels {levels}")?;
    }
    write_origin(out, origin)
}

/// Ends a transition or obligation line with its origin.
fn write_origin(out: &mut String, origin: &Origin) -> std::fmt::Result {
    if let Some(source) = &origin.source {
        write!(out, " from {}", quote(source))?;
    }
    if origin.unverified {
        write!(out, " unverified")?;
    }
    writeln!(out)
}

fn qualified(class: Option<&str>, member: &str) -> String {
    match class {
        Some(class) => format!("{class}.{member}"),
        None => member.to_owned(),
    }
}

fn method_ref(method: &MethodRef) -> String {
    let params = match &method.params {
        Params::Any => "..".to_owned(),
        Params::Exact(types) => types.join(", "),
    };
    match method.kind {
        MethodKind::Constructor => match &method.class {
            Some(class) => format!("new {class}({params})"),
            None => format!("new({params})"),
        },
        MethodKind::Static => format!(
            "static {}({params})",
            qualified(method.class.as_deref(), &method.name)
        ),
        MethodKind::Instance => {
            format!(
                "{}({params})",
                qualified(method.class.as_deref(), &method.name)
            )
        }
    }
}
