#!/usr/bin/env bash
# Set up the venv if needed and run the tests of bench/aalpy; prints pytest's summary.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh"
cd "$here"
PYTHONHASHSEED=0 exec "$here/../work/venv/bin/python" -m pytest -q -p no:cacheprovider test_filters.py "$@"
