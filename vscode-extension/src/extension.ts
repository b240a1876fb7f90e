// Entry point: starts `typestar lsp` for Java and Kotlin documents and restarts it when
// `typestar.server.path` changes. Every feature (diagnostics, hover, code actions, learning) lives in the server;
// the extension adds the status-bar item, the cancellable learning notification and the `.typestate` language.
import { commands, window, workspace, type Disposable, type ExtensionContext, type LogOutputChannel } from 'vscode';
import { LanguageClient, State, type Executable, type LanguageClientOptions } from 'vscode-languageclient/node';
import { learnClassMiddleware, registerLearnClass } from './commands';
import { findServer, SERVER_PATH_SETTING } from './server';
import { registerShowProtocol, SHOW_PROTOCOL } from './protocolPanel';
import { SHOW_OUTPUT, Status } from './status';

/** What one server start owns; disposed on restart and on deactivation. */
interface Session {
  readonly client: LanguageClient | undefined;
  readonly disposables: Disposable[];
}

let session: Session | undefined;
let queue: Promise<void> = Promise.resolve();
let status: Status | undefined;

export function activate(context: ExtensionContext): Promise<void> {
  const output = window.createOutputChannel('Typestar', { log: true });
  status = new Status();
  context.subscriptions.push(
    output,
    status,
    commands.registerCommand(SHOW_OUTPUT, () => output.show()),
    registerShowProtocol(() => (session?.client?.isRunning() ? session.client : undefined), context.extensionUri),
    workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration(SERVER_PATH_SETTING)) {
        void serially(async () => {
          await stop();
          await start(context, output);
        });
      }
    }),
  );
  return serially(() => start(context, output));
}

export function deactivate(): Promise<void> {
  return serially(stop);
}

/** Runs start/stop steps one after another, so a restart never overlaps a start. */
function serially(step: () => Promise<void>): Promise<void> {
  queue = queue.then(step, step);
  return queue;
}

async function start(context: ExtensionContext, output: LogOutputChannel): Promise<void> {
  let client: LanguageClient | undefined;
  status?.setServer('starting');
  try {
    const server = await findServer(context.extensionPath);
    output.info(`Starting ${server.path} lsp (${server.version}; found via ${server.source}).`);
    const run: Executable = { command: server.path, args: ['lsp'] };
    const debug: Executable = { ...run, options: { env: { ...process.env, RUST_LOG: 'debug' } } };
    const watcher = workspace.createFileSystemWatcher('**/.typestar/**');
    const options: LanguageClientOptions = {
      // `kotlin` is contributed by this extension too (package.json `languages`), so `.kt` and `.kts` files are
      // synced and checked whether or not a Kotlin extension is installed.
      documentSelector: [
        { scheme: 'file', language: 'java' },
        { scheme: 'file', language: 'kotlin' },
      ],
      synchronize: { fileEvents: watcher, configurationSection: 'typestar' },
      outputChannel: output,
      middleware: { executeCommand: learnClassMiddleware(() => client, status) },
      // The class hover links to the protocol view with a `command:` link; only that command may run from it.
      markdown: { isTrusted: { enabledCommands: [SHOW_PROTOCOL] } },
    };
    client = new LanguageClient('typestar', 'Typestar', { run, debug }, options);
    // Tells the server that hovers may link to the protocol view (server/src/lsp/capabilities.rs).
    client.registerFeature({
      fillClientCapabilities: (capabilities) => {
        capabilities.experimental = { ...(capabilities.experimental as object | undefined), typestar: { showProtocol: true } };
      },
      initialize: () => undefined,
      getState: () => ({ kind: 'static' }),
      clear: () => undefined,
    });
    const states = client.onDidChangeState((e) => {
      status?.setServer(e.newState === State.Running ? 'running' : e.newState === State.Starting ? 'starting' : 'stopped');
    });
    session = { client, disposables: [watcher, states] };
    await client.start();
    status?.setServer('running');
  } catch (e) {
    const message = e instanceof Error ? e.message : String(e);
    output.error(message);
    void window.showErrorMessage(message, 'Open Settings').then((pick) => {
      if (pick !== undefined) {
        void commands.executeCommand('workbench.action.openSettings', SERVER_PATH_SETTING);
      }
    });
    client = undefined;
    session = { client, disposables: session?.disposables ?? [] };
    status?.setServer('failed');
  }
  session.disposables.push(registerLearnClass(client, status));
}

async function stop(): Promise<void> {
  const current = session;
  session = undefined;
  if (current === undefined) {
    return;
  }
  current.disposables.forEach((d) => d.dispose());
  if (current.client?.isRunning()) {
    await current.client.stop();
  }
}
