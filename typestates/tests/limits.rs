//! The readers stay within bounded memory and time on hostile files, and refuse what the text
//! format could not write back: inputs generated here, each beside the error it must give.

mod sparse;

use typestates::format::{
    from_droidstar_dot, from_json, parse, print, to_json, Diagnostic, MAX_ERRORS, MAX_STEPS,
};

const COUNTDOWN: &str = include_str!("../library/android/os/CountDownTimer.typestate");

fn messages(errors: &[Diagnostic]) -> Vec<String> {
    errors.iter().map(ToString::to_string).collect()
}

/// A file with one error per line stops after [`MAX_ERRORS`] (4 million lines took 1.9 GB).
#[test]
fn many_errors_stop_at_the_limit() {
    let text = format!("typestate a.B\nstate S initial\n{}", "%\n".repeat(100_000));
    let errors = parse("many.typestate", &text).unwrap_err();
    assert_eq!(errors.len(), MAX_ERRORS + 1);
    assert_eq!(
        errors.last().map(ToString::to_string).as_deref(),
        Some("many.typestate:103:1: more than 100 errors: the rest of the file was not read")
    );
}

/// Many states and many callins, one step each, made the model dense: a 250 KB file took
/// 1.4 GB. The model is sparse now (`tests/growth.rs`), but past [`MAX_STEPS`] steps each
/// reader still refuses the file, since printing visits every state and callin.
#[test]
fn models_past_the_step_limit_are_refused() {
    let n = 9_000;
    assert!(n * n > MAX_STEPS);
    let text = sparse::text(n);
    let errors = parse("sparse.typestate", &text).unwrap_err();
    assert_eq!(
        messages(&errors),
        [format!(
            "sparse.typestate:{}:7: 9000 states times 9000 callins make 81000000 steps, more than the limit of {MAX_STEPS}",
            n + 2
        )]
    );
    let errors = from_droidstar_dot("sparse.gv", &sparse::dot(n), "a.B").unwrap_err();
    assert!(
        messages(&errors)[0].contains("steps, more than the limit of"),
        "{errors:?}"
    );
    let errors = from_json("dense.json", &sparse::json(n)).unwrap_err();
    assert_eq!(
        messages(&errors),
        [format!("dense.json:1:1: 9000 states times 9000 callins make 81000000 steps, more than the limit of {MAX_STEPS}")]
    );
}

/// The JSON export listed every callin in every state, an unknown error included: a 72 KB
/// JSON model of 1 000 states with one step each exported as 13.8 MB (`bench/scale`,
/// `json-sparse`). Both writers now list only the steps the model holds, so their text grows
/// as the file read does: about 4 times for 4 times the states and callins, 16 densely.
#[test]
fn written_models_grow_with_their_steps() {
    let (small, large) = (300, 1_200);
    for (name, read) in [
        (
            "text",
            (|n| parse("sparse.typestate", &sparse::text(n)).expect("parses"))
                as fn(usize) -> typestates::Typestate,
        ),
        ("dot", |n| {
            from_droidstar_dot("sparse.gv", &sparse::dot(n), "a.B").expect("imports")
        }),
        ("json", |n| {
            from_json("sparse.json", &sparse::json(n)).expect("loads")
        }),
    ] {
        let (small, large) = (read(small), read(large));
        for (writer, write) in [("print", print as fn(&_) -> String), ("to_json", to_json)] {
            let growth = write(&large).len() as f64 / write(&small).len() as f64;
            assert!(
                growth < 5.0,
                "{name} through {writer}: 4 times the states wrote {growth:.1} times the text"
            );
        }
    }
}

/// Every unresolved name in JSON was located by walking the text from its start: 5 000 of
/// them took 22 s. Past [`MAX_ERRORS`] the others are counted, not located.
#[test]
fn many_json_errors_stop_at_the_limit() {
    let step = "\"c0\": {\"kind\": \"enabled\", \"target\": \"X{i}\"}";
    let errors = from_json("few.json", &sparse::json_model(50, 1, step)).unwrap_err();
    assert_eq!(errors.len(), 50);
    assert_eq!(
        messages(&errors)[0],
        "few.json:3:64: states[0].callins.c0.target: unknown state `X0`"
    );
    let errors = from_json("many.json", &sparse::json_model(5_000, 1, step)).unwrap_err();
    assert_eq!(errors.len(), MAX_ERRORS + 1);
    assert_eq!(
        messages(&errors)[0],
        "many.json:1:1: more than 100 errors: the others are not listed"
    );
}

/// A JSON method name with a space loaded, and its printed text did not parse; such names
/// are now refused at load, at their JSON path. So is a constructor not named `<init>`, which
/// the text format prints as `new(…)` and reads back as `<init>`, and a method name with a
/// dot, which reads back as a class and a method (both found by the fuzz target).
#[test]
fn json_names_the_text_format_cannot_write_are_refused() {
    let small = parse("countdown.typestate", COUNTDOWN).expect("the library parses");
    let json = to_json(&small);
    let unwritable = "is not a Java name the text format can write";
    for (from, to, expected) in [
        (
            "\"method\": \"onFinish\"",
            "\"method\": \"on Finish\"",
            unwritable,
        ),
        (
            "\"name\": \"<init>\"",
            "\"name\": \"<m143 init>\"",
            unwritable,
        ),
        (
            "\"name\": \"cancel\",\n          \"params\"",
            "\"name\": \"cancel \",\n          \"params\"",
            unwritable,
        ),
        (
            "\"name\": \"<init>\"",
            "\"name\": \"<iqit>\"",
            "a constructor is named \"<init>\"",
        ),
        (
            "\"name\": \"cancel\",\n          \"params\"",
            "\"name\": \"ca.cel\",\n          \"params\"",
            "a method is named by its simple name",
        ),
    ] {
        let bad = json.replace(from, to);
        assert_ne!(bad, json, "the export holds {from}");
        let errors = from_json("bad.json", &bad).unwrap_err();
        assert!(
            errors.iter().any(|error| error.message.contains(expected)),
            "{to}: {errors:?}"
        );
    }
    // What loads prints text that parses back to the same model.
    let loaded = from_json("ok.json", &json).expect("the export loads");
    assert_eq!(parse("printed.typestate", &print(&loaded)), Ok(loaded));
}

/// A DOT label with a dot imported as a callin whose method `a.b` printed as method `b` of
/// class `a` (found by the `droidstar_dot` fuzz target); such labels are refused.
#[test]
fn dotted_dot_labels_are_refused() {
    let errors =
        from_droidstar_dot("dotted.gv", "digraph {\n  0 -> 1[label=a.b];\n}\n", "a.B").unwrap_err();
    assert_eq!(
        messages(&errors),
        ["dotted.gv:2:16: `a.b` cannot name a symbol"]
    );
}

/// A DOT label that is a keyword opening a declaration (`source`, `state`, `accept`, …)
/// imported as a callin whose transition line the text reader read as that declaration (found
/// by the `droidstar_dot` fuzz target); such labels are refused like other reserved words.
#[test]
fn declaration_keywords_are_not_symbols() {
    for keyword in ["source", "state", "note", "accept", "reject", "callin"] {
        let dot = format!("digraph {{\n  0 -> 0[label={keyword}];\n}}\n");
        let errors = from_droidstar_dot("keyword.gv", &dot, "a.B").unwrap_err();
        assert_eq!(
            messages(&errors),
            [format!("keyword.gv:2:16: `{keyword}` cannot name a symbol")]
        );
    }
}
