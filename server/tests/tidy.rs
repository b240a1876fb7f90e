//! Tidy checks over the whole workspace: the dependency directions ARCHITECTURE.md promises,
//! and a `//!` doc comment opening every Rust file.

use std::path::{Path, PathBuf};

fn workspace_root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("server sits in the workspace root")
        .to_path_buf()
}

/// The names of a crate's normal, dev and build dependencies.
fn dependencies(krate: &str) -> Vec<String> {
    let path = workspace_root().join(krate).join("Cargo.toml");
    let text = std::fs::read_to_string(&path).expect("crate manifest is readable");
    let manifest: toml::Table = text.parse().expect("crate manifest is valid TOML");
    ["dependencies", "dev-dependencies", "build-dependencies"]
        .iter()
        .filter_map(|section| manifest.get(*section).and_then(|v| v.as_table()))
        .flat_map(|table| table.keys().cloned())
        .collect()
}

/// (crate, dependency prefix it must not have, why).
const FORBIDDEN: &[(&str, &str, &str)] = &[
    (
        "typestates",
        "learner",
        "typestates is the shared model; it uses no other crate",
    ),
    (
        "typestates",
        "checker",
        "typestates is the shared model; it uses no other crate",
    ),
    (
        "typestates",
        "server",
        "typestates is the shared model; it uses no other crate",
    ),
    (
        "typestates",
        "tree-sitter",
        "tree-sitter lives only in checker",
    ),
    ("typestates", "tower-lsp", "LSP types live only in server"),
    (
        "learner",
        "checker",
        "learner and checker never use each other",
    ),
    ("learner", "server", "learner is a library under server"),
    (
        "learner",
        "tree-sitter",
        "tree-sitter lives only in checker",
    ),
    ("learner", "tower-lsp", "LSP types live only in server"),
    ("learner", "ls-types", "LSP types live only in server"),
    (
        "checker",
        "learner",
        "learner and checker never use each other",
    ),
    ("checker", "server", "checker is a library under server"),
    ("checker", "tower-lsp", "LSP types live only in server"),
    ("checker", "ls-types", "LSP types live only in server"),
    (
        "checker",
        "adb_client",
        "device IO lives only in the learner's backends",
    ),
    ("checker", "clap", "the command line lives only in server"),
    (
        "typestates",
        "clap",
        "the command line lives only in server",
    ),
    ("learner", "clap", "the command line lives only in server"),
    ("server", "tree-sitter", "tree-sitter lives only in checker"),
    (
        "server",
        "adb_client",
        "device IO lives only in the learner's backends",
    ),
];

#[test]
fn dependency_directions_hold() {
    let mut broken = Vec::new();
    for (krate, forbidden, why) in FORBIDDEN {
        for dep in dependencies(krate) {
            if dep.starts_with(forbidden) {
                broken.push(format!("{krate} depends on {dep}: {why}"));
            }
        }
    }
    assert!(broken.is_empty(), "forbidden edges:\n{}", broken.join("\n"));
}

fn rust_files(dir: &Path, out: &mut Vec<PathBuf>) {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for entry in entries.flatten() {
        let path = entry.path();
        let name = entry.file_name();
        if path.is_dir() {
            if name != "target"
                && name != "node_modules"
                && !name.to_string_lossy().starts_with('.')
            {
                rust_files(&path, out);
            }
        } else if path.extension().is_some_and(|e| e == "rs") {
            out.push(path);
        }
    }
}

#[test]
fn every_rust_file_opens_with_a_doc_comment() {
    let root = workspace_root();
    let mut files = Vec::new();
    for krate in [
        "typestates",
        "learner",
        "checker",
        "server",
        "bench",
        "fuzz",
    ] {
        rust_files(&root.join(krate), &mut files);
    }
    assert!(files.len() > 5, "the walk found the sources");
    let undocumented: Vec<String> = files
        .iter()
        .filter(|path| {
            let text = std::fs::read_to_string(path).unwrap_or_default();
            !text.trim_start().starts_with("//!")
        })
        .map(|path| {
            path.strip_prefix(&root)
                .unwrap_or(path)
                .display()
                .to_string()
        })
        .collect();
    assert!(
        undocumented.is_empty(),
        "files without a `//!` doc comment saying what they are for:\n{}",
        undocumented.join("\n")
    );
}
