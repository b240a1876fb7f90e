#!/usr/bin/env bash
# The device path's benchmark: learns java.util.Timer on 1, 2, 4 and 8 fake devices with a
# simulated latency per answer and writes bench/results/android.md.
# usage: bench/android/run.sh   (TYPESTAR_BENCH_DEVICES=1,2 and TYPESTAR_BENCH_LATENCY_MS=50 to vary)
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO_INCREMENTAL=0 cargo test -p learner --test android_bench -- --ignored --nocapture devices_speed_up
