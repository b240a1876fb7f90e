#!/usr/bin/env bash
# Runs every fuzz target, seeded from the project's fixtures.
# Usage: fuzz/run.sh [SECONDS|ci] [TARGET...]   (needs cargo-fuzz; see README.md)
# SECONDS (default 20) bounds each target's time; 0 runs without a time limit, and
# FUZZ_RUNS=N stops each target after N executions.
# `ci` runs each target a fixed number of executions (`ci_runs` below) and no time limit:
# the same inputs on every machine, however fast, so CI finds only what a run here finds.
# A crash, a run over 10 s or over 1 GiB of memory fails the script; libFuzzer writes the
# input to fuzz/artifacts/TARGET/. libFuzzer's timeout is wall-clock time: on a loaded machine
# FUZZ_TIMEOUT=N (seconds, default 10) keeps a starved process from stopping on a timeout; an
# input over 10 s is still written there as slow-unit-*, to run again alone (fuzz/long.sh).
set -euo pipefail
cd "$(dirname "$0")"
seconds=${1:-20}
shift || true
# Executions per target under `ci`: about 20 s each on this project's 2-core machine when
# quiet: 20 times the executions per second of `fuzz/run.sh 4` on 2026-11-28.
declare -A ci_runs=([check]=1000 [typestate_text]=25000 [typestate_json]=400000 [droidstar_dot]=140000
  [journal]=300000 [lsp_transport]=200000 [lsp_positions]=380000)
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
# Under `ci` the corpus starts from the seeds alone: inputs an earlier run here kept would
# change what the fixed executions explore.
corpus=corpus
if [ "$seconds" = ci ]; then
  corpus=corpus/ci
  rm -rf "$corpus"
fi
# Only the targets that run are seeded: runs of other targets may be reading their corpora
# (fuzz/long.sh runs targets side by side), and the journals take a test build.
runs_target() { [[ " ${targets[*]} " == *" $1 "* ]]; }
shopt -s globstar nullglob
if runs_target check; then
  seed "$corpus/check" '\x00' ../checker/tests/fixtures/**/*.java
  seed "$corpus/check" '\x01' ../checker/tests/fixtures/**/*.kt
fi
runs_target typestate_text &&
  seed "$corpus/typestate_text" '' ../typestates/library/**/*.typestate ../typestates/test_data/format/**/*.typestate
runs_target typestate_json && seed "$corpus/typestate_json" '' ../typestates/test_data/**/*.json
runs_target droidstar_dot && seed "$corpus/droidstar_dot" '' ../typestates/test_data/droidstar/*.gv
if runs_target journal; then
  # Real journals: the ones the learner's journal tests write (into their own temporary folder).
  journals=$(mktemp -d)
  trap 'rm -rf "$journals"' EXIT
  (cd .. && TMPDIR=$journals cargo test --quiet -p learner --test journal >/dev/null)
  mkdir -p "$corpus/journal"
  cp "$journals"/*/*.jsonl "$corpus/journal/"
fi
runs_target lsp_transport && seed "$corpus/lsp_transport" '\x07' seeds/lsp_transport/*.txt
runs_target lsp_positions &&
  seed "$corpus/lsp_positions" '\x03\x00\x05\x00\x00\x00\x02\x00' ../checker/tests/fixtures/**/*.kt

# AddressSanitizer records no allocation stacks: a report still shows where the bad access
# was, and reproducing the input (README.md) shows the rest. Recording them cost a sixth of
# the `check` target's time (bench/results/fuzz.md).
export ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0}
for target in "${targets[@]}"; do
  # The checker's inputs stay under 4 KiB (nine in ten fixtures are; longer seeds are cut):
  # what it must survive is in the shape of a file, not in its length, and without a bound
  # libFuzzer grows inputs to the largest seed's 9 KiB, which cost more per execution.
  # The typestate text reader's likewise: the format is a line at a time, so a short input
  # holds every construct, and the largest library file's 21 KiB cost 4 times the executions
  # per second (bench/results/fuzz.md, session 25). The scale benchmark covers long files.
  limits=()
  [ "$target" = check ] || [ "$target" = typestate_text ] && limits=(-max_len=4096)
  time_limit=$seconds runs=${FUZZ_RUNS:--1}
  if [ "$seconds" = ci ]; then
    time_limit=0 runs=${ci_runs[$target]}
  fi
  echo "== fuzz $target for ${time_limit} s (0: no limit), $runs executions (-1: no limit)"
  # A fixed seed: the same start on every machine, so a CI run does not fail by luck alone.
  cargo fuzz run "$target" "$corpus/$target" -- \
    -seed=1 -max_total_time="$time_limit" -runs="$runs" -timeout="${FUZZ_TIMEOUT:-10}" \
    -report_slow_units=10 -rss_limit_mb=1024 \
    -print_final_stats=1 "${limits[@]}"
done
