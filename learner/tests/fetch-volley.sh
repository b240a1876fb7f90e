#!/usr/bin/env bash
# Fetches Volley and the Apache HTTP classes it needs from Maven Central into target/volley/
# (never committed), and prints the class path. The robolectric_droidstar test runs it when
# target/volley/ is missing a jar.
# Google publishes Volley on its own repository only; Maven Central has com.mcxiaoke.volley:library
# 1.0.19, a build of AOSP's Volley of 2015 (the 1.0 line DroidStar used). That Volley returns
# Apache HttpCore responses, which Android 23 ships (later versions as the optional
# org.apache.http.legacy library) and Robolectric's android-all jars leave out:
# org.apache.httpcomponents:httpclient 4.0.1, of the 4.0 line Android's copy comes from, stands in.
#   learner/tests/fetch-volley.sh [DEST]      DEST defaults to <repo>/target/volley
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
dest="${1:-$here/../../target/volley}"
"$here/fetch-maven.sh" com.mcxiaoke.volley:library:1.0.19 "$dest" >/dev/null
exec "$here/fetch-maven.sh" org.apache.httpcomponents:httpclient:4.0.1 "$dest"
