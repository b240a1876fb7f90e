//! Source files as the checker accepts them: UTF-8 text of a known language, within a size
//! limit, with a clear error for anything else.
//! [`SourceFile::decode`] also reads a file that is not UTF-8, as Latin-1, and says so.

use std::borrow::Cow;
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

/// The files of a project, whose texts a [`crate::Project`] asks for when it needs them.
/// A project check holds at most a few texts at once, so its memory does not grow with the
/// size of the project's text ([`OnDisk`] reads each text again when asked).
pub trait Sources: Sync {
    /// The number of files.
    fn len(&self) -> usize;
    /// Whether there are no files.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
    /// The language of file `index`.
    fn language(&self, index: usize) -> Language;
    /// The text of file `index`; `None` when it can no longer be read as it was first
    /// (removed, or changed since).
    fn text(&self, index: usize) -> Option<Cow<'_, str>>;
}

impl Sources for [SourceFile] {
    fn len(&self) -> usize {
        <[SourceFile]>::len(self)
    }
    fn language(&self, index: usize) -> Language {
        self[index].language
    }
    fn text(&self, index: usize) -> Option<Cow<'_, str>> {
        self.get(index)
            .map(|file| Cow::Borrowed(file.text.as_str()))
    }
}

impl Sources for Vec<SourceFile> {
    fn len(&self) -> usize {
        <[SourceFile]>::len(self)
    }
    fn language(&self, index: usize) -> Language {
        self[index].language
    }
    fn text(&self, index: usize) -> Option<Cow<'_, str>> {
        self.as_slice().text(index)
    }
}

impl<const N: usize> Sources for [SourceFile; N] {
    fn len(&self) -> usize {
        N
    }
    fn language(&self, index: usize) -> Language {
        self[index].language
    }
    fn text(&self, index: usize) -> Option<Cow<'_, str>> {
        self.as_slice().text(index)
    }
}

impl<T: Sources + ?Sized> Sources for &T {
    fn len(&self) -> usize {
        (**self).len()
    }
    fn language(&self, index: usize) -> Language {
        (**self).language(index)
    }
    fn text(&self, index: usize) -> Option<Cow<'_, str>> {
        (**self).text(index)
    }
}

/// Files on disk, each read once when added and again whenever its text is asked for.
/// A text read again is the one first read: a file whose bytes changed since reads as `None`.
#[derive(Debug, Default)]
pub struct OnDisk {
    files: Vec<Remembered>,
}

/// What [`OnDisk`] keeps of one file: where it is and how to know it again.
#[derive(Debug)]
struct Remembered {
    path: PathBuf,
    language: Language,
    encoding: Encoding,
    len: usize,
    hash: u64,
}

impl OnDisk {
    /// Adds `file`, read from its path as `bytes` were decoded with `encoding`, keeping only its
    /// path, language and a fingerprint of its text; returns its index.
    pub fn add(&mut self, file: &SourceFile, encoding: Encoding) -> usize {
        self.files.push(Remembered {
            path: file.path.clone(),
            language: file.language,
            encoding,
            len: file.text.len(),
            hash: fingerprint(&file.text),
        });
        self.files.len() - 1
    }

    /// The path of file `index`.
    pub fn path(&self, index: usize) -> &Path {
        &self.files[index].path
    }

    /// The paths, in the order of their indices.
    pub fn paths(&self) -> impl Iterator<Item = &Path> {
        self.files.iter().map(|file| file.path.as_path())
    }
}

impl Sources for OnDisk {
    fn len(&self) -> usize {
        self.files.len()
    }
    fn language(&self, index: usize) -> Language {
        self.files[index].language
    }
    fn text(&self, index: usize) -> Option<Cow<'_, str>> {
        let file = self.files.get(index)?;
        let limit = u64::try_from(MAX_SOURCE_BYTES).unwrap_or(u64::MAX);
        let bytes = typestates::files::read_regular(&file.path, limit).ok()?;
        let text = match file.encoding {
            Encoding::Utf8 => String::from_utf8(bytes).ok()?,
            Encoding::Latin1 => bytes.into_iter().map(char::from).collect(),
        };
        (text.len() == file.len && fingerprint(&text) == file.hash).then_some(Cow::Owned(text))
    }
}

/// A hash of `text` to know it again (not a defence against forgery).
fn fingerprint(text: &str) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = rustc_hash::FxHasher::default();
    text.hash(&mut hasher);
    hasher.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text read again is the one first read: a change in between reads as `None`.
    #[test]
    fn on_disk_reads_a_text_again_only_while_it_is_unchanged() {
        let dir = std::env::temp_dir().join(format!("typestar-on-disk-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("A.java");
        let first = b"class A { String s = \"caf\xe9\"; }".to_vec();
        std::fs::write(&path, &first).unwrap();
        let (file, encoding) = SourceFile::decode(&path, first).unwrap();
        assert_eq!(encoding, Encoding::Latin1);
        let mut sources = OnDisk::default();
        let index = sources.add(&file, encoding);
        assert_eq!(sources.text(index).as_deref(), Some(file.text.as_str()));
        std::fs::write(&path, b"class A { String s = \"cafe\"; }").unwrap();
        assert_eq!(sources.text(index), None);
        std::fs::remove_file(&path).unwrap();
        assert_eq!(sources.text(index), None);
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
