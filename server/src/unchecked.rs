//! Why a file was not checked, or not fully, or only with a caveat: one closed type per outcome.
//! Each kind has a stable code (shown as `error[code]`, and as `code` in JSON and SARIF).
//! Each says what was expected and what the user can do next.
//! The command line reports through this module in every format.
//! The LSP server logs the workspace files it could not read through it.

use std::fmt;
use std::path::{Path, PathBuf};
use std::time::Duration;

use checker::ir::TooDeep;
use checker::source::SourceError;
use checker::{CheckResult, Unconverged, Unsettled};
use typestates::files::Refused;

/// A file or folder that could not be checked, or not fully.
/// Any of them makes `typestar check` exit with status 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileError {
    /// A path given on the command line that does not exist.
    NoSuchPath {
        /// The path as given.
        path: PathBuf,
    },
    /// A folder under which no Java or Kotlin file was found.
    NoSources {
        /// The folder.
        path: PathBuf,
    },
    /// A folder that could not be listed.
    UnreadableFolder {
        /// The folder.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// A file named as a source file that is a FIFO, socket or device.
    NotRegular {
        /// The file.
        path: PathBuf,
    },
    /// A file larger than the checker reads.
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Its size in bytes.
        len: u64,
        /// The limit in bytes.
        limit: u64,
    },
    /// A file the system would not let us read.
    Unreadable {
        /// The file.
        path: PathBuf,
        /// What the system said.
        reason: String,
    },
    /// A file that is not UTF-8 (the command line reads it as Latin-1 instead, with a
    /// warning; the LSP server cannot, since the editor's text must match).
    NotUtf8 {
        /// The file.
        path: PathBuf,
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
    /// A file named on the command line that is not Java or Kotlin.
    NotSource {
        /// The file.
        path: PathBuf,
    },
    /// Code nested deeper than the checker follows; what lies deeper was not checked.
    TooDeep {
        /// The file.
        path: PathBuf,
        /// Where and what.
        too_deep: TooDeep,
    },
    /// Parsing or the analysis hit the time limit per file.
    TimeLimit {
        /// The file.
        path: PathBuf,
        /// The limit.
        limit: Duration,
    },
    /// A file that changed or went away while it was checked: the check reads a file's text
    /// again when it needs it, and never checks a text other than the one first read.
    Changed {
        /// The file.
        path: PathBuf,
    },
    /// The analysis of a method stopped at its cap before settling; its class's findings
    /// were withheld.
    Unconverged {
        /// The file.
        path: PathBuf,
        /// The class, the method and the place.
        unconverged: Unconverged,
    },
    /// The checker failed on the file (a bug).
    Internal {
        /// The file.
        path: PathBuf,
    },
}

/// A file that was checked, with a caveat; warnings alone do not change the exit status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileWarning {
    /// The file is not UTF-8 and was read as Latin-1.
    Latin1 {
        /// The file.
        path: PathBuf,
    },
    /// A Gradle file or manifest whose API levels could not be read.
    LevelSetting {
        /// The file.
        path: PathBuf,
        /// What was wrong, naming the file.
        message: String,
    },
}

impl FileError {
    /// The error for `path` that `read_regular` (through `crate::project::read_source`) returned.
    pub fn of_read(path: &Path, error: &std::io::Error) -> FileError {
        let path = path.to_owned();
        match Refused::of(error) {
            Some(Refused::NotRegular) => FileError::NotRegular { path },
            Some(Refused::TooLarge { len, limit }) => FileError::TooLarge { path, len, limit },
            None => FileError::Unreadable {
                path,
                reason: error.to_string(),
            },
        }
    }

    /// The error for a file [`SourceFile::decode`](checker::SourceFile::decode) refused.
    pub fn of_source(error: &SourceError) -> FileError {
        match error {
            SourceError::UnknownLanguage { path } => FileError::NotSource { path: path.clone() },
            SourceError::NotUtf8 { path, offset } => FileError::NotUtf8 {
                path: path.clone(),
                offset: *offset,
            },
            SourceError::TooLarge { path, len, limit } => FileError::TooLarge {
                path: path.clone(),
                len: u64::try_from(*len).unwrap_or(u64::MAX),
                limit: u64::try_from(*limit).unwrap_or(u64::MAX),
            },
        }
    }

    /// Why the check of the file at `path` is incomplete (nested too deep or out of time
    /// under `limit`, and each method whose analysis did not settle); empty when it is complete.
    pub fn incomplete(path: &Path, result: &CheckResult, limit: Duration) -> Vec<FileError> {
        let path = path.to_owned();
        let cut = match (result.too_deep, result.timed_out) {
            (Some(too_deep), _) => Some(FileError::TooDeep {
                path: path.clone(),
                too_deep,
            }),
            (None, true) => Some(FileError::TimeLimit {
                path: path.clone(),
                limit,
            }),
            (None, false) => None,
        };
        let unconverged = result
            .unconverged
            .iter()
            .map(|unconverged| FileError::Unconverged {
                path: path.clone(),
                unconverged: unconverged.clone(),
            });
        cut.into_iter().chain(unconverged).collect()
    }

