#!/usr/bin/env bash
# Resolves the Robolectric backend's Maven artifacts from Maven Central (ordinary `mvn`; the only
# network use) and caches them in DEST (never committed), so that learning runs offline:
#   DEST/deps/*.jar            Robolectric 4.16.1 and JUnit with their dependencies (the .aar ones
#                              unpacked to their classes.jar: the JVM cannot load an .aar)
#   DEST/android-all/*.jar     the plain android-all jar of SDK 34: compile class path of the entry
#                              point and harnesses, and outer class path of the JVM (Robolectric
#                              reads @Config defaults outside its sandbox)
#   DEST/sdk/*.jar             android-all-instrumented of each SDK level asked for, named as
#                              Robolectric looks them up with robolectric.dependency.dir
#   DEST/robolectric.properties  what was fetched (read by the learner: versions, SDK levels)
# usage: learner/robolectric/fetch.sh [--dest DIR] [--sdk N]...
#   DIR defaults to $TYPESTAR_ROBOLECTRIC_DIR, else $XDG_CACHE_HOME/typestar/robolectric (the
#   learner's default too: ~/.cache/typestar/robolectric without XDG_CACHE_HOME); SDK defaults to 34.
# Prints DEST. Fetching again is a no-op for what is already there. Needs JDK 17 (Robolectric
# 4.16.1 runs SDK 23 to 35 on it; 4.17 needs JDK 21 for some classes).
set -euo pipefail
robolectric=4.16.1
junit=4.13.2
dest=""
sdks=()
while [ $# -gt 0 ]; do
    case $1 in
        --dest) dest=$2; shift 2;;
        --sdk) sdks+=("$2"); shift 2;;
        *) echo "usage: $0 [--dest DIR] [--sdk N]..." >&2; exit 2;;
    esac
done
[ ${#sdks[@]} -gt 0 ] || sdks=(34)
[ -n "$dest" ] || dest="${TYPESTAR_ROBOLECTRIC_DIR:-${XDG_CACHE_HOME:-${HOME:?fetch.sh: set HOME, XDG_CACHE_HOME or give --dest}/.cache}/typestar/robolectric}"
command -v mvn >/dev/null || { echo "fetch.sh: mvn (Apache Maven) is not on PATH; install it" >&2; exit 1; }

# The android-all versions Robolectric 4.16.1 runs per SDK level (its DefaultSdkProvider), with
# the instrumentation suffix -i7 it asks for.
android_version() {
    case $1 in
        23) echo 6.0.1_r3-robolectric-r1;; 24) echo 7.0.0_r1-robolectric-r1;;
        25) echo 7.1.0_r7-robolectric-r1;; 26) echo 8.0.0_r4-robolectric-r1;;
        27) echo 8.1.0-robolectric-4611349;; 28) echo 9-robolectric-4913185-2;;
        29) echo 10-robolectric-5803371;; 30) echo 11-robolectric-6757853;;
        31) echo 12-robolectric-7732740;; 32) echo 12.1-robolectric-8229987;;
        33) echo 13-robolectric-9030017;; 34) echo 14-robolectric-10818077;;
        35) echo 15-robolectric-13954326;;
        *) echo "fetch.sh: SDK $1 is not supported by Robolectric $robolectric on JDK 17 (23 to 35 are)" >&2
           exit 2;;
    esac
}

mkdir -p "$dest"
dest="$(cd "$dest" && pwd)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mvn_quiet() { mvn -q -B -Dstyle.color=never "$@" >&2; }

# A pom whose dependencies are $1..., copied (without their own dependencies when $transitive is
# false) into $out.
copy() {
    local out=$1 transitive=$2; shift 2
    local deps=""
    for gav in "$@"; do
        IFS=: read -r g a v <<<"$gav"
        deps="$deps<dependency><groupId>$g</groupId><artifactId>$a</artifactId><version>$v</version></dependency>"
    done
    cat >"$work/pom.xml" <<POM
<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>dev.typestar</groupId><artifactId>fetch-robolectric</artifactId><version>1</version>
  <dependencies>$deps</dependencies>
</project>
POM
    mkdir -p "$out.tmp"
    mvn_quiet -f "$work/pom.xml" dependency:copy-dependencies -DincludeScope=runtime \
        -DexcludeTransitive="$([ "$transitive" = yes ] && echo false || echo true)" -DoutputDirectory="$out.tmp"
    rm -rf "$out"
    mv "$out.tmp" "$out"
}

if [ ! -f "$dest/deps/robolectric-$robolectric.jar" ]; then
    echo "fetching Robolectric $robolectric and its dependencies (about 190 MB) into $dest/deps" >&2
    copy "$dest/deps" yes org.robolectric:robolectric:$robolectric junit:junit:$junit
    for aar in "$dest"/deps/*.aar; do
        [ -e "$aar" ] || continue
        unzip -q -o -d "$work/aar" "$aar" classes.jar
        mv "$work/aar/classes.jar" "${aar%.aar}.jar"
        rm "$aar"
    done
fi
all=14-robolectric-10818077
if [ ! -f "$dest/android-all/android-all-$all.jar" ]; then
    echo "fetching android-all $all (about 130 MB) into $dest/android-all" >&2
    copy "$dest/android-all" no org.robolectric:android-all:$all
fi
mkdir -p "$dest/sdk"
for sdk in "${sdks[@]}"; do
    jar=android-all-instrumented-$(android_version "$sdk")-i7
    if [ ! -f "$dest/sdk/$jar.jar" ]; then
        echo "fetching $jar (about 150-190 MB) into $dest/sdk" >&2
        copy "$work/sdk-$sdk" no "org.robolectric:android-all-instrumented:$(android_version "$sdk")-i7"
        mv "$work/sdk-$sdk/$jar.jar" "$dest/sdk/"
    fi
done

# What is cached, for the learner: every SDK level whose jar is present.
# Written beside and renamed into place, so that a reader (a test of another thread running
# this script too) never sees the file half written.
properties="$dest/robolectric.properties.$$"
{
    echo "robolectric=$robolectric"
    echo "android_all=android-all/android-all-$all.jar"
    levels=""
    for sdk in $(seq 23 35); do
        [ -f "$dest/sdk/android-all-instrumented-$(android_version "$sdk")-i7.jar" ] && levels="$levels $sdk"
    done
    echo "sdks=${levels# }"
} >"$properties"
mv -f "$properties" "$dest/robolectric.properties"
echo "$dest"
