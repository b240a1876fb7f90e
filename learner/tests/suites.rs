//! The two ways of running a distinguisher bound's test words (`learner::equivalence::Suite`)
//! on every library class under distinguisher bound 2: the runs each spends learning and
//! checking, and whether each learned the class (`tests/suites/library.txt`).
//! Both check the same words, so wherever the paper's per-transition order learns the class
//! exactly, maximal words must too.

use learner::backend::model::ModelConfig;
use learner::equivalence::Suite;
use learner::simulation::{learn_simulated, EquivalenceChoice};
use learner::{Algorithm, Choices, End, Session};

#[tokio::test]
async fn both_suites_learn_every_library_class_and_their_runs_are_recorded() {
    let mut text = String::from(
        "class: suite learning + checking = runs, exact; ... (distinguisher bound 2)\n",
    );
    let mut totals = [0u64; Suite::ALL.len()];
    for file in typestates::library::bundled_files() {
        let model = typestates::format::parse(file.path, file.text).expect("bundled files parse");
        let mut exact = Vec::new();
        text.push_str(model.simple_name());
        text.push(':');
        for (index, suite) in Suite::ALL.into_iter().enumerate() {
            let choices = Choices {
                suite,
                ..Choices::of(
                    Algorithm::default(),
                    EquivalenceChoice::DistinguisherBound(2),
                )
            };
            let run = learn_simulated(&model, &Session::new(choices), ModelConfig::default())
                .await
                .expect("no journal");
            let learned = matches!(run.outcome.end, End::Learned) && run.is_equivalent_to(&model);
            let (learning, checking) = (run.totals.learning.resets, run.totals.checking.resets);
            totals[index] += learning + checking;
            text.push_str(&format!(
                " {} {learning} + {checking} = {}, {};",
                suite.name(),
                learning + checking,
                if learned { "exact" } else { "not exact" }
            ));
            exact.push(learned);
        }
        text.push('\n');
        assert!(
            !exact[0] || exact[1],
            "{}: maximal words missed what the per-transition order found",
            model.simple_name()
        );
    }
    text.push_str(&format!(
        "total runs: per-transition {}, maximal-words {}\n",
        totals[0], totals[1]
    ));
    expect_test::expect_file!["suites/library.txt"].assert_eq(&text);
}
