#!/usr/bin/env bash
# Counts the instructions `typestar check` runs on a fixed part of the corpus, with callgrind.
# Instruction counts hardly change with the machine's load, unlike times.
# Use it to compare two builds of the checker, not as a speed figure.
#
#   bench/checker/instructions.sh [TYPESTAR]   (default: the release build, built first)
#
# Prints the findings' count, the total, and the inclusive cost of a few hot functions.
# Needs valgrind (Debian package `valgrind`) and the corpus (bench/checker/fetch-corpus.sh).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
root="$(cd "$here/../.." && pwd)"
cd "$root"

typestar="${1:-}"
if [[ -z "$typestar" ]]; then
    cargo build --release --quiet -p server --bin typestar
    typestar="${CARGO_TARGET_DIR:-$root/target}/release/typestar"
fi
# The run below changes directory: name the binary from the root.
typestar="$(realpath "$typestar")"
"$here/fetch-corpus.sh" >/dev/null

# Packages with many tracked objects and helpers: most of their time is the analysis.
packages=(cordova-plugin-media expo-av react-native-audio-recorder-player
    react-native-incall-manager rn-fetch-blob react-native-sound capacitor-voice-recorder
    react-native-video)
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd bench/work/corpus && valgrind --tool=callgrind --callgrind-out-file="$out/cg.out" \
    "$typestar" check --format json --jobs 1 --time-limit 100000 "${packages[@]}" \
    >"$out/findings.json" 2>"$out/valgrind.log") || [[ $? == 1 ]]
echo "findings: $(grep -c '"code":' "$out/findings.json")"
callgrind_annotate --inclusive=yes "$out/cg.out" 2>/dev/null |
    grep -E 'PROGRAM TOTALS|:checker::typestate_flow::(BodyAnalysis::helper_call|Shared::protocol_of_var|analyze_within) \[' |
    sed -E 's/ +\/[^:]*:/  /; s/ \[.*//'
