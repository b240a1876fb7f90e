#!/usr/bin/env bash
# Every offline test of the VS Code extension: clean install from package-lock.json, strict typecheck, then
# `npm test` (esbuild bundle, unit tests against the bundle with a fake `vscode`, manifest checks, `vsce package`).
# The real editor end-to-end test is opt-in: e2e/run-code-server.sh.
set -euo pipefail
cd "$(dirname "$0")"
npm ci --no-audit --no-fund --loglevel=error
npm run --silent typecheck
npm test --silent
