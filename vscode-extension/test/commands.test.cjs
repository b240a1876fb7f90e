// `typestar.learnClass` (src/commands.ts, bundled): the request's arguments and who registers the command.
'use strict';
const { test, beforeEach } = require('node:test');
const assert = require('node:assert/strict');
const { state, Uri } = require('./fake-vscode.cjs');
const { LEARN_CLASS, learnClassArguments, learnClassMiddleware, registerLearnClass } = require('../out/commands.js');
const { Status } = require('../out/status.js');

const uri = Uri.file('/ws/src/Conn.java');
const editor = { document: { uri }, selection: { active: { line: 6, character: 11 } } };
const params = { textDocument: { uri: 'file:///ws/src/Conn.java' }, position: { line: 6, character: 11 } };

const learned = { status: 'learned', class: 'Conn', typestate: '/ws/.typestar/Conn.typestate' };

/**
 * A stand-in LanguageClient: records requests, and advertises the given executeCommand commands. A request answers
 * `learned`, or, when its token is cancelled, fails as vscode-languageclient does after sending `$/cancelRequest`.
 */
function fakeClient(commands) {
  const sent = [];
  return {
    sent,
    initializeResult: { capabilities: commands === undefined ? {} : { executeCommandProvider: { commands } } },
    sendRequest(method, body, token) {
      sent.push({ method, body, cancellable: token !== undefined });
      return new Promise((resolve, reject) => {
        token?.onCancellationRequested(() => reject(new Error('Request cancelled')));
        setImmediate(() => resolve(learned));
      });
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

test('the middleware sends learnClass itself, with the arguments filled in, and passes other commands on', async () => {
  state.activeTextEditor = editor;
  const client = fakeClient([LEARN_CLASS]);
  const calls = [];
  const next = (command, args) => calls.push({ command, args });
  const middleware = learnClassMiddleware(() => client, undefined);
  assert.deepEqual(await middleware(LEARN_CLASS, [uri], next), learned);
  await middleware('typestar.other', [uri], next);
  assert.deepEqual(client.sent, [{ method: 'workspace/executeCommand', body: { command: LEARN_CLASS, arguments: [params] }, cancellable: true }]);
  assert.deepEqual(calls, [{ command: 'typestar.other', args: [uri] }]);
});

test('learning runs in a cancellable notification, shows the outcome, and marks the status bar meanwhile', async () => {
  state.activeTextEditor = editor;
  const status = new Status();
  const client = fakeClient([LEARN_CLASS]);
  const running = learnClassMiddleware(() => client, status)(LEARN_CLASS, [], () => undefined);
  assert.match(status.text, /learning/);
  await running;
  assert.deepEqual(state.progress, [{ location: 15, title: 'Typestar: learning the class at the cursor', cancellable: true }]);
  assert.doesNotMatch(status.text, /learning/);
  await new Promise((resolve) => setImmediate(resolve));
  assert.deepEqual(state.infos, ['Typestar: learned Conn; its protocol now checks your code.']);
});

test("cancelling the notification cancels the request (vscode-languageclient sends $/cancelRequest)", async () => {
  state.activeTextEditor = editor;
  state.cancelProgress = true;
  const client = fakeClient([LEARN_CLASS]);
  assert.equal(await learnClassMiddleware(() => client, undefined)(LEARN_CLASS, [], () => undefined), undefined);
  assert.deepEqual(state.infos, ['Typestar: learning cancelled.']);
  assert.deepEqual(state.errors, []);
});

test('a server that does not advertise the command: the client registers it and sends workspace/executeCommand', async () => {
  state.activeTextEditor = editor;
  const client = fakeClient(['typestar.somethingElse']);
  const registration = registerLearnClass(client, undefined);
  assert.deepEqual(await state.commands.get(LEARN_CLASS)(uri), learned);
  assert.deepEqual(client.sent, [{ method: 'workspace/executeCommand', body: { command: LEARN_CLASS, arguments: [params] }, cancellable: true }]);
  registration.dispose();
  assert.equal(state.commands.has(LEARN_CLASS), false);
});

test('a server that advertises the command: vscode-languageclient owns it, the client registers nothing', () => {
  const registration = registerLearnClass(fakeClient([LEARN_CLASS]), undefined);
  assert.equal(state.commands.has(LEARN_CLASS), false);
  registration.dispose();
});

test('no server: the command says the server is not running', async () => {
  registerLearnClass(undefined, undefined);
  await state.commands.get(LEARN_CLASS)(uri);
  assert.deepEqual(state.errors, ['Typestar: the language server is not running; see the Typestar output channel.']);
});

test('the status-bar item shows the server state and opens the log', () => {
  const status = new Status();
  const [item] = state.statusItems;
  assert.equal(item.command, 'typestar.showOutput');
  assert.equal(item.shown, true);
  assert.match(status.text, /sync~spin/);
  status.setServer('running');
  assert.equal(status.text, '$(check) Typestar');
  status.setServer('failed');
  assert.match(status.tooltip, /server: failed/);
  const first = status.startLearning('A');
  const second = status.startLearning('B');
  assert.match(status.text, /learning \(2\)/);
  first();
  second();
  assert.equal(status.text, '$(error) Typestar');
});
