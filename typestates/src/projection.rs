//! A typestate projected onto some of its inputs: the protocol an experiment with that smaller
//! alphabet would learn.
//! The learner benchmark compares with DroidStar's Table 1 on DroidStar's alphabet, though library
//! files add callins read from the class's source.

use crate::model::{CallinId, Event, Example, StateId, Step, Typestate, WaitOutcome};

/// A projection named a callin the typestate does not have as an input.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{class} has no input callin `{name}` to project onto")]
pub struct UnknownInput {
    /// The typestate's class.
    pub class: String,
    /// The name that is not one of its input callins.
    pub name: String,
}

impl Typestate {
    /// The typestate whose inputs are only the callins named in `inputs`: the other input
    /// callins are removed (creators stay), then the states no longer reachable from the
    /// initial state or a creator, and the examples that mention a removed callin.
    pub fn project_onto(&self, inputs: &[&str]) -> Result<Typestate, UnknownInput> {
        if let Some(name) = inputs.iter().find(|name| {
            self.callin_by_name(name)
                .is_none_or(|id| self.callin(id).is_creator())
        }) {
            return Err(UnknownInput {
                class: self.class.clone(),
                name: (*name).to_owned(),
            });
        }
        let kept: Vec<CallinId> = (0..self.callins.len() as u32)
            .map(CallinId)
            .filter(|&id| {
                let callin = self.callin(id);
                callin.is_creator() || inputs.contains(&callin.name.as_str())
            })
            .collect();
        let mut projected = Typestate {
            callins: kept.iter().map(|&id| self.callin(id).clone()).collect(),
            states: self.states.clone(),
            examples: Vec::new(),
            // Obligations are not inputs of the learned machine a projection is compared on.
            obligations: Vec::new(),
            ..self.clone()
        };
        for state in &mut projected.states {
            state.on_callin = kept
                .iter()
                .map(|id| state.on_callin[id.index()].clone())
                .collect();
        }
        let new_callin = |old: CallinId| {
            kept.iter()
                .position(|&id| id == old)
                .map(|i| CallinId(i as u32))
        };
        projected.examples = self
            .examples
            .iter()
            .filter_map(|example| {
                let trace = example
                    .trace
                    .iter()
                    .map(|event| match *event {
                        Event::Callin(id) => new_callin(id).map(Event::Callin),
                        other => Some(other),
                    })
                    .collect::<Option<Vec<Event>>>()?;
                Some(Example {
                    trace,
                    ..example.clone()
                })
            })
            .collect();
        Ok(projected.without_unreachable_states())
    }

    /// The same typestate without the states [`Typestate::reachable_states`] does not reach.
    fn without_unreachable_states(mut self) -> Typestate {
        let reachable = self.reachable_states();
        let mut renumbered = Vec::with_capacity(reachable.len());
        let mut next = 0;
        for &seen in &reachable {
            renumbered.push(seen.then_some(StateId(next)));
            next += u32::from(seen);
        }
        let new_state = |old: StateId| renumbered[old.index()].expect("a reachable state");
        self.states = std::mem::take(&mut self.states)
            .into_iter()
            .zip(&reachable)
            .filter_map(|(state, &seen)| seen.then_some(state))
            .collect();
        for state in &mut self.states {
            for step in state.on_callin.set_mut() {
                if let Step::Enabled { target, .. } = step {
                    *target = new_state(*target);
                }
            }
            if let WaitOutcome::Quiet { target, .. } | WaitOutcome::Callback { target, .. } =
                &mut state.on_wait
            {
                *target = new_state(*target);
            }
        }
        self.initial = new_state(self.initial);
        for callin in &mut self.callins {
            callin.creates = callin.creates.map(new_state);
        }
        self
    }
}

#[cfg(test)]
mod tests {
    use crate::format::parse;

    const PLAYER: &str = r#"typestate demo.Player
callin create: new() creates Idle
callin play: play()
callin stop: stop()
callin destroy: destroy()
callback done: override onDone()
state Idle initial
  play -> Playing
  stop -> Idle ignored
  destroy -> Destroyed
state Playing
  stop -> Idle
  destroy -> Destroyed
  on done -> Idle
state Destroyed
  play error java.lang.IllegalStateException
accept: play done play stop
accept: play destroy
reject: destroy play
"#;

    #[test]
    fn projection_drops_the_other_inputs_and_the_states_only_they_reach() {
        let player = parse("Player.typestate", PLAYER).expect("the fixture parses");
        let projected = player.project_onto(&["play", "stop"]).unwrap();
        let names = |ts: &crate::Typestate| -> Vec<String> {
            ts.states.iter().map(|s| s.name.clone()).collect()
        };
        assert_eq!(names(&projected), ["Idle", "Playing"]);
        let callins: Vec<&str> = projected.callins.iter().map(|c| c.name.as_str()).collect();
        assert_eq!(callins, ["create", "play", "stop"]);
        assert_eq!(
            projected.examples.len(),
            1,
            "only the examples without destroy"
        );
        assert!(projected
            .examples
            .iter()
            .all(|e| projected.accepts(&e.trace)));
        let stop = projected.callin_by_name("stop").unwrap();
        let idle = projected.state_by_name("Idle").unwrap();
        assert!(matches!(
            projected.step(idle, stop),
            crate::Step::Enabled { ignored: true, target, .. } if *target == idle
        ));
        assert_eq!(projected.n_minimal_states(), 2);
    }

    #[test]
    fn projection_onto_every_input_changes_nothing() {
        let player = parse("Player.typestate", PLAYER).expect("the fixture parses");
        let projected = player.project_onto(&["play", "stop", "destroy"]).unwrap();
        assert_eq!(projected, player);
    }

    #[test]
    fn projection_onto_an_unknown_input_or_a_creator_is_an_error() {
        let player = parse("Player.typestate", PLAYER).expect("the fixture parses");
        for name in ["pause", "create"] {
            let error = player.project_onto(&["play", name]).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("demo.Player has no input callin `{name}` to project onto")
            );
        }
    }
}
