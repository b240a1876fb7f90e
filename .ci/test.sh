#!/usr/bin/env bash
# Every test of the project: formatting, lints, the Rust test suites and the Java agent's tests.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo fmt --all -- --check
cargo clippy --workspace --all-targets -- -D warnings
cargo test --workspace
