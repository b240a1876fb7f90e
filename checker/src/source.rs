//! Source files as the checker accepts them: UTF-8 text of a known language, within a size
//! limit, with a clear error for anything else.

use std::path::{Path, PathBuf};

use crate::ir::Language;

/// Files larger than this are refused rather than parsed.
pub const MAX_SOURCE_BYTES: usize = 16 * 1024 * 1024;

/// A source file ready to be checked.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SourceFile {
    /// The path the file was read from (used in messages only).
    pub path: PathBuf,
    /// The language, from the file extension.
    pub language: Language,
    /// The file contents.
    pub text: String,
}

/// Why a file cannot be checked.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SourceError {
    /// The extension is not `.java`, `.kt` or `.kts`.
    #[error("{path}: not a Java or Kotlin file (expected .java, .kt or .kts)")]
    UnknownLanguage {
        /// The offending path.
        path: PathBuf,
    },
    /// The contents are not valid UTF-8.
    #[error("{path}: not valid UTF-8 (first invalid byte at offset {offset})")]
    NotUtf8 {
        /// The offending path.
        path: PathBuf,
        /// The byte offset of the first invalid byte.
        offset: usize,
    },
    /// The file exceeds [`MAX_SOURCE_BYTES`].
    #[error("{path}: {len} bytes is larger than the limit of {limit} bytes")]
    TooLarge {
        /// The offending path.
        path: PathBuf,
        /// The file size.
        len: usize,
        /// The limit.
        limit: usize,
    },
}

impl SourceFile {
    /// Accepts `bytes` read from `path`, if they are checkable.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<SourceFile, SourceError> {
        let language = match path.extension().and_then(|ext| ext.to_str()) {
            Some("java") => Language::Java,
            Some("kt" | "kts") => Language::Kotlin,
            _ => {
                return Err(SourceError::UnknownLanguage {
                    path: path.to_owned(),
                })
            }
        };
        if bytes.len() > MAX_SOURCE_BYTES {
            return Err(SourceError::TooLarge {
                path: path.to_owned(),
                len: bytes.len(),
                limit: MAX_SOURCE_BYTES,
            });
        }
        let text = String::from_utf8(bytes).map_err(|err| SourceError::NotUtf8 {
            path: path.to_owned(),
            offset: err.utf8_error().valid_up_to(),
        })?;
        Ok(SourceFile {
            path: path.to_owned(),
            language,
            text,
        })
    }
}
