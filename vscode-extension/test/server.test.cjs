// Server discovery (src/server.ts, bundled): setting, then bundled binary, then PATH; every error names the setting.
'use strict';
const { test, beforeEach, after } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { state } = require('./fake-vscode.cjs');
const { findServer, SERVER_PATH_SETTING } = require('../out/server.js');

const root = fs.mkdtempSync(path.join(os.tmpdir(), 'typestar-server-test-'));
let n = 0;

/** A fresh directory holding `typestar` (a shell script printing `typestar <label>`) and an empty extension dir. */
function fixture(label, exitCode = 0) {
  const dir = path.join(root, String(n++));
  fs.mkdirSync(path.join(dir, 'ext'), { recursive: true });
  fs.mkdirSync(path.join(dir, 'bin'));
  const bin = path.join(dir, 'bin', 'typestar');
  fs.writeFileSync(bin, `#!/bin/sh\necho "typestar ${label}"\necho "broken ${label}" >&2\nexit ${exitCode}\n`, { mode: 0o755 });
  return { dir, bin, ext: path.join(dir, 'ext'), binDir: path.dirname(bin) };
}

function bundle(ext, label) {
  fs.mkdirSync(path.join(ext, 'bin'), { recursive: true });
  fs.writeFileSync(path.join(ext, 'bin', 'typestar'), `#!/bin/sh\necho "typestar ${label}"\n`, { mode: 0o755 });
}

beforeEach(() => state.reset());
after(() => fs.rmSync(root, { recursive: true, force: true }));

test('the setting wins over the bundled binary and PATH', async () => {
  const f = fixture('from-setting');
  const other = fixture('from-path');
  bundle(f.ext, 'bundled');
  state.settings[SERVER_PATH_SETTING] = f.bin;
  const server = await findServer(f.ext, { PATH: other.binDir });
  assert.deepEqual(server, { path: f.bin, version: 'typestar from-setting', source: 'setting' });
});

test('the setting expands a leading ~ to the home directory', async () => {
  const f = fixture('home');
  const home = process.env.HOME;
  process.env.HOME = f.dir;
  try {
    state.settings[SERVER_PATH_SETTING] = '~/bin/typestar';
    assert.equal((await findServer(f.ext, { PATH: '' })).path, f.bin);
  } finally {
    process.env.HOME = home;
  }
});

test('the bundled binary wins over PATH', async () => {
  const f = fixture('from-path');
  bundle(f.ext, 'bundled');
  const server = await findServer(f.ext, { PATH: f.binDir });
  assert.equal(server.source, 'bundled');
  assert.equal(server.path, path.join(f.ext, 'bin', 'typestar'));
  assert.equal(server.version, 'typestar bundled');
});

test('PATH is searched in order when nothing else is there', async () => {
  const first = fixture('first');
  const second = fixture('second');
  const server = await findServer(first.ext, { PATH: ['', path.join(root, 'missing'), first.binDir, second.binDir].join(path.delimiter) });
  assert.deepEqual(server, { path: first.bin, version: 'typestar first', source: 'PATH' });
});

test('a missing binary fails with a message naming the setting', async () => {
  const f = fixture('unused');
  await assert.rejects(findServer(f.ext, { PATH: path.join(root, 'missing') }), (e) => {
    assert.match(e.message, /no `typestar` binary found/);
    assert.ok(e.message.includes('`typestar.server.path`'), e.message);
    return true;
  });
});

test('a setting that is not an executable file fails and names the setting, without falling back', async () => {
  const f = fixture('on-path');
  for (const bad of [path.join(f.dir, 'nope'), f.dir]) {
    state.settings[SERVER_PATH_SETTING] = bad;
    await assert.rejects(findServer(f.ext, { PATH: f.binDir }), (e) => {
      assert.ok(e.message.includes('`typestar.server.path`'), e.message);
      assert.ok(e.message.includes(bad), e.message);
      return true;
    });
  }
});

test('a binary whose --version fails is reported with its stderr and the setting', async () => {
  const f = fixture('v', 3);
  state.settings[SERVER_PATH_SETTING] = f.bin;
  await assert.rejects(findServer(f.ext, { PATH: '' }), (e) => {
    assert.ok(e.message.includes(`${f.bin} --version\` failed (broken v)`), e.message);
    assert.ok(e.message.includes('`typestar.server.path`'), e.message);
    return true;
  });
});
