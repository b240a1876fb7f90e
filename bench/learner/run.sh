#!/usr/bin/env bash
# The learner benchmark: learns every library typestate through the model backend, runs AALpy on
# the same models (bench/aalpy), and writes bench/results/learner.md.
# Set TYPESTAR_BENCH_NO_AALPY=1 to skip AALpy; TYPESTAR_BENCH_ONLY=ClassA,ClassB measures only
# those classes (printed, not written to bench/results/learner.md).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
exec cargo bench -p learner --bench learn_library "$@"
