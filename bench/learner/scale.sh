#!/usr/bin/env bash
# The scaling benchmark: seeded random machines of 10, 20, 40 and 80 states learned by our L#
# and by AALpy (bench/aalpy) in the same run, under distinguisher bound 2 and under a state
# bound; writes bench/results/learner-scale.md (runs, runs per state, symbols, CPU time).
# TYPESTAR_SCALE_SEEDS=N sets the machines per size (default 2); TYPESTAR_BENCH_NO_AALPY=1 skips
# AALpy.
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
exec cargo bench -p learner --bench scale "$@"
