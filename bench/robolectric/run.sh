#!/usr/bin/env bash
# The Robolectric learning benchmark: learns each Android experiment of learner/experiments/ with
# `typestar learn --backend robolectric` (a debug build, as CI has it) and writes
# bench/results/robolectric.md: wall time (JVM and sandbox start included) and the queries asked
# and executed per class, beside DroidStar's 2016 device figures where DroidStar learned the class,
# for each SDK level and number of JVMs asked for, the whole library's time per SDK level and
# number of JVMs, and whether the protocols learned at each SDK level are the same (typestar diff
# against the first level).
# On level N a class is learned with learner/experiments/<stem>-apiN.toml where that exists (the
# main experiment calls a method level N lacks, such as close() before API 24 or 29).
# The classes are every library class that an experiment learns under Robolectric: the framework
# classes, and Universal Image Loader and Volley with their jars from Maven Central.
#   bench/robolectric/run.sh [--sdk N[,N...]] [--jobs J[,J...]] [--class C[,C...]] [--out FILE]
# (defaults: SDK 34; 1 and 2 JVMs; every class; bench/results/robolectric.md). --class learns only
# the classes named as the table names them (CountDownTimer,Cursor), for a partial run.
# Fetches the Maven artifacts with learner/robolectric/fetch.sh first (a no-op once cached).
set -euo pipefail
root="$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)"
cd "$root"
sdks=34
jobs_list=1,2
only=
out=bench/results/robolectric.md
while [ $# -gt 0 ]; do
    case $1 in
        --sdk) sdks=$2; shift 2;;
        --jobs) jobs_list=$2; shift 2;;
        --class) only=,$2,; shift 2;;
        --out) out=$2; shift 2;;
        *) echo "usage: $0 [--sdk N[,N...]] [--jobs J[,J...]] [--class C[,C...]] [--out FILE]" >&2; exit 2;;
    esac
done
sdks=${sdks//,/ }
jobs_list=${jobs_list//,/ }
fetch_args=()
for sdk in $sdks; do fetch_args+=(--sdk "$sdk"); done
learner/robolectric/fetch.sh "${fetch_args[@]}" >/dev/null
cargo build -q -p server
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# DroidStar's 2016 device runs (example-results/all.txt in the history of github.com/cuplv/droidstar): time in s, executed MQ.
droidstar() {
    case $1 in
        CountDownTimer) echo "133.7 | 61";;
        AsyncTask) echo "48.8 | 94";;
        *) echo "- | -";;
    esac
}

# The Android experiments: the file's stem under learner/experiments/, and the class as the
# learner's report names it.
experiments=(
    android.os.CountDownTimer:CountDownTimer
    android.os.AsyncTask:AsyncTask
    android.database.sqlite.SQLiteDatabase:SQLiteDatabase
    android.database.Cursor:Cursor
    android.content.res.TypedArray:TypedArray
    'android.os.PowerManager-WakeLock:PowerManager$WakeLock'
    android.database.sqlite.SQLiteStatement:SQLiteStatement
    android.util.JsonWriter:JsonWriter
    android.graphics.Bitmap:Bitmap
    android.graphics.Canvas:Canvas
    android.media.AudioTrack:AudioTrack
    android.media.AudioRecord:AudioRecord
    android.media.MediaMuxer:MediaMuxer
    android.view.MotionEvent:MotionEvent
    android.view.VelocityTracker:VelocityTracker
    android.media.MediaExtractor:MediaExtractor
    android.media.MediaMetadataRetriever:MediaMetadataRetriever
    android.media.SoundPool:SoundPool
    android.os.ParcelFileDescriptor:ParcelFileDescriptor
    android.hardware.Camera:Camera
    android.view.accessibility.AccessibilityNodeInfo:AccessibilityNodeInfo
    android.content.ContentProviderClient:ContentProviderClient
    android.os.HandlerThread:HandlerThread
    android.database.sqlite.SQLiteOpenHelper:SQLiteOpenHelper
    android.media.MediaPlayer:MediaPlayer
    android.media.MediaRecorder:MediaRecorder
    android.media.MediaCodec:MediaCodec
    android.media.MediaScannerConnection:MediaScannerConnection
    android.os.FileObserver:FileObserver
    android.app.DownloadManager:DownloadManager
    android.bluetooth.BluetoothAdapter:BluetoothAdapter
    android.speech.SpeechRecognizer:SpeechRecognizer
    com.nostra13.universalimageloader.core.ImageLoader:ImageLoader
    com.android.volley.RequestQueue:RequestQueue
)

# The jars of the classes that are not framework code (their fetch scripts print the class path).
classpath() {
    case $1 in
        ImageLoader) learner/tests/fetch-uil.sh;;
        RequestQueue) learner/tests/fetch-volley.sh;;
    esac
}

