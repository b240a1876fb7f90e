// `typestar.showProtocol`: opens the protocol view of the class at the cursor (or named by a hover's link) in a
// webview, and keeps the highlighted states in step with the cursor while it shows that class.
import { commands, Uri, ViewColumn, window, type Disposable, type TextEditorSelectionChangeEvent, type WebviewPanel } from 'vscode';
import type { Sender } from './commands';
import type { ProtocolView } from './protocol';

export const SHOW_PROTOCOL = 'typestar.showProtocol';
export const PROTOCOL_REQUEST = 'typestar/protocol';

/** The params of `typestar/protocol`: a class by name (a hover's link), else the active editor's cursor. */
export function protocolParams(args: readonly unknown[], editor: typeof window.activeTextEditor): object | undefined {
  if (typeof args[0] === 'string') {
    return { class: args[0] };
  }
  if (editor === undefined) {
    return undefined;
  }
  const { line, character } = editor.selection.active;
  return { textDocument: { uri: editor.document.uri.toString() }, position: { line, character } };
}

/** The webview's page: the diagram, the class and a details panel; scripts only from the extension, by nonce. */
export function html(cspSource: string, script: string, nonce: string): string {
  return `<!DOCTYPE html>
<html lang="en"><head><meta charset="UTF-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src ${cspSource} data:; style-src 'unsafe-inline'; script-src 'nonce-${nonce}' 'wasm-unsafe-eval';">
<style>
body { font-family: var(--vscode-font-family); color: var(--vscode-foreground); display: flex; gap: 1em; }
#diagram { flex: 3; overflow: auto; } #diagram svg { max-width: 100%; height: auto; background: white; border-radius: 4px; }
#side { flex: 1; min-width: 16em; } g.node, g.edge { cursor: pointer; }
</style></head>
<body><div id="diagram"></div><div id="side"><h2 id="class"></h2><p id="summary"></p><h3 id="details-title"></h3><ul id="details-lines"></ul>
<p><small>Click a state or a transition for what it means and where it comes from; highlighted states are those the object at the cursor may be in.</small></p></div>
<script nonce="${nonce}" src="${script}"></script></body></html>`;
}

/** Registers the command; `client` is the running server (undefined when it could not start). */
export function registerShowProtocol(client: () => Sender | undefined, extensionUri: Uri): Disposable {
  let panel: WebviewPanel | undefined;
  let shown: string | undefined;
  const post = (view: ProtocolView): void => {
    shown = view.class;
    void panel?.webview.postMessage({ view });
  };
  const command = commands.registerCommand(SHOW_PROTOCOL, async (...args: unknown[]) => {
    const sender = client();
    const params = protocolParams(args, window.activeTextEditor);
    if (sender === undefined || params === undefined) {
      void window.showErrorMessage('Typestar: put the cursor on a protocol class or call, with the language server running.');
      return;
    }
    const view = await sender.sendRequest<ProtocolView | null>(PROTOCOL_REQUEST, params);
    if (view === null) {
      void window.showInformationMessage('Typestar: no class with a protocol at the cursor.');
      return;
    }
    if (panel === undefined) {
      const dist = Uri.joinPath(extensionUri, 'dist');
      panel = window.createWebviewPanel('typestar.protocol', 'Typestar protocol', ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [dist],
        retainContextWhenHidden: true,
      });
      const script = panel.webview.asWebviewUri(Uri.joinPath(dist, 'webview.js')).toString();
      panel.webview.html = html(panel.webview.cspSource, script, nonce());
      panel.onDidDispose(() => {
        panel = undefined;
        shown = undefined;
      });
    }
    panel.title = `Protocol: ${view.class.split('.').pop() ?? view.class}`;
    panel.reveal(ViewColumn.Beside, true);
    post(view);
  });
  // The cursor moved in a source file: refresh the highlighted states when it is on the shown class.
  const follow = window.onDidChangeTextEditorSelection((event: TextEditorSelectionChangeEvent) => {
    const sender = client();
    const params = protocolParams([], event.textEditor);
    if (panel === undefined || sender === undefined || params === undefined || event.textEditor.document.uri.scheme !== 'file') {
      return;
    }
    void sender.sendRequest<ProtocolView | null>(PROTOCOL_REQUEST, params).then(
      (view) => {
        if (view !== null && view.class === shown) post(view);
      },
      () => undefined,
    );
  });
  return { dispose: () => [command, follow, panel].forEach((it) => it?.dispose()) };
}

function nonce(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  return Buffer.from(bytes).toString('hex');
}
