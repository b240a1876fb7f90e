//! The protocol table: one row per state, one column per callin and one for time passing.
//!
//! ```text
//! | state             | start     | cancel    | when time passes   |
//! | ----------------- | --------- | --------- | ------------------ |
//! | Created (initial) | → Running | → Created | quiet              |
//! | Running           | ✗ ?       | → Done    | on finished → Done |
//! | Done              | ✗         | → Done    | quiet              |
//! ```
//!
//! It is Markdown whose columns are padded, so the same text reads well in a terminal
//! (`typestar show`) and renders in hovers.
//! A cell says `→ Target` for an enabled callin (with `(ignored)` when it has no effect).
//! It says `✗` for a disabled one (with the exception when known).
//! For time passing it says `quiet`, `quiet → Target`, `on callback → Target` or `✗ fails`.
//! An input the experiment forbade says `restricted`, never `✗`: nothing is known of it.
//! Facts marked unverified end in `?`.

use super::simple_name;
use crate::model::{CallinId, Failure, Origin, StateId, Step, Typestate, WaitOutcome};

/// The header and one row per state, as text cells.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Table {
    /// `state`, the callin names, `when time passes`.
    pub header: Vec<String>,
    /// One row per state, in the typestate's order, with as many cells as the header.
    pub rows: Vec<Vec<String>>,
}

/// The protocol table of `typestate`; the initial state's name is marked `(initial)`.
pub fn table(typestate: &Typestate) -> Table {
    let t = typestate;
    let header = std::iter::once("state".to_owned())
        .chain(t.input_callins().map(|c| t.callin(c).name.clone()))
        .chain(std::iter::once("when time passes".to_owned()))
        .collect();
    let rows = t
        .state_ids()
        .map(|state| {
            let mut row = vec![state_cell(t, state)];
            row.extend(t.input_callins().map(|c| callin_cell(t, state, c)));
            row.push(wait_cell(t, state));
            row
        })
        .collect();
    Table { header, rows }
}

/// The table of `typestate` as padded Markdown.
pub fn render(typestate: &Typestate) -> String {
    table(typestate).to_markdown()
}

impl Table {
    /// Markdown with every column padded to its widest cell.
    pub fn to_markdown(&self) -> String {
        let widths: Vec<usize> = (0..self.header.len())
            .map(|column| {
                std::iter::once(&self.header)
                    .chain(&self.rows)
                    .map(|row| width(&row[column]))
                    .max()
                    .unwrap_or(0)
                    .max(3)
            })
            .collect();
        let line = |cells: Vec<String>| format!("| {} |\n", cells.join(" | "));
        let pad = |row: &Vec<String>| {
            line(
                row.iter()
                    .zip(&widths)
                    .map(|(cell, w)| format!("{cell}{}", " ".repeat(w - width(cell))))
                    .collect(),
            )
        };
        let mut out = pad(&self.header);
        out.push_str(&line(widths.iter().map(|w| "-".repeat(*w)).collect()));
        for row in &self.rows {
            out.push_str(&pad(row));
        }
        out
    }
}

fn width(cell: &str) -> usize {
    cell.chars().count()
}

fn state_cell(t: &Typestate, state: StateId) -> String {
    let name = &t.state(state).name;
    if state == t.initial {
        format!("{name} (initial)")
    } else {
        name.clone()
    }
}

/// The cell of `callin` in `state`: its step, then each step that holds on some API levels
/// only, after its levels (`✗ IllegalStateException; 24..: → Released`).
fn callin_cell(t: &Typestate, state: StateId, callin: CallinId) -> String {
    let mut cell = step_cell(t, t.step(state, callin));
    for level_step in t
        .state(state)
        .by_level
        .iter()
        .filter(|l| l.callin == callin)
    {
        cell.push_str(&format!(
            "; {}: {}",
            level_step.levels,
            step_cell(t, &level_step.step)
        ));
    }
    cell
}

fn step_cell(t: &Typestate, step: &Step) -> String {
    let cell = match step {
        Step::Enabled {
            target, ignored, ..
        } => {
            let target = &t.state(*target).name;
            if *ignored {
                format!("→ {target} (ignored)")
            } else {
                format!("→ {target}")
            }
        }
        Step::Error { failure, .. } => match failure {
            Failure::Throws(Some(exception)) => format!("✗ {}", simple_name(exception)),
            Failure::Throws(None) => "✗".to_owned(),
            Failure::Posts(posted) => format!("✗ posts {}", simple_name(&posted.callback)),
        },
        Step::Restricted { .. } => "restricted".to_owned(),
    };
    mark_unverified(cell, step.origin())
}

fn wait_cell(t: &Typestate, state: StateId) -> String {
    let wait = &t.state(state).on_wait;
    let cell = match wait {
        WaitOutcome::Quiet { target, .. } if *target == state => "quiet".to_owned(),
        WaitOutcome::Quiet { target, .. } => format!("quiet → {}", t.state(*target).name),
        WaitOutcome::Callback {
            callback, target, ..
        } => format!(
            "on {} → {}",
            t.callback(*callback).name,
            t.state(*target).name
        ),
        WaitOutcome::Error { .. } => "✗ fails".to_owned(),
        WaitOutcome::Restricted { .. } => "restricted".to_owned(),
    };
    mark_unverified(cell, wait.origin())
}

fn mark_unverified(cell: String, origin: &Origin) -> String {
    if origin.unverified {
        format!("{cell} ?")
    } else {
        cell
    }
}
