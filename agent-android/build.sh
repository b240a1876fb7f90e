#!/usr/bin/env bash
# Builds the typestar agent with plain javac (--release 11, JDK classes only) into core/build/:
#   core/build/typestar-agent.jar        the agent (main class dev.typestar.agent.Agent)
#   core/build/typestar-jdk-harness.jar  harness classes for JDK test subjects (e.g. TimerTask)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$here/core/build"
rm -rf "$build/classes" "$build/harness-classes"
mkdir -p "$build/classes" "$build/harness-classes"

javac --release 11 -Xlint:all -Werror -encoding UTF-8 -d "$build/classes" \
    $(find "$here/core/src/main/java" -name '*.java' | sort)
jar --create --file "$build/typestar-agent.jar" --main-class dev.typestar.agent.Agent -C "$build/classes" .

javac --release 11 -Xlint:all -Werror -encoding UTF-8 -cp "$build/classes" -d "$build/harness-classes" \
    $(find "$here/core/harness/src/main/java" -name '*.java' | sort)
jar --create --file "$build/typestar-jdk-harness.jar" -C "$build/harness-classes" .
echo "built $build/typestar-agent.jar and $build/typestar-jdk-harness.jar"