    /// The stable code of this kind of error.
    pub fn code(&self) -> &'static str {
        match self {
            FileError::NoSuchPath { .. } => "no-such-path",
            FileError::NoSources { .. } => "no-sources",
            FileError::UnreadableFolder { .. } => "unreadable-folder",
            FileError::NotRegular { .. } => "not-a-regular-file",
            FileError::TooLarge { .. } => "file-too-large",
            FileError::Unreadable { .. } => "unreadable-file",
            FileError::NotUtf8 { .. } => "not-utf8",
            FileError::NotSource { .. } => "not-a-source-file",
            FileError::TooDeep { .. } => "nested-too-deep",
            FileError::TimeLimit { .. } => "time-limit",
            FileError::Changed { .. } => "file-changed",
            FileError::Unconverged { .. } => "analysis-unsettled",
            FileError::Internal { .. } => "internal-error",
        }
    }

    /// The file or folder.
    pub fn path(&self) -> &Path {
        match self {
            FileError::NoSuchPath { path }
            | FileError::NoSources { path }
            | FileError::UnreadableFolder { path, .. }
            | FileError::NotRegular { path }
            | FileError::TooLarge { path, .. }
            | FileError::Unreadable { path, .. }
            | FileError::NotUtf8 { path, .. }
            | FileError::NotSource { path }
            | FileError::TooDeep { path, .. }
            | FileError::TimeLimit { path, .. }
            | FileError::Changed { path }
            | FileError::Unconverged { path, .. }
            | FileError::Internal { path } => path,
        }
    }

    /// What happened and what was expected, without the path.
    fn problem(&self) -> String {
        match self {
            FileError::NoSuchPath { .. } => "no such file or folder".to_owned(),
            FileError::NoSources { .. } => {
                "no Java or Kotlin files in this folder (outside build output): nothing was checked"
                    .to_owned()
            }
            FileError::UnreadableFolder { reason, .. } => format!("cannot read folder: {reason}"),
            FileError::NotRegular { .. } => format!("cannot read: {}", Refused::NotRegular),
            FileError::TooLarge { len, limit, .. } => format!(
                "cannot read: {}",
                Refused::TooLarge {
                    len: *len,
                    limit: *limit
                }
            ),
            FileError::Unreadable { reason, .. } => format!("cannot read: {reason}"),
            FileError::NotUtf8 { offset, .. } => {
                format!("not valid UTF-8 (first invalid byte at offset {offset}); not checked")
            }
            FileError::NotSource { .. } => {
                "not a Java or Kotlin file (expected .java, .kt or .kts)".to_owned()
            }
            FileError::TooDeep { too_deep, .. } => too_deep.to_string(),
            FileError::TimeLimit { limit, .. } => format!(
                "checking took longer than the limit of {} s per file; the file was not checked fully",
                limit.as_secs_f64()
            ),
            FileError::Changed { .. } => {
                "changed or removed while it was checked; not checked".to_owned()
            }
            FileError::Unconverged { unconverged, .. } => {
                format!("{}; the file was not checked fully", unconverged.describe())
            }
            FileError::Internal { .. } => {
                "internal error in the checker; the file was skipped".to_owned()
            }
        }
    }

    /// What the user can do next.
    pub fn next_step(&self) -> &'static str {
        match self {
            FileError::NoSuchPath { .. } => "check the spelling of the path",
            FileError::NoSources { .. } => {
                "name the folder that holds the sources, or the source files themselves"
            }
            FileError::UnreadableFolder { .. } | FileError::Unreadable { .. } => {
                "give the user running typestar permission to read it, or leave it out"
            }
            FileError::NotRegular { .. } => {
                "rename it or leave it out: only regular files are read as sources"
            }
            FileError::TooLarge { .. } => {
                "the limit is fixed: leave the file out (it is usually generated code)"
            }
            FileError::NotUtf8 { .. } => "save the file as UTF-8",
            FileError::NotSource { .. } => "name .java, .kt or .kts files, or their folders",
            FileError::TooDeep { .. } => {
                "the limit is fixed: the code outside the deep part was checked; flatten the nesting to check it all"
            }
            FileError::TimeLimit { .. } => "raise the limit with `--time-limit SECONDS`",
            FileError::Changed { .. } => "check again once nothing writes to the file",
            FileError::Unconverged { unconverged, .. } => match unconverged.analysis {
                Unsettled::Method(_) | Unsettled::Initializer => {
                    "the cap is fixed: split the method (its loops or long chains of assignments) to check that class; the other classes were checked"
                }
                Unsettled::Events => {
                    "the cap is fixed: shorten the chains of fields that its methods and callbacks pass objects along to check that class; the other classes were checked"
                }
            },
            FileError::Internal { .. } => {
                "please report it, with the file: the other files were still checked"
            }
        }
    }
}

impl fmt::Display for FileError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            // The place follows the path as `path:line:col`.
            FileError::TooDeep { path, too_deep } => write!(f, "{}:{too_deep}", path.display()),
            FileError::Unconverged { path, unconverged } => write!(
                f,
                "{}:{}: {}",
                path.display(),
                unconverged.span.start,
                self.problem()
            ),
            _ => write!(f, "{}: {}", self.path().display(), self.problem()),
        }
    }
}

impl FileWarning {
    /// The stable code of this kind of warning.
    pub fn code(&self) -> &'static str {
        match self {
            FileWarning::Latin1 { .. } => "read-as-latin1",
            FileWarning::LevelSetting { .. } => "api-levels-unread",
        }
    }

    /// The file.
    pub fn path(&self) -> &Path {
        match self {
            FileWarning::Latin1 { path } | FileWarning::LevelSetting { path, .. } => path,
        }
    }

    /// What the user can do next.
    pub fn next_step(&self) -> &'static str {
        match self {
            FileWarning::Latin1 { .. } => {
                "columns on lines with non-ASCII bytes may be off; save the file as UTF-8"
            }
            FileWarning::LevelSetting { .. } => {
                "fix the file, or give the levels with `--min-sdk` and `--target-sdk`"
            }
        }
    }
}

impl fmt::Display for FileWarning {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            FileWarning::Latin1 { path } => write!(
                f,
                "{}: not valid UTF-8; read as Latin-1 (ISO 8859-1)",
                path.display()
            ),
            FileWarning::LevelSetting { message, .. } => f.write_str(message),
        }
    }
}
