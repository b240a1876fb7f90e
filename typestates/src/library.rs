//! The protocol library: the typestates bundled in the binary, plus a user's folder of
//! `.typestate` files that adds classes or overrides bundled ones.
//!
//! The bundled files live under `typestates/library/<package path>/<Class>.typestate`.
//! They are embedded with `include_str!` by the list below; a test checks it names every file on
//! disk.
//! A user folder (a project's `.typestar/`) is read recursively.
//! A file there whose class is already in the library replaces it, and the entry remembers what it
//! replaced.
//!
//! ```text
//! let library = Library::load_dir(Path::new(".typestar"))?;   // bundled + overrides
//! let recorder = library.find("MediaRecorder")?;              // simple name, if unambiguous
//! ```

use std::collections::BTreeMap;
use std::fmt;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicU64, Ordering};

use crate::files::{read_regular, Visited};
use crate::format::{self, Diagnostic};
use crate::model::Typestate;
use crate::provenance::Provenance;

/// One bundled file: its path under `typestates/library/` and its text.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BundledFile {
    /// Path relative to `typestates/library/`, with `/` separators:
    /// `android/media/MediaRecorder.typestate`.
    pub path: &'static str,
    /// The file's text.
    pub text: &'static str,
}

macro_rules! bundled {
    ($($path:literal),* $(,)?) => {
        &[$(BundledFile {
            path: $path,
            text: include_str!(concat!("../library/", $path)),
        }),*]
    };
}

/// Every bundled file, sorted by path. `tests/library.rs` checks this list against the folder.
/// Typestate files larger than this are refused before they are read; the largest real one
/// is a few kilobytes.
pub const MAX_TYPESTATE_BYTES: u64 = 4 << 20;

const BUNDLED: &[BundledFile] = bundled![
    "android/app/DownloadManager.typestate",
    "android/bluetooth/BluetoothAdapter.typestate",
    "android/content/ContentProviderClient.typestate",
    "android/content/res/TypedArray.typestate",
    "android/database/Cursor.typestate",
    "android/database/sqlite/SQLiteDatabase.typestate",
    "android/database/sqlite/SQLiteOpenHelper.typestate",
    "android/database/sqlite/SQLiteStatement.typestate",
    "android/graphics/Bitmap.typestate",
    "android/graphics/Canvas.typestate",
    "android/hardware/Camera.typestate",
    "android/media/AudioRecord.typestate",
    "android/media/AudioTrack.typestate",
    "android/media/MediaCodec.typestate",
    "android/media/MediaExtractor.typestate",
    "android/media/MediaMetadataRetriever.typestate",
    "android/media/MediaMuxer.typestate",
    "android/media/MediaPlayer.typestate",
    "android/media/MediaRecorder.typestate",
    "android/media/MediaScannerConnection.typestate",
    "android/media/SoundPool.typestate",
    "android/os/AsyncTask.typestate",
    "android/os/CountDownTimer.typestate",
    "android/os/FileObserver.typestate",
    "android/os/HandlerThread.typestate",
    "android/os/ParcelFileDescriptor.typestate",
    "android/os/PowerManager$WakeLock.typestate",
    "android/speech/SpeechRecognizer.typestate",
    "android/util/JsonWriter.typestate",
    "android/view/MotionEvent.typestate",
    "android/view/VelocityTracker.typestate",
    "android/view/textservice/SpellCheckerSession.typestate",
    "com/android/volley/RequestQueue.typestate",
    "com/nostra13/universalimageloader/core/ImageLoader.typestate",
    "java/io/InputStream.typestate",
    "java/io/FileOutputStream.typestate",
    "java/io/OutputStream.typestate",
    "java/io/PipedOutputStream.typestate",
    "java/io/RandomAccessFile.typestate",
    "java/io/Reader.typestate",
    "java/io/Writer.typestate",
    "java/net/Socket.typestate",
    "java/nio/channels/FileChannel.typestate",
    "java/nio/channels/Selector.typestate",
    "java/security/Signature.typestate",
    "java/sql/Connection.typestate",
    "java/sql/ResultSet.typestate",
    "java/sql/Statement.typestate",
    "java/util/Iterator.typestate",
    "java/util/ListIterator.typestate",
    "java/util/Scanner.typestate",
    "java/util/Timer.typestate",
    "java/util/concurrent/ExecutorService.typestate",
    "java/util/concurrent/locks/ReentrantLock.typestate",
    "java/util/zip/Deflater.typestate",
    "java/util/zip/GZIPInputStream.typestate",
    "java/util/zip/GZIPOutputStream.typestate",
    "java/util/zip/Inflater.typestate",
    "java/util/zip/ZipFile.typestate",
    "java/util/zip/ZipInputStream.typestate",
    "java/util/zip/ZipOutputStream.typestate",
    "javax/crypto/Cipher.typestate",
    "javax/crypto/Mac.typestate",
    "okhttp3/Call.typestate",
    "okhttp3/Response.typestate",
    "okhttp3/ResponseBody.typestate",
    "retrofit2/Call.typestate",
];

