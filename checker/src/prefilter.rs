//! A cheap text test that rules out files with nothing to check, before any parsing.
//!
//! A finding needs a tracked object.
//! An object is tracked only when the file names one of these:
//! - its protocol class (a declared type, `new C(…)`, a cast, `C.create(…)`, an import, a supertype);
//! - a platform or project class that is a subtype of one (`FileReader`, `DownloadTask`);
//! - a library factory method called on an instance (`client.newCall(…)`, `list.iterator()`);
//! - a class whose static factory it calls (`Files.newBufferedReader` names `Files`).
//!
//! A file in which none of these names occurs as an identifier cannot produce a finding, so a project check skips it without parsing.
//! Comments and strings count too, which only lets more files through.
//!
//! The names of project classes that extend protocol classes are not known before the files declaring them are lowered.
//! [`crate::Project`] adds them with [`NameFilter::add`], and looks again at the files it skipped until no new name turns up.

use rustc_hash::FxHashSet as HashSet;
use std::cell::RefCell;
use std::sync::Arc;

use typestates::binding::MethodKind;
use typestates::library::Library;

use crate::platform;
use crate::protocols::{Protocols, Supertypes};

/// The identifiers whose presence makes a file worth checking.
#[derive(Debug, Clone, Default)]
pub struct NameFilter {
    names: HashSet<String>,
    /// Bit `64 * (b0 & 63) + (b1 & 63)` is set when some name starts with the bytes `b0 b1`
    /// (a name of one byte counts `b1` as 0): most identifiers fail this test and are never
    /// hashed.
    prefixes: Vec<u64>,
    max_len: usize,
}

fn prefix_bit(name: &[u8]) -> usize {
    let b0 = usize::from(name[0] & 63);
    let b1 = usize::from(name.get(1).map_or(0, |b| b & 63));
    b0 * 64 + b1
}

impl NameFilter {
    /// The names that can bring a protocol object of `library` into a file.
    pub fn new(library: &Library) -> NameFilter {
        let mut filter = NameFilter::default();
        for entry in library.iter() {
            let ts = &entry.typestate;
            filter.add(simple_name(&ts.class));
            for creator in ts.creators() {
                for method in &ts.callin(creator).binding.methods {
                    match (method.kind, method.class.as_deref()) {
                        (MethodKind::Instance, _) => {
                            filter.add(&method.name);
                        }
                        (MethodKind::Static, Some(owner)) => {
                            filter.add(simple_name(owner));
                        }
                        (MethodKind::Static | MethodKind::Constructor, _) => {}
                    }
                }
            }
        }
        let protocols = Protocols::new(library, Supertypes::default());
        for class in platform::classes() {
            if protocols.protocol_of(class).is_some() {
                filter.add(simple_name(class));
            }
        }
        filter
    }

    /// Adds `name`; returns whether it is new.
    pub fn add(&mut self, name: &str) -> bool {
        if name.is_empty() || self.names.contains(name) {
            return false;
        }
        if self.prefixes.is_empty() {
            self.prefixes = vec![0; 64];
        }
        let bit = prefix_bit(name.as_bytes());
        self.prefixes[bit / 64] |= 1 << (bit % 64);
        self.max_len = self.max_len.max(name.len());
        self.names.insert(name.to_owned())
    }

    /// [`NameFilter::new`], kept per thread for the last library asked about.
    /// A file check (an editor's keystroke, a fuzzer's input) needs the filter of the library
    /// it checks against, and building it costs more than comparing the library with the last
    /// one; a different library builds a new filter.
    /// The comparison is one number when the library is the last one or a clone of it (its
    /// edition); a library built afresh is compared entry by entry.
    pub(crate) fn of_library(library: &Library) -> Arc<NameFilter> {
        thread_local! {
            static LAST: RefCell<Option<(Library, Arc<NameFilter>)>> = const { RefCell::new(None) };
        }
        LAST.with(|last| {
            let mut last = last.borrow_mut();
            if let Some((kept, filter)) = last.as_ref() {
                if kept == library {
                    return Arc::clone(filter);
                }
            }
            let filter = Arc::new(NameFilter::new(library));
            *last = Some((library.clone(), Arc::clone(&filter)));
            filter
        })
    }

    /// Whether `name` is one of the names.
    pub fn contains(&self, name: &str) -> bool {
        self.names.contains(name)
    }

    /// Whether the filter has no names.
    pub fn is_empty(&self) -> bool {
        self.names.is_empty()
    }

    /// Whether a text whose [`Capitals`] are `capitals` may match: `false` only when
    /// [`NameFilter::matches`] is `false` for it, so the text need not be read.
    /// A name that does not start with an ASCII capital is not in `capitals`: it may match.
    pub(crate) fn may_match(&self, capitals: &Capitals) -> bool {
        self.names
            .iter()
            .any(|name| !name.as_bytes()[0].is_ascii_uppercase() || capitals.may_hold(name))
    }

