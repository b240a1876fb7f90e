// dist/extension.js: loads with only `vscode` and Node built-ins outside the bundle (the .vsix ships no node_modules).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const Module = require('node:module');
const path = require('node:path');
require('./fake-vscode.cjs');

test('the bundle exports activate/deactivate and requires nothing but vscode and node built-ins', () => {
  const bundle = path.join(__dirname, '..', 'dist', 'extension.js');
  const external = new Set();
  const load = Module._load;
  Module._load = function (request, parent, isMain) {
    if (parent?.filename === bundle) external.add(request);
    return load.call(this, request, parent, isMain);
  };
  try {
    const extension = require(bundle);
    assert.equal(typeof extension.activate, 'function');
    assert.equal(typeof extension.deactivate, 'function');
  } finally {
    Module._load = load;
  }
  const foreign = [...external].filter((it) => it !== 'vscode' && !Module.isBuiltin(it));
  assert.deepEqual(foreign, []);
  assert.ok(external.has('vscode'));
});