/// The bundled files, sorted by path.
pub fn bundled_files() -> &'static [BundledFile] {
    BUNDLED
}

/// The path a class's file has in a library folder: `android/os/AsyncTask.typestate` for
/// `android.os.AsyncTask` (a nested class `a.B$C` lives in `a/B$C.typestate`).
pub fn path_for_class(class: &str) -> String {
    format!("{}.typestate", class.replace('.', "/"))
}

/// Where a library entry was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum EntrySource {
    /// Embedded in the binary; the path is relative to `typestates/library/`.
    Bundled {
        /// `android/media/MediaRecorder.typestate`.
        path: &'static str,
    },
    /// Read from a user folder.
    User {
        /// The file as it was found (the folder joined with the relative path).
        path: PathBuf,
    },
}

impl EntrySource {
    /// Whether the entry ships with typestar.
    pub fn is_bundled(&self) -> bool {
        matches!(self, EntrySource::Bundled { .. })
    }
}

impl fmt::Display for EntrySource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            EntrySource::Bundled { path } => write!(f, "bundled:{path}"),
            EntrySource::User { path } => write!(f, "{}", path.display()),
        }
    }
}

/// One protocol of the library.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The protocol.
    pub typestate: Typestate,
    /// Where it was read from.
    pub source: EntrySource,
    /// The entry this one replaced, when a user file overrides a bundled (or earlier) one.
    pub overrides: Option<EntrySource>,
}

impl Entry {
    /// The fully qualified class name.
    pub fn class(&self) -> &str {
        &self.typestate.class
    }

    /// Where the protocol comes from (learned, DroidStar, documented; sources and platform).
    pub fn provenance(&self) -> &Provenance {
        &self.typestate.provenance
    }
}

/// An error while reading a library folder; each names the file, and the line and column when
/// the problem is inside it.
#[derive(Debug, thiserror::Error)]
pub enum LibraryError {
    /// The folder or a file could not be read.
    #[error("{}: {source}", path.display())]
    Io {
        /// The folder or file.
        path: PathBuf,
        /// What the system said.
        source: std::io::Error,
    },
    /// A file does not parse; one error per diagnostic, at file:line:col.
    #[error(transparent)]
    Parse(#[from] Diagnostic),
    /// Two files of the same folder describe the same class.
    #[error("{}:{line}:{col}: class `{class}` is already described by {}", path.display(), first.display())]
    DuplicateClass {
        /// The class.
        class: String,
        /// The second file.
        path: PathBuf,
        /// Line of its `typestate` declaration.
        line: usize,
        /// Column of the class name.
        col: usize,
        /// The first file.
        first: PathBuf,
    },
}

/// Why [`Library::find`] found no single protocol.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LookupError {
    /// No class has this name, fully qualified or simple.
    #[error("no protocol for `{name}` in the library")]
    NotFound {
        /// The name asked for.
        name: String,
    },
    /// Several classes share this simple name.
    #[error("`{name}` is ambiguous: {}", candidates.join(", "))]
    Ambiguous {
        /// The name asked for.
        name: String,
        /// The fully qualified names it could mean, sorted.
        candidates: Vec<String>,
    },
}

/// The folder of a user folder that holds protocols learned again for classes the library has,
/// kept beside the library's for review (`typestar diff`) and never loaded.
pub const LEARNED_DIR: &str = "learned";

