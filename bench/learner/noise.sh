#!/usr/bin/env bash
# The noise benchmark: learns every library typestate on the model backend with callbacks late
# or missing (noise 0.01 and 0.05), many seeds each, and writes bench/results/learner-noise.md:
# exact / stopped with a report / wrong with exit 0, and the runs the votes repeat.
# TYPESTAR_NOISE_SEEDS=N sets the seeds per class (default 50); TYPESTAR_BENCH_ONLY=ClassA,ClassB
# measures only those classes (printed, not written); TYPESTAR_NOISE_RESUME=1 keeps the sections
# bench/results/learner-noise.md already has and measures only the rest.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
exec cargo bench -p learner --bench noise "$@"
