//! The journal: an append-only JSON-lines file of every executed query, synced to disk.
//! A killed run resumes from it without executing any finished query again.
//!
//! The first line is a [`Header`] naming the journal format, the experiment's fingerprint, the
//! class and the alphabet.
//! Every further line is one executed query with its outputs, by name.
//! Opening a journal:
//! - creates it with a header when it is missing or empty;
//! - refuses it, with a message saying which experiment it belongs to, when the fingerprint
//!   differs (another class, alphabet or experiment setting);
//! - keeps every complete entry and cuts off a last line left half-written by a kill.
//!
//! The [`Journal`] layer writes entries in chunks of the backend's parallelism, syncing after each
//! chunk.
//! So a kill loses at most the queries in flight.
//!
//! Between entries, `{"totals": ...}` lines keep what every session executed, split into
//! learning and checking ([`Totals`]).
//! A session appends one at every phase change, after every [`TOTALS_EVERY`] entries, and at its end.
//! Each is summed with the sessions before, so a resumed run reports the work of all of them.
//! A kill loses at most the counts of the last [`TOTALS_EVERY`] entries and the queries in flight.
//! The last one counts.

use std::fs::{File, OpenOptions};
use std::io::{Read, Seek, SeekFrom, Write};
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};
use thiserror::Error;

use crate::closure::{Alphabet, Output, OutputWord, Word};
use crate::oracle::sul::CountSnapshot;
use crate::oracle::{MembershipOracle, QueryError};

/// The format name in the header line.
pub const FORMAT: &str = "typestar-learner-journal";
/// The format version in the header line.
pub const VERSION: u32 = 1;

/// Why a journal cannot be used.
#[derive(Debug, Error)]
pub enum JournalError {
    /// Reading or writing the file failed.
    #[error("journal {path}: {source}")]
    Io {
        /// The journal file.
        path: PathBuf,
        /// The system's error.
        #[source]
        source: std::io::Error,
    },
    /// The journal belongs to another experiment.
    #[error(
        "journal {path} belongs to another experiment (fingerprint {found}, class {class}, inputs {inputs}); this run is {expected}. Resume with the same experiment, or give a new journal path"
    )]
    OtherExperiment {
        /// The journal file.
        path: PathBuf,
        /// This run's fingerprint.
        expected: String,
        /// The journal's fingerprint.
        found: String,
        /// The journal's class.
        class: String,
        /// The journal's inputs, space-separated.
        inputs: String,
    },
    /// A valid entry that the system, run again, contradicts by a majority of runs: the
    /// journal, not the system, is wrong.
    #[error(
        "journal {path}:{line}: the journal says `{query}` answered `{journaled}`, but {agreeing} runs of the system now answer `{system}`: the journal does not belong to this system (another version or setup, or an edited line); give a new journal path"
    )]
    WrongEntry {
        /// The journal file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// The query, as input names.
        query: String,
        /// The journaled outputs, as names.
        journaled: String,
        /// The outputs the system gave now, as names.
        system: String,
        /// How many runs gave them.
        agreeing: u32,
    },
    /// A line is not a journal entry of this format.
    #[error("journal {path}:{line}: {message}")]
    Corrupt {
        /// The journal file.
        path: PathBuf,
        /// 1-based line number.
        line: usize,
        /// What is wrong with it.
        message: String,
    },
}

/// The first line of a journal.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// Always [`FORMAT`].
    pub journal: String,
    /// Always [`VERSION`].
    pub version: u32,
    /// The experiment's fingerprint, see [`fingerprint`].
    pub experiment: String,
    /// The class learned.
    pub class: String,
    /// The input names, in column order.
    pub inputs: Vec<String>,
}

/// One executed query.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
struct Entry {
    inputs: Vec<String>,
    outputs: Vec<String>,
}

/// What the system executed for every session that wrote to a journal, summed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Totals {
    /// Sessions counted.
    pub sessions: u32,
    /// While the learner explored to build hypotheses.
    pub learning: CountSnapshot,
    /// While equivalence oracles checked hypotheses, traces were confirmed, or a resumed
    /// journal's sample was replayed.
    pub checking: CountSnapshot,
}

impl Totals {
    /// Learning and checking together.
    pub fn executed(&self) -> CountSnapshot {
        self.learning + self.checking
    }
}

/// The journal line that holds [`Totals`].
#[derive(Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
struct TotalsLine {
    totals: Totals,
}

/// One executed query read back from a journal.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct JournaledQuery {
    /// Its 1-based line number.
    pub line: usize,
    /// The inputs.
    pub word: Word,
    /// What the system answered.
    pub outputs: OutputWord,
}

