#!/usr/bin/env bash
# Fetches the H2 database engine 2.2.224 (an embedded JDBC database, no dependencies) from Maven
# Central into target/h2/ (never committed), and prints the class path. The jvm_sql test runs it
# when target/h2/ is missing.
#   learner/tests/fetch-h2.sh [DEST]      DEST defaults to <repo>/target/h2
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
exec "$here/fetch-maven.sh" com.h2database:h2:2.2.224 "${1:-$here/../../target/h2}"
