#!/usr/bin/env bash
# Create bench/work/venv (gitignored) and install requirements.txt into it.
# Idempotent: reuses the venv and skips pip when requirements.txt has not changed.
set -euo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
venv="$here/../work/venv"
python="${PYTHON:-python3}"
if [ ! -x "$venv/bin/python" ]; then
  "$python" -m venv "$venv"
fi
stamp="$venv/.requirements.sha256"
want="$(sha256sum "$here/requirements.txt" | cut -d' ' -f1)"
if [ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]; then
  "$venv/bin/python" -m pip install --quiet --disable-pip-version-check -r "$here/requirements.txt"
  echo "$want" > "$stamp"
fi
echo "venv ready: $venv ($("$venv/bin/python" -c 'import aalpy, importlib.metadata as m; print("aalpy", m.version("aalpy"))'))"
