//! Leak reports through the protocol, with the production checker: those on by default
//! (`checker::leaks::on_by_default`) always, the others only when `typestar.unreleased` is on
//! (as `typestar check --unreleased`), with where the object is
//! lost as related information, and the checker's leak fixes as preferred quick fixes.
//! Data-driven: the cases are the checker's leak fix fixtures
//! (`checker/tests/fixes/leaks/{java,kotlin}/X` and `X.fixed.*`), so the fixes the editor
//! applies give the very files the checker's own test expects.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};

use crate::harness::TestServer;

const LEAK_CODES: [&str; 7] = [
    "leak-method-end",
    "leak-exception",
    "leak-overwritten",
    "leak-replaced",
    "leak-component-end",
    "leak-lifecycle",
    "never-released",
];

fn cases() -> Vec<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../checker/tests/fixes/leaks");
    let mut out: Vec<PathBuf> = ["java", "kotlin"]
        .iter()
        .flat_map(|dir| std::fs::read_dir(root.join(dir)).expect("leak fixes are readable"))
        .map(|entry| entry.expect("an entry").path())
        .filter(|path| !path.to_string_lossy().contains(".fixed."))
        .collect();
    out.sort();
    out
}

fn leaks_on() -> Value {
    json!({ "diagnostics": { "debounceMs": 0 }, "unreleased": true })
}

fn is_leak(diagnostic: &Value) -> bool {
    LEAK_CODES.iter().any(|code| diagnostic["code"] == *code)
}

/// The byte offset of an LSP position in an ASCII text.
fn offset(text: &str, position: &Value) -> usize {
    let line = position["line"].as_u64().expect("a line") as usize;
    let character = position["character"].as_u64().expect("a character") as usize;
    let start: usize = text.split_inclusive('\n').take(line).map(str::len).sum();
    start + character
}

/// `text` with `edits` (LSP text edits, not overlapping) applied.
fn apply(text: &str, edits: &[Value]) -> String {
    let mut spans: Vec<(usize, usize, &str)> = edits
        .iter()
        .map(|edit| {
            (
                offset(text, &edit["range"]["start"]),
                offset(text, &edit["range"]["end"]),
                edit["newText"].as_str().expect("a new text"),
            )
        })
        .collect();
    spans.sort_by_key(|(start, _, _)| *start);
    let mut out = String::new();
    let mut at = 0;
    for (start, end, new_text) in spans {
        assert!(start >= at, "quick fix edits overlap");
        out.push_str(&text[at..start]);
        out.push_str(new_text);
        at = end;
    }
    out.push_str(&text[at..]);
    out
}

async fn open_case(server: &mut TestServer, path: &Path) -> (String, String, Vec<Value>) {
    let text = std::fs::read_to_string(path).expect("case is readable");
    let name = path.file_name().unwrap().to_str().unwrap();
    let uri = server.open(name, &text).await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    (uri, text, diagnostics)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leak_quick_fixes_give_the_checkers_fixed_files() {
    let cases = cases();
    assert_eq!(cases.len(), 4, "the leak fix cases are found");
    for path in cases {
        let mut server = TestServer::builder()
            .static_checker()
            .settings(leaks_on())
            .build()
            .await;
        let (uri, text, diagnostics) = open_case(&mut server, &path).await;
        let leaks: Vec<&Value> = diagnostics.iter().filter(|d| is_leak(d)).collect();
        assert!(!leaks.is_empty(), "{}: leaks published", path.display());
        for leak in &leaks {
            assert_eq!(leak["severity"], 2, "a leak is a warning: {leak}");
            let related = leak["relatedInformation"].as_array().cloned();
            assert!(
                related.is_some_and(|r| !r.is_empty() && r.iter().all(|r| r["location"]["uri"] == uri)),
                "{}: where the object is lost is related information: {leak}",
                path.display()
            );
        }
        let end = json!({ "line": text.lines().count(), "character": 0 });
        let reply = server
            .request(
                "textDocument/codeAction",
                json!({
                    "textDocument": { "uri": uri },
                    "range": { "start": { "line": 0, "character": 0 }, "end": end },
                    "context": { "diagnostics": [], "only": ["quickfix"] }
                }),
            )
            .await;
        let fixes: Vec<Value> = reply["result"]
            .as_array()
            .cloned()
            .unwrap_or_default()
            .into_iter()
            .filter(|action| action["isPreferred"] == true)
            .collect();
        for fix in &fixes {
            assert!(is_leak(&fix["diagnostics"][0]), "a leak's fix: {fix}");
        }
        let edits: Vec<Value> = fixes
            .iter()
            .flat_map(|fix| {
                fix["edit"]["changes"][&uri]
                    .as_array()
                    .cloned()
                    .unwrap_or_default()
            })
            .collect();
        let name = path.file_name().unwrap().to_str().unwrap();
        let (stem, extension) = name.rsplit_once('.').unwrap();
        let expected =
            std::fs::read_to_string(path.with_file_name(format!("{stem}.fixed.{extension}")))
                .expect("the fixed file is readable");
        assert_eq!(apply(&text, &edits), expected, "{}", path.display());
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn leaks_beyond_those_on_by_default_are_published_once_the_setting_turns_them_on() {
    let path = cases()
        .into_iter()
        .find(|p| p.ends_with("java/Streams.java"))
        .expect("the Java streams case");
    // The client pushes its settings: it does not answer `workspace/configuration`.
    let mut server = TestServer::builder()
        .static_checker()
        .capabilities(json!({ "window": { "workDoneProgress": true } }))
        .build()
        .await;
    let (uri, _, diagnostics) = open_case(&mut server, &path).await;
    let codes = |diagnostics: &[Value]| -> Vec<String> {
        diagnostics
            .iter()
            .filter(|d| is_leak(d))
            .filter_map(|d| d["code"].as_str().map(str::to_owned))
            .collect()
    };
    // An InputStream left open at the end of a method is on by default; the one an exception
    // loses is not.
    assert_eq!(
        codes(&diagnostics),
        ["leak-method-end"; 4],
        "{diagnostics:#?}"
    );

    server
        .notify(
            "workspace/didChangeConfiguration",
            json!({ "settings": { "typestar": leaks_on() } }),
        )
        .await;
    let diagnostics = server.await_diagnostics(&uri, Some(1)).await;
    assert_eq!(
        codes(&diagnostics),
        [
            "leak-method-end",
            "leak-exception",
            "leak-method-end",
            "leak-method-end",
            "leak-method-end"
        ],
        "{diagnostics:#?}"
    );
}
