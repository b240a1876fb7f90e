//! Golden tests of the text and JSON formats: parsed models and error lists compared with the
//! `.txt` files beside each input in `test_data/format/{ok,err}/`, round trips over every
//! well-formed file (the bundled library included), the JSON Schema, and no panic on any input.
//!
//! Expected files are rewritten with `UPDATE_EXPECT=1 cargo test -p typestates --test format`.

mod golden;

use std::path::{Path, PathBuf};

use expect_test::expect;
use golden::{check_golden, files_with_extension, manifest_path};
use typestates::diff::{diff, WitnessStep};
use typestates::format::{
    from_droidstar_dot, from_json, json_schema, parse, print, to_json, Diagnostic,
};
use typestates::Typestate;

/// Every well-formed text file: the `ok` golden inputs and the bundled library.
fn well_formed_files() -> Vec<PathBuf> {
    let mut files = files_with_extension(&manifest_path("test_data/format/ok"), "typestate");
    files.extend(files_with_extension(&manifest_path("library"), "typestate"));
    files
}

fn parse_file(path: &Path) -> Typestate {
    let text = std::fs::read_to_string(path).expect("test input is readable");
    parse(&path.display().to_string(), &text).unwrap_or_else(|errors| panic!("{}", lines(&errors)))
}

fn lines(errors: &[Diagnostic]) -> String {
    errors.iter().map(|e| format!("{e}\n")).collect()
}

/// Each `ok/X.txt` holds the parsed model and its canonical text, so a change to either shows.
#[test]
fn ok_files_parse_to_the_expected_model() {
    for input in files_with_extension(&manifest_path("test_data/format/ok"), "typestate") {
        let typestate = parse_file(&input);
        let dump = format!(
            "{typestate:#?}\n\n# canonical form\n\n{}",
            print(&typestate)
        );
        check_golden(&input.with_extension("txt"), &dump);
    }
}

#[test]
fn err_files_report_the_expected_errors() {
    for input in files_with_extension(&manifest_path("test_data/format/err"), "typestate") {
        let text = std::fs::read_to_string(&input).expect("test input is readable");
        let name = input.file_name().expect("a file").to_string_lossy();
        let errors = match parse(&name, &text) {
            Ok(_) => panic!("{name} parsed without errors"),
            Err(errors) => errors,
        };
        check_golden(&input.with_extension("txt"), &lines(&errors));
    }
}

#[test]
fn printing_round_trips_and_is_canonical() {
    for input in well_formed_files() {
        let typestate = parse_file(&input);
        let printed = print(&typestate);
        let again = parse("printed", &printed)
            .unwrap_or_else(|errors| panic!("{}: {}", input.display(), lines(&errors)));
        assert_eq!(again, typestate, "{}", input.display());
        assert_eq!(print(&again), printed, "{}", input.display());
    }
}

#[test]
fn json_round_trips() {
    for input in well_formed_files() {
        let typestate = parse_file(&input);
        let json = to_json(&typestate);
        let again = from_json("exported.json", &json)
            .unwrap_or_else(|errors| panic!("{}: {}", input.display(), lines(&errors)));
        assert_eq!(again, typestate, "{}", input.display());
        assert_eq!(to_json(&again), json, "{}", input.display());
    }
}

/// The export once listed every input callin in every state, an unknown error (`"kind":
/// "error"` and nothing else) included; it now leaves them out, as the text format does.
/// Files in the old, dense form read as the same model.
#[test]
fn json_that_lists_every_callin_reads_as_the_sparse_export() {
    let mut densified = 0;
    for input in well_formed_files() {
        let typestate = parse_file(&input);
        let json = to_json(&typestate);
        let mut value: serde_json::Value = serde_json::from_str(&json).expect("exports are JSON");
        let inputs: Vec<String> = value["callins"]
            .as_array()
            .expect("callins")
            .iter()
            .filter(|callin| callin.get("creates").is_none())
            .map(|callin| callin["name"].as_str().expect("a name").to_owned())
            .collect();
        for state in value["states"].as_array_mut().expect("states") {
            let state = state.as_object_mut().expect("a state");
            let callins = state
                .entry("callins")
                .or_insert_with(|| serde_json::json!({}))
                .as_object_mut()
                .expect("a state's callins");
            for name in &inputs {
                if !callins.contains_key(name) {
                    callins.insert(name.clone(), serde_json::json!({"kind": "error"}));
                    densified += 1;
                }
            }
        }
        let dense = serde_json::to_string_pretty(&value).expect("JSON");
        let again = from_json("dense.json", &dense)
            .unwrap_or_else(|errors| panic!("{}: {}", input.display(), lines(&errors)));
        assert_eq!(again, typestate, "{}", input.display());
        assert_eq!(to_json(&again), json, "{}", input.display());
    }
    assert!(
        densified > 100,
        "only {densified} unknown errors were added"
    );
}

