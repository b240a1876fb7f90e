//! DroidStar's Table 1 (paper 001; `shared/papers/README.md`): the numbers the learner is
//! measured against, and the library class each row names.

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
}

const fn row(
    class: &'static str,
    library_name: &'static str,
    states: u32,
    mq_executed: u64,
    eq: u32,
) -> Row {
    Row {
        class,
        library_name,
        states,
        mq_executed,
        eq,
    }
}

/// Every row of Table 1.
pub const TABLE1: [Row; 16] = [
    row("AsyncTask", "AsyncTask", 5, 94, 1),
    row("BluetoothAdapter", "BluetoothAdapter", 12, 157, 2),
    row("CountDownTimer", "CountDownTimer", 3, 61, 1),
    row("DownloadManager", "DownloadManager", 4, 43, 1),
    row("FileObserver", "FileObserver", 6, 189, 2),
    row("ImageLoader", "ImageLoader", 5, 113, 2),
    row("MediaCodec", "MediaCodec", 8, 871, 1),
    row("MediaPlayer", "MediaPlayer", 10, 2372, 5),
    row("MediaRecorder", "MediaRecorder", 8, 721, 1),
    row(
        "MediaScannerConnection",
        "MediaScannerConnection",
        4,
        161,
        2,
    ),
    row("OkHttpCall", "Call", 6, 166, 2),
    row("RequestQueue", "RequestQueue", 4, 117, 1),
    row("SpeechRecognizer", "SpeechRecognizer", 7, 293, 3),
    row("SpellCheckerSession", "SpellCheckerSession", 6, 213, 4),
    row("SQLiteOpenHelper", "SQLiteOpenHelper", 8, 228, 2),
    row("VelocityTracker", "VelocityTracker", 2, 403, 1),
];

/// The Table 1 row of a library class, by its simple name.
pub fn lookup(library_name: &str) -> Option<&'static Row> {
    TABLE1.iter().find(|it| it.library_name == library_name)
}