/// A set of protocols, one per class, sorted by class name.
#[derive(Clone, Debug, Default)]
pub struct Library {
    entries: BTreeMap<String, Entry>,
    edition: Edition,
}

/// Which entries a library holds: a new number for each library built and each change of one.
/// A clone keeps it, so two libraries of one edition hold the same entries.
/// A check compares the library with the last one per input; an edition makes that cheap.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Edition(u64);

impl Default for Edition {
    fn default() -> Edition {
        static NEXT: AtomicU64 = AtomicU64::new(0);
        Edition(NEXT.fetch_add(1, Ordering::Relaxed))
    }
}

/// Libraries are equal when they hold the same entries, whatever their editions.
impl PartialEq for Library {
    fn eq(&self, other: &Library) -> bool {
        self.edition == other.edition || self.entries == other.entries
    }
}

impl Eq for Library {}

impl Library {
    /// The protocols bundled with typestar.
    ///
    /// The bundled files are checked by `tests/library.rs`, so a parse failure here is a bug in
    /// the build, and it panics naming every diagnostic.
    pub fn bundled() -> Library {
        let mut library = Library::default();
        for file in BUNDLED {
            let typestate = format::parse(&format!("library/{}", file.path), file.text)
                .unwrap_or_else(|diagnostics| {
                    let lines: Vec<String> = diagnostics.iter().map(|d| d.to_string()).collect();
                    panic!("bundled typestate does not parse:\n{}", lines.join("\n"))
                });
            library.insert(Entry {
                typestate,
                source: EntrySource::Bundled { path: file.path },
                overrides: None,
            });
        }
        library
    }

    /// The bundled protocols with a user folder's files added on top (see [`Library::add_dir`]).
    pub fn load_dir(dir: &Path) -> Result<Library, Vec<LibraryError>> {
        let mut library = Library::bundled();
        library.add_dir(dir)?;
        Ok(library)
    }

    /// Reads every `*.typestate` file under `dir` (recursively, in path order, outside its
    /// [`LEARNED_DIR`]) and adds it, replacing an entry of the same class. On any error nothing
    /// is added and every error of every file is returned.
    pub fn add_dir(&mut self, dir: &Path) -> Result<(), Vec<LibraryError>> {
        let (read, errors) = read_dir_entries(dir);
        if !errors.is_empty() {
            return Err(errors);
        }
        self.add_read(read);
        Ok(())
    }

    /// [`Library::add_dir`], except that the files that read add their protocols even when
    /// other files have errors; the errors of the others are returned.
    pub fn add_dir_skipping_errors(&mut self, dir: &Path) -> Vec<LibraryError> {
        let (read, errors) = read_dir_entries(dir);
        self.add_read(read);
        errors
    }

    fn add_read(&mut self, read: BTreeMap<String, (PathBuf, Typestate)>) {
        for (_, (path, typestate)) in read {
            self.insert(Entry {
                typestate,
                source: EntrySource::User { path },
                overrides: None,
            });
        }
    }

    /// Adds an entry, replacing (and recording) any entry of the same class.
    pub fn insert(&mut self, mut entry: Entry) {
        let class = entry.typestate.class.clone();
        if let Some(old) = self.entries.remove(&class) {
            entry.overrides = Some(old.source);
        }
        self.entries.insert(class, entry);
        self.edition = Edition::default();
    }

    /// The protocol of a class, by fully qualified name.
    pub fn get(&self, class: &str) -> Option<&Entry> {
        self.entries.get(class)
    }

    /// The protocol named `name`: a fully qualified class name, or a simple name
    /// (`MediaRecorder`, `Call`) that only one class of the library has.
    pub fn find(&self, name: &str) -> Result<&Entry, LookupError> {
        if let Some(entry) = self.get(name) {
            return Ok(entry);
        }
        let matches: Vec<&Entry> = self
            .entries
            .values()
            .filter(|e| e.typestate.simple_name() == name)
            .collect();
        match matches.as_slice() {
            [one] => Ok(one),
            [] => Err(LookupError::NotFound {
                name: name.to_owned(),
            }),
            many => Err(LookupError::Ambiguous {
                name: name.to_owned(),
                candidates: many.iter().map(|e| e.class().to_owned()).collect(),
            }),
        }
    }

