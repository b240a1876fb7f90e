#!/usr/bin/env bash
# Fetches Universal Image Loader 1.9.5 (no dependencies) from Maven Central into target/uil/
# (never committed), and prints the class path. The robolectric_libraries test runs it when
# target/uil/ is missing the jar.
#   learner/tests/fetch-uil.sh [DEST]      DEST defaults to <repo>/target/uil
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/fetch-maven.sh" com.nostra13.universalimageloader:universal-image-loader:1.9.5 "${1:-$here/../../target/uil}"
