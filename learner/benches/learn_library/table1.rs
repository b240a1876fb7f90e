//! DroidStar's Table 1 (the DroidStar paper: Radhakrishna et al., ICSE 2018): the numbers the learner is
//! measured against, the library class each row names, and DroidStar's input alphabet for it
//! (its learning purpose's inputs, the DroidStar repository (github.com/cuplv/droidstar)), as the library
//! file's callin names. Library files may add callins read from the class's source; the
//! benchmark learns a Table 1 class projected onto DroidStar's inputs, so that it compares
//! the same protocol. Each row also keeps its learning purpose's query filter (`Purpose`),
//! under which DroidStar counted its executed MQ.

use std::collections::HashMap;
use std::sync::Arc;

use learner::oracle::filter::QueryFilter;
use learner::{Alphabet, Input, Output};
use typestates::mealy::{to_mealy, to_typestate, Mealy};
use typestates::Typestate;

/// One row of Table 1.
pub struct Row {
    /// The class as Table 1 names it (its first word).
    pub class: &'static str,
    /// The library's class for it, fully qualified (two library classes are named `Call`).
    pub library_class: &'static str,
    /// States of the learned typestate, error sink excluded.
    pub states: u32,
    /// Membership queries executed on the device.
    pub mq_executed: u64,
    /// Equivalence queries.
    pub eq: u32,
    /// DroidStar's inputs, by the library file's callin names (creators are not inputs).
    pub inputs: &'static [&'static str],
    /// The query filter of DroidStar's learning purpose (`singleInputs`, `validQuery`).
    pub purpose: Purpose,
}

/// DroidStar's query filter for one experiment (read in github.com/cuplv/droidstar's
/// `LearningPurpose.validQuery` and the LPs that override it): the queries it answered `err`
/// without running them. Names are the library file's callin names.
#[derive(Clone, Copy)]
pub enum Purpose {
    /// The default `validQuery` with no `singleInputs`: every query runs.
    EveryQuery,
    /// `singleInputs`: each of these inputs at most once per query.
    SingleInputs(&'static [&'static str]),
    /// `onlyOneOf`: at most one occurrence of any of these inputs per query.
    OnlyOneOf(&'static [&'static str]),
    /// FileObserverLP: each of these inputs is followed by a wait or ends the query.
    FollowedByWait(&'static [&'static str]),
    /// SQLiteOpenHelperLP: the query starts with one of these inputs, and no other follows.
    OpensFirstAndOnce(&'static [&'static str]),
}

impl Purpose {
    /// Whether the experiment runs every query (no filter to compare under).
    pub fn runs_every_query(self) -> bool {
        matches!(self, Purpose::EveryQuery)
    }

    /// The filter in DroidStar's words, for the report.
    pub fn describe(self) -> String {
        match self {
            Purpose::EveryQuery => "none".to_owned(),
            Purpose::SingleInputs(names) => format!("singleInputs({})", names.join(", ")),
            Purpose::OnlyOneOf(names) => format!("onlyOneOf({})", names.join(", ")),
            Purpose::FollowedByWait(names) => format!("{} followed by a wait", names.join(", ")),
            Purpose::OpensFirstAndOnce(names) => format!("one of {} first, once", names.join(", ")),
        }
    }

    /// The learner's query filters for this purpose over `alphabet`.
    pub fn filters(self, alphabet: &Alphabet) -> Vec<QueryFilter> {
        let inputs = |names: &[&str]| -> Vec<Input> {
            names
                .iter()
                .map(|name| {
                    alphabet
                        .input_named(name)
                        .unwrap_or_else(|| panic!("table1.rs: no input named {name}"))
                })
                .collect()
        };
        match self {
            Purpose::EveryQuery => Vec::new(),
            Purpose::SingleInputs(names) => inputs(names)
                .into_iter()
                .map(QueryFilter::AtMostOnce)
                .collect(),
            Purpose::OnlyOneOf(names) => vec![QueryFilter::at_most_one_of(inputs(names), names)],
            Purpose::FollowedByWait(names) => {
                let guarded = inputs(names);
                vec![QueryFilter::Custom {
                    name: self.describe(),
                    allows: Arc::new(move |word: &[Input]| {
                        word.windows(2)
                            .all(|pair| !guarded.contains(&pair[0]) || pair[1] == Input::Wait)
                    }),
                }]
            }
            Purpose::OpensFirstAndOnce(names) => {
                let opens = inputs(names);
                vec![QueryFilter::Custom {
                    name: self.describe(),
                    allows: Arc::new(move |word: &[Input]| {
                        word.first().is_none_or(|first| opens.contains(first))
                            && !word.iter().skip(1).any(|it| opens.contains(it))
                    }),
                }]
            }
        }
    }
}