#[test]
fn json_export_is_stable() {
    let input = manifest_path("test_data/format/ok/countdowntimer.typestate");
    check_golden(
        &manifest_path("test_data/format/json/countdowntimer.json"),
        &to_json(&parse_file(&input)),
    );
}

/// The schema is derived from the serde types; this keeps the committed copy, which editors
/// and other tools read, equal to the derived one.
#[test]
fn committed_schema_is_the_derived_one() {
    check_golden(
        &manifest_path("schema/typestate.schema.json"),
        &json_schema(),
    );
}

/// Every export validates against the committed schema, which catches serde attributes the
/// derived schema does not describe; and the schema is strict enough to reject a typo.
#[test]
fn json_exports_validate_against_the_schema() {
    let schema_text = std::fs::read_to_string(manifest_path("schema/typestate.schema.json"))
        .expect("the schema is committed");
    let schema: serde_json::Value = serde_json::from_str(&schema_text).expect("schema is JSON");
    let validator = jsonschema::validator_for(&schema).expect("a valid JSON Schema");
    let mut exports: Vec<(String, String)> = well_formed_files()
        .iter()
        .map(|file| (file.display().to_string(), to_json(&parse_file(file))))
        .collect();
    for gv in files_with_extension(&manifest_path("test_data/droidstar"), "gv") {
        let name = gv
            .file_name()
            .expect("a file")
            .to_string_lossy()
            .into_owned();
        exports.push((name.clone(), to_json(&import_droidstar(&name, "a.B"))));
    }
    for (name, json) in &exports {
        let value: serde_json::Value = serde_json::from_str(json).expect("exports are JSON");
        let errors: Vec<String> = validator
            .iter_errors(&value)
            .map(|e| format!("{}: {e}", e.instance_path()))
            .collect();
        assert!(errors.is_empty(), "{name}: {errors:#?}");
    }
    let typo = exports[0].1.replacen("\"initial\"", "\"initail\"", 1);
    let value: serde_json::Value = serde_json::from_str(&typo).expect("still JSON");
    assert!(!validator.is_valid(&value));
}

