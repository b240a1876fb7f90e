//! Learns every bundled protocol on the model backend and compares each learned typestate, as
//! `typestar learn` prints it, with the file beside it in `tests/learned/` (the library's
//! layout; `UPDATE_EXPECT=1` rewrites them).
//! Every learned machine must equal its model from the initial state, and every creator must
//! start where the model's does, or in the `Unlearned` state when no run of the experiment
//! reaches that state.

use std::path::Path;

use learner::backend::model::ModelConfig;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice};
use learner::{learned_typestate, Algorithm, Alphabet, End, Statistics};
use learner::{Choices, Session};
use typestates::mealy::{to_mealy, Mealy};
use typestates::{StateId, Typestate};

#[tokio::test]
async fn every_library_class_is_learned_with_its_creators_placed() {
    let learned_dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/learned");
    for file in typestates::library::bundled_files() {
        let model = typestates::format::parse(file.path, file.text).expect("bundled files parse");
        let bound = state_bound(&model);
        let run = learn_simulated(
            &model,
            &Session::new(Choices::of(
                Algorithm::default(),
                EquivalenceChoice::StateBound(bound),
            )),
            ModelConfig::default(),
        )
        .await
        .expect("no journal");
        assert!(matches!(run.outcome.end, End::Learned), "{}", file.path);
        assert!(
            run.is_equivalent_to(&model),
            "{}: not equivalent",
            file.path
        );
        let alphabet = Alphabet::of(model.signature());
        let statistics =
            Statistics::collect(&run.outcome, run.asked, run.executed, &Default::default());
        let learned = learned_typestate(
            run.outcome.hypothesis.as_ref().expect("learned"),
            &alphabet,
            &statistics,
            &[],
            &Default::default(),
        );
        for creator in &alphabet.signature.creators {
            let name = &model.callin(creator.callin).name;
            let start = learned
                .callin(creator.callin)
                .creates
                .expect("still a creator");
            if creator.word.is_none() {
                assert_eq!(
                    learned.state(start).name,
                    "Unlearned",
                    "{}: {name}",
                    file.path
                );
                continue;
            }
            let expected = model.callin(creator.callin).creates.expect("a creator");
            assert_eq!(
                from(&learned, start).minimize(),
                from(&model, expected).minimize(),
                "{}: `{name}` starts elsewhere",
                file.path
            );
        }
        let text = format!(
            "# {} learned on the model backend: L#, state bound {bound}, error sink included.\n{}",
            model.class,
            typestates::format::print(&learned)
        );
        expect_test::expect_file![learned_dir.join(file.path)].assert_eq(&text);
    }
}

/// The Mealy machine of `typestate` started in `state`.
fn from(typestate: &Typestate, state: StateId) -> Mealy {
    Mealy {
        initial: state.0,
        ..to_mealy(typestate)
    }
}
