//! Reading files and walking folders given by path, safe on whatever a user's tree holds.
//!
//! A file is read only if it is a regular file (after following links) within a size limit, checked before reading.
//! A FIFO would block, a device like `/dev/zero` never ends, and a huge file would be read whole before being refused.
//! A folder walk remembers the folders it entered (by their canonical path).
//! So a symbolic link back up the tree is entered once, not until the system's link limit.

use std::collections::HashSet;
use std::io::{Error, ErrorKind, Read};
use std::path::{Path, PathBuf};

/// Why [`read_regular`] refused a file without reading it, carried inside the
/// [`std::io::Error`] it returns (see [`Refused::of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum Refused {
    /// A folder, FIFO, socket or device.
    #[error("not a regular file (a folder, FIFO, socket or device); not read")]
    NotRegular,
    /// More bytes than the limit.
    #[error("{len} bytes is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The file's size, or the limit plus one when it grew while being read.
        len: u64,
        /// The limit.
        limit: u64,
    },
}

impl Refused {
    /// The refusal inside `error`, if [`read_regular`] refused the file.
    pub fn of(error: &Error) -> Option<Refused> {
        error.get_ref()?.downcast_ref::<Refused>().copied()
    }
}

/// Reads the regular file at `path`, refusing other kinds of files and files larger than
/// `limit` bytes with an error that says so ([`Refused`]).
pub fn read_regular(path: &Path, limit: u64) -> std::io::Result<Vec<u8>> {
    let metadata = std::fs::metadata(path)?;
    if !metadata.is_file() {
        return Err(Error::new(ErrorKind::InvalidInput, Refused::NotRegular));
    }
    let too_large = |len: u64| Error::new(ErrorKind::InvalidData, Refused::TooLarge { len, limit });
    if metadata.len() > limit {
        return Err(too_large(metadata.len()));
    }
    let mut bytes = Vec::new();
    // The file may grow after the check: never read more than one byte past the limit.
    std::fs::File::open(path)?
        .take(limit.saturating_add(1))
        .read_to_end(&mut bytes)?;
    let len = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
    if len > limit {
        return Err(too_large(len));
    }
    Ok(bytes)
}

/// The folders a walk has entered, by canonical path.
#[derive(Debug, Default)]
pub struct Visited(HashSet<PathBuf>);

impl Visited {
    /// Whether `dir` is entered for the first time (a folder that cannot be resolved counts as
    /// new, so that reading it reports the error).
    pub fn first_visit(&mut self, dir: &Path) -> bool {
        match std::fs::canonicalize(dir) {
            Ok(canonical) => self.0.insert(canonical),
            Err(_) => true,
        }
    }
}
