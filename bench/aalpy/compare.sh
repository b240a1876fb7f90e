#!/usr/bin/env bash
# Set up the venv if needed, then run compare.py with the given arguments.
# Example: bench/aalpy/compare.sh path/to/exported/models --format markdown
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
"$here/setup.sh" >&2
exec "$here/../work/venv/bin/python" "$here/compare.py" "$@"
