#!/usr/bin/env bash
# The checker benchmark end to end: fetch the corpus, install the pinned ast-grep, build the
# bench in release, measure, and write bench/results/checker.md; then the same on the files
# the name prefilter passes (bench/results/checker-prefiltered.md).
#
#   bench/checker/run.sh [checker-bench options, e.g. --reps 3 --threads 1]
#
# Downloads and installs go under bench/work/ (gitignored). Cargo uses $CARGO_TARGET_DIR if set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/bench/work"
cd "$root"

"$here/fetch-corpus.sh"

# ast-grep, exactly as pinned by package-lock.json; reinstalled when the lock changes.
sg_dir="$work/ast-grep"
if ! cmp -s "$here/package-lock.json" "$sg_dir/package-lock.json"; then
    rm -rf "$sg_dir" && mkdir -p "$sg_dir"
    cp "$here/package.json" "$here/package-lock.json" "$sg_dir/"
    (cd "$sg_dir" && npm ci --no-audit --no-fund --silent)
fi
# The platform package holds the native binary (the wrapper package copies it in postinstall).
ast_grep="$(ls "$sg_dir"/node_modules/@ast-grep/cli-*/ast-grep 2>/dev/null | head -n1)"
[[ -x "$ast_grep" ]] || { echo "error: no ast-grep binary under $sg_dir" >&2; exit 2; }

cargo build --release --quiet -p checker-bench
bench="${CARGO_TARGET_DIR:-$root/target}/release/checker-bench"

BENCH_COMMAND="bench/checker/run.sh${*:+ $*}" "$bench" \
    --corpus bench/work/corpus \
    --ast-grep "$ast_grep" \
    --sg-config bench/checker/sgconfig.yml \
    --out bench/results/checker.md \
    "$@"

# The same jobs on the files the name prefilter passes, the ones the check analyses.
"$bench" prefiltered --corpus bench/work/corpus --into "$work/corpus-prefiltered"
BENCH_COMMAND="bench/checker/run.sh${*:+ $*} (second part: the files the prefilter passes)" "$bench" \
    --corpus "$work/corpus-prefiltered" \
    --ast-grep "$ast_grep" \
    --sg-config bench/checker/sgconfig.yml \
    --out bench/results/checker-prefiltered.md \
    "$@"
