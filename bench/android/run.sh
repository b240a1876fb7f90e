#!/usr/bin/env bash
# The device path's benchmark: learns MediaPlayer with DroidStar's Table 1 alphabet on 1, 2, 4 and
# 8 fake devices running the agent inside Robolectric, with simulated device latencies (per answer,
# and per quiet wait the experiment's quiescence timeout), and writes bench/results/android.md.
# usage: bench/android/run.sh   (TYPESTAR_BENCH_DEVICES=1,2, TYPESTAR_BENCH_LATENCY_MS=20 and
# TYPESTAR_BENCH_QUIET_MS=500 to vary; TYPESTAR_ROBOLECTRIC_DIR for the cached Robolectric jars)
set -euo pipefail
cd "$(dirname "$0")/../.."
CARGO_INCREMENTAL=0 cargo test -p learner --test android_bench -- --ignored --nocapture opt_in_devices_speed_up