/// A stable fingerprint of an experiment: the class, its inputs and callbacks, and every
/// setting that changes answers (`settings`, e.g. the query filters). FNV-1a, 64 bits, in hex.
pub fn fingerprint(alphabet: &Alphabet, settings: &str) -> String {
    let mut text = alphabet.signature.class.clone();
    for name in alphabet.input_names(&alphabet.inputs) {
        text.push('\u{1f}');
        text.push_str(&name);
    }
    text.push('\u{1e}');
    for callback in &alphabet.signature.callbacks {
        text.push('\u{1f}');
        text.push_str(&callback.name);
    }
    text.push('\u{1e}');
    text.push_str(settings);
    let hash = text.bytes().fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3)
    });
    format!("{hash:016x}")
}

/// An open journal file, positioned for appending.
pub struct JournalFile {
    path: PathBuf,
    file: File,
    alphabet: Arc<Alphabet>,
    /// Entries appended since the last totals line.
    since_totals: usize,
    /// Where the totals so far come from between phase changes.
    totals_source: Option<TotalsSource>,
}

/// How many entries may follow the last totals line before the journal appends the totals
/// again, so a kill loses the counts of at most these entries and the queries in flight.
pub const TOTALS_EVERY: usize = 64;

/// The totals so far, asked for by the journal every [`TOTALS_EVERY`] entries.
pub type TotalsSource = Box<dyn FnMut() -> Totals + Send>;

/// What opening a journal found in it.
pub struct Opened {
    /// The file, ready to append to.
    pub file: JournalFile,
    /// The queries it recorded, in order.
    pub entries: Vec<JournaledQuery>,
    /// The last totals it recorded.
    pub totals: Totals,
    /// Whether a half-written last line was cut off.
    pub recovered_truncation: bool,
}

/// What the text of a journal holds: see [`read`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Contents {
    /// The queries it recorded, in order.
    pub entries: Vec<JournaledQuery>,
    /// The last totals it recorded.
    pub totals: Totals,
    /// The length of the text up to the end of its last complete line; a longer text ends in a
    /// line a kill left half-written.
    pub complete: usize,
}

/// The header of the journal of `experiment` (a [`fingerprint`]) over `alphabet`.
fn header(alphabet: &Alphabet, experiment: &str) -> Header {
    Header {
        journal: FORMAT.to_owned(),
        version: VERSION,
        experiment: experiment.to_owned(),
        class: alphabet.signature.class.clone(),
        inputs: alphabet.input_names(&alphabet.inputs),
    }
}

/// The header line of `experiment` over `alphabet`, without its `\n`.
pub fn header_line(alphabet: &Alphabet, experiment: &str) -> String {
    serde_json::to_string(&header(alphabet, experiment)).expect("header serializes")
}

/// The line of one executed query, without its `\n`.
pub fn entry_line(
    alphabet: &Alphabet,
    word: &[crate::closure::Input],
    outputs: &[crate::closure::Output],
) -> String {
    let entry = Entry {
        inputs: alphabet.input_names(word),
        outputs: alphabet.output_names(outputs),
    };
    serde_json::to_string(&entry).expect("entry serializes")
}

/// The line of the totals so far, without its `\n`.
pub fn totals_line(totals: &Totals) -> String {
    serde_json::to_string(&TotalsLine { totals: *totals }).expect("totals serialize")
}

/// Reads `text`, the journal at `path`, for `experiment` (a [`fingerprint`]) over `alphabet`:
/// `None` when it holds no complete header line yet (nothing was journaled).
/// Only the last line may be incomplete; every other line must be an entry of this experiment
/// or totals.
pub fn read(
    path: &Path,
    text: &str,
    alphabet: &Alphabet,
    experiment: &str,
) -> Result<Option<Contents>, JournalError> {
    let Some(header_end) = text.find('\n') else {
        return Ok(None);
    };
    let corrupt = |line, message| JournalError::Corrupt {
        path: path.to_owned(),
        line,
        message,
    };
    check_header(path, &text[..header_end], &header(alphabet, experiment))?;
    let mut entries = Vec::new();
    let mut totals = Totals::default();
    let mut complete = header_end + 1;
    for (index, line) in text[complete..].split_inclusive('\n').enumerate() {
        let line_number = index + 2;
        if !line.ends_with('\n') {
            // Cut off mid-write by a kill: everything before it is complete.
            break;
        }
        complete += line.len();
        let line = line.trim_end_matches('\n');
        if let Ok(recorded) = serde_json::from_str::<TotalsLine>(line) {
            totals = recorded.totals;
            continue;
        }
        let (word, outputs) =
            parse_entry(alphabet, line).map_err(|message| corrupt(line_number, message))?;
        entries.push(JournaledQuery {
            line: line_number,
            word,
            outputs,
        });
    }
    Ok(Some(Contents {
        entries,
        totals,
        complete,
    }))
}

