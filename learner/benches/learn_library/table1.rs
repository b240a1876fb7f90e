//! DroidStar's Table 1 (paper 001; `shared/papers/README.md`): the numbers the learner is
//! measured against, the library class each row names, and DroidStar's input alphabet for it
//! (its learning purpose's inputs, `shared/notes/droidstar-lessons.md` §3), as the library
//! file's callin names. Library files may add callins read from the class's source; the
//! benchmark learns a Table 1 class projected onto DroidStar's inputs, so that it compares
//! the same protocol.

/// One row of Table 1.
pub struct Row {
    /// The class as Table 1 names it (its first word).
    pub class: &'static str,
    /// The library's simple class name for it.
    pub library_name: &'static str,
    /// States of the learned typestate, error sink excluded.
    pub states: u32,
    /// Membership queries executed on the device.
    pub mq_executed: u64,
    /// Equivalence queries.
    pub eq: u32,
    /// DroidStar's inputs, by the library file's callin names (creators are not inputs).
    pub inputs: &'static [&'static str],
}

const fn row(
    class: &'static str,
    library_name: &'static str,
    states: u32,
    mq_executed: u64,
    eq: u32,
    inputs: &'static [&'static str],
) -> Row {
    Row {
        class,
        library_name,
        states,
        mq_executed,
        eq,
        inputs,
    }
}

/// Every row of Table 1. Where DroidStar's learning purpose is not in its repository
/// (MediaCodec, MediaRecorder, MediaScannerConnection), the library file's alphabet stands in.
pub const TABLE1: [Row; 16] = [
    // AsyncTaskNoGetLP: is_cancelled was in AsyncTaskLP's alphabet, not in the learned run's.
    row("AsyncTask", "AsyncTask", 5, 94, 1, &["exec", "cancel"]),
    row(
        "BluetoothAdapter",
        "BluetoothAdapter",
        12,
        157,
        2,
        &["enable", "disable", "connect"],
    ),
    row(
        "CountDownTimer",
        "CountDownTimer",
        3,
        61,
        1,
        &["start", "cancel"],
    ),
    row(
        "DownloadManager",
        "DownloadManager",
        4,
        43,
        1,
        &["enque_valid", "enque_unavailable", "remove"],
    ),
    // The learned run had no `start`: the library's creator stands for construction, then
    // startWatching().
    row(
        "FileObserver",
        "FileObserver",
        6,
        189,
        2,
        &["stop", "modify", "delete"],
    ),
    row(
        "ImageLoader",
        "ImageLoader",
        5,
        113,
        2,
        &["loadGood", "loadBad", "cancel"],
    ),
    row(
        "MediaCodec",
        "MediaCodec",
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
        "MediaPlayer",
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
        "MediaRecorder",
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
        "MediaScannerConnection",
        4,
        161,
        2,
        &["connect", "disconnect", "scanFile"],
    ),
    // OkHttpCallLP: build_valid and build_unavailable are the library's creators; execute()
    // was learned by typestar, not by DroidStar.
    row("OkHttpCall", "Call", 6, 166, 2, &["enqueue", "cancel"]),
    row(
        "RequestQueue",
        "RequestQueue",
        4,
        117,
        1,
        &["enqueue_valid", "enqueue_unavailable", "cancel"],
    ),
    row(
        "SpeechRecognizer",
        "SpeechRecognizer",
        7,
        293,
        3,
        &["start", "stop", "cancel"],
    ),
    row(
        "SpellCheckerSession",
        "SpellCheckerSession",
        6,
        213,
        4,
        &["close", "cancel", "suggest"],
    ),
    row(
        "SQLiteOpenHelper",
        "SQLiteOpenHelper",
        8,
        228,
        2,
        &["openNew", "openHV", "openLV", "openSV", "close"],
    ),
    row(
        "VelocityTracker",
        "VelocityTracker",
        2,
        403,
        1,
        &["move", "clear", "compute", "get", "recycle"],
    ),
];

/// The Table 1 row of a library class, by its simple name.
pub fn lookup(library_name: &str) -> Option<&'static Row> {
    TABLE1.iter().find(|it| it.library_name == library_name)
}
