#!/usr/bin/env bash
# Fetches OkHttp 4.12.0 and its runtime dependencies (okio, kotlin-stdlib) from Maven Central
# into target/okhttp/ (never committed), and prints the class path. The jvm_okhttp test runs it
# when target/okhttp/ is missing or incomplete.
#   learner/tests/fetch-okhttp.sh [DEST]      DEST defaults to <repo>/target/okhttp
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/fetch-maven.sh" com.squareup.okhttp3:okhttp:4.12.0 "${1:-$here/../../target/okhttp}"