fn check_header(path: &Path, line: &str, expected: &Header) -> Result<(), JournalError> {
    let found: Header = serde_json::from_str(line).map_err(|error| JournalError::Corrupt {
        path: path.to_owned(),
        line: 1,
        message: format!("not a {FORMAT} header: {error}"),
    })?;
    if found.journal != FORMAT || found.version != VERSION {
        return Err(JournalError::Corrupt {
            path: path.to_owned(),
            line: 1,
            message: format!(
                "format {} version {}, expected {FORMAT} version {VERSION}",
                found.journal, found.version
            ),
        });
    }
    if found != *expected {
        return Err(JournalError::OtherExperiment {
            path: path.to_owned(),
            expected: expected.experiment.clone(),
            found: found.experiment,
            class: found.class,
            inputs: found.inputs.join(" "),
        });
    }
    Ok(())
}

fn parse_entry(alphabet: &Alphabet, line: &str) -> Result<(Word, OutputWord), String> {
    let entry: Entry = serde_json::from_str(line).map_err(|error| error.to_string())?;
    let word = entry
        .inputs
        .iter()
        .map(|name| {
            alphabet
                .input_named(name)
                .ok_or_else(|| format!("unknown input `{name}`"))
        })
        .collect::<Result<Word, _>>()?;
    let outputs = entry
        .outputs
        .iter()
        .map(|name| {
            alphabet
                .output_named(name)
                .ok_or_else(|| format!("unknown output `{name}`"))
        })
        .collect::<Result<OutputWord, _>>()?;
    if word.len() != outputs.len() {
        return Err(format!(
            "{} inputs but {} outputs",
            word.len(),
            outputs.len()
        ));
    }
    if let Some(err) = crate::closure::first_err(&outputs) {
        if let Some(after) = outputs[err..].iter().position(|it| *it != Output::Err) {
            return Err(format!(
                "output {} is `{}` after `err` (output {}): the system never runs inputs after an error",
                err + after + 1,
                entry.outputs[err + after],
                err + 1
            ));
        }
    }
    Ok((word, outputs))
}

impl JournalFile {
    /// Opens or creates the journal at `path` for the experiment `experiment` (a
    /// [`fingerprint`]) over `alphabet`.
    pub fn open(
        path: &Path,
        alphabet: Arc<Alphabet>,
        experiment: &str,
    ) -> Result<Opened, JournalError> {
        let io = |source| JournalError::Io {
            path: path.to_owned(),
            source,
        };
        let mut file = OpenOptions::new()
            .read(true)
            .append(true)
            .create(true)
            .open(path)
            .map_err(io)?;
        let mut text = String::new();
        file.read_to_string(&mut text).map_err(io)?;
        let contents = read(path, &text, &alphabet, experiment)?;
        let mut journal = JournalFile {
            path: path.to_owned(),
            file,
            alphabet,
            since_totals: 0,
            totals_source: None,
        };
        let Some(contents) = contents else {
            // Empty, or a header cut off before its newline: nothing was journaled yet.
            journal.file.set_len(0).map_err(io)?;
            journal.append_line(&header_line(&journal.alphabet, experiment))?;
            journal.sync()?;
            return Ok(Opened {
                file: journal,
                entries: Vec::new(),
                totals: Totals::default(),
                recovered_truncation: !text.is_empty(),
            });
        };
        let recovered_truncation = contents.complete < text.len();
        if recovered_truncation {
            journal.file.set_len(contents.complete as u64).map_err(io)?;
            journal.file.seek(SeekFrom::End(0)).map_err(io)?;
            journal.sync()?;
        }
        Ok(Opened {
            file: journal,
            entries: contents.entries,
            totals: contents.totals,
            recovered_truncation,
        })
    }

    /// Appends one executed query (not yet synced).
    pub fn append(
        &mut self,
        word: &[crate::closure::Input],
        outputs: &[crate::closure::Output],
    ) -> Result<(), JournalError> {
        let line = entry_line(&self.alphabet, word, outputs);
        self.since_totals += 1;
        self.append_line(&line)
    }

    /// Appends the totals so far and syncs.
    pub fn append_totals(&mut self, totals: &Totals) -> Result<(), JournalError> {
        self.since_totals = 0;
        self.append_line(&totals_line(totals))?;
        self.sync()
    }

    /// Asks `source` for the totals so far every [`TOTALS_EVERY`] entries, and appends them.
    pub fn totals_from(&mut self, source: TotalsSource) {
        self.totals_source = Some(source);
    }

