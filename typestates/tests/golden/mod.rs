//! The one golden-file helper of the integration tests: compares output with a file in
//! `test_data/` and rewrites the file instead when `UPDATE_EXPECT=1` (expect-test's switch).

use std::path::{Path, PathBuf};

/// A path below the crate root.
pub fn manifest_path(relative: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(relative)
}

/// The files below `dir` (recursively) whose name ends in `.{extension}`, sorted.
pub fn files_with_extension(dir: &Path, extension: &str) -> Vec<PathBuf> {
    let mut files = Vec::new();
    let mut pending = vec![dir.to_path_buf()];
    while let Some(dir) = pending.pop() {
        let entries = std::fs::read_dir(&dir)
            .unwrap_or_else(|err| panic!("cannot list {}: {err}", dir.display()));
        for entry in entries {
            let path = entry.expect("a directory entry").path();
            if path.is_dir() {
                pending.push(path);
            } else if path.extension().is_some_and(|ext| ext == extension) {
                files.push(path);
            }
        }
    }
    files.sort();
    assert!(
        !files.is_empty(),
        "no .{extension} files in {}",
        dir.display()
    );
    files
}

/// Asserts that the file at `expected` holds `actual`, or rewrites it under `UPDATE_EXPECT=1`.
pub fn check_golden(expected: &Path, actual: &str) {
    expect_test::expect_file![expected].assert_eq(actual);
}
