#!/usr/bin/env bash
# The Robolectric learning benchmark: learns each Android experiment of learner/experiments/ with
# `typestar learn --backend robolectric` (a debug build, as CI has it) and writes
# bench/results/robolectric.md: wall time (JVM and sandbox start included) and the queries asked
# and executed per class, beside DroidStar's 2016 device figures for the same alphabets.
#   bench/robolectric/run.sh [--sdk N] [--jobs J]      (defaults: SDK 34, 1 JVM)
# Fetches the Maven artifacts with learner/robolectric/fetch.sh first (a no-op once cached).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
sdk=34
jobs=1
while [ $# -gt 0 ]; do
    case $1 in
        --sdk) sdk=$2; shift 2;;
        --jobs) jobs=$2; shift 2;;
        *) echo "usage: $0 [--sdk N] [--jobs J]" >&2; exit 2;;
    esac
done
learner/robolectric/fetch.sh --sdk "$sdk" >/dev/null
cargo build -q -p server
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# DroidStar's 2016 device runs (droidstar-lessons.md 4.1, all.txt): time in s, executed MQ.
droidstar() {
    case $1 in
        CountDownTimer) echo "133.7 | 61";;
        AsyncTask) echo "48.8 | 94";;
        *) echo "- | -";;
    esac
}

out=bench/results/robolectric.md
{
    echo "# Robolectric learning benchmark"
    echo
    echo "Produced by \`bench/robolectric/run.sh --sdk $sdk --jobs $jobs\` on $(date -u +%Y-%m-%d), $(nproc) cores (shared), $(java -version 2>&1 | head -1)."
    echo "Each class is learned by \`typestar learn --backend robolectric --experiment learner/experiments/<class>.toml --sdk $sdk --jobs $jobs\` (debug build)."
    echo "**time** is the whole run's wall time, the start of each JVM and its Robolectric sandbox (10-30 s) included; waits run on the simulated clock, so only real background work (AsyncTask's 200 ms \`doInBackground\`) costs real time."
    echo "**MQ asked (executed)**: queries the learner asked, and runs executed on the agents (each a fresh object)."
    echo "**code**: what the agent read from Robolectric's shadow registry (\`calls-through\`: shadow methods intercept the class and run its AOSP code)."
    echo "DroidStar's columns are its 2016 runs on a device with the same alphabets (AsyncTask-NoGet; droidstar-lessons.md §4.1)."
    echo
    echo "| class | SDK | code | states | time (s) | MQ asked (executed) | EQ | DroidStar time (s) | DroidStar executed MQ |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$work/table.md"
for class in CountDownTimer AsyncTask; do
    experiment=learner/experiments/android.os.$class.toml
    echo "learning android.os.$class (SDK $sdk, $jobs JVM(s))" >&2
    target/debug/typestar learn --backend robolectric --experiment "$experiment" --sdk "$sdk" \
        --jobs "$jobs" --no-progress --report "$work/$class.md" -o "$work/$class.typestate"
    # | CountDownTimer | 3 | 39.0 | 141 (45) | 1 | 45.0 | 2 |
    IFS='|' read -r _ _ states time queries eq _ <<<"$(grep "^| $class |" "$work/$class.md")"
    code=$(sed -n 's/^source "code \([a-z-]*\):.*/\1/p' "$work/$class.typestate")
    echo "| $class | $sdk | $code |$states|$time|$queries|$eq| $(droidstar "$class") |" >>"$work/table.md"
done
mv "$work/table.md" "$out"
cat "$out"
