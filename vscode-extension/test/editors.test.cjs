// editors/lsp4ij/typestar: the LSP4IJ template has the shape LSP4IJ documents, and its settings use only keys the server
// reads (the VS Code settings, without the `typestar.` prefix).
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const template = path.join(__dirname, '..', '..', 'editors', 'lsp4ij', 'typestar');
const read = (name) => JSON.parse(fs.readFileSync(path.join(template, name), 'utf8'));
const manifest = JSON.parse(fs.readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
const serverKeys = Object.keys(manifest.contributes.configuration.properties)
  .filter((key) => !key.startsWith('typestar.server.') && !key.startsWith('typestar.trace.'))
  .map((key) => key.slice('typestar.'.length));

/** The dotted keys of the leaves of `value`. */
function leaves(value, prefix = '') {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return [prefix];
  return Object.entries(value).flatMap(([key, inner]) => leaves(inner, prefix === '' ? key : `${prefix}.${key}`));
}

test('the template starts `typestar lsp` for Java and Kotlin files', () => {
  const t = read('template.json');
  assert.equal(t.programArgs.default, 'typestar lsp');
  assert.deepEqual(t.fileTypeMappings.map((m) => m.languageId), ['java', 'kotlin']);
  assert.deepEqual(t.fileTypeMappings[1].fileType.patterns, ['*.kt', '*.kts']);
});

test('its settings and initialization options are server settings with their defaults', () => {
  const defaults = manifest.contributes.configuration.properties;
  const initialization = read('initializationOptions.json');
  assert.deepEqual(read('settings.json'), { typestar: initialization });
  for (const key of leaves(initialization)) {
    assert.ok(serverKeys.includes(key), `${key} is not a server setting`);
    const value = key.split('.').reduce((v, k) => v[k], initialization);
    assert.deepEqual(value, defaults[`typestar.${key}`].default, key);
  }
});
