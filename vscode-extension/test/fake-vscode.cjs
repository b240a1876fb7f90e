// A tiny stand-in for the `vscode` module, so the bundled modules run under `node --test` without VS Code.
// Requiring this file makes every later `require('vscode')` return `vscode` below; tests steer it through `state`.
'use strict';
const Module = require('node:module');

class Uri {
  constructor(value) { this.value = value; }
  static file(p) { return new Uri(`file://${p}`); }
  static joinPath(base, ...parts) { return new Uri([base.value, ...parts].join('/')); }
  get scheme() { return this.value.split(':')[0]; }
  toString() { return this.value; }
}

class Disposable {
  constructor(onDispose) { this.onDispose = onDispose; }
  static from(...items) { return new Disposable(() => items.forEach((it) => it.dispose())); }
  dispose() { this.onDispose?.(); }
}

const state = {
  /** Settings by full key, e.g. `typestar.server.path`. */
  settings: {},
  /** Registered commands by id. */
  commands: new Map(),
  /** Messages passed to window.showErrorMessage. */
  errors: [],
  /** Messages passed to window.showInformationMessage. */
  infos: [],
  /** Options of each window.withProgress, and whether to cancel it right after it starts. */
  progress: [],
  cancelProgress: false,
  /** Status-bar items created. */
  statusItems: [],
  /** Webview panels created, each with the messages posted to it. */
  panels: [],
  /** Listeners of window.onDidChangeTextEditorSelection. */
  selectionListeners: [],
  activeTextEditor: undefined,
  reset() {
    this.settings = {};
    this.commands.clear();
    this.errors = [];
    this.infos = [];
    this.progress = [];
    this.cancelProgress = false;
    this.statusItems = [];
    this.panels = [];
    this.selectionListeners = [];
    this.activeTextEditor = undefined;
  },
};

const api = {
  // Makes tsc's __importStar (in vscode-languageclient) use this object as is, so the Proxy below answers every name.
  __esModule: true,
  Uri,
  Disposable,
  workspace: {
    getConfiguration(section) {
      return { get: (key, fallback) => state.settings[`${section}.${key}`] ?? fallback };
    },
  },
  ProgressLocation: { SourceControl: 1, Window: 10, Notification: 15 },
  StatusBarAlignment: { Left: 1, Right: 2 },
  ViewColumn: { Active: -1, Beside: -2 },
  window: {
    get activeTextEditor() { return state.activeTextEditor; },
    showErrorMessage(message) {
      state.errors.push(message);
      return Promise.resolve(undefined);
    },
    showInformationMessage(message) {
      state.infos.push(message);
      return Promise.resolve(undefined);
    },
    withProgress(options, task) {
      state.progress.push(options);
      const listeners = [];
      const token = {
        isCancellationRequested: false,
        onCancellationRequested(listener) { listeners.push(listener); return new Disposable(); },
      };
      const running = task({ report() {} }, token);
      if (state.cancelProgress) {
        token.isCancellationRequested = true;
        listeners.forEach((listener) => listener());
      }
      return running;
    },
    createWebviewPanel(viewType, title, column, options) {
      const panel = {
        viewType, title, column, options, posted: [], revealed: 0,
        webview: {
          html: '',
          cspSource: 'vscode-webview:',
          asWebviewUri: (uri) => uri,
          postMessage(message) { panel.posted.push(message); return Promise.resolve(true); },
        },
        reveal() { panel.revealed += 1; },
        onDidDispose() { return new Disposable(); },
        dispose() {},
      };
      state.panels.push(panel);
      return panel;
    },
    onDidChangeTextEditorSelection(listener) {
      state.selectionListeners.push(listener);
      return new Disposable();
    },
    createStatusBarItem(id, alignment, priority) {
      const item = { id, alignment, priority, text: '', tooltip: '', shown: false, show() { this.shown = true; }, dispose() {} };
      state.statusItems.push(item);
      return item;
    },
  },
  commands: {
    registerCommand(id, handler) {
      if (state.commands.has(id)) throw new Error(`command '${id}' already exists`);
      state.commands.set(id, handler);
      return new Disposable(() => state.commands.delete(id));
    },
  },
};

// Anything else a bundle touches while loading (vscode-languageclient extends a few vscode classes) is an empty class.
const vscode = new Proxy(api, {
  get(target, key) {
    if (key in target || typeof key === 'symbol' || key === 'then') return target[key];
    return (target[key] = class {});
  },
});

const load = Module._load;
Module._load = function (request, parent, isMain) {
  return request === 'vscode' ? vscode : load.call(this, request, parent, isMain);
};

module.exports = { vscode, state, Uri };
