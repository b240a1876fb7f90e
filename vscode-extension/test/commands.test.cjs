// `typestar.learnClass` (src/commands.ts, bundled): the request's arguments and who registers the command.
'use strict';
const { test, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const { state, Uri } = require('./fake-vscode.cjs');
const { LEARN_CLASS, learnClassArguments, learnClassMiddleware, registerLearnClass } = require('../out/commands.js');

const uri = Uri.file('/ws/src/Conn.java');
const editor = { document: { uri }, selection: { active: { line: 6, character: 11 } } };
const params = { textDocument: { uri: 'file:///ws/src/Conn.java' }, position: { line: 6, character: 11 } };

/** A stand-in LanguageClient: records requests, and advertises the given executeCommand commands. */
function fakeClient(commands) {
  const sent = [];
  return {
    sent,
    initializeResult: { capabilities: commands === undefined ? {} : { executeCommandProvider: { commands } } },
    sendRequest(method, body) {
      sent.push({ method, body });
      return Promise.resolve('learned');
    },
  };
}

beforeEach(() => state.reset());

test('from the context menu (a Uri) or the palette (nothing): the active document and cursor', () => {
  assert.deepEqual(learnClassArguments([uri], editor), [params]);
  assert.deepEqual(learnClassArguments([], editor), [params]);
});

test("a server code action's arguments pass through unchanged", () => {
  const fromServer = [{ className: 'java.io.FileInputStream' }];
  assert.deepEqual(learnClassArguments(fromServer, undefined), fromServer);
});

test('without an editor the command explains what to do', () => {
  assert.throws(() => learnClassArguments([], undefined), /open a Java or Kotlin file/);
});

test('the middleware fills in arguments for learnClass only', async () => {
  state.activeTextEditor = editor;
  const calls = [];
  const next = (command, args) => calls.push({ command, args });
  await learnClassMiddleware(LEARN_CLASS, [uri], next);
  await learnClassMiddleware('typestar.other', [uri], next);
  assert.deepEqual(calls, [
    { command: LEARN_CLASS, args: [params] },
    { command: 'typestar.other', args: [uri] },
  ]);
});

test('a server that does not advertise the command: the client registers it and sends workspace/executeCommand', async () => {
  state.activeTextEditor = editor;
  const client = fakeClient(['typestar.somethingElse']);
  const registration = registerLearnClass(client);
  assert.equal(await state.commands.get(LEARN_CLASS)(uri), 'learned');
  assert.deepEqual(client.sent, [{ method: 'workspace/executeCommand', body: { command: LEARN_CLASS, arguments: [params] } }]);
  registration.dispose();
  assert.equal(state.commands.has(LEARN_CLASS), false);
});

test('a server that advertises the command: vscode-languageclient owns it, the client registers nothing', () => {
  const registration = registerLearnClass(fakeClient([LEARN_CLASS]));
  assert.equal(state.commands.has(LEARN_CLASS), false);
  registration.dispose();
});

test('no server: the command says the server is not running', async () => {
  registerLearnClass(undefined);
  await state.commands.get(LEARN_CLASS)(uri);
  assert.deepEqual(state.errors, ['Typestar: the language server is not running; see the Typestar output channel.']);
});
