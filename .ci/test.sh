#!/usr/bin/env bash
# Every test of the project: formatting, lints, the Rust test suites, and the suites of the
# Java agent, the VS Code extension and the benchmark harnesses. Each suite prints its own
# summary; the script stops at the first failing one.
set -euo pipefail
cd "$(dirname "$0")/.."
# CI builds each crate once: incremental caches would only cost disk.
export CARGO_INCREMENTAL=0
# Each step's heading says how much disk is left, so a full disk is seen coming.
step() { echo "== $1 ($(df -h --output=avail . | tail -n 1 | tr -d ' ') free)"; }

step "cargo fmt"
cargo fmt --all -- --check
step "cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
step "Robolectric artifacts (learner/robolectric/fetch.sh, cached in ~/.cache/typestar/robolectric)"
learner/robolectric/fetch.sh --sdk 34 >/dev/null
step "cargo test"
# TYPESTAR_SLOW=1 runs every slow tier (test-tiers/src/lib.rs: jvm, robolectric, device-fake,
# robustness, random-edits, random-machines, editor); the Robolectric tier alone takes ~20 min.
# Slow tests are `#[ignore]`d so a plain `cargo test` counts them as ignored: `--include-ignored`
# runs them. Opt-in tests (a real device, Debian's adb, the device benchmark) are named
# `opt_in_*` and stay out.
TYPESTAR_SLOW=1 cargo test --workspace -- --include-ignored --skip opt_in_
step "fuzzing, a fixed number of executions per target (fuzz/README.md)"
fuzz/run.sh ci
# The sanitizer builds are not used again; CI machines' disks are small.
rm -rf fuzz/target
step "AALpy comparison harness"
bench/aalpy/test.sh
step "DroidStar's learner as the benchmark re-implements it"
bench/learner/test-droidstar.sh
step "Java agent"
agent-android/test.sh
step "Android agent: compiled against android-all, dexed by D8, checked by dexdump (~90 s cold)"
agent-android/android/build-dex.sh --verify >/dev/null
step "VS Code extension"
vscode-extension/test.sh
step "VS Code end to end: code-server on the example project with the real server (first run installs Chromium, Node 24 and code-server, ~5 min)"
# `cargo test` built this binary for the server's tests; `cargo build -p server` would build
# its dependencies again with other features.
test -x target/debug/typestar
TYPESTAR_BIN=target/debug/typestar E2E_ARTIFACTS=target/e2e-artifacts vscode-extension/e2e/run-code-server.sh