{
    echo "# Robolectric learning benchmark"
    echo
    echo "Produced by \`bench/robolectric/run.sh --sdk ${sdks// /,} --jobs ${jobs_list// /,}${only:+ --class ${only:1:-1}}\` on $(date -u +%Y-%m-%d), $(nproc) cores (shared with other work), $(java -version 2>&1 | head -1)."
    echo "Each class is learned by \`typestar learn --backend robolectric --experiment learner/experiments/<class>.toml --sdk N --jobs J\` (debug build), or with \`<class>-apiN.toml\` where the main experiment calls a method level N lacks."
    echo "**time** is the whole run's wall time, the start of each JVM and its Robolectric sandbox (10-30 s) included; waits run on the simulated clock, so only real background work costs real time (AsyncTask's 200 ms \`doInBackground\`; FileObserver, ImageLoader and RequestQueue, whose code runs on its own threads, wait in real time)."
    echo "**MQ asked (executed)**: queries the learner asked, and runs executed on the agents (each a fresh object)."
    echo "**code**: what the agent read from Robolectric's shadow registry (\`real\`: AOSP code; \`calls-through\`: shadow methods intercept the class and run its AOSP code; \`simulated\`: the shadow's own protocol)."
    echo "**JVMs**: agents in parallel (\`--jobs\`); each pays its own sandbox start, so a second one only pays off when the queries themselves take long."
    echo "DroidStar's columns are its 2016 runs on a device with the same alphabets (AsyncTask-NoGet; example-results/all.txt in the history of github.com/cuplv/droidstar)."
    echo
    echo "| class | SDK | JVMs | code | states | time (s) | MQ asked (executed) | EQ | DroidStar time (s) | DroidStar executed MQ |"
    echo "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
} >"$work/table.md"
first_sdk=${sdks%% *}
failed=0
learned=0
for entry in "${experiments[@]}"; do
    stem=${entry%%:*}
    class=${entry#*:}
    [ -z "$only" ] || [[ $only == *",$class,"* ]] || continue
    learned=$((learned + 1))
    cp_args=()
    jars=$(classpath "$class")
    for jar in ${jars//:/ }; do cp_args+=(--classpath "$jar"); done
    for sdk in $sdks; do
        experiment=learner/experiments/$stem.toml
        [ -f "learner/experiments/$stem-api$sdk.toml" ] && experiment=learner/experiments/$stem-api$sdk.toml
        for jobs in $jobs_list; do
            echo "learning $stem (SDK $sdk, $jobs JVM(s))" >&2
            result=$work/$class-$sdk-$jobs
            # A class that cannot be learned at a level is listed with the error's last line, the
            # benchmark goes on, and the script exits 1 at the end.
            if ! target/debug/typestar learn --backend robolectric --experiment "$experiment" \
                "${cp_args[@]}" --sdk "$sdk" --jobs "$jobs" --no-progress --report "$result.md" \
                -o "$result.typestate" 2>"$result.err"; then
                echo "| $class | $sdk | $jobs | failed: $(tail -1 "$result.err" | cut -c1-200) |" >>"$work/table.md"
                failed=$((failed + 1))
                continue
            fi
            # | CountDownTimer | 3 | 39.0 | 141 (45) | 1 | 45.0 | 2 |
            IFS='|' read -r _ _ states time queries eq _ <<<"$(grep -F "| $class |" "$result.md")"
            code=$(sed -n 's/^source "code \([a-z-]*\):.*/\1/p' "$result.typestate")
            echo "| $class | $sdk | $jobs | $code |$states|$time|$queries|$eq| $(droidstar "$class") |" >>"$work/table.md"
            echo "$sdk $jobs $time" >>"$work/times"
            cp "$result.typestate" "$work/$class-$sdk.typestate"
        done
    done
    for sdk in $sdks; do
        [ "$sdk" = "$first_sdk" ] && continue
        [ -f "$work/$class-$first_sdk.typestate" ] && [ -f "$work/$class-$sdk.typestate" ] || continue
        # typestar diff exits 1 when the protocols differ (the table records either answer), 2 on
        # an error (which stops the benchmark).
        rc=0
        verdict=$(target/debug/typestar diff "$work/$class-$first_sdk.typestate" "$work/$class-$sdk.typestate") || rc=$?
        [ "$rc" -le 1 ] || exit "$rc"
        echo "- $class, SDK $first_sdk against SDK $sdk: ${verdict//$work\//}" >>"$work/sdk-diffs.md"
    done
done
{
    echo
    if [ -z "$only" ]; then
        echo "The whole library ($learned classes), one class after the other:"
    else
        echo "The $learned classes above, one after the other:"
    fi
    echo
    echo "| SDK | JVMs | time (s) |"
    echo "| --- | --- | --- |"
    awk '{ total[$1 " | " $2] += $3 } END { for (k in total) printf "| %s | %.1f |\n", k, total[k] }' "$work/times" | sort
} >>"$work/table.md"
if [ -f "$work/sdk-diffs.md" ]; then
    { echo; echo "Protocols learned at each SDK level (\`typestar diff\`):"; echo; cat "$work/sdk-diffs.md"; } >>"$work/table.md"
fi
mv "$work/table.md" "$out"
cat "$out"
if [ "$failed" -gt 0 ]; then
    echo "$failed run(s) failed; see the table" >&2
    exit 1
fi
