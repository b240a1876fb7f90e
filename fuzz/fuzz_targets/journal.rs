//! The learner's journal reader on any text: it must never panic; what it keeps must be whole
//! lines, and reading that part again must give the same; the entries and totals it reads must
//! write back as lines that read back equal; and every entry must keep the closure (only `err`
//! after the first `err`).
//!
//! The alphabet is the one of the header's class among the learner tests' reference typestates
//! (the classes whose journals seed the corpus), and the experiment is the header's own.
#![no_main]

#[path = "../../learner/tests/common/mod.rs"]
mod common;

use std::path::Path;
use std::sync::OnceLock;

use learner::closure::first_err;
use learner::oracle::journal::{entry_line, header_line, read, totals_line, Header};
use learner::{Alphabet, Output};
use libfuzzer_sys::fuzz_target;

/// The alphabet of every reference class.
fn alphabets() -> &'static [Alphabet] {
    static ALPHABETS: OnceLock<Vec<Alphabet>> = OnceLock::new();
    ALPHABETS.get_or_init(|| {
        common::references()
            .iter()
            .map(|typestate| Alphabet::of(typestate.signature()))
            .collect()
    })
}

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let header = text.lines().next().unwrap_or_default();
    let Ok(header) = serde_json::from_str::<Header>(header) else {
        return;
    };
    let Some(alphabet) = alphabets()
        .iter()
        .find(|it| it.signature.class == header.class)
    else {
        return;
    };
    let path = Path::new("fuzz.jsonl");
    let experiment = header.experiment.as_str();
    let Ok(Some(contents)) = read(path, text, alphabet, experiment) else {
        return;
    };
    let whole = &text[..contents.complete];
    assert!(whole.ends_with('\n'), "only whole lines are kept");
    let again = read(path, whole, alphabet, experiment)
        .expect("the kept part reads")
        .expect("the kept part has its header");
    assert_eq!(again, contents, "the kept part reads the same");
    let mut written = header_line(alphabet, experiment) + "\n";
    for entry in &contents.entries {
        if let Some(err) = first_err(&entry.outputs) {
            assert!(
                entry.outputs[err..].iter().all(|it| *it == Output::Err),
                "line {}: an output after `err` is not `err`",
                entry.line
            );
        }
        written += &(entry_line(alphabet, &entry.word, &entry.outputs) + "\n");
    }
    written += &(totals_line(&contents.totals) + "\n");
    let written_back = read(path, &written, alphabet, experiment)
        .expect("written lines read")
        .expect("written lines have their header");
    let words = |contents: &learner::oracle::journal::Contents| {
        contents
            .entries
            .iter()
            .map(|it| (it.word.clone(), it.outputs.clone()))
            .collect::<Vec<_>>()
    };
    assert_eq!(words(&written_back), words(&contents), "{written}");
    assert_eq!(written_back.totals, contents.totals, "{written}");
});
