//! Embeds what an installed `typestar` needs from the source tree (see `src/shipped.rs`): the
//! agent's Java sources and build script, the Robolectric fetch script, and the shipped experiments with their harnesses and
//! fixtures. Writes `$OUT_DIR/shipped.rs`: the files as `include_bytes!` under their paths in the
//! repository, and a hash of them all that names the folder they are unpacked into.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

/// The shipped trees and files, relative to the repository root.
const SHIPPED: &[&str] = &[
    "agent-android/core/src/main",
    "agent-android/core/harness",
    "agent-android/robolectric/src/main",
    "agent-android/robolectric/harness",
    "agent-android/android/src/main",
    "agent-android/android/build-dex.sh",
    "learner/experiments",
    "learner/robolectric/fetch.sh",
];

fn main() {
    let manifest = PathBuf::from(std::env::var_os("CARGO_MANIFEST_DIR").expect("set by cargo"));
    let root = manifest
        .parent()
        .expect("the learner sits in the workspace");
    let mut files = Vec::new();
    for shipped in SHIPPED {
        let path = root.join(shipped);
        println!("cargo:rerun-if-changed={}", path.display());
        collect(&path, &mut files);
    }
    files.sort();
    // FNV-1a over each file's path and contents: a changed file unpacks into a new folder.
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut feed = |bytes: &[u8]| {
        for byte in bytes {
            hash = (hash ^ u64::from(*byte)).wrapping_mul(0x0100_0000_01b3);
        }
    };
    let mut entries = String::new();
    for file in &files {
        let relative = file
            .strip_prefix(root)
            .expect("under the root")
            .to_str()
            .unwrap_or_else(|| panic!("{} is not UTF-8", file.display()))
            .replace('\\', "/");
        let contents =
            std::fs::read(file).unwrap_or_else(|error| panic!("{}: {error}", file.display()));
        feed(relative.as_bytes());
        feed(&[0]);
        feed(&(contents.len() as u64).to_le_bytes());
        feed(&contents);
        writeln!(
            entries,
            "    ({relative:?}, include_bytes!({:?})),",
            file.display().to_string()
        )
        .expect("writing to a string");
    }
    let code = format!(
        "/// The shipped files: their paths in the repository and their contents.\n\
         pub(crate) static FILES: &[(&str, &[u8])] = &[\n{entries}];\n\
         /// A hash of [`FILES`]: names the folder they are unpacked into.\n\
         pub(crate) const HASH: u64 = {hash:#018x};\n"
    );
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("set by cargo")).join("shipped.rs");
    std::fs::write(&out, code).unwrap_or_else(|error| panic!("{}: {error}", out.display()));
}

/// The files under `path` (or `path` itself), skipping build outputs.
fn collect(path: &Path, files: &mut Vec<PathBuf>) {
    if path.is_file() {
        files.push(path.to_owned());
        return;
    }
    let entries =
        std::fs::read_dir(path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
    for entry in entries {
        let path = entry
            .unwrap_or_else(|error| panic!("{}: {error}", path.display()))
            .path();
        let name = path.file_name().and_then(|it| it.to_str()).unwrap_or("");
        let built = name == "build" || name.ends_with(".class") || name.ends_with(".jar");
        if !built {
            collect(&path, files);
        }
    }
}
