#!/usr/bin/env bash
# The checker's precision on the benchmark corpus: fetch the corpus, build the bench in
# release, run the checker over the corpus, match every finding to its verdict in
# bench/checker/verdicts.toml, and write bench/results/precision.md (and the findings as JSON
# to bench/results/precision-findings.json).
#
#   bench/checker/precision.sh            report only
#   bench/checker/precision.sh --check    also exit 1 when a judged-true finding is lost or a
#                                         finding is not judged (the gate for analysis work)
#
# Downloads go under bench/work/ (gitignored). Cargo uses $CARGO_TARGET_DIR if set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

"$here/fetch-corpus.sh" >/dev/null

cargo build --release --quiet -p checker-bench
bench="${CARGO_TARGET_DIR:-$root/target}/release/checker-bench"

BENCH_COMMAND="bench/checker/precision.sh${*:+ $*}" "$bench" precision \
    --corpus bench/work/corpus \
    --verdicts bench/checker/verdicts.toml \
    --out bench/results/precision.md \
    --json-out bench/results/precision-findings.json \
    "$@"
