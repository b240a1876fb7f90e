//! What stops learning when its assumptions fail: a state bound that is too small, and a
//! system whose hypotheses grow without end.

mod common;

use std::sync::Arc;

use common::reference;
use learner::backend::model::ModelConfig;
use learner::backend::model::{ModelSul, SimClock};
use learner::equivalence::CacheConsistency;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice};
use learner::{
    learn, Alphabet, Chain, DistinguisherBound, End, LearnConfig, NoProgress, Pipeline,
    PipelineConfig,
};
use learner::{Choices, Session};

/// How every library class ends under its tight state bound minus `deficit`, alone and with
/// distinguisher bound 2, one line a run; and the guarantees of the runs that ended `learned`
/// with a model other than the class's. Bounds below 2 (the error sink and one state) are
/// left out.
async fn too_small_by(deficit: usize) -> (String, Vec<EquivalenceChoice>) {
    let mut text = String::new();
    let mut wrong = Vec::new();
    for file in typestates::library::bundled_files() {
        let model = typestates::format::parse(file.path, file.text).expect("bundled files parse");
        let Some(bound) = state_bound(&model)
            .checked_sub(deficit)
            .filter(|it| *it >= 2)
        else {
            continue;
        };
        for equivalence in [
            EquivalenceChoice::StateBound(bound),
            EquivalenceChoice::DistinguisherAndStateBound(2, bound),
        ] {
            let run = learn_simulated(
                &model,
                &Session::new(Choices::of(learner::Algorithm::default(), equivalence)),
                ModelConfig::default(),
            )
            .await
            .expect("no journal");
            let end = match &run.outcome.end {
                End::Learned if run.is_equivalent_to(&model) => "learned, exact".to_owned(),
                End::Learned => {
                    wrong.push(equivalence);
                    "learned, WRONG".to_owned()
                }
                End::StateBoundExceeded { states, .. } => {
                    format!("stopped: {states} states exceed the bound")
                }
                End::StateBoundRefuted { checked, .. } => {
                    format!("stopped: a counterexample for {checked} states")
                }
                other => format!("stopped: {other:?}"),
            };
            text.push_str(&format!(
                "{} {}: {end}\n",
                model.simple_name(),
                equivalence.describe()
            ));
        }
    }
    (text, wrong)
}

/// Every library class learned under its tight state bound minus one, alone and with
/// distinguisher bound 2: how each run ends, and whether a `learned` model is the class's
/// (`tests/bounds/too-small.txt`).
/// No run may end `learned` with a wrong model: a hypothesis beyond the bound stops the run,
/// and so does a counterexample from the check for one state more than the bound.
#[tokio::test]
async fn a_too_small_state_bound_is_recorded_for_every_library_class() {
    let (text, wrong) = too_small_by(1).await;
    expect_test::expect_file!["bounds/too-small.txt"].assert_eq(&text);
    assert!(wrong.is_empty(), "{text}");
}

/// The same with bounds two and three states too small (`tests/bounds/too-small-by-more.txt`).
/// The check beyond the bound covers one state more, so a run may end `learned` with a wrong
/// model here, but only where the report's guarantee says a larger system can do so
/// without any sign.
#[tokio::test]
async fn a_wrong_model_under_a_bound_far_too_small_is_one_the_guarantee_warns_of() {
    let (by_two, wrong_by_two) = too_small_by(2).await;
    let (by_three, wrong_by_three) = too_small_by(3).await;
    let text = format!("# Two states too few\n\n{by_two}\n# Three states too few\n\n{by_three}");
    expect_test::expect_file!["bounds/too-small-by-more.txt"].assert_eq(&text);
    for equivalence in wrong_by_two.iter().chain(&wrong_by_three) {
        assert!(
            equivalence
                .caveat()
                .contains("a larger one can give a wrong model without any sign"),
            "{}: a wrong model the guarantee does not warn of\n{text}",
            equivalence.describe()
        );
    }
}

/// AsyncTask with a callback late or missing in a fifth of waits (seed 3): under
/// distinguisher bound 2 alone, one-off answers become states, and the growth limit stops
/// the run with the grown hypothesis instead of letting it grow on.
#[tokio::test]
async fn hypotheses_growing_past_the_limit_stop_learning_under_a_distinguisher_bound() {
    let model = reference("AsyncTask");
    let alphabet = Arc::new(Alphabet::of(model.signature()));
    let noisy = ModelConfig {
        noise: 0.2,
        seed: 3,
        ..ModelConfig::default()
    };
    let suls = ModelSul::pool(&model, noisy, 1, &Arc::new(SimClock::default()));
    let pipeline =
        Pipeline::new(Arc::clone(&alphabet), suls, &PipelineConfig::default()).expect("no journal");
    let config = LearnConfig {
        growth_limit: state_bound(&model) + 2,
        ..LearnConfig::new(Arc::clone(&alphabet))
    };
    let cache = CacheConsistency::new(Arc::clone(pipeline.tree()), alphabet);
    let mut eq = Chain(cache, DistinguisherBound::new(2));
    let outcome = learn(&config, pipeline.oracle(), &mut eq, &mut NoProgress).await;
    let End::GrowthLimitExceeded { states, limit } = outcome.end else {
        panic!("expected the growth limit, got {:?}", outcome.end)
    };
    assert_eq!(limit, state_bound(&model) + 2);
    assert!(states > limit, "{states}");
    assert_eq!(outcome.hypothesis.map(|it| it.n_states()), Some(states));
}
