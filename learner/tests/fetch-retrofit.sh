#!/usr/bin/env bash
# Fetches Retrofit 2.11.0 and its runtime dependencies (OkHttp, okio, kotlin-stdlib) from Maven
# Central into target/retrofit/ (never committed), and prints the class path. The jvm_okhttp
# test runs it when target/retrofit/ is missing or incomplete.
#   learner/tests/fetch-retrofit.sh [DEST]      DEST defaults to <repo>/target/retrofit
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/fetch-maven.sh" com.squareup.retrofit2:retrofit:2.11.0 "${1:-$here/../../target/retrofit}"