#[test]
fn json_errors_name_the_place() {
    let json_with = |state_fields: &str| {
        format!(
            r#"{{
  "format": "typestar/1",
  "class": "a.Timer",
  "callins": [{{"name": "start", "methods": [{{"kind": "instance", "name": "start", "params": []}}]}}],
  "callbacks": [{{"name": "done", "binding": {{"kind": "override", "method": "onDone"}}}}],
  "initial": "Idle",
  "states": [
    {{"name": "Idle"}},
    {{"name": "Running", {state_fields}}}
  ]
}}"#
        )
    };
    let cases = [
        json_with(r#""callins": {"start": {"kind": "enabled", "target": "Runing"}}"#),
        json_with(r#""callins": {"stop": {"kind": "error"}}"#),
        json_with(r#""wait": {"kind": "callback", "callback": "finished", "target": "Nowhere"}"#),
        json_with(r#""wait": {"kind": "sleeps"}"#),
        json_with(r#""callins": {"start": {"kind": "enabled", "target": "Idle", "ignore": true}}"#),
        json_with(r#""callins": {"start": {"kind": "restricted", "exception": "java.io.IOException"}}"#),
        json_with(r#""name": "Idle""#),
        json_with(r#""callins": {"start": {"kind": "error", "posts": "onError"}}"#),
        json_with(
            r#""callins": {"start": {"kind": "error", "exception": "a.E", "posts": "a.L.onError"}}"#,
        ),
        r#"{"format": "typestar/2"}"#.to_owned(),
        r#"{"format": "typestar/1", "class": "a.B", "initial": "A", "states": [{"name": "B"}, {"name": "B"}], "examples": [{"accepted": true, "trace": ["quiet", "go"]}]}"#.to_owned(),
        "{\"format\": \"typestar/1\",\n \"class\": \"a.B\"".to_owned(),
        r#"{"format": "typestar/1", "class": "a.B", "callins": [{"name": "go", "methods": [{"kind": "instance", "name": "go", "params": []}]}], "initial": "A", "states": [{"name": "A", "callins": {"go": {"kind": "enabled", "target": "A"}}}], "obligations": [{"states": ["A"], "until": ["go"]}, {"states": ["Z"], "until": ["stop"]}]}"#.to_owned(),
        r#"{"format": "typestar/1", "class": "a.B", "initial": "A", "states": [{"name": "A"}], "obligations": [{"states": ["A"], "until": [], "by": "onResume"}]}"#.to_owned(),
        r#"{"format": "typestar/1", "class": "a.B", "callins": [{"name": "go", "methods": [{"kind": "instance", "name": "static", "params": []}, {"kind": "static", "name": "new", "params": []}]}], "initial": "A", "states": [{"name": "A"}]}"#.to_owned(),
        r#"{"format": "typestar/1", "class": "a.B", "callbacks": [{"name": "done", "binding": {"kind": "override", "method": "onFinis."}}, {"name": "heard", "binding": {"kind": "listener", "interface": "a.L", "method": "b.on", "register": "set"}}], "initial": "A", "states": [{"name": "A"}]}"#.to_owned(),
    ];
    let actual: String = cases
        .iter()
        .map(|json| match from_json("t.json", json) {
            Ok(_) => "ok\n".to_owned(),
            Err(errors) => lines(&errors),
        })
        .collect();
    expect![[r#"
        t.json:9:76: states[1].callins.start.target: unknown state `Runing`
        t.json:9:45: states[1].callins.stop: unknown callin `stop`
        t.json:9:66: states[1].wait.callback: unknown callback `finished`
        t.json:9:88: states[1].wait.target: unknown state `Nowhere`
        t.json:9:49: unknown variant `sleeps`, expected one of `quiet`, `callback`, `fails`, `restricted`
        t.json:9:99: unknown field `ignore`, expected one of `target`, `ignored`, `origin`
        t.json:9:104: unknown field `exception`, expected `origin`
        t.json:9:30: duplicate field `name`
        t.json:9:73: states[1].callins.start.posts: "onError" is not a qualified listener method (`Type.method`)
        t.json:9:93: states[1].callins.start.posts: an error either throws `exception` or posts a callback, not both
        t.json:1:23: unknown variant `typestar/2`, expected `typestar/1`
        t.json:1:53: initial: unknown state `A`
        t.json:1:93: states[1].name: state `B` is declared twice
        t.json:1:151: examples[0].trace[1]: unknown event `go` (expected a callin, a callback or `quiet`)
        t.json:2:15: EOF while parsing an object
        t.json:1:248: obligations[0]: `go` leads from none of the obligation's states to a state outside them
        t.json:1:296: obligations[1].states[0]: unknown state `Z`
        t.json:1:312: obligations[1].until[0]: unknown callin `stop`
        t.json:1:147: unknown variant `onResume`, expected one of `onPause`, `onStop`, `onDestroy`
        t.json:1:110: callins[0].methods[0].name: "static" cannot name an instance method
        t.json:1:115: callbacks[0].binding.method: a method is named by its simple name (its class goes in "class" or "interface"), not "onFinis."
        t.json:1:209: callbacks[1].binding.method: a method is named by its simple name (its class goes in "class" or "interface"), not "b.on"
    "#]].assert_eq(&actual);
}

fn import_droidstar(file: &str, class: &str) -> Typestate {
    let path = manifest_path("test_data/droidstar").join(file);
    let text = std::fs::read_to_string(&path).expect("test input is readable");
    from_droidstar_dot(file, &text, class).unwrap_or_else(|errors| panic!("{}", lines(&errors)))
}

/// The imported DroidStar results (`test_data/droidstar/*.gv`, reconstructed from the tables in
/// DroidStar repository (github.com/cuplv/droidstar)) behave as the typestates written by hand from the
/// same tables; the printed import sits beside each result.
#[test]
fn droidstar_results_import_as_the_hand_written_typestates() {
    let cases = [
        (
            "CountDownTimer-diagram.gv",
            "android.os.CountDownTimer",
            "format/ok/countdowntimer.typestate",
        ),
        (
            "SpellCheckerSession-diagram.gv",
            "android.view.textservice.SpellCheckerSession",
            "droidstar/SpellCheckerSession.typestate",
        ),
    ];
    for (result, class, hand_written) in cases {
        let imported = import_droidstar(result, class);
        let expected = parse_file(&manifest_path("test_data").join(hand_written));
        let diff = diff(&imported, &expected, 10);
        assert!(diff.is_equivalent(), "{result}: {diff:?}");
        let printed =
            manifest_path("test_data/droidstar").join(result.replace(".gv", ".imported.typestate"));
        check_golden(&printed, &print(&imported));
    }
}

#[test]
fn droidstar_diffs_show_what_the_diagram_leaves_out() {
    let learned = import_droidstar("SpellCheckerSession-diagram.gv", "a.SpellCheckerSession");
    let manual = import_droidstar("SpCmanual.gv", "a.SpellCheckerSession");
    let sqlite = import_droidstar(
        "SQLiteOpenHelper-diagram.gv",
        "android.database.sqlite.SQLiteOpenHelper",
    );
    let sqlite_by_hand = parse_file(&manifest_path(
        "test_data/droidstar/SQLiteOpenHelper.typestate",
    ));
    // The manual reference drops the quiet loops (so waiting looks like an error) and two
    // cancel loops.
    let manual_diff = diff(&learned, &manual, 5);
    let step = |input: &str, left: &str, right: &str| WitnessStep {
        input: input.to_owned(),
        left: left.to_owned(),
        right: right.to_owned(),
    };
    assert_eq!(manual_diff.witnesses.len(), 5);
    assert_eq!(
        manual_diff.witnesses[0].steps,
        [step("wait", "quiet", "err")]
    );
    assert_eq!(
        manual_diff.witnesses[1].steps,
        [step("close", "eps", "eps"), step("cancel", "eps", "err")]
    );
    // openHV is never enabled, so the diagram never names it: only the alphabet differs.
    let sqlite_diff = diff(&sqlite, &sqlite_by_hand, 5);
    assert_eq!(sqlite_diff.callins_only_right, ["openHV"]);
    assert!(sqlite_diff.witnesses.is_empty());
}

#[test]
fn droidstar_errors_name_the_place() {
    let cases = [
        "digraph {\n  0 -> 1[label=start];\n  1 -> 0[label=start];\n  0 -> 0[label=start];\n}",
        "digraph {\n  0 -> 0[label=delta_beta];\n  0 -> 1[label=delta_done];\n  1 -> 1;\n}",
        "digraph {\n  1 -> 2[label=\"go-on\"];\n  2 -> 1[label=wait];\n}",
        "digraph {\n  0 -> 1[label=done];\n  1 -> 0[label=delta_done];\n}",
        "digraph {\n  0 -> [label=x];\n  0 -> 0[label=\"open];\n  0 -> 0 [label x];\n  0 @ 1;\n}",
        "graph { 0 -- 1 }",
        "digraph G { node [shape=circle]; rankdir=LR }",
        "digraph {\n  0 -> 1[label=start]",
        "digraph {\n  0 -> 1[label=static];\n  1 -> 0[label=new];\n  1 -> 1[label=delta_new];\n}",
    ];
    let actual: String = cases
        .iter()
        .map(|text| match from_droidstar_dot("x.gv", text, "a.B") {
            Ok(_) => "ok\n".to_owned(),
            Err(errors) => lines(&errors),
        })
        .collect();
    expect![[r#"
        x.gv:4:16: node 0 already has a `start` edge (line 2): the automaton must be deterministic
        x.gv:3:16: node 0 already has a `delta_*` edge (line 2): the automaton must be deterministic
        x.gv:4:3: expected a `label` on the edge
        x.gv:2:3: expected node 0, DroidStar's initial state
        x.gv:2:16: `go-on` cannot name a symbol
        x.gv:3:16: `wait` cannot name a symbol
        x.gv:3:16: `done` is also a callin
        x.gv:2:8: expected the target node, found `[`
        x.gv:3:16: unterminated string (expected a closing `"` on the same line)
        x.gv:4:17: expected `=` after the attribute name, found `x`
        x.gv:5:5: unexpected character `@`
        x.gv:1:1: expected `digraph`, found `graph`
        x.gv:1:1: expected at least one edge
        x.gv:2:22: expected `}` closing the graph, found the end of the file
        x.gv:2:16: `static` cannot name a method
        x.gv:3:16: `new` cannot name a method
    "#]]
    .assert_eq(&actual);
}

/// A small deterministic generator, so the random inputs are the same on every run.
struct XorShift(u64);

impl XorShift {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

/// A reader of untrusted text; true when it accepts the text.
type Reader = fn(&str) -> bool;

/// Every reader of untrusted text, so that each is fed the same hostile inputs.
fn readers() -> Vec<(&'static str, Reader)> {
    vec![
        ("parse", |text| parse("fuzz", text).is_ok()),
        ("from_json", |text| from_json("fuzz", text).is_ok()),
        ("from_droidstar_dot", |text| {
            from_droidstar_dot("fuzz", text, "a.B").is_ok()
        }),
    ]
}

/// About 150 prefixes of `text`, cut at evenly spaced character boundaries: enough to stop
/// inside every kind of token without making the test quadratic in the file's length.
fn prefixes(text: &str) -> impl Iterator<Item = String> + '_ {
    let step = (text.len() / 150).max(1);
    text.char_indices()
        .step_by(step)
        .map(|(i, _)| text[..i].to_owned())
}

#[test]
fn no_input_panics() {
    let mut inputs: Vec<String> = Vec::new();
    for file in files_with_extension(&manifest_path("test_data/droidstar"), "gv") {
        let text = std::fs::read_to_string(&file).expect("readable");
        inputs.extend(prefixes(&text));
    }
    for file in well_formed_files() {
        let text = std::fs::read_to_string(&file).expect("readable");
        let json = to_json(&parse_file(&file));
        for whole in [text, json] {
            inputs.extend(prefixes(&whole));
        }
    }
    let mut rng = XorShift(0x5eed_1234_abcd_ef01);
    let alphabet =
        "{}[]\":,->()|=#\\ \n\tastate initial on quiet fails error wait restricted when 0123456789";
    let alphabet: Vec<char> = alphabet.chars().collect();
    for _ in 0..2000 {
        let len = (rng.next() % 60) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| rng.next() as u8).collect();
        inputs.push(String::from_utf8_lossy(&bytes).into_owned());
        inputs.push(
            (0..len)
                .map(|_| alphabet[(rng.next() % alphabet.len() as u64) as usize])
                .collect(),
        );
    }
    for (name, read) in readers() {
        for input in &inputs {
            let outcome = std::panic::catch_unwind(|| read(input));
            assert!(outcome.is_ok(), "{name} panicked on {input:?}");
        }
    }
}

/// `at_level` gives the automaton of one level: each step written for a range holding the
/// level replaces the state's step, and the steps of other levels are gone.
#[test]
fn a_protocol_on_one_level_takes_that_levels_steps() {
    let canvas = parse_file(&manifest_path("test_data/format/ok/levels.typestate"));
    assert!(canvas.varies_by_level());
    let restore = canvas.callin_by_name("restore").expect("restore");
    let cell = |level: u32, state: &str| {
        let at = canvas.at_level(level);
        assert!(!at.varies_by_level());
        let state = at.state_by_name(state).expect("a state");
        match at.step(state, restore) {
            typestates::Step::Enabled {
                target, ignored, ..
            } => {
                format!(
                    "-> {}{}",
                    at.state(*target).name,
                    if *ignored { " ignored" } else { "" }
                )
            }
            typestates::Step::Error { failure, .. } => {
                format!("error {}", failure.exception().unwrap_or("-"))
            }
            typestates::Step::Restricted { .. } => "restricted".to_owned(),
        }
    };
    let table: Vec<String> = [21, 22, 23, 28, 29, 30, 34]
        .into_iter()
        .map(|level| {
            format!(
                "{level}: {} | {}",
                cell(level, "Drawing"),
                cell(level, "Saved")
            )
        })
        .collect();
    expect![[r#"
        21: -> Drawing ignored | -> Drawing
        22: -> Drawing ignored | -> Drawing
        23: error java.lang.IllegalStateException | -> Drawing
        28: error java.lang.IllegalStateException | -> Drawing
        29: error - | -> Drawing
        30: error - | error -
        34: error - | error -"#]]
    .assert_eq(&table.join("\n"));
    let mut boundaries: Vec<u32> = canvas.level_boundaries().collect();
    boundaries.sort_unstable();
    assert_eq!(boundaries, [23, 23, 29, 30]);
}
