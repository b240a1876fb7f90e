// `typestar.learnClass`: asks the server (workspace/executeCommand) to learn the class at the cursor.
// The client only supplies the document URI and the cursor; learning, progress and results are the server's.
import { commands, Disposable, Uri, window, type TextEditor } from 'vscode';
import type { ExecuteCommandParams, LanguageClient, Middleware } from 'vscode-languageclient/node';

export const LEARN_CLASS = 'typestar.learnClass';

/** The `arguments` of the executeCommand request, in the shape the server reads. */
export interface LearnClassParams {
  readonly textDocument: { readonly uri: string };
  readonly position: { readonly line: number; readonly character: number };
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

/** Used when the server advertises `typestar.learnClass`: vscode-languageclient then owns the VS Code command. */
export const learnClassMiddleware: NonNullable<Middleware['executeCommand']> = (command, args, next) =>
  next(command, command === LEARN_CLASS ? learnClassArguments(args, window.activeTextEditor) : args);

/**
 * Registers `typestar.learnClass` unless the running server advertised it (vscode-languageclient registers it then,
 * and a second registration would fail). `client` is undefined when the server could not start; the command then says so.
 */
export function registerLearnClass(client: LanguageClient | undefined): Disposable {
  if (client?.initializeResult?.capabilities.executeCommandProvider?.commands.includes(LEARN_CLASS)) {
    return Disposable.from();
  }
  return commands.registerCommand(LEARN_CLASS, async (...args: unknown[]) => {
    if (client === undefined) {
      void window.showErrorMessage('Typestar: the language server is not running; see the Typestar output channel.');
      return undefined;
    }
    const params: ExecuteCommandParams = { command: LEARN_CLASS, arguments: learnClassArguments(args, window.activeTextEditor) };
    return client.sendRequest<unknown>('workspace/executeCommand', params);
  });
}