    /// The levels at which some protocol of the library changes (see
    /// [`crate::levels::ApiLevels::boundaries`]), sorted, each once; empty when no protocol
    /// depends on the API level.
    pub fn level_boundaries(&self) -> Vec<u32> {
        let mut boundaries: Vec<u32> = self
            .entries
            .values()
            .flat_map(|e| e.typestate.level_boundaries())
            .collect();
        boundaries.sort_unstable();
        boundaries.dedup();
        boundaries
    }

    /// The library on API level `level`: every protocol as [`Typestate::at_level`] gives it.
    pub fn at_level(&self, level: u32) -> Library {
        let entries = self
            .entries
            .iter()
            .map(|(class, entry)| {
                let mut entry = entry.clone();
                if entry.typestate.varies_by_level() {
                    entry.typestate = entry.typestate.at_level(level);
                }
                (class.clone(), entry)
            })
            .collect();
        Library {
            entries,
            edition: Edition::default(),
        }
    }

    /// All entries, sorted by class name.
    pub fn iter(&self) -> impl Iterator<Item = &Entry> + '_ {
        self.entries.values()
    }

    /// Number of classes.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Whether the library has no class.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

/// The protocols of the `*.typestate` files under `dir` by class, and the errors of the files
/// that did not read.
fn read_dir_entries(dir: &Path) -> (BTreeMap<String, (PathBuf, Typestate)>, Vec<LibraryError>) {
    let mut errors = Vec::new();
    let mut paths = Vec::new();
    collect_typestate_files(dir, &mut paths, &mut errors, &mut Visited::default());
    paths.sort();
    let mut read: BTreeMap<String, (PathBuf, Typestate)> = BTreeMap::new();
    for path in paths {
        let contents = read_regular(&path, MAX_TYPESTATE_BYTES).and_then(|bytes| {
            String::from_utf8(bytes)
                .map_err(|err| std::io::Error::new(std::io::ErrorKind::InvalidData, err))
        });
        let text = match contents {
            Ok(text) => text,
            Err(source) => {
                errors.push(LibraryError::Io { path, source });
                continue;
            }
        };
        let typestate = match format::parse(&path.display().to_string(), &text) {
            Ok(typestate) => typestate,
            Err(diagnostics) => {
                errors.extend(diagnostics.into_iter().map(LibraryError::Parse));
                continue;
            }
        };
        if let Some((first, _)) = read.get(&typestate.class) {
            let (line, col) = class_position(&text);
            errors.push(LibraryError::DuplicateClass {
                class: typestate.class.clone(),
                path,
                line,
                col,
                first: first.clone(),
            });
            continue;
        }
        read.insert(typestate.class.clone(), (path, typestate));
    }
    (read, errors)
}

fn collect_typestate_files(
    dir: &Path,
    out: &mut Vec<PathBuf>,
    errors: &mut Vec<LibraryError>,
    visited: &mut Visited,
) {
    if !visited.first_visit(dir) {
        return;
    }
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(source) => {
            errors.push(LibraryError::Io {
                path: dir.to_owned(),
                source,
            });
            return;
        }
    };
    for entry in entries {
        let path = match entry {
            Ok(entry) => entry.path(),
            Err(source) => {
                errors.push(LibraryError::Io {
                    path: dir.to_owned(),
                    source,
                });
                continue;
            }
        };
        if path.is_dir() {
            if path.file_name().is_some_and(|name| name == LEARNED_DIR) {
                continue;
            }
            collect_typestate_files(&path, out, errors, visited);
        } else if path.extension().is_some_and(|ext| ext == "typestate") {
            out.push(path);
        }
    }
}

/// Line and column of the class name in the `typestate` declaration (1, 1 if absent).
fn class_position(text: &str) -> (usize, usize) {
    for (index, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(rest) = trimmed.strip_prefix("typestate") {
            if rest.starts_with(char::is_whitespace) {
                let indent = line.chars().count() - trimmed.chars().count();
                let gap = rest.chars().count() - rest.trim_start().chars().count();
                return (index + 1, indent + "typestate".len() + gap + 1);
            }
        }
    }
    (1, 1)
}
