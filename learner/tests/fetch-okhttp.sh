#!/usr/bin/env bash
# Fetches OkHttp 4.12.0 and its runtime dependencies (okio, kotlin-stdlib) from Maven Central
# into target/okhttp/ (never committed) with `mvn dependency:copy-dependencies`, and prints the
# class path. The jvm_okhttp test runs it when target/okhttp/ is missing or incomplete.
#   learner/tests/fetch-okhttp.sh [DEST]      DEST defaults to <repo>/target/okhttp
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:-$here/../../target/okhttp}"
version=4.12.0
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
if [ ! -f "$dest/okhttp-$version.jar" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.typestar</groupId>
  <artifactId>fetch-okhttp</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>com.squareup.okhttp3</groupId>
      <artifactId>okhttp</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
</project>
POM
    mvn -q -B -f "$work/pom.xml" dependency:copy-dependencies \
        -DincludeScope=runtime -DoutputDirectory="$dest" >&2
fi
ls "$dest"/*.jar | sort | paste -sd: -
