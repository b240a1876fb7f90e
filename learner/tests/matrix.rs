//! The learner matrix: every algorithm × every equivalence oracle × every reference
//! typestate, learned through the model backend, must give a machine equivalent to the
//! reference. Query counts are snapshotted, so a regression shows up as a diff.

mod common;

use common::references;
use learner::backend::model::ModelConfig;
use learner::simulation::{learn_simulated, state_bound, EquivalenceChoice};
use learner::{Algorithm, End};
use learner::{Choices, Session};

#[tokio::test]
async fn every_algorithm_learns_every_reference_exactly() {
    let mut table = String::from(
        "class algorithm oracle: states eq | asked executed resets steps | simulated_s\n",
    );
    for reference in references() {
        for algorithm in Algorithm::ALL {
            let states = state_bound(&reference);
            for oracle in [
                EquivalenceChoice::DistinguisherBound(2),
                EquivalenceChoice::WMethod(states),
                EquivalenceChoice::StateBound(states),
                EquivalenceChoice::BoundOneThenWMethod(states),
            ] {
                let run = learn_simulated(
                    &reference,
                    &Session::new(Choices::of(algorithm, oracle)),
                    ModelConfig::default(),
                )
                .await
                .expect("no journal, no journal error");
                let label = format!(
                    "{} {} {oracle:?}",
                    reference.simple_name(),
                    algorithm.name()
                );
                assert!(
                    matches!(run.outcome.end, End::Learned),
                    "{label}: {:?}",
                    run.outcome.end
                );
                assert!(run.is_equivalent_to(&reference), "{label}: not equivalent");
                table.push_str(&format!(
                    "{label}: {} {} | {} {} {} {} | {}\n",
                    run.outcome
                        .hypothesis
                        .as_ref()
                        .map_or(0, |it| it.mealy.minimize().n_states()),
                    run.outcome.rounds,
                    run.asked.queries,
                    run.executed.queries,
                    run.executed.resets,
                    run.executed.steps(),
                    run.simulated_ms / 1000,
                ));
            }
        }
    }
    insta::assert_snapshot!(table);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_instances_learn_the_same_machine() {
    for reference in references() {
        let run = learn_simulated(
            &reference,
            &Session {
                choices: Choices::of(
                    Algorithm::default(),
                    EquivalenceChoice::DistinguisherBound(2),
                ),
                jobs: 4,
                ..Session::default()
            },
            ModelConfig::default(),
        )
        .await
        .expect("no journal");
        assert!(
            run.is_equivalent_to(&reference),
            "{}",
            reference.simple_name()
        );
    }
}
