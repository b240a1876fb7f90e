//! The versioned document store: the text of every open document, its client version and the
//! generation of its last edit.
//!
//! Every method is synchronous, so a handler updates the store before its first `.await`.
//! The updates of successive notifications cannot interleave (see `server/CONTRIBUTING.md`).
//! Readers take an immutable [`Snapshot`]; the text is shared with `Arc`.

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Arc;
use std::time::Duration;

use dashmap::DashMap;
use tokio::time::Instant;
use tower_lsp_server::ls_types::Uri;

use crate::analysis::{DocumentCache, SourceFile};

/// The open documents.
#[derive(Debug, Default)]
pub struct Documents {
    open: DashMap<Uri, Document>,
    generations: AtomicU64,
}

#[derive(Debug)]
struct Document {
    file: SourceFile,
    cache: Arc<DocumentCache>,
    version: i32,
    generation: u64,
    edited: Instant,
    /// How long the last finished check of this document took; `None` before the first.
    check_cost: Option<Duration>,
}

/// An immutable view of one document at one version.
#[derive(Clone, Debug)]
pub struct Snapshot {
    /// The document.
    pub uri: Uri,
    /// The client's version of this text.
    pub version: i32,
    /// Bumped by every edit of any document; tells superseded work apart.
    pub generation: u64,
    /// The text and what it is.
    pub file: SourceFile,
    /// What the checker kept of the document's earlier checks; shared by every snapshot of
    /// one opening of the document.
    pub cache: Arc<DocumentCache>,
}

/// What an edit did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Edited {
    /// Applied; carries the time of the previous edit (to debounce bursts).
    Applied {
        /// When the document was last edited before this edit.
        previous: Instant,
    },
    /// The document is not open.
    NotOpen,
    /// The version is not newer than the stored one; the edit was dropped.
    Stale {
        /// The stored version.
        current: i32,
    },
}

impl Documents {
    /// Opens (or reopens) a document.
    pub fn open(&self, uri: Uri, version: i32, file: SourceFile) {
        let document = Document {
            file,
            cache: Arc::default(),
            version,
            generation: self.next_generation(),
            edited: Instant::now(),
            check_cost: None,
        };
        self.open.insert(uri, document);
    }

    /// Replaces a document's text by `edit(old text)` at `version`, if the version is newer.
    pub fn edit(&self, uri: &Uri, version: i32, edit: impl FnOnce(&str) -> String) -> Edited {
        let Some(mut document) = self.open.get_mut(uri) else {
            return Edited::NotOpen;
        };
        if version <= document.version {
            return Edited::Stale {
                current: document.version,
            };
        }
        document.file.text = edit(&document.file.text).into();
        document.version = version;
        document.generation = self.next_generation();
        let previous = std::mem::replace(&mut document.edited, Instant::now());
        Edited::Applied { previous }
    }

    /// Records how long a check of the document took.
    pub fn record_check_cost(&self, uri: &Uri, cost: Duration) {
        if let Some(mut document) = self.open.get_mut(uri) {
            document.check_cost = Some(cost);
        }
    }

    /// How long the last finished check of the document took; `None` before the first.
    pub fn check_cost(&self, uri: &Uri) -> Option<Duration> {
        self.open.get(uri).and_then(|document| document.check_cost)
    }

    /// Closes a document; whether it was open.
    pub fn close(&self, uri: &Uri) -> bool {
        self.open.remove(uri).is_some()
    }

    /// The current state of a document.
    pub fn snapshot(&self, uri: &Uri) -> Option<Snapshot> {
        self.open.get(uri).map(|document| Snapshot {
            uri: uri.clone(),
            version: document.version,
            generation: document.generation,
            file: document.file.clone(),
            cache: document.cache.clone(),
        })
    }

    /// Whether `snapshot` is still the document's latest state.
    pub fn is_current(&self, snapshot: &Snapshot) -> bool {
        self.open
            .get(&snapshot.uri)
            .is_some_and(|document| document.generation == snapshot.generation)
    }

    /// The URIs of all open documents.
    pub fn uris(&self) -> Vec<Uri> {
        self.open.iter().map(|entry| entry.key().clone()).collect()
    }

    /// Whether the document is open.
    pub fn is_open(&self, uri: &Uri) -> bool {
        self.open.contains_key(uri)
    }

    fn next_generation(&self) -> u64 {
        self.generations.fetch_add(1, Ordering::Relaxed) + 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::Language;
    use std::str::FromStr;

    fn file(text: &str) -> SourceFile {
        SourceFile {
            path: None,
            language: Language::Java,
            text: text.into(),
        }
    }

    #[test]
    fn versions_only_move_forward() {
        let documents = Documents::default();
        let uri = Uri::from_str("file:///A.java").unwrap();
        documents.open(uri.clone(), 1, file("a"));
        let first = documents.snapshot(&uri).unwrap();
        assert!(matches!(
            documents.edit(&uri, 2, |t| format!("{t}b")),
            Edited::Applied { .. }
        ));
        assert_eq!(
            documents.edit(&uri, 2, |_| "x".into()),
            Edited::Stale { current: 2 }
        );
        let second = documents.snapshot(&uri).unwrap();
        assert_eq!(&*second.file.text, "ab");
        assert!(!documents.is_current(&first));
        assert!(documents.is_current(&second));
        assert!(documents.close(&uri));
        assert!(!documents.is_current(&second));
        assert_eq!(documents.edit(&uri, 3, |_| "x".into()), Edited::NotOpen);
    }
}
