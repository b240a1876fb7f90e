#!/usr/bin/env bash
# Builds the agent for Android devices: the core (../core) plus this entry point, compiled with
# javac against org.robolectric:android-all and dexed by D8 (com.android.tools:r8), both fetched
# from Maven Central by Maven into ~/.m2. The result is cached by the content hash of the sources,
# this script and the tool versions:
#   target/android-agent/HASH/typestar-agent.dex.jar
# Prints that path on stdout (the only line on stdout); a cached build is reused.
# usage: build-dex.sh [--verify]   (--verify also checks the dex with Debian's dexdump)
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
root="$(cd "$here/../.." && pwd)"
R8_VERSION=9.5.28
ANDROID_ALL=14-robolectric-10818077
MIN_API=26 # the core uses java.lang.reflect.Executable (API 26), which D8 cannot desugar
verify=no
for arg in "$@"; do
    case $arg in
        --verify) verify=yes ;;
        *) echo "build-dex.sh: unknown argument $arg" >&2; exit 2 ;;
    esac
done

# The Android harnesses (ReportingCountDownTimer, ReportingAsyncTask, ReportingSQLiteOpenHelper, ReportingCodecCallback,
# ReportingFileObserver, BluetoothHarness, DownloadHarness) live with the Robolectric entry point and need only the core and android-all.
harness="$root/agent-android/robolectric/harness/src/main/java"
sources=$( (find "$root/agent-android/core/src/main/java" "$here/src/main/java" "$harness" -name '*.java'; echo "$0") | sort)
hash=$( (echo "r8 $R8_VERSION android-all $ANDROID_ALL min-api $MIN_API"; for f in $sources; do
    echo "${f#"$root"/}"; cat "$f"; done) | sha256sum | cut -c1-16)
out="$root/target/android-agent/$hash"
dex="$out/typestar-agent.dex.jar"

if [ ! -f "$dex" ]; then
    get() { mvn -q -B -Dstyle.color=never dependency:get -Dtransitive=false -Dartifact="$1" >&2; }
    get com.android.tools:r8:$R8_VERSION
    get org.robolectric:android-all:$ANDROID_ALL
    m2="${MAVEN_REPOSITORY:-$HOME/.m2/repository}"
    r8="$m2/com/android/tools/r8/$R8_VERSION/r8-$R8_VERSION.jar"
    android_all="$m2/org/robolectric/android-all/$ANDROID_ALL/android-all-$ANDROID_ALL.jar"
    java_home="${JAVA_HOME:-$(dirname "$(dirname "$(readlink -f "$(command -v javac)")")")}"
    tmp="$out.tmp-$$"
    rm -rf "$tmp"
    mkdir -p "$tmp/core" "$tmp/android" "$tmp/harness"
    trap 'rm -rf "$tmp"' EXIT
    javac --release 11 -Xlint:all -Werror -encoding UTF-8 -d "$tmp/core" \
        $(find "$root/agent-android/core/src/main/java" -name '*.java' | sort)
    # -classfile: android-all's classes carry annotations (UnsupportedAppUsage) whose classes it
    # lacks, which -Xlint:all would report and -Werror turn into a failure.
    javac --release 11 -Xlint:all,-classfile -Werror -encoding UTF-8 -cp "$tmp/core:$android_all" \
        -d "$tmp/android" $(find "$here/src/main/java" -name '*.java' | sort)
    javac --release 11 -Xlint:all,-classfile -Werror -encoding UTF-8 -cp "$tmp/core:$android_all" \
        -d "$tmp/harness" $(find "$harness" -name '*.java' | sort)
    jar --create --file "$tmp/core.jar" -C "$tmp/core" .
    jar --create --file "$tmp/android.jar" -C "$tmp/android" .
    jar --create --file "$tmp/harness.jar" -C "$tmp/harness" .
    # Both libraries: android-all has no java.* classes, the JDK has no android.* ones.
    java -cp "$r8" com.android.tools.r8.D8 --release --min-api $MIN_API \
        --lib "$java_home" --lib "$android_all" \
        --output "$tmp/typestar-agent.dex.jar" "$tmp/core.jar" "$tmp/android.jar" "$tmp/harness.jar" >&2
    mkdir -p "$out"
    mv "$tmp/typestar-agent.dex.jar" "$dex"
fi

if [ $verify = yes ]; then
    if ! command -v dexdump >/dev/null; then
        echo "build-dex.sh: --verify needs dexdump (Debian: apt-get install dexdump)" >&2
        exit 1
    fi
    checked=$(dexdump -c "$dex")
    grep -q "Checksum verified" <<<"$checked" || { echo "build-dex.sh: dexdump rejects $dex" >&2; exit 1; }
    classes=$(dexdump "$dex" | grep "Class descriptor")
    for class in agent/AndroidMain agent/LooperExecutor agent/AndroidContext agent/AndroidPlatform \
        agent/Session agent/QueryRunner harness/android/ReportingCountDownTimer \
        harness/android/ReportingAsyncTask harness/android/ReportingSQLiteOpenHelper harness/android/ReportingCodecCallback \
        harness/android/ReportingFileObserver harness/android/BluetoothHarness harness/android/DownloadHarness; do
        grep -q "'Ldev/typestar/$class;'" <<<"$classes" ||
            { echo "build-dex.sh: $dex lacks dev.typestar.${class//\//.}" >&2; exit 1; }
    done
    echo "build-dex.sh: dexdump verified $dex" >&2
fi
echo "$dex"
