//! Documentation generated from the project itself, in Markdown, which editors and code hosts
//! render.
//! It writes a page of the diagnostic codes and one page per bundled protocol (summary, diagram,
//! states, provenance).
//! `typestar docs --out DIR` writes them.
//! The LSP server writes them into typestar's cache folder and links each diagnostic's
//! `codeDescription` to its section there.

use std::fmt::Write;
use std::path::{Path, PathBuf};

use typestates::library::{Entry, Library};
use typestates::render::{self, mermaid, table};

use crate::analysis::hover;
use crate::analysis::FindingCode;

/// The page of the diagnostic codes, relative to the docs folder.
pub const DIAGNOSTICS_PAGE: &str = "diagnostics.md";

/// Every page: its path relative to the docs folder, and its Markdown.
pub fn pages(library: &Library) -> Vec<(PathBuf, String)> {
    let mut pages = vec![(PathBuf::from(DIAGNOSTICS_PAGE), diagnostics_page(library))];
    pages.extend(
        library
            .iter()
            .map(|entry| (protocol_page_path(entry.class()), protocol_page(entry))),
    );
    pages
}

/// Writes every page under `dir`; the paths written.
pub fn write(dir: &Path, library: &Library) -> std::io::Result<Vec<PathBuf>> {
    let mut written = Vec::new();
    for (path, text) in pages(library) {
        let path = dir.join(path);
        if let Some(parent) = path.parent() {
            std::fs::create_dir_all(parent)?;
        }
        std::fs::write(&path, text)?;
        written.push(path);
    }
    Ok(written)
}

/// Where the LSP server keeps the pages of this version: `docs-VERSION` in typestar's cache
/// folder (`$XDG_CACHE_HOME/typestar`, else `~/.cache/typestar`, else under the temporary
/// folder; the learner keeps its builds there too).
pub fn cache_dir() -> PathBuf {
    learner::backend::jvm::java::default_cache_dir()
        .join(format!("docs-{}", env!("CARGO_PKG_VERSION")))
}

/// The page of a protocol, relative to the docs folder.
pub fn protocol_page_path(class: &str) -> PathBuf {
    PathBuf::from("protocols").join(format!("{class}.md"))
}

fn diagnostics_page(library: &Library) -> String {
    let mut out = String::from("# typestar diagnostics\n\n");
    out.push_str("Each code is a finding of `typestar check` and of the language server.\n");
    out.push_str("Suppress one on a line with `// typestar:ignore CODE`, or every check of a method with `@SuppressWarnings(\"typestate\")`.\n\n");
    for code in FindingCode::ALL {
        let _ = writeln!(out, "## {}\n\n{}\n", code.id(), code.description());
    }
    out.push_str("# Protocols\n\n");
    for entry in library.iter() {
        let _ = writeln!(
            out,
            "- [{}]({})",
            entry.class(),
            protocol_page_path(entry.class()).display()
        );
    }
    out
}

fn protocol_page(entry: &Entry) -> String {
    let typestate = &entry.typestate;
    let mut out = format!("# `{}`\n\n", typestate.class);
    if let Some(summary) = &typestate.summary {
        let _ = writeln!(out, "{summary}\n");
    }
    let diagram = mermaid::render(typestate, render::Options { error_sink: true });
    let _ = writeln!(out, "```mermaid\n{}\n```\n", diagram.trim_end());
    out.push_str("## States\n\n");
    out.push_str(&table::render(typestate));
    out.push('\n');
    for state in typestate.state_ids() {
        let s = typestate.state(state);
        if let Some(description) = &s.description {
            let _ = writeln!(out, "- `{}`: {description}", s.name);
        }
    }
    let provenance = &typestate.provenance;
    let _ = write!(out, "\n## Provenance\n\n{}", provenance.kind.keyword());
    if let Some(platform) = &provenance.platform {
        let _ = write!(out, " on {platform}");
    }
    let _ = writeln!(out, ", {}.\n", hover::source(&entry.source));
    for source in &provenance.sources {
        let _ = writeln!(out, "- {source}");
    }
    for note in &typestate.notes {
        let _ = writeln!(out, "\n> {note}");
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_and_every_bundled_protocol_has_a_page() {
        let library = Library::bundled();
        let pages = pages(&library);
        assert_eq!(pages.len(), library.len() + 1);
        let diagnostics = &pages[0].1;
        for code in FindingCode::ALL {
            assert!(diagnostics.contains(&format!("\n## {}\n", code.id())));
        }
        for entry in library.iter() {
            let page = pages
                .iter()
                .find(|(path, _)| *path == protocol_page_path(entry.class()))
                .unwrap();
            assert!(
                page.1.contains("```mermaid\nstateDiagram-v2"),
                "{}",
                entry.class()
            );
            assert!(diagnostics.contains(&format!("]({})", page.0.display())));
        }
    }
}
