#!/usr/bin/env bash
# Every test of the project: formatting, lints, the Rust test suites, and the suites of the
# Java agent, the VS Code extension and the benchmark harnesses. Each suite prints its own
# summary; the script stops at the first failing one.
set -euo pipefail
cd "$(dirname "$0")/.."

echo "== cargo fmt"
cargo fmt --all -- --check
echo "== cargo clippy"
cargo clippy --workspace --all-targets -- -D warnings
echo "== Robolectric artifacts (learner/robolectric/fetch.sh, cached in ~/.cache/typestar/robolectric)"
learner/robolectric/fetch.sh --sdk 34 >/dev/null
echo "== cargo test"
# TYPESTAR_SLOW=1 runs every slow tier (test-tiers/src/lib.rs: jvm, robolectric, device-fake,
# robustness, random-edits, random-machines, editor); the Robolectric tier alone takes ~5 min.
TYPESTAR_SLOW=1 cargo test --workspace
echo "== fuzzing, 20 s per target (fuzz/README.md)"
fuzz/run.sh 20
echo "== AALpy comparison harness"
bench/aalpy/test.sh
echo "== DroidStar's learner as the benchmark re-implements it"
bench/learner/test-droidstar.sh
echo "== Java agent"
agent-android/test.sh
echo "== Android agent: compiled against android-all, dexed by D8, checked by dexdump (~90 s cold)"
agent-android/android/build-dex.sh --verify >/dev/null
echo "== VS Code extension"
vscode-extension/test.sh
echo "== VS Code end to end: code-server on the example project with the real server (first run installs Chromium, Node 24 and code-server, ~5 min)"
cargo build -q -p server --bin typestar
TYPESTAR_BIN=target/debug/typestar E2E_ARTIFACTS=target/e2e-artifacts vscode-extension/e2e/run-code-server.sh
