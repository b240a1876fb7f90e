#!/usr/bin/env bash
# Tests droidstar_learner.py on the cases in bench/learner/droidstar-cases: each NAME.bound-N.json
# holds what learning NAME.dot under distinguisher bound N prints.
# UPDATE_EXPECT=1 rewrites the expected files (read the diff before committing it).
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
cases="$here/droidstar-cases"
failed=0 passed=0
for expected in "$cases"/*.bound-*.json; do
    name="$(basename "$expected" .json)"
    model="$cases/${name%.bound-*}.dot"
    bound="${name##*.bound-}"
    actual="$(python3 "$here/droidstar_learner.py" "$model" "$bound")"
    if [ "${UPDATE_EXPECT:-}" = 1 ]; then
        printf '%s\n' "$actual" > "$expected"
    elif [ "$actual" != "$(cat "$expected")" ]; then
        echo "FAIL $name: expected $(cat "$expected"), got $actual" >&2
        failed=$((failed + 1))
        continue
    fi
    passed=$((passed + 1))
done
echo "droidstar_learner.py: $passed passed, $failed failed"
[ "$failed" = 0 ] && [ "$passed" -gt 0 ]