impl Purpose {
    /// `model` as the learner sees it behind this purpose's filters: a query the purpose
    /// forbids answers `err` from its first forbidden input on, never reaching the model.
    /// Learning behind the filter is exact when it learns this machine.
    /// Each purpose decides on the inputs a word has seen and on its last input, so the
    /// product keys on those; a purpose that decides on more panics, naming itself.
    pub fn shown(self, model: &Typestate) -> Typestate {
        let alphabet = Alphabet::of(model.signature());
        let filters = self.filters(&alphabet);
        let forbidden =
            |word: &[Input]| filters.iter().any(|it| it.first_violation(word).is_some());
        let machine = to_mealy(model);
        let inputs = machine.inputs.clone();
        // The model's state, the inputs seen (a bit per column) and the last one.
        type Key = (u32, u64, Option<usize>);
        let mut keys: HashMap<Key, u32> = HashMap::from([((machine.initial, 0, None), 0)]);
        let mut words: Vec<(Key, Vec<Input>)> = vec![((machine.initial, 0, None), Vec::new())];
        let mut edges = Vec::new();
        let mut next = 0;
        while next < words.len() {
            let ((state, seen, _), word) = words[next].clone();
            for (column, input) in inputs.iter().enumerate() {
                let longer = [&word[..], &[*input]].concat();
                let (target, output) = machine.transition(state, column);
                if forbidden(&longer) || output == Output::Err {
                    edges.push((next, column, None, Output::Err));
                    continue;
                }
                let key = (target, seen | 1 << column, Some(column));
                let index = match keys.get(&key) {
                    Some(&index) => {
                        let known = &words[index as usize].1;
                        self.check_decides_on_the_key(&filters, known, &longer, &inputs);
                        index
                    }
                    None => {
                        keys.insert(key, words.len() as u32);
                        words.push((key, longer));
                        words.len() as u32 - 1
                    }
                };
                edges.push((next, column, Some(index), output));
            }
            next += 1;
        }
        let sink = words.len() as u32;
        let mut shown = Mealy::with_states(inputs.clone(), words.len() + 1, 0);
        for (state, column, target, output) in edges {
            shown.set_transition(state as u32, column, target.unwrap_or(sink), output);
        }
        for column in 0..inputs.len() {
            shown.set_transition(sink, column, sink, Output::Err);
        }
        to_typestate(&shown, &model.signature())
    }

    /// Panics unless `filters` allow the same inputs after `known` and after `other`, two
    /// allowed words of the same key.
    fn check_decides_on_the_key(
        self,
        filters: &[QueryFilter],
        known: &[Input],
        other: &[Input],
        inputs: &[Input],
    ) {
        for input in inputs {
            let verdict = |word: &[Input]| {
                let longer = [word, &[*input]].concat();
                filters
                    .iter()
                    .map(|it| it.first_violation(&longer).is_some())
                    .collect::<Vec<_>>()
            };
            assert_eq!(
                verdict(known),
                verdict(other),
                "table1.rs, purpose {}: decides on more than the inputs seen and the last one",
                self.describe()
            );
        }
    }
}

const fn row(
    class: &'static str,
    library_class: &'static str,
    states: u32,
    mq_executed: u64,
    eq: u32,
    inputs: &'static [&'static str],
) -> Row {
    Row {
        class,
        library_class,
        states,
        mq_executed,
        eq,
        inputs,
        purpose: Purpose::EveryQuery,
    }
}

impl Row {
    const fn under(self, purpose: Purpose) -> Row {
        Row { purpose, ..self }
    }
}

