#!/usr/bin/env bash
# The main job: check the bundled example Android app against the bundled typestate library.
# The app contains protocol bugs on purpose, so findings (typestar's exit code 1) are the
# expected outcome here; any other failure fails the script.
set -uo pipefail
cd "$(dirname "$0")"
echo "run.sh: building typestar in release mode (the first build takes several minutes)" >&2
cargo build --release -p server --bin typestar || exit
cargo run --quiet --release -p server --bin typestar -- check examples/android-app
status=$?
if [ "$status" -eq 1 ]; then
    echo "run.sh: the findings above are the bugs planted in examples/android-app (see its README)."
    exit 0
fi
exit "$status"
