#!/usr/bin/env bash
# The leak benchmark: fetch the corpus (corpus.list, leak-corpus.list: more code that makes
# and releases streams, retrievers and cursors, leak-writers.list: code that writes files
# through FileOutputStream, and leak-fresh.list: fresh sets for that rule), build typestar in
# release, check them all under GNU time without the leak scan (`--no-leaks`), as by default,
# and with every leak report (`--unreleased`), match every leak finding to its verdict in
# bench/checker/leaks.toml, and write bench/results/leaks.md (precision per class and code,
# the true leaks, and the time and memory against the check without obligations).
#
#   bench/checker/leaks.sh
#
# Exits 1 when a leak finding has no verdict. Downloads go under bench/work/ (gitignored).
# Cargo uses $CARGO_TARGET_DIR if set.
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

"$here/fetch-corpus.sh" >/dev/null
"$here/fetch-corpus.sh" leak-corpus >/dev/null
"$here/fetch-corpus.sh" leak-writers >/dev/null
"$here/fetch-corpus.sh" leak-fresh >/dev/null

cargo build --release --quiet -p server
typestar="${CARGO_TARGET_DIR:-$root/target}/release/typestar"
work="bench/work/leaks"
mkdir -p "$work"

# Exit status 1 means findings; anything else is a failure.
run() {
    local out="$1" timing="$2"
    shift 2
    local status=0
    /usr/bin/time -v -o "$timing" "$typestar" check --format json "$@" \
        bench/work/corpus bench/work/leak-corpus bench/work/leak-writers bench/work/leak-fresh >"$out" || status=$?
    if (( status > 1 )); then
        echo "error: typestar check $* exited with $status" >&2
        exit "$status"
    fi
}

# One untimed pass brings the corpus into the page cache.
run "$work/warm.json" "$work/warm.time"
run "$work/without.json" "$work/without.time" --no-leaks
run "$work/default.json" "$work/default.time"
run "$work/with.json" "$work/with.time" --unreleased

python3 "$here/leaks.py" \
    --findings "$work/with.json" \
    --verdicts "$here/leaks.toml" \
    --corpus bench/work/corpus \
    --corpus bench/work/leak-corpus \
    --corpus bench/work/leak-writers \
    --corpus bench/work/leak-fresh \
    --time-with "$work/with.time" \
    --time-without "$work/without.time" \
    --time-default "$work/default.time" \
    --out bench/results/leaks.md \
    --command "bench/checker/leaks.sh (release build)"
