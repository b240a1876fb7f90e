#!/usr/bin/env bash
# Runs every fuzz target for SECONDS each (default 20), seeded from the project's fixtures.
# Usage: fuzz/run.sh [SECONDS] [TARGET...]   (needs cargo-fuzz; see README.md)
# SECONDS 0 runs without a time limit; FUZZ_RUNS=N stops each target after N executions.
# A crash, a run over 10 s or over 1 GiB of memory fails the script; libFuzzer writes the
# input to fuzz/artifacts/TARGET/.
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-20}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(check typestate_text typestate_json droidstar_dot journal lsp_transport lsp_positions)
fi
# cargo-fuzz passes unstable flags to rustc: the stable toolchain accepts them this way.
export RUSTC_BOOTSTRAP=1
if ! cargo fuzz --version >/dev/null 2>&1; then
  if [ -n "${CI:-}" ]; then
    echo "fuzz/run.sh: cargo-fuzz is required under CI (cargo install cargo-fuzz --locked)" >&2
    exit 1
  fi
  echo "SKIPPED fuzzing: install cargo-fuzz (see fuzz/README.md)"
  exit 0
fi

# seed DIR PREFIX FILES...: copies each file into DIR, PREFIX (a byte, or nothing) in front.
seed() {
  local dir=$1 prefix=$2
  shift 2
  mkdir -p "$dir"
  for file in "$@"; do
    local name
    name=$(printf '%s' "$file" | tr '/' '_')
    { printf '%b' "$prefix"; cat "$file"; } > "$dir/$name"
  done
}
shopt -s globstar nullglob
seed corpus/check '\x00' ../checker/tests/fixtures/**/*.java
seed corpus/check '\x01' ../checker/tests/fixtures/**/*.kt
seed corpus/typestate_text '' ../typestates/library/**/*.typestate ../typestates/test_data/format/**/*.typestate
seed corpus/typestate_json '' ../typestates/test_data/**/*.json
seed corpus/droidstar_dot '' ../typestates/test_data/droidstar/*.gv
# Real journals: the ones the learner's journal tests write (into their own temporary folder).
journals=$(mktemp -d)
trap 'rm -rf "$journals"' EXIT
(cd .. && TMPDIR=$journals cargo test --quiet -p learner --test journal >/dev/null)
mkdir -p corpus/journal
cp "$journals"/*/*.jsonl corpus/journal/
seed corpus/lsp_transport '\x07' seeds/lsp_transport/*.txt
seed corpus/lsp_positions '\x03\x00\x05\x00\x00\x00\x02\x00' ../checker/tests/fixtures/**/*.kt

# AddressSanitizer records no allocation stacks: a report still shows where the bad access
# was, and reproducing the input (README.md) shows the rest. Recording them cost a sixth of
# the `check` target's time (bench/results/fuzz.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
for target in "${targets[@]}"; do
  # The checker's inputs stay under 4 KiB (nine in ten fixtures are; longer seeds are cut):
  # what it must survive is in the shape of a file, not in its length, and without a bound
  # libFuzzer grows inputs to the largest seed's 9 KiB, which cost more per execution.
  limits=()
  [ "$target" = check ] && limits=(-max_len=4096)
  echo "== fuzz $target for ${seconds} s (0: no limit), ${FUZZ_RUNS:-unlimited} executions"
  # A fixed seed: the same start on every machine, so a CI run does not fail by luck alone.
  cargo fuzz run "$target" "corpus/$target" -- \
    -seed=1 -max_total_time="$seconds" -runs="${FUZZ_RUNS:--1}" -timeout=10 -rss_limit_mb=1024 \
    -print_final_stats=1 "${limits[@]}"
done