    /// Appends the totals when [`TOTALS_EVERY`] entries followed the last ones.
    fn checkpoint(&mut self) -> Result<(), JournalError> {
        if self.since_totals < TOTALS_EVERY {
            return Ok(());
        }
        let Some(source) = &mut self.totals_source else {
            return Ok(());
        };
        let totals = source();
        self.append_totals(&totals)
    }

    /// The journal file.
    pub fn path(&self) -> &Path {
        &self.path
    }

    fn append_line(&mut self, line: &str) -> Result<(), JournalError> {
        let mut bytes = line.as_bytes().to_vec();
        bytes.push(b'\n');
        self.file
            .write_all(&bytes)
            .map_err(|source| JournalError::Io {
                path: self.path.clone(),
                source,
            })
    }

    /// Flushes everything appended to the disk.
    pub fn sync(&mut self) -> Result<(), JournalError> {
        self.file.sync_data().map_err(|source| JournalError::Io {
            path: self.path.clone(),
            source,
        })
    }
}

/// Journals every query `inner` answers, in chunks of `chunk` queries.
pub struct Journal<M> {
    inner: M,
    file: Option<Arc<Mutex<JournalFile>>>,
    chunk: usize,
}

impl<M: MembershipOracle> Journal<M> {
    /// The layer below.
    pub fn inner(&self) -> &M {
        &self.inner
    }

    /// Journals `inner` into `file` (none: no journal), syncing every `chunk` queries.
    pub fn new(inner: M, file: Option<Arc<Mutex<JournalFile>>>, chunk: usize) -> Journal<M> {
        Journal {
            inner,
            file,
            chunk: chunk.max(1),
        }
    }

    fn record(&self, words: &[Word], answers: &[OutputWord]) -> Result<(), JournalError> {
        let Some(file) = &self.file else {
            return Ok(());
        };
        let mut file = file.lock().expect("journal lock is never poisoned");
        for (word, outputs) in words.iter().zip(answers) {
            file.append(word, outputs)?;
        }
        file.sync()?;
        file.checkpoint()
    }
}

impl<M: MembershipOracle> MembershipOracle for Journal<M> {
    async fn answer(&self, queries: &[Word]) -> Result<Vec<OutputWord>, QueryError> {
        if self.file.is_none() {
            return self.inner.answer(queries).await;
        }
        let mut answers = Vec::with_capacity(queries.len());
        for chunk in queries.chunks(self.chunk) {
            let chunk_answers = self.inner.answer(chunk).await?;
            self.record(chunk, &chunk_answers)?;
            answers.extend(chunk_answers);
        }
        Ok(answers)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `learner/JOURNAL.md` documents these types: its examples parse as them, its tables list
    /// exactly their fields, and it names this format and version.
    #[test]
    fn journal_doc_matches_the_types() {
        let doc = include_str!("../../JOURNAL.md");
        assert!(doc.starts_with(&format!(
            "# The learner's journal (format `{FORMAT}`, version {VERSION})"
        )));
        let examples: Vec<&str> = doc
            .split("```json\n")
            .skip(1)
            .map(|block| block.split("\n```").next().expect("closed block"))
            .collect();
        let [header, entry, totals] = examples[..] else {
            panic!("JOURNAL.md has one header, one entry and one totals example");
        };
        let totals: TotalsLine = serde_json::from_str(totals).expect("the totals example parses");
        assert!(totals.totals.sessions > 0);
        let header: Header = serde_json::from_str(header).expect("the header example parses");
        assert_eq!((header.journal.as_str(), header.version), (FORMAT, VERSION));
        let entry: Entry = serde_json::from_str(entry).expect("the entry example parses");
        assert_eq!(entry.inputs.len(), entry.outputs.len());
        for (example, fields) in [
            (
                serde_json::to_value(&header),
                ["journal", "version", "experiment", "class", "inputs"].as_slice(),
            ),
            (
                serde_json::to_value(&entry),
                ["inputs", "outputs"].as_slice(),
            ),
            (
                serde_json::to_value(totals.totals),
                ["sessions", "learning", "checking"].as_slice(),
            ),
        ] {
            let example = example.expect("serializes");
            let keys: Vec<&str> = example
                .as_object()
                .expect("an object")
                .keys()
                .map(String::as_str)
                .collect();
            let mut sorted = fields.to_vec();
            sorted.sort_unstable();
            assert_eq!(keys, sorted, "the documented fields are the type's fields");
            for field in fields {
                assert!(
                    doc.contains(&format!("| `{field}` |")),
                    "JOURNAL.md documents `{field}`"
                );
            }
        }
    }
}
