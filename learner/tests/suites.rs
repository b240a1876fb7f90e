//! The ways of learning under distinguisher bound 2 on every library class: L# checked by
//! Algorithm 2 transition by transition (the paper, the baseline), L# checked by the maximal
//! words only (`learner::equivalence::Suite`), and active k-tails (`Algorithm::KTails`).
//! Each run's runs are recorded with the floor of its result
//! (`DistinguisherBound::runs_floor`: the runs no learner whose result Algorithm 2 accepts
//! can go below) and whether it learned the class (`tests/suites/library.txt`).
//! All give the same guarantee, so wherever the baseline learns the class exactly, the others
//! must too; no run may go below its floor; k-tails's check runs nothing, and k-tails runs no
//! more than the other ways.
//! With no algorithm named, a distinguisher bound alone picks k-tails.

use learner::backend::model::ModelConfig;
use learner::equivalence::{DistinguisherBound, Suite};
use learner::simulation::{learn_simulated, EquivalenceChoice};
use learner::{Algorithm, Choices, End, Session};

/// The ways compared, the baseline first.
const WAYS: [(&str, Algorithm, Suite); 5] = [
    (
        "per-transition",
        Algorithm::LSharp(learner::lsharp::Heuristics::ALL),
        Suite::PerTransition,
    ),
    (
        "maximal-words",
        Algorithm::LSharp(learner::lsharp::Heuristics::ALL),
        Suite::MaximalWords,
    ),
    ("ktails", Algorithm::KTails, Suite::PerTransition),
    (
        "chained",
        Algorithm::LSharp(learner::lsharp::Heuristics::ALL),
        Suite::Chained,
    ),
    (
        "chained-known",
        Algorithm::LSharp(learner::lsharp::Heuristics::ALL),
        Suite::ChainedKnown,
    ),
];

#[tokio::test]
async fn every_way_learns_every_library_class_and_their_runs_are_recorded() {
    let bound = 2;
    let mut text = format!(
        "class: way learning + checking = runs (floor), exact; ... (distinguisher bound {bound})\n"
    );
    let mut totals = [0u64; WAYS.len()];
    let mut floors = [0u64; WAYS.len()];
    for file in typestates::library::bundled_files() {
        let model = typestates::format::parse(file.path, file.text).expect("bundled files parse");
        let mut exact = Vec::new();
        let mut class_runs = Vec::new();
        text.push_str(model.simple_name());
        text.push(':');
        for (index, (name, algorithm, suite)) in WAYS.into_iter().enumerate() {
            let choices = Choices {
                suite,
                ..Choices::of(algorithm, EquivalenceChoice::DistinguisherBound(bound))
            };
            let run = learn_simulated(&model, &Session::new(choices), ModelConfig::default())
                .await
                .expect("no journal");
            assert!(
                matches!(run.outcome.end, End::Learned),
                "{} {name}: {:?}",
                model.simple_name(),
                run.outcome.end
            );
            let learned = run.is_equivalent_to(&model);
            let hypothesis = run.outcome.hypothesis.as_ref().expect("learned");
            let floor = DistinguisherBound::new(bound).runs_floor(hypothesis) as u64;
            let (learning, checking) = (run.totals.learning.resets, run.totals.checking.resets);
            let runs = learning + checking;
            // The chained suite proves the bound with other words: Algorithm 2's floor is not its.
            assert!(
                matches!(suite, Suite::Chained | Suite::ChainedKnown) || runs >= floor,
                "{} {name}: {runs} runs, below the floor {floor}",
                model.simple_name()
            );
            if algorithm == Algorithm::KTails {
                assert_eq!(
                    checking,
                    0,
                    "{}: k-tails's check finds every word in the cache",
                    model.simple_name()
                );
                assert!(
                    class_runs.iter().all(|other| runs <= *other),
                    "{}: k-tails ran {runs}, more than another way ({class_runs:?})",
                    model.simple_name()
                );
            }
            class_runs.push(runs);
            totals[index] += runs;
            floors[index] += floor;
            text.push_str(&format!(
                " {name} {learning} + {checking} = {runs} ({floor}), {};",
                if learned { "exact" } else { "not exact" }
            ));
            exact.push(learned);
        }
        text.push('\n');
        for (index, (name, ..)) in WAYS.iter().enumerate().skip(1) {
            assert!(
                !exact[0] || exact[index],
                "{}: {name} missed what the per-transition order found",
                model.simple_name()
            );
        }
    }
    text.push_str("total runs (floor):");
    for (index, (name, ..)) in WAYS.iter().enumerate() {
        text.push_str(&format!(" {name} {} ({});", totals[index], floors[index]));
    }
    text.push('\n');
    expect_test::expect_file!["suites/library.txt"].assert_eq(&text);
}

/// When neither the user nor an experiment names an algorithm, the guarantee picks it: on the
/// model backend with nothing chosen (distinguisher bound 2 alone) k-tails, the fewest runs
/// above; under a state bound L#.
#[tokio::test]
async fn the_default_algorithm_follows_the_guarantee() {
    let model = typestates::library::Library::bundled()
        .find("AsyncTask")
        .expect("a library class")
        .typestate
        .clone();
    let state_bound = EquivalenceChoice::StateBound(learner::simulation::state_bound(&model));
    for (equivalence, expected) in [
        (None, Algorithm::KTails),
        (Some(state_bound), Algorithm::default()),
    ] {
        let session = Session::new(Choices {
            equivalence,
            ..Choices::default()
        });
        let learned = learner::backend::model::learn(
            &model,
            ModelConfig::default(),
            &session,
            &mut learner::NoProgress,
        )
        .await
        .expect("no journal");
        assert!(matches!(learned.outcome.end, End::Learned));
        assert_eq!(learned.algorithm, expected, "{equivalence:?}");
    }
}
