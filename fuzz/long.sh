#!/usr/bin/env bash
# The long fuzzing run of issue #21: each target up to RUNS executions (default 10 million) or
# SECONDS per target (default 0: no time limit), then adds a section to the top of
# bench/results/fuzz.md: executions, findings, the slowest input and the peak memory per target.
# The sections of earlier runs stay below it.
# Usage: fuzz/long.sh [SECONDS] [TARGET...]   (RUNS=N to change the executions per target)
# With the defaults it runs until every target reached 10 million executions.
# JOBS=N runs N targets side by side (default 1); each libFuzzer process uses one core.
# FUZZ_TIMEOUT=N stops a target on an input over N s of wall-clock time (default 10; libFuzzer
# measures wall-clock time, so a starved process on a loaded machine needs more). Any input
# over 10 s is written as slow-unit-*; at the end every input this run wrote to
# fuzz/artifacts/ runs again alone, and the table says whether it is over a bound alone.
# A target stops at its first finding (its input is in fuzz/artifacts/TARGET/); the script
# then goes on with the next target and exits 1 at the end.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/.." && pwd)"
seconds=${1:-0}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  targets=(check typestate_text typestate_json droidstar_dot journal lsp_transport lsp_positions)
fi
runs=${RUNS:-10000000}
jobs=${JOBS:-1}
timeout=${FUZZ_TIMEOUT:-10}
logs="$here/logs"
mkdir -p "$logs"
results="$root/bench/results/fuzz.md"
out=$(mktemp)
rows=$(mktemp -d)
# Artifacts newer than this file are this run's.
started="$rows/started"
touch "$started"
trap 'rm -rf "$out" "$rows"' EXIT
{
  echo "## Every target, $(date -u '+%F')"
  echo
  echo "Produced by \`$(env | grep -o '^\(RUNS\|JOBS\|FUZZ_TIMEOUT\)=[0-9]*' | sort | tr '\n' ' ')fuzz/long.sh $seconds${*:+ $*}\` from $(date -u '+%F %H:%M') UTC at commit $(git -C "$root" rev-parse --short HEAD)."
  echo "Machine: $(nproc) logical cores, shared; load average before \`$(cut -d' ' -f1-3 /proc/loadavg)\`; $jobs target(s) at a time."
  echo "Each target runs under libFuzzer (\`fuzz/run.sh\`: seeded from the fixtures, \`-timeout=$timeout\`, \`-rss_limit_mb=1024\`), until $runs executions$([ "$seconds" != 0 ] && echo " or $seconds s")."
  echo "Executions, slowest input and peak memory are libFuzzer's final statistics; the peak is the whole fuzzing process's, corpus included."
  echo "A finding is a crash, a panic, an input over $timeout s of wall-clock time or a process over 1 GiB; libFuzzer stops at the first one."
  echo "libFuzzer writes an input as slow-unit-* when it takes over 10 s of wall-clock time and longer than every input before it; every input the run wrote is run again alone below the table."
  echo
  echo "| target | executions | seconds | executions/s | findings | slow inputs written (over 10 s) | slowest input (s) | peak RSS (MiB) |"
  echo "|---|---:|---:|---:|---|---:|---:|---:|"
} > "$out"

# fuzz TARGET INDEX: runs one target and writes its row to $rows/INDEX (and its status beside).
fuzz() {
  local target=$1 index=$2
  local log="$logs/$target.log"
  local start status elapsed executions slowest peak fuzzing finding slow
  start=$(date +%s)
  FUZZ_RUNS=$runs FUZZ_TIMEOUT=$timeout "$here/run.sh" "$seconds" "$target" > "$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  stat() { grep -a "^stat::$1:" "$log" | tail -n 1 | awk '{ print $2 }'; }
  executions=$(stat number_of_executed_units)
  slowest=$(stat slowest_unit_time_sec)
  peak=$(stat peak_rss_mb)
  fuzzing=$(stat average_exec_per_sec)
  slow=$(grep -a -c '^Slowest unit:' "$log")
  finding="none"
  if [ "$status" -ne 0 ]; then
    finding=$(grep -a -m 1 -o "ERROR: libFuzzer: [a-z -]*\|panicked at [^:]*:[0-9]*" "$log" || echo "exit $status")
    finding="$finding ($(grep -a -o 'artifacts/[^ ]*' "$log" | tail -n 1))"
  fi
  echo "| \`$target\` | ${executions:-?} | $elapsed | ${fuzzing:-?} | $finding | $slow | ${slowest:-?} | ${peak:-?} |" > "$rows/$index"
  echo "$status" > "$rows/$index.status"
  echo "fuzz/long.sh: $target: ${executions:-?} executions in $elapsed s, $finding" >&2
}
for index in "${!targets[@]}"; do
  while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do
    wait -n
  done
  fuzz "${targets[$index]}" "$index" &
done
wait
failed=0
for index in "${!targets[@]}"; do
  cat "$rows/$index" >> "$out"
  [ "$(cat "$rows/$index.status")" = 0 ] || failed=1
done
# What reaching RUNS executions of every target takes at the rates measured above.
hours=$(awk -F'|' -v runs="$runs" '$2 ~ /`/ && $5 + 0 > 0 { s += runs / $5 } END { printf "%.1f", s / 3600 }' "$out")

# Every input this run wrote (crash, timeout, out of memory, slow unit), run again alone with
# fuzz/run.sh's bounds: wall-clock seconds and peak memory by GNU time.
triple=$(rustc -vV | sed -n 's/^host: //p')
written=$(find "$here/artifacts" -type f -newer "$started" 2>/dev/null | sort)
if [ -n "$written" ]; then
  {
    echo
    echo "Every input the run wrote, run again alone after the run (\`fuzz/target/$triple/release/TARGET INPUT -timeout=10 -rss_limit_mb=1024\`), at load average \`$(cut -d' ' -f1-3 /proc/loadavg)\`:"
    echo
    echo "| input | exit alone | seconds alone | peak RSS alone (MiB) | over a bound alone |"
    echo "|---|---:|---:|---:|---|"
  } >> "$out"
  while read -r input; do
    target=$(basename "$(dirname "$input")")
    status=0
    ASAN_OPTIONS=${ASAN_OPTIONS:-malloc_context_size=0} /usr/bin/time -f "%e %M" -o "$rows/time" \
      "$here/target/$triple/release/$target" "$input" -timeout=10 -rss_limit_mb=1024 \
      > "$logs/alone-$(basename "$input").log" 2>&1 || status=$?
    read -r wall kib < <(tail -n 1 "$rows/time")
    verdict=no
    if [ "$status" -ne 0 ] || awk -v w="$wall" -v k="$kib" 'BEGIN { exit !(w > 10 || k > 1048576) }'; then
      verdict=yes
      failed=1
    fi
    echo "| \`${input#"$here/"}\` | $status | $wall | $(( kib / 1024 )) | $verdict |" >> "$out"
  done <<< "$written"
fi
{
  echo
  echo "Reaching $runs executions of every target: \`fuzz/long.sh\` (no time limit; RUNS=$runs by default), about $hours hours of one core at the rates above."
} >> "$out"
# The title, this run, then the earlier runs as they were.
{
  echo "# Long fuzzing run"
  echo
  cat "$out"
  if [ -f "$results" ]; then
    echo
    grep -v -x '# Long fuzzing run' "$results" | sed '/./,$!d'
  fi
} > "$results.new"
mv "$results.new" "$results"
echo "wrote $results" >&2
exit $failed
