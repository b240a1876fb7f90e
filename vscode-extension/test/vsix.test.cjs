// `vsce package` works offline and the .vsix holds the manifest, the README and the bundle, and no node_modules.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const { execFileSync } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..');

/** The names in a zip's central directory (enough for a .vsix; no zip64). */
function zipEntries(file) {
  const zip = fs.readFileSync(file);
  const end = zip.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  assert.ok(end >= 0, `${file} is not a zip`);
  const names = [];
  for (let i = 0, at = zip.readUInt32LE(end + 16); i < zip.readUInt16LE(end + 10); i++) {
    assert.equal(zip.readUInt32LE(at), 0x02014b50, 'bad central directory entry');
    const nameLength = zip.readUInt16LE(at + 28);
    names.push(zip.toString('utf8', at + 46, at + 46 + nameLength));
    at += 46 + nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
  }
  return names.sort();
}

test('vsce package produces a .vsix with exactly the bundle, the manifest, the README and the typestate language', () => {
  const vsix = path.join(dir, 'out', 'typestar-test.vsix');
  fs.rmSync(vsix, { force: true });
  const vsce = path.join(dir, 'node_modules', '@vscode', 'vsce', 'vsce');
  execFileSync(process.execPath, [vsce, 'package', '--no-dependencies', '--allow-missing-repository', '--skip-license', '--out', vsix], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const names = zipEntries(vsix);
  const shipped = names.filter((it) => it.startsWith('extension/') && !it.startsWith('extension/bin/'));
  assert.deepEqual(shipped, [
    'extension/dist/extension.js',
    'extension/dist/webview.js',
    'extension/language-configuration-typestate.json',
    'extension/package.json',
    'extension/readme.md',
    'extension/syntaxes/typestate.tmLanguage.json',
  ]);
  assert.ok(names.includes('extension.vsixmanifest'));
  assert.deepEqual(names.filter((it) => it.includes('node_modules')), []);
});