/// Every row of Table 1. Where DroidStar's learning purpose is not in its repository
/// (MediaCodec, MediaRecorder, MediaScannerConnection), the library file's alphabet stands in.
pub const TABLE1: [Row; 16] = [
    // AsyncTaskNoGetLP: is_cancelled was in AsyncTaskLP's alphabet, not in the learned run's.
    row(
        "AsyncTask",
        "android.os.AsyncTask",
        5,
        94,
        1,
        &["exec", "cancel"],
    ),
    row(
        "BluetoothAdapter",
        "android.bluetooth.BluetoothAdapter",
        12,
        157,
        2,
        &["enable", "disable", "connect"],
    )
    .under(Purpose::SingleInputs(&["enable", "disable", "connect"])),
    row(
        "CountDownTimer",
        "android.os.CountDownTimer",
        3,
        61,
        1,
        &["start", "cancel"],
    )
    .under(Purpose::SingleInputs(&["start"])),
    row(
        "DownloadManager",
        "android.app.DownloadManager",
        4,
        43,
        1,
        &["enque_valid", "enque_unavailable", "remove"],
    )
    .under(Purpose::OnlyOneOf(&["enque_valid", "enque_unavailable"])),
    // The learned run had no `start`: the library's creator stands for construction, then
    // startWatching().
    row(
        "FileObserver",
        "android.os.FileObserver",
        6,
        189,
        2,
        &["stop", "modify", "delete"],
    )
    .under(Purpose::FollowedByWait(&["modify", "delete"])),
    row(
        "ImageLoader",
        "com.nostra13.universalimageloader.core.ImageLoader",
        5,
        113,
        2,
        &["loadGood", "loadBad", "cancel"],
    )
    .under(Purpose::OnlyOneOf(&["loadGood", "loadBad"])),
    row(
        "MediaCodec",
        "android.media.MediaCodec",
        8,
        871,
        1,
        &[
            "configure",
            "start",
            "queueEos",
            "flush",
            "stop",
            "reset",
            "release",
        ],
    ),
    row(
        "MediaPlayer",
        "android.media.MediaPlayer",
        10,
        2372,
        5,
        &[
            "setDataSource",
            "prepare",
            "prepareAsync",
            "start",
            "stop",
            "pause",
            "reset",
            "release",
        ],
    ),
    row(
        "MediaRecorder",
        "android.media.MediaRecorder",
        8,
        721,
        1,
        &[
            "setAudioSource",
            "setOutputFormat",
            "setAudioEncoder",
            "setOutputFile",
            "prepare",
            "start",
            "stop",
            "reset",
            "release",
        ],
    ),
    row(
        "MediaScannerConnection",
        "android.media.MediaScannerConnection",
        4,
        161,
        2,
        &["connect", "disconnect", "scanFile"],
    ),
    // OkHttpCallLP: build_valid and build_unavailable are the library's creators; execute()
    // was learned by typestar, not by DroidStar. Its onlyOneOf(build_valid, build_unavailable)
    // therefore counts creators, one per run here: it forbids nothing among these inputs.
    row(
        "OkHttpCall",
        "okhttp3.Call",
        6,
        166,
        2,
        &["enqueue", "cancel"],
    ),
    row(
        "RequestQueue",
        "com.android.volley.RequestQueue",
        4,
        117,
        1,
        &["enqueue_valid", "enqueue_unavailable", "cancel"],
    )
    .under(Purpose::OnlyOneOf(&[
        "enqueue_valid",
        "enqueue_unavailable",
    ])),
    row(
        "SpeechRecognizer",
        "android.speech.SpeechRecognizer",
        7,
        293,
        3,
        &["start", "stop", "cancel"],
    ),
    row(
        "SpellCheckerSession",
        "android.view.textservice.SpellCheckerSession",
        6,
        213,
        4,
        &["close", "cancel", "suggest"],
    )
    .under(Purpose::SingleInputs(&["suggest"])),
    row(
        "SQLiteOpenHelper",
        "android.database.sqlite.SQLiteOpenHelper",
        8,
        228,
        2,
        &["openNew", "openHV", "openLV", "openSV", "close"],
    )
    .under(Purpose::OpensFirstAndOnce(&[
        "openNew", "openHV", "openLV", "openSV",
    ])),
    row(
        "VelocityTracker",
        "android.view.VelocityTracker",
        2,
        403,
        1,
        &["move", "clear", "compute", "get", "recycle"],
    ),
];

/// The Table 1 row of a library class, by its fully qualified name.
pub fn lookup(library_class: &str) -> Option<&'static Row> {
    TABLE1.iter().find(|it| it.library_class == library_class)
}
