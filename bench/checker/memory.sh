#!/usr/bin/env bash
# Peak memory of the checker as the project grows: the corpus checked whole, then as 2, 4 and 8
# copies of itself side by side (hard links under bench/work/corpus-xN/copyK), by
# `typestar check`'s project check (`check-project`) and the per-file check (`check`).
# Writes bench/results/checker-memory.md.
#
#   bench/checker/memory.sh [--copies 1,2,4,8] [--threads 1,2]
#
# The issue's target: peak memory under 200 MB however large the corpus is.
# Each run is one child process (`checker-bench phase`), measured by GNU time.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
work="$root/bench/work"
cd "$root"

copies="1,2,4,8"
threads="1,2"
while [[ $# -gt 0 ]]; do
    case "$1" in
        --copies) copies="$2"; shift 2 ;;
        --threads) threads="$2"; shift 2 ;;
        *) echo "error: unknown option $1 (expected --copies N,.. or --threads N,..)" >&2; exit 2 ;;
    esac
done

"$here/fetch-corpus.sh" >/dev/null
cargo build --release --quiet -p checker-bench
bench="${CARGO_TARGET_DIR:-$root/target}/release/checker-bench"

corpus_of() {
    local n="$1"
    if [[ "$n" == 1 ]]; then
        echo "$work/corpus"
        return
    fi
    local dir="$work/corpus-x$n"
    if [[ ! -d "$dir" ]]; then
        mkdir -p "$dir.partial"
        for k in $(seq 1 "$n"); do
            cp -al "$work/corpus" "$dir.partial/copy$k"
        done
        mv "$dir.partial" "$dir"
    fi
    echo "$dir"
}

out="bench/results/checker-memory.md"
commit="$(git rev-parse --short HEAD)"
{
    echo "# Checker memory as the project grows"
    echo
    echo "Produced by \`bench/checker/memory.sh --copies $copies --threads $threads\` on $(date -u +%F) at commit $commit."
    echo "Each row is one child process (\`checker-bench phase\`); peak RSS and CPU (user + system) from GNU time."
    echo "A corpus of N copies is the benchmark corpus hard-linked N times side by side: N times the files and classes."
    echo "The target (issue 15): peak memory under 200 MB however large the corpus is."
    echo
    echo "| job | copies | files | threads | CPU (s) | peak RSS (MiB) | under 200 MB |"
    echo "|---|---:|---:|---:|---:|---:|---|"
} > "$out"

IFS=, read -r -a copy_list <<< "$copies"
IFS=, read -r -a thread_list <<< "$threads"
for n in "${copy_list[@]}"; do
    dir="$(corpus_of "$n")"
    files="$(find "$dir" -name '*.java' -o -name '*.kt' -o -name '*.kts' | wc -l)"
    for job in check check-project; do
        for t in "${thread_list[@]}"; do
            stats="$(mktemp)"
            /usr/bin/time -o "$stats" -f "%U %S %M" "$bench" phase "$job" --threads "$t" --corpus "$dir" >/dev/null
            read -r user sys kib < "$stats"
            rm -f "$stats"
            awk -v job="$job" -v n="$n" -v files="$files" -v t="$t" -v u="$user" -v s="$sys" -v k="$kib" 'BEGIN {
                mib = k / 1024; mb = k * 1024 / 1e6;
                printf "| %s | %d | %d | %d | %.2f | %.1f | %s |\n", job, n, files, t, u + s, mib, (mb < 200 ? "yes" : "no")
            }' >> "$out"
        done
    done
done
echo "wrote $out"
