#!/usr/bin/env bash
# Builds the agent (build.sh), compiles the tests against it and runs them with the
# dependency-free TestRunner. Prints one line per test and finally "N passed, N failed";
# exits non-zero on any failure. TEST_FILTER=substring runs only matching tests.
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
build="$here/core/build"
"$here/build.sh" >/dev/null

rm -rf "$build/test-classes"
mkdir -p "$build/test-classes"
cp="$build/classes:$build/harness-classes"
javac --release 11 -Xlint:all -Werror -encoding UTF-8 -cp "$cp" -d "$build/test-classes" \
    $(find "$here/core/src/test/java" -name '*.java' | sort)

java -Dtypestar.examples="$here/examples" -Dtypestar.protocolDoc="$here/PROTOCOL.md" \
    -cp "$cp:$build/test-classes" dev.typestar.agent.TestRunner \
    dev.typestar.agent.JsonTest \
    dev.typestar.agent.DocTest \
    dev.typestar.agent.ProtocolTest \
    dev.typestar.agent.DescribeTest \
    dev.typestar.agent.LoadTest \
    dev.typestar.agent.QueryTest \
    dev.typestar.agent.IncrementalTest \
    dev.typestar.agent.RobustnessTest \
    dev.typestar.agent.StepClockTest
