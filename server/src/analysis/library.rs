//! The protocols the server checks against: the workspace's `.typestar/` folders, each file
//! adding a class or overriding one loaded before.
//!
//! This is the server's interim view until `typestates::library::Library` (branch `library`)
//! brings the bundled protocols; it keeps that type's shape (lookup by class, `load_dir`) so the
//! swap is local to this file.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use typestates::Typestate;

/// The folder, at a workspace root, whose `.typestate` files add to or override the library.
pub const WORKSPACE_DIR: &str = ".typestar";

/// A set of protocols, one per class.
#[derive(Clone, Debug, Default)]
pub struct Library {
    protocols: BTreeMap<String, Protocol>,
}

/// One protocol and where it was read from.
#[derive(Clone, Debug)]
pub struct Protocol {
    /// The protocol.
    pub typestate: Typestate,
    /// Where it came from.
    pub source: ProtocolSource,
}

/// Where a protocol was read from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ProtocolSource {
    /// Shipped with typestar.
    Bundled,
    /// A file of a workspace's `.typestar/` folder.
    Workspace(PathBuf),
}

/// A `.typestate` file that could not be loaded.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LoadError {
    /// The file.
    pub path: PathBuf,
    /// Zero-based line of the problem.
    pub line: u32,
    /// Zero-based character column of the problem.
    pub col: u32,
    /// What is wrong.
    pub message: String,
}

impl Library {
    /// Adds every `*.typestate` file under `dir` (recursively), replacing protocols of the same
    /// class. A missing folder adds nothing; unreadable or invalid files are returned.
    pub fn load_dir(&mut self, dir: &Path) -> Vec<LoadError> {
        let mut files = Vec::new();
        typestate_files(dir, &mut files);
        files.sort();
        let mut errors = Vec::new();
        for path in files {
            match std::fs::read_to_string(&path) {
                Ok(text) => match typestates::format::parse(&path.display().to_string(), &text) {
                    Ok(typestate) => self.insert(typestate, ProtocolSource::Workspace(path)),
                    Err(diagnostics) => errors.extend(diagnostics.into_iter().map(|d| LoadError {
                        path: path.clone(),
                        line: d.line.saturating_sub(1) as u32,
                        col: d.col.saturating_sub(1) as u32,
                        message: d.message,
                    })),
                },
                Err(err) => errors.push(LoadError {
                    path,
                    line: 0,
                    col: 0,
                    message: format!("cannot read: {err}"),
                }),
            }
        }
        errors
    }

    /// Adds or replaces the protocol of `typestate.class`.
    pub fn insert(&mut self, typestate: Typestate, source: ProtocolSource) {
        self.protocols
            .insert(typestate.class.clone(), Protocol { typestate, source });
    }

    /// The protocol of a class named fully qualified, or by its simple name when only one
    /// protocol has it.
    pub fn get(&self, class: &str) -> Option<&Protocol> {
        if let Some(protocol) = self.protocols.get(class) {
            return Some(protocol);
        }
        let mut matches = self
            .protocols
            .values()
            .filter(|p| p.typestate.simple_name() == class);
        let first = matches.next()?;
        matches.next().is_none().then_some(first)
    }

    /// All protocols, by class name.
    pub fn iter(&self) -> impl Iterator<Item = &Protocol> {
        self.protocols.values()
    }
}

fn typestate_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        if path.is_dir() {
            typestate_files(&path, out);
        } else if path.extension().is_some_and(|e| e == "typestate") {
            out.push(path);
        }
    }
}
