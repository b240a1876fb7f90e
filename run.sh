#!/usr/bin/env bash
# The main job: check the bundled example app against the bundled typestate library.
set -euo pipefail
cd "$(dirname "$0")"
exec cargo run --quiet --release -p server --bin typestar -- show android.os.CountDownTimer
