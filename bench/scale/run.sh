#!/usr/bin/env bash
# Scale benchmark: the checker's and the reader's time and memory at 1x, 2x, 4x and 8x the
# input size of each family in families.py, so that superlinear growth shows as a ratio.
# Writes bench/results/scale.md.
#
#   bench/scale/run.sh [--quick]   (--quick: 1x and 2x only, for a smoke run)
#
# Each run is `typestar check FILE` (or `typestar show FILE` for model families) from a
# release build, measured by GNU time, under a 2 GiB address-space cap and a 60 s timeout.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

factors=(1 2 4 8)
[[ "${1:-}" == "--quick" ]] && factors=(1 2)

cargo build --release --quiet -p server
typestar="${CARGO_TARGET_DIR:-$root/target}/release/typestar"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

out=bench/results/scale.md
{
    echo "# Scale benchmark"
    echo
    echo "Produced by \`bench/scale/run.sh${*:+ $*}\` on $(date -u +%F) at commit $(git rev-parse --short HEAD)."
    echo "Machine: $(nproc) logical cores; load average before \`$(cut -d' ' -f1-3 /proc/loadavg)\`."
    echo "Inputs: \`bench/scale/families.py FAMILY N\`; each run is one \`typestar check\` (\`show\` for typestate, JSON and DOT models) under a 2 GiB address-space cap and a 60 s timeout."
    echo "CPU is user + system time, memory the peak resident set (GNU time)."
    echo "The growth columns divide by the row before: for a doubling of the input, about 2 is linear, about 4 quadratic."
    echo
    echo "| family | size | bytes | exit | CPU (s) | peak RSS (MiB) | CPU growth | memory growth |"
    echo "|---|---:|---:|---:|---:|---:|---:|---:|"
} > "$out"

while read -r family ext base; do
    prev_cpu=""; prev_mem=""
    for factor in "${factors[@]}"; do
        n=$(( base * factor ))
        file="$work/$family-$n.$ext"
        python3 "$here/families.py" "$family" "$n" > "$file"
        command=(check "$file")
        [[ "$ext" == typestate || "$ext" == gv || "$ext" == json ]] && command=(show "$file")
        status=0
        ( ulimit -v 2097152; /usr/bin/time -f "%U %S %M" -o "$work/time" \
            timeout 60 "$typestar" "${command[@]}" > /dev/null 2> "$work/err" ) || status=$?
        read -r user sys rss < <(tail -n 1 "$work/time")
        cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%.2f", u + s }')
        mem=$(awk -v k="$rss" 'BEGIN { printf "%.1f", k / 1024 }')
        growth() { [[ -n "$2" ]] && awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.2f", a / b; else print "-" }' || echo "-"; }
        echo "| $family | $n | $(wc -c < "$file") | $status | $cpu | $mem | $(growth "$cpu" "$prev_cpu") | $(growth "$mem" "$prev_mem") |" >> "$out"
        echo "$family $n: exit $status, $cpu s CPU, $mem MiB" >&2
        prev_cpu=$cpu; prev_mem=$mem
    done
done < <(python3 "$here/families.py" --list)

echo >> "$out"
echo "Exit status 1 means the file was checked and has findings; 2 a file error; 124 the timeout; 134 or 137 an abort." >> "$out"
"$here/superlinear.sh" "$out"
echo "wrote $out" >&2
