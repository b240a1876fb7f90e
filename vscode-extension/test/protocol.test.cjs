// The protocol view (src/protocol.ts, src/protocolPanel.ts, bundled): Graphviz draws the server's DOT with the possible
// states highlighted, clicks explain states and transitions, and the command asks the server and fills the webview.
'use strict';
const { test, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');
const { state, Uri } = require('./fake-vscode.cjs');
const { details, highlightedDot, HIGHLIGHT } = require('../out/protocol.js');
const { SHOW_PROTOCOL, registerShowProtocol, html } = require('../out/protocolPanel.js');

// The DOT the server renders (typestates::render::dot), from the CLI's golden output.
const dot = fs.readFileSync(path.join(__dirname, '..', '..', 'server', 'tests', 'cli', 'show-dot.out'), 'utf8');
const view = {
  class: 'android.os.AsyncTask',
  summary: 'A background task.',
  dot,
  states: [
    { id: 's0', name: 'Pending', description: 'Created, not executed.', initial: true },
    { id: 's1', name: 'Running', description: 'Executing.', initial: false },
  ],
  transitions: [
    { from: 's0', to: 's1', label: 'exec', source: 'DroidStar Table 1', unverified: false },
    { from: 's1', to: 'error', label: 'exec', source: null, unverified: true },
  ],
  provenance: ['droidstar on Android 23, bundled with typestar'],
  possible: ['s1'],
};

beforeEach(() => state.reset());

test('Graphviz (WebAssembly) draws the DOT, with the possible states filled', async () => {
  const { Graphviz } = await import('@hpcc-js/wasm-graphviz');
  const graphviz = await Graphviz.load();
  const svg = graphviz.dot(highlightedDot(view));
  for (const id of ['s0', 's1', 's2', 's3', 's4']) {
    assert.match(svg, new RegExp(`<title>${id}</title>`));
  }
  assert.match(svg, /<title>s0&#45;&gt;s1<\/title>/);
  const running = svg.slice(svg.indexOf('<title>s1</title>'), svg.indexOf('</g>', svg.indexOf('<title>s1</title>')));
  assert.match(running, new RegExp(`fill="${HIGHLIGHT}"`));
  const pending = svg.slice(svg.indexOf('<title>s0</title>'), svg.indexOf('</g>', svg.indexOf('<title>s0</title>')));
  assert.doesNotMatch(pending, new RegExp(HIGHLIGHT));
  assert.equal(highlightedDot({ ...view, possible: [] }), dot);
});

test('a click on a state or a transition explains it and cites its source', () => {
  assert.deepEqual(details(view, 's1'), {
    title: 'Running',
    lines: ['Executing.', 'The object at the cursor may be in this state.', 'Running --exec--> error: no citation (unverified)'],
  });
  assert.deepEqual(details(view, 's0->s1'), { title: 'Pending → Running', lines: ['Pending --exec--> Running: DroidStar Table 1'] });
  assert.deepEqual(details(view, 'error').lines, ['Running --exec--> error: no citation (unverified)']);
});

test('the page allows only its own script and WebAssembly', () => {
  const page = html('vscode-webview:', 'vscode-webview://x/dist/webview.js', 'abc');
  assert.match(page, /script-src 'nonce-abc' 'wasm-unsafe-eval'/);
  assert.match(page, /<script nonce="abc" src="vscode-webview:\/\/x\/dist\/webview.js">/);
});

test("the command asks for the hover link's class or the cursor's, and shows the answer in one panel", async () => {
  const sent = [];
  const client = {
    sendRequest(method, params) {
      sent.push({ method, params });
      return Promise.resolve(params.class === 'Nothing' ? null : view);
    },
  };
  registerShowProtocol(() => client, Uri.file('/ext'));
  const show = state.commands.get(SHOW_PROTOCOL);
  await show('android.os.AsyncTask');
  state.activeTextEditor = { document: { uri: Uri.file('/ws/A.java') }, selection: { active: { line: 3, character: 9 } } };
  await show();
  await show('Nothing');
  assert.deepEqual(sent, [
    { method: 'typestar/protocol', params: { class: 'android.os.AsyncTask' } },
    { method: 'typestar/protocol', params: { textDocument: { uri: 'file:///ws/A.java' }, position: { line: 3, character: 9 } } },
    { method: 'typestar/protocol', params: { class: 'Nothing' } },
  ]);
  assert.equal(state.panels.length, 1);
  const [panel] = state.panels;
  assert.deepEqual(panel.options.localResourceRoots.map(String), ['file:///ext/dist']);
  assert.match(panel.webview.html, /file:\/\/\/ext\/dist\/webview\.js/);
  assert.deepEqual(panel.posted, [{ view }, { view }]);
  assert.equal(panel.title, 'Protocol: AsyncTask');
  assert.deepEqual(state.infos, ['Typestar: no class with a protocol at the cursor.']);
  // Moving the cursor in a file refreshes the highlighted states of the shown class.
  const [listener] = state.selectionListeners;
  listener({ textEditor: state.activeTextEditor });
  await new Promise((resolve) => setImmediate(resolve));
  assert.equal(panel.posted.length, 3);
});

test('the webview bundle carries Graphviz and ships in the package', () => {
  const bundle = fs.readFileSync(path.join(__dirname, '..', 'dist', 'webview.js'), 'utf8');
  assert.ok(bundle.length > 500_000, `webview.js is only ${bundle.length} bytes`);
  assert.match(fs.readFileSync(path.join(__dirname, '..', '.vscodeignore'), 'utf8'), /^!dist\/webview\.js$/m);
});
