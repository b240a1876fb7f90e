#!/usr/bin/env bash
# The checker's precision on held-out code that was never used to tune the analysis: the leak
# corpus (leak-corpus.list) and the held-out corpus (heldout-corpus.list), run as precision.sh
# runs the benchmark corpus, with verdicts in bench/checker/verdicts-heldout.toml, writing
# bench/results/precision-heldout.md (and the findings as JSON to
# bench/results/precision-heldout-findings.json).
#
#   bench/checker/heldout.sh            report only
#   bench/checker/heldout.sh --check    also exit 1 when a judged-true finding is lost or a
#                                       finding is not judged
#
# Both corpora are checked as one project under bench/work/heldout/, whose two folders are
# hard-linked copies of bench/work/leak-corpus/ and bench/work/heldout-corpus/, so finding
# paths start with leak-corpus/ or heldout-corpus/.
# Downloads go under bench/work/ (gitignored). Cargo uses $CARGO_TARGET_DIR if set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

work="bench/work"
both="$work/heldout"
rm -rf "$both" && mkdir -p "$both"
for list in leak-corpus heldout-corpus; do
    "$here/fetch-corpus.sh" "$list" >/dev/null
    cp -al "$work/$list" "$both/$list"
done

cargo build --release --quiet -p checker-bench
bench="${CARGO_TARGET_DIR:-$root/target}/release/checker-bench"

BENCH_COMMAND="bench/checker/heldout.sh${*:+ $*}" "$bench" precision \
    --corpus "$both" \
    --verdicts bench/checker/verdicts-heldout.toml \
    --out bench/results/precision-heldout.md \
    --json-out bench/results/precision-heldout-findings.json \
    "$@"
