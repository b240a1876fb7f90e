#!/usr/bin/env bash
# Fetches one Maven Central artifact and its runtime dependencies into DEST (never committed)
# with `mvn dependency:copy-dependencies`, each jar with its POM beside it (the Robolectric
# agent reads the coordinates there), unless DEST already holds the artifact's POM, and
# prints the class path.
#   learner/tests/fetch-maven.sh GROUP:ARTIFACT:VERSION DEST
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 GROUP:ARTIFACT:VERSION DEST" >&2
    exit 2
fi
IFS=: read -r group artifact version <<<"$1"
if [ -z "$group" ] || [ -z "$artifact" ] || [ -z "$version" ]; then
    echo "$0: '$1' is not GROUP:ARTIFACT:VERSION" >&2
    exit 2
fi
dest=$2
mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
if [ ! -f "$dest/$artifact-$version.pom" ]; then
    work="$(mktemp -d)"
    trap 'rm -rf "$work"' EXIT
    cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.typestar</groupId>
  <artifactId>fetch-$artifact</artifactId>
  <version>1</version>
  <dependencies>
    <dependency>
      <groupId>$group</groupId>
      <artifactId>$artifact</artifactId>
      <version>$version</version>
    </dependency>
  </dependencies>
</project>
POM
    mvn -q -B -f "$work/pom.xml" dependency:copy-dependencies -Dmdep.copyPom=true \
        -DincludeScope=runtime -DoutputDirectory="$dest" >&2
fi
ls "$dest"/*.jar | sort | paste -sd: -
