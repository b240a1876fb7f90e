#!/usr/bin/env bash
# Appends to bench/results/scale.md (or FILE) the families that grew superlinearly in its table:
# a doubling of the input that cost more than 3 times the CPU (of at least 0.1 s, above the
# clock's resolution) or the memory of the size before, between two runs that read the whole
# file (exit 0 or 1), with the rows that show it.
# Each such family's explanation comes from bench/scale/explained.md (`- `family`: ...`);
# a family without one is listed as not explained. bench/scale/run.sh calls it at its end.
#
#   bench/scale/superlinear.sh [FILE]
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out=${1:-"$here/../results/scale.md"}
explained="$here/explained.md"
# The table's rows: | family | size | bytes | exit | CPU | RSS | CPU growth | memory growth |
rows=$(awk -F'|' '
    $2 ~ /^ [a-z]/ && $3 ~ /[0-9]/ {
        family = $2; gsub(/ /, "", family); exit_status = $5 + 0
        whole = (exit_status == 0 || exit_status == 1)
        if (family == previous && whole && previous_whole && (($8 + 0 > 3 && $6 + 0 >= 0.1) || $9 + 0 > 3))
            printf "%s %s %s %s\n", family, $3 + 0, $8 + 0, $9 + 0
        previous = family; previous_whole = whole
    }' "$out")
{
    echo
    echo "## Superlinear growth"
    echo
    echo "Produced by \`bench/scale/superlinear.sh\` from the table above: each doubling that cost more than 3 times the CPU or memory of the size before, both sizes read whole (exit 0 or 1)."
    echo "CPU counts from 0.1 s on: below it the ratios are mostly the clock's resolution (0.01 s)."
    echo
    if [[ -z "$rows" ]]; then
        echo "None."
    else
        echo "| family | size | CPU growth | memory growth |"
        echo "|---|---:|---:|---:|"
        while read -r family size cpu mem; do
            echo "| $family | $size | $cpu | $mem |"
        done <<< "$rows"
        echo
        for family in $(cut -d' ' -f1 <<< "$rows" | uniq); do
            line=$(grep -m 1 "^- \`$family\`:" "$explained" || true)
            echo "${line:-- \`$family\`: not explained.}"
        done
    fi
    echo
    echo "Families stopped by a limit at some size (exit 2: a file error, such as the per-file time limit) are explained in \`bench/scale/explained.md\` too:"
    echo
    for family in $(awk -F'|' '$2 ~ /^ [a-z]/ && $5 + 0 >= 2 { f = $2; gsub(/ /, "", f); print f }' "$out" | uniq); do
        grep -q -x "$family" <<< "$(cut -d' ' -f1 <<< "$rows")" && continue
        line=$(grep -m 1 "^- \`$family\`:" "$explained" || true)
        echo "${line:-- \`$family\`: not explained.}"
    done
} >> "$out"
