#!/usr/bin/env bash
# The long fuzzing run of issue #21: each target in turn, up to RUNS executions (default 10
# million) or SECONDS per target (default 0: no time limit), then adds a section to the top of
# bench/results/fuzz.md: executions, findings, the slowest input and the peak memory per target.
# The sections of earlier runs stay below it.
# Usage: fuzz/long.sh [SECONDS] [TARGET...]   (RUNS=N to change the executions per target)
# With the defaults it runs until every target reached 10 million executions.
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
logs="$here/logs"
mkdir -p "$logs"
results="$root/bench/results/fuzz.md"
out=$(mktemp)
trap 'rm -f "$out"' EXIT
{
  echo "## Every target, $(date -u '+%F')"
  echo
  echo "Produced by \`fuzz/long.sh $seconds${*:+ $*}\` (RUNS=$runs) from $(date -u '+%F %H:%M') UTC at commit $(git -C "$root" rev-parse --short HEAD)."
  echo "Machine: $(nproc) logical cores, shared; load average before \`$(cut -d' ' -f1-3 /proc/loadavg)\`."
  echo "Each target runs alone under libFuzzer (\`fuzz/run.sh\`: seeded from the fixtures, \`-timeout=10\`, \`-rss_limit_mb=1024\`), until RUNS executions$([ "$seconds" != 0 ] && echo " or $seconds s")."
  echo "Executions, slowest input and peak memory are libFuzzer's final statistics; the peak is the whole fuzzing process's, corpus included."
  echo "A finding is a crash, a panic, an input over 10 s or a process over 1 GiB; libFuzzer stops at the first one."
  echo
  echo "| target | executions | seconds | executions/s | findings | slowest input (s) | peak RSS (MiB) |"
  echo "|---|---:|---:|---:|---|---:|---:|"
} > "$out"
failed=0
for target in "${targets[@]}"; do
  log="$logs/$target.log"
  start=$(date +%s)
  FUZZ_RUNS=$runs "$here/run.sh" "$seconds" "$target" > "$log" 2>&1
  status=$?
  elapsed=$(( $(date +%s) - start ))
  stat() { grep -a "^stat::$1:" "$log" | tail -n 1 | awk '{ print $2 }'; }
  executions=$(stat number_of_executed_units)
  slowest=$(stat slowest_unit_time_sec)
  peak=$(stat peak_rss_mb)
  fuzzing=$(stat average_exec_per_sec)
  finding="none"
  if [ "$status" -ne 0 ]; then
    failed=1
    finding=$(grep -a -m 1 -o "ERROR: libFuzzer: [a-z -]*\|panicked at [^:]*:[0-9]*" "$log" || echo "exit $status")
    finding="$finding ($(grep -a -o 'artifacts/[^ ]*' "$log" | tail -n 1))"
  fi
  echo "| \`$target\` | ${executions:-?} | $elapsed | ${fuzzing:-?} | $finding | ${slowest:-?} | ${peak:-?} |" >> "$out"
  echo "fuzz/long.sh: $target: ${executions:-?} executions in $elapsed s, $finding" >&2
done
# What reaching RUNS executions of every target takes at the rates measured above.
hours=$(awk -F'|' -v runs="$runs" '$2 ~ /`/ && $5 + 0 > 0 { s += runs / $5 } END { printf "%.1f", s / 3600 }' "$out")
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
