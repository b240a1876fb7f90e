// `typestar.learnClass`: asks the server (workspace/executeCommand) to learn the class at the cursor, in a cancellable
// notification; cancelling sends `$/cancelRequest`, which stops the server's learner and its processes.
// The client only supplies the document URI and the cursor; learning and its results are the server's.
import { commands, Disposable, ProgressLocation, Uri, window, workspace, type CancellationToken, type TextEditor } from 'vscode';
import type { InitializeResult, Middleware } from 'vscode-languageclient/node';
import type { Status } from './status';

export const LEARN_CLASS = 'typestar.learnClass';

/** The `arguments` of the executeCommand request, in the shape the server reads. */
export interface LearnClassParams {
  readonly textDocument: { readonly uri: string };
  readonly position: { readonly line: number; readonly character: number };
}

/** What the extension needs of a LanguageClient to send a request. */
export interface Sender {
  sendRequest<R>(method: string, params: unknown, token?: CancellationToken): Promise<R>;
}

/** The server's answer (`LearnClassResult` in server/src/lsp/ext.rs). */
export interface LearnClassResult {
  readonly status: 'drafted' | 'learned' | 'cancelled' | 'unavailable';
  readonly class: string;
  readonly draft?: string;
  readonly typestate?: string;
  readonly diff?: string;
  readonly reason?: string;
}

/**
 * Turns the arguments a command invocation got into the request's arguments.
 * From the editor context menu or the palette the arguments are empty or the document's Uri: use the active editor's
 * document and cursor. Anything else came from the server (a code action's command) and is passed through unchanged.
 */
export function learnClassArguments(args: readonly unknown[], editor: TextEditor | undefined): unknown[] {
  if (args.length > 0 && !(args[0] instanceof Uri)) {
    return [...args];
  }
  if (editor === undefined) {
    throw new Error('Typestar: open a Java or Kotlin file and put the cursor in the class to learn.');
  }
  const { line, character } = editor.selection.active;
  const params: LearnClassParams = { textDocument: { uri: editor.document.uri.toString() }, position: { line, character } };
  return [params];
}

/** Sends the request under a cancellable notification and tells the user the outcome. */
export function learnInNotification(client: Sender, args: unknown[], status: Status | undefined): Thenable<unknown> {
  const options = { location: ProgressLocation.Notification, title: 'Typestar: learning the class at the cursor', cancellable: true };
  return window.withProgress(options, async (_progress, token) => {
    const done = status?.startLearning('the class at the cursor');
    try {
      const result = await client.sendRequest<LearnClassResult>('workspace/executeCommand', { command: LEARN_CLASS, arguments: args }, token);
      void tellOutcome(result);
      return result;
    } catch (e) {
      if (token.isCancellationRequested) {
        void window.showInformationMessage('Typestar: learning cancelled.');
        return undefined;
      }
      void window.showErrorMessage(e instanceof Error ? e.message : String(e));
      return undefined;
    } finally {
      done?.();
    }
  });
}

/** A message for a finished run; the server already opened drafts and differences and warned about what to set. */
async function tellOutcome(result: LearnClassResult | undefined): Promise<void> {
  if (result?.status !== 'learned' || result.typestate === undefined) {
    return;
  }
  const where = result.diff === undefined ? 'its protocol now checks your code' : 'the library keeps its own protocol; the differences are open';
  const pick = await window.showInformationMessage(`Typestar: learned ${result.class}; ${where}.`, 'Open the protocol');
  if (pick !== undefined) {
    await window.showTextDocument(await workspace.openTextDocument(Uri.file(result.typestate)));
  }
}

/** Used when the server advertises `typestar.learnClass`: vscode-languageclient then owns the VS Code command. */
export function learnClassMiddleware(client: () => Sender | undefined, status: Status | undefined): NonNullable<Middleware['executeCommand']> {
  return (command, args, next) => {
    const sender = client();
    if (command !== LEARN_CLASS || sender === undefined) {
      return next(command, args);
    }
    return learnInNotification(sender, learnClassArguments(args, window.activeTextEditor), status);
  };
}

/**
 * Registers `typestar.learnClass` unless the running server advertised it (vscode-languageclient registers it then,
 * and a second registration would fail). `client` is undefined when the server could not start; the command then says so.
 */
export function registerLearnClass(
  client: (Sender & { readonly initializeResult?: InitializeResult | undefined }) | undefined,
  status: Status | undefined,
): Disposable {
  if (client?.initializeResult?.capabilities.executeCommandProvider?.commands.includes(LEARN_CLASS)) {
    return Disposable.from();
  }
  return commands.registerCommand(LEARN_CLASS, async (...args: unknown[]) => {
    if (client === undefined) {
      void window.showErrorMessage('Typestar: the language server is not running; see the Typestar output channel.');
      return undefined;
    }
    return learnInNotification(client, learnClassArguments(args, window.activeTextEditor), status);
  });
}
