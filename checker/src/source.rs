//! Source files as the checker accepts them: UTF-8 text of a known language, within a size
//! limit, with a clear error for anything else.
//! [`SourceFile::decode`] also reads a file that is not UTF-8, as Latin-1, and says so.

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

/// How the bytes of a file became its text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// The bytes are UTF-8.
    Utf8,
    /// The bytes are not UTF-8 and were read as Latin-1 (ISO 8859-1): each byte is the
    /// character of the same number.
    /// Java and Kotlin sources in a legacy encoding keep their non-ASCII bytes in comments and
    /// string literals, so the code reads the same; columns on lines with such bytes may be off.
    Latin1,
}

impl SourceFile {
    /// Accepts `bytes` read from `path` as [`SourceFile::from_bytes`] does, except that bytes
    /// that are not UTF-8 are read as Latin-1 instead of refused; the encoding says which.
    pub fn decode(path: &Path, bytes: Vec<u8>) -> Result<(SourceFile, Encoding), SourceError> {
        let language = accept(path, &bytes)?;
        let (text, encoding) = match String::from_utf8(bytes) {
            Ok(text) => (text, Encoding::Utf8),
            // Latin-1 maps byte n to U+00n: no decoding table is needed.
            Err(err) => (
                err.into_bytes().into_iter().map(char::from).collect(),
                Encoding::Latin1,
            ),
        };
        let file = SourceFile {
            path: path.to_owned(),
            language,
            text,
        };
        Ok((file, encoding))
    }

    /// Accepts `bytes` read from `path`, if they are checkable.
    pub fn from_bytes(path: &Path, bytes: Vec<u8>) -> Result<SourceFile, SourceError> {
        let language = accept(path, &bytes)?;
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

/// The language of `path`, if its extension names one and `bytes` are within the size limit.
fn accept(path: &Path, bytes: &[u8]) -> Result<Language, SourceError> {
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
    Ok(language)
}