    /// Whether an identifier of `text` is one of the names.
    pub fn matches(&self, text: &str) -> bool {
        if self.names.is_empty() {
            return false;
        }
        let bytes = text.as_bytes();
        let mut i = 0;
        while i < bytes.len() {
            let b = bytes[i];
            if !is_ident_byte(b) {
                i += 1;
                continue;
            }
            let start = i;
            while i < bytes.len() && is_ident_byte(bytes[i]) {
                i += 1;
            }
            let bit = prefix_bit(&bytes[start..i]);
            if i - start <= self.max_len && self.prefixes[bit / 64] & (1 << (bit % 64)) != 0 {
                // Identifier bytes are ASCII, so the slice is on char boundaries.
                if text
                    .get(start..i)
                    .is_some_and(|name| self.names.contains(name))
                {
                    return true;
                }
            }
        }
        false
    }
}

/// ASCII letters, digits, `_` and `$`: any other byte (non-ASCII ones included) ends an
/// identifier, which can only split identifiers and so only find more names.
/// The identifiers of `text`, as the filter reads them: runs of identifier bytes.
fn identifiers(text: &str) -> impl Iterator<Item = &[u8]> {
    text.as_bytes()
        .split(|&b| !is_ident_byte(b))
        .filter(|run| !run.is_empty())
}

/// Which capitalised names a text may hold: a Bloom filter of its identifiers that start with
/// an ASCII capital, two bits of 1024 each.
/// [`NameFilter::may_match`] asks it before the text is read again.
/// Class names are capitalised, and a project asks again for class names only.
/// The filter says "no" only when no identifier of the text is the name.
#[derive(Debug, Clone, Default)]
pub(crate) struct Capitals([u64; 16]);

impl Capitals {
    /// The capitalised identifiers of `text`.
    pub(crate) fn of(text: &str) -> Capitals {
        let mut capitals = Capitals::default();
        for name in identifiers(text).filter(|name| name[0].is_ascii_uppercase()) {
            for bit in Capitals::bits(name) {
                capitals.0[bit / 64] |= 1 << (bit % 64);
            }
        }
        capitals
    }

    /// The two bits of `name`.
    fn bits(name: &[u8]) -> [usize; 2] {
        use std::hash::Hasher;
        let mut hasher = rustc_hash::FxHasher::default();
        hasher.write(name);
        let hash = hasher.finish();
        [(hash % 1024) as usize, ((hash >> 32) % 1024) as usize]
    }

    /// Whether `name` may be one of the identifiers; `false` only when it is none.
    fn may_hold(&self, name: &str) -> bool {
        Capitals::bits(name.as_bytes())
            .iter()
            .all(|&bit| self.0[bit / 64] & (1 << (bit % 64)) != 0)
    }
}

fn is_ident_byte(b: u8) -> bool {
    b.is_ascii_alphanumeric() || b == b'_' || b == b'$'
}

/// The last segment of a dotted name.
pub(crate) fn simple_name(fqn: &str) -> &str {
    fqn.rsplit(['.', '$']).next().unwrap_or(fqn)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A text's capitals rule a class name out only when the text does not name it, and do
    /// rule out a name it does not hold.
    #[test]
    fn capitals_rule_out_only_names_a_text_does_not_hold() {
        let text =
            "import a.MediaPlayer; class Foo$Bar { Camera c; int player; _Under x; 9Lives y; }";
        let capitals = Capitals::of(text);
        let names = [
            "MediaPlayer",
            "Foo$Bar",
            "Camera",
            "player",
            "Player",
            "Foo",
            "Bar",
            "Media",
            "_Under",
            "9Lives",
            "Lives",
            "Recorder",
        ];
        for name in names {
            let mut filter = NameFilter::default();
            filter.add(name);
            assert!(
                filter.may_match(&capitals) || !filter.matches(text),
                "{name} ruled out but named"
            );
        }
        let mut absent = NameFilter::default();
        absent.add("SQLiteDatabase");
        assert!(!absent.may_match(&capitals));
        assert!(!NameFilter::default().may_match(&capitals));
    }

    #[test]
    fn names_come_from_the_library_and_the_platform() {
        let filter = NameFilter::new(&Library::bundled());
        for name in [
            "MediaPlayer",
            "AsyncTask",
            "Call",
            "newCall",
            "iterator",
            "Files",
            "FileInputStream",
        ] {
            assert!(filter.contains(name), "{name}");
        }
        assert!(!filter.contains("create"));
        assert!(!filter.contains("Activity"));
    }

    #[test]
    fn the_kept_filter_is_the_one_of_the_library_asked_about() {
        let bundled = Library::bundled();
        assert!(NameFilter::of_library(&bundled).contains("MediaPlayer"));
        assert!(NameFilter::of_library(&Library::default()).is_empty());
        let mut one = Library::default();
        one.insert(bundled.get("android.media.MediaPlayer").unwrap().clone());
        let filter = NameFilter::of_library(&one);
        assert!(filter.contains("MediaPlayer") && !filter.contains("AsyncTask"));
        assert!(NameFilter::of_library(&bundled).contains("AsyncTask"));
    }

    #[test]
    fn matches_whole_identifiers_only() {
        let filter = NameFilter::new(&Library::bundled());
        assert!(filter.matches("class A { MediaPlayer mp; }"));
        assert!(filter.matches("val c = client.newCall(request)"));
        assert!(!filter.matches("class A { MyMediaPlayerView v; }"));
        assert!(!filter.matches("fun main() { println(\"hi\") }"));
        assert!(filter.matches("/* é */MediaPlayer"));
        assert!(!filter.matches(""));
    }
}
