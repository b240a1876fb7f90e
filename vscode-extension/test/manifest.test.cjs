// package.json: the settings the server reads, the command and menus, activation, and packaging pins.
// The setting keys are a contract with the Rust server (its settings struct is compared with these keys); change both together.
'use strict';
const { test } = require('node:test');
const assert = require('node:assert/strict');
const fs = require('node:fs');
const path = require('node:path');

const dir = path.join(__dirname, '..');
const manifest = JSON.parse(fs.readFileSync(path.join(dir, 'package.json'), 'utf8'));
const readme = fs.readFileSync(path.join(dir, 'README.md'), 'utf8');
const settings = manifest.contributes.configuration.properties;

test('settings: exactly the keys the server and the client read, with the server\'s types and defaults', () => {
  // key: [JSON type, default]; the defaults are the server's own (server/src/lsp/settings.rs), because VS Code sends
  // these to the server through workspace/configuration whenever the user has not set a value.
  const expected = {
    'typestar.adbServers': ['array', []],
    'typestar.backend': ['string', 'jvm'],
    'typestar.classpath': ['array', []],
    'typestar.deviceSerial': [['string', 'null'], null],
    'typestar.diagnostics.debounceMs': ['integer', 150],
    'typestar.inlayHints.states': ['boolean', false],
    'typestar.jobs': ['integer', 1],
    'typestar.minSdk': [['integer', 'null'], null],
    'typestar.sdk': ['integer', 34],
    'typestar.server.path': ['string', ''],
    'typestar.targetSdk': [['integer', 'null'], null],
    'typestar.timeLimitSeconds': ['number', 10],
    'typestar.timeouts.learnMs': ['integer', 1800000],
    'typestar.timeouts.queryMs': ['integer', 30000],
    'typestar.timeouts.quiescenceMs': ['integer', 1000],
    'typestar.trace.server': ['string', 'off'],
    'typestar.unreleased': ['boolean', false],
  };
  assert.deepEqual(Object.keys(settings).sort(), Object.keys(expected));
  for (const [key, [type, fallback]] of Object.entries(expected)) {
    assert.deepEqual(settings[key].type, type, key);
    assert.deepEqual(settings[key].default, fallback, key);
  }
  assert.deepEqual(settings['typestar.backend'].enum, ['jvm', 'android', 'robolectric', 'model']);
  assert.deepEqual(settings['typestar.classpath'].items, { type: 'string' });
  assert.deepEqual(settings['typestar.adbServers'].items, { type: 'string' });
  assert.deepEqual(settings['typestar.trace.server'].enum, ['off', 'messages', 'verbose']);
});

test('settings: each has a default and a description, and README.md documents it', () => {
  for (const [key, schema] of Object.entries(settings)) {
    assert.ok('default' in schema, `${key} has no default`);
    assert.ok(schema.markdownDescription || schema.description, `${key} has no description`);
    assert.ok(readme.includes(`\`${key}\``), `README.md does not document ${key}`);
  }
});

test('the commands are contributed, and learnClass is shown for Java and Kotlin only', () => {
  assert.deepEqual(manifest.contributes.commands, [
    { command: 'typestar.learnClass', title: 'Learn this class', category: 'Typestar' },
    { command: 'typestar.showProtocol', title: 'Show protocol', category: 'Typestar' },
    { command: 'typestar.showOutput', title: 'Show the server log', category: 'Typestar' },
  ]);
  const when = 'editorLangId == java || editorLangId == kotlin';
  assert.deepEqual(manifest.contributes.menus['editor/context'], [
    { command: 'typestar.learnClass', when, group: 'typestar@1' },
    { command: 'typestar.showProtocol', when, group: 'typestar@2' },
  ]);
  assert.deepEqual(manifest.contributes.menus.commandPalette, [
    { command: 'typestar.learnClass', when },
    { command: 'typestar.showProtocol', when },
  ]);
});

test('activation, entry point and identity', () => {
  assert.deepEqual(manifest.activationEvents, [
    'onLanguage:java',
    'onLanguage:kotlin',
    'onLanguage:typestate',
    'workspaceContains:**/*.java',
    'workspaceContains:**/*.kt',
    'workspaceContains:**/*.kts',
    'workspaceContains:.typestar',
  ]);
  assert.equal(manifest.main, './dist/extension.js');
  assert.equal(manifest.name, 'typestar');
  assert.equal(manifest.publisher, 'typestar');
});

test('untrusted workspaces are declared unsupported, with the reason', () => {
  const untrusted = manifest.capabilities.untrustedWorkspaces;
  assert.equal(untrusted.supported, false);
  assert.match(untrusted.description, /starts the `typestar` binary/);
});

test('@types/vscode equals the engines.vscode floor (vsce rejects a newer one) and dependencies are exact pins', () => {
  assert.equal(manifest.engines.vscode, '^1.91.0');
  assert.equal(manifest.devDependencies['@types/vscode'], '1.91.0');
  assert.equal(manifest.dependencies['vscode-languageclient'], '11.0.0');
  assert.equal(manifest.dependencies['@hpcc-js/wasm-graphviz'], '1.29.2');
  for (const [name, version] of Object.entries({ ...manifest.dependencies, ...manifest.devDependencies })) {
    assert.match(version, /^\d+\.\d+\.\d+$/, `${name} is not pinned exactly`);
  }
});

test('Kotlin is a language even without a Kotlin extension, and .typestate files have a language and a grammar', () => {
  const languages = Object.fromEntries(manifest.contributes.languages.map((l) => [l.id, l]));
  assert.deepEqual(languages.kotlin.extensions, ['.kt', '.kts']);
  assert.deepEqual(languages.typestate.extensions, ['.typestate']);
  const config = JSON.parse(fs.readFileSync(path.join(dir, languages.typestate.configuration), 'utf8'));
  assert.equal(config.comments.lineComment, '#');
  const [grammar] = manifest.contributes.grammars;
  assert.equal(grammar.language, 'typestate');
  const tm = JSON.parse(fs.readFileSync(path.join(dir, grammar.path), 'utf8'));
  assert.equal(tm.scopeName, grammar.scopeName);
  const ignore = fs.readFileSync(path.join(dir, '.vscodeignore'), 'utf8');
  assert.match(ignore, /^!syntaxes\/\*\*$/m);
  assert.match(ignore, /^!language-configuration-typestate\.json$/m);
});

test('the grammar scopes every line of a library protocol the way the format reads it', () => {
  const [grammar] = manifest.contributes.grammars;
  const tm = JSON.parse(fs.readFileSync(path.join(dir, grammar.path), 'utf8'));
  const regexes = [];
  const collect = (rule) => {
    if (rule.match) regexes.push([new RegExp(rule.match), rule]);
    (rule.patterns ?? []).forEach(collect);
  };
  Object.values(tm.repository).forEach(collect);
  const scopesOf = (line) => regexes.filter(([re]) => re.test(line)).map(([, rule]) => rule.name ?? Object.values(rule.captures ?? {})[0].name);
  const library = path.join(dir, '..', 'typestates', 'library', 'android', 'os', 'CountDownTimer.typestate');
  for (const line of fs.readFileSync(library, 'utf8').split('\n').filter((l) => l.trim() !== '')) {
    assert.ok(scopesOf(line).length > 0, `no scope for: ${line}`);
  }
  assert.deepEqual(scopesOf('state Running "counting"'), ['keyword.other.typestate']);
  assert.ok(scopesOf('  start -> Running').includes('keyword.operator.arrow.typestate'));
  assert.ok(scopesOf('  start error from "x"').includes('invalid.illegal.outcome.typestate'));
});
