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

/// Every library class learned under its tight state bound minus one, alone and with
/// distinguisher bound 2: how each run ends, and whether a `learned` model is the class's
/// (`tests/bounds/too-small.txt`).
/// No run may end `learned` with a wrong model: a hypothesis beyond the bound stops the run,
/// and so does a counterexample from the check for one state more than the bound.
#[tokio::test]
async fn a_too_small_state_bound_is_recorded_for_every_library_class() {
    let mut text = String::new();
    for file in typestates::library::bundled_files() {
        let model = typestates::format::parse(file.path, file.text).expect("bundled files parse");
        let bound = state_bound(&model) - 1;
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
                End::Learned => "learned, WRONG".to_owned(),
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
    expect_test::expect_file!["bounds/too-small.txt"].assert_eq(&text);
    assert!(!text.contains("WRONG"), "{text}");
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
