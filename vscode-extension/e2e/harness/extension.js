// Test-only harness for e2e/run-code-server.sh: opens the workspace's Java and Kotlin files and, on every diagnostics
// change, writes all diagnostics (and whether the Typestar extension is active) to <workspace>/.e2e-result.json.
// Then it hovers the called name of every `// expect(KIND): NAME` marker and records the hover text and the titles of
// the preferred quick fixes offered there (not applied: the markers are read from the files on disk), opens the
// protocol view (`typestar.showProtocol`) with the cursor on the first such call and records whether a webview tab
// opened, and, like the editor context menu, runs `typestar.learnClass` with the cursor on the word after the
// `// learnClass: WORD` marker, and records the server's answer or the error. When the server drafted an experiment,
// it reviews the draft as examples/android-app/README.md says (every `"<fill: java.lang.String>"` becomes a string),
// saves it and runs the command again; once learned, it records the protocol written and waits for the diagnostic of
// each `// once learned(KIND): NAME` line and hovers its call.
// It asks run-code-server.sh for screenshots on the way (`learning` while the learner runs, `learned` with the new
// finding's hover and the learned protocol beside it, `problems` with the Problems panel open, whose text it records
// as `problemsPanel`): it names the shot in the result file and waits for the script to create `.e2e-shot-NAME`
// beside it once the PNG is saved; `screenshots` records which were taken.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

exports.activate = async (context) => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) return;
  const out = path.join(folder.uri.fsPath, '.e2e-result.json');
  let learnClass = null;
  const hovers = [];
  const fixes = [];
  let protocolView = null;
  let appliedFix = null;
  let firstFix;
  const screenshots = [];
  let screenshotWanted = null;
  let textWanted = null;
  let problemsPanel = null;
  const write = (event) => {
    const typestar = vscode.extensions.getExtension('typestar.typestar');
    const diagnostics = vscode.languages.getDiagnostics().flatMap(([uri, list]) =>
      list.map((d) => ({
        file: path.relative(folder.uri.fsPath, uri.fsPath),
        line: d.range.start.line,
        character: d.range.start.character,
        severity: vscode.DiagnosticSeverity[d.severity],
        source: d.source,
        code: typeof d.code === 'object' ? d.code?.value : d.code,
        message: d.message,
      })),
    );
    const result = { vscode: vscode.version, event, typestarActive: typestar?.isActive ?? null, diagnostics, hovers, fixes, appliedFix, protocolView, learnClass, problemsPanel, screenshotWanted, textWanted, screenshots };
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(result, null, 2));
    fs.renameSync(`${out}.tmp`, out); // whole files only: the script reads it while we write
  };
  /**
   * Has the script save the editor as it is now as NAME.png, and with `selector` the text the page shows in that
   * element; resolves once it did, or after 30 s, with that text (null without it).
   */
  const screenshot = async (name, selector) => {
    screenshotWanted = name;
    textWanted = selector ?? null;
    write(`screenshot ${name}`);
    const done = path.join(folder.uri.fsPath, `.e2e-shot-${name}`);
    let taken = false;
    for (let tries = 0; tries < 150 && !taken; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      taken = fs.existsSync(done);
    }
    screenshotWanted = null;
    textWanted = null;
    screenshots.push({ name, taken });
    const text = path.join(folder.uri.fsPath, `.e2e-text-${name}.txt`);
    return taken && selector !== undefined && fs.existsSync(text) ? fs.readFileSync(text, 'utf8') : null;
  };
  context.subscriptions.push(vscode.languages.onDidChangeDiagnostics(() => write('diagnostics')));
  const documents = [];
  for (const uri of await vscode.workspace.findFiles('**/*.{java,kt}')) {
    const document = await vscode.workspace.openTextDocument(uri);
    documents.push(document);
    await vscode.window.showTextDocument(document, { preview: false });
  }
  write('opened');

  // The command exists once Typestar's activate() has resolved: it awaits the server's start.
  await vscode.extensions.getExtension('typestar.typestar')?.activate();
  for (const document of documents) {
    for (let line = 0; line < document.lineCount; line++) {
      const text = document.lineAt(line).text;
      const marker = /\/\/ expect(?:\(\w+\))?: (\w+)/.exec(text);
      const character = marker === null ? -1 : text.indexOf(`${marker[1]}(`);
      if (character < 0) continue;
      const found = await vscode.commands.executeCommand('vscode.executeHoverProvider', document.uri, new vscode.Position(line, character + 1));
      const contents = (found ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value)));
      const file = path.relative(folder.uri.fsPath, document.uri.fsPath);
      hovers.push({ file, line, character: character + 1, text: contents.join('\n') });
      const at = new vscode.Range(line, character, line, character + marker[1].length);
      const actions = await vscode.commands.executeCommand('vscode.executeCodeActionProvider', document.uri, at, vscode.CodeActionKind.QuickFix.value);
      const preferred = (actions ?? []).filter((a) => a.isPreferred);
      if (preferred.length > 0) fixes.push({ file, line, titles: preferred.map((a) => a.title) });
      if (preferred.length > 0 && firstFix === undefined) firstFix = { document, file, line, action: preferred[0] };
    }
  }
  write('hovers');
  if (firstFix !== undefined) {
    appliedFix = await applyAndRevert(firstFix);
    write('appliedFix');
  }
  for (const document of documents) {
    const text = document.getText();
    const marker = /\/\/ learnClass: (\w+)/.exec(text);
    if (marker === null) continue;
    const lineStart = text.lastIndexOf('\n', marker.index) + 1;
    const at = document.positionAt(text.indexOf(marker[1], lineStart));
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(at, at);
    const file = path.relative(folder.uri.fsPath, editor.document.uri.fsPath);
    try {
      let answer = await vscode.commands.executeCommand('typestar.learnClass', editor.document.uri);
      let drafted;
      if (answer?.status === 'drafted') {
        drafted = answer;
        await review(answer.draft);
        const again = await vscode.window.showTextDocument(document);
        again.selection = new vscode.Selection(at, at);
        const learning = vscode.commands.executeCommand('typestar.learnClass', again.document.uri);
        // The learner runs for tens of seconds: the shot shows its cancellable notification and the status bar.
        await screenshot('learning');
        answer = await learning;
      }
      learnClass = { file, line: at.line, character: at.character, drafted, answer };
      if (answer?.status === 'learned') {
        learnClass.typestate = fs.readFileSync(answer.typestate, 'utf8');
        write('learnClass');
        learnClass.found = await learnedFindings(document, file, hovers);
        const hover = hovers.find((h) => h.file === file && h.line === learnClass.found[0]);
        await showLearned(document, vscode.Uri.file(answer.typestate), hover);
        await screenshot('learned');
        await closeTabsOf(vscode.Uri.file(answer.typestate));
      }
    } catch (e) {
      learnClass = { error: e instanceof Error ? e.message : String(e) };
    }
    write('learnClass');
  }
  // The Problems panel as a user sees it, maximised so that every row is drawn (its list is virtual): the script
  // saves the text it shows, which must list each expected finding.
  await vscode.commands.executeCommand('workbench.actions.view.problems');
  await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
  await new Promise((resolve) => setTimeout(resolve, 1000));
  problemsPanel = await screenshot('problems', '.markers-panel');
  await vscode.commands.executeCommand('workbench.action.toggleMaximizedPanel');
  await vscode.commands.executeCommand('workbench.action.closePanel');
  write('problemsPanel');
  // Last, so that the final screenshot shows it: a call on a library class (Screen.java's DownloadTask is the project's own subclass).
  const first = hovers.find((h) => h.file.endsWith('.kt'));
  if (first !== undefined && protocolView === null) {
    const document = documents.find((d) => path.relative(folder.uri.fsPath, d.uri.fsPath) === first.file);
    const editor = await vscode.window.showTextDocument(document);
    editor.selection = new vscode.Selection(first.line, first.character, first.line, first.character);
    try {
      await vscode.commands.executeCommand('typestar.showProtocol');
      let webviews = [];
      for (let tries = 0; tries < 50 && webviews.length === 0; tries++) {
        const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
        webviews = tabs.filter((t) => t.input instanceof vscode.TabInputWebview).map((t) => t.label);
        if (webviews.length === 0) await new Promise((resolve) => setTimeout(resolve, 100));
      }
      protocolView = { file: first.file, line: first.line, webviews };
    } catch (e) {
      protocolView = { error: e instanceof Error ? e.message : String(e) };
    }
    write('protocolView');
  }
};

/**
 * Opens the learned protocol `typestate` beside `document` and shows the hover of the learned finding's call
 * (`hover`, when the finding came), for the `learned` screenshot.
 */
async function showLearned(document, typestate, hover) {
  await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(typestate), { viewColumn: vscode.ViewColumn.Beside, preview: false });
  const editor = await vscode.window.showTextDocument(document, vscode.ViewColumn.One);
  if (hover === undefined) return;
  const at = new vscode.Position(hover.line, hover.character);
  editor.selection = new vscode.Selection(at, at);
  await vscode.commands.executeCommand('editor.action.showHover');
}

/** Closes every tab showing `uri`. */
async function closeTabsOf(uri) {
  const tabs = vscode.window.tabGroups.all.flatMap((g) => g.tabs);
  await vscode.window.tabGroups.close(tabs.filter((t) => t.input instanceof vscode.TabInputText && t.input.uri.toString() === uri.toString()));
}

/** Gives the drafted experiment's `send(String)` an argument in the editor, as a user reviewing it would, and saves it. */
async function review(draft) {
  const document = await vscode.workspace.openTextDocument(draft);
  const placeholder = '"<fill: java.lang.String>"';
  const edit = new vscode.WorkspaceEdit();
  const text = document.getText();
  for (let at = text.indexOf(placeholder); at >= 0; at = text.indexOf(placeholder, at + 1)) {
    edit.replace(document.uri, new vscode.Range(document.positionAt(at), document.positionAt(at + placeholder.length)), '"chunk"');
  }
  await vscode.workspace.applyEdit(edit);
  await document.save();
}

/**
 * For each `// once learned(KIND): NAME` line of `document` (`file` in the workspace): waits (60 s at most) for a typestar diagnostic there,
 * which only the learned protocol can give, then hovers the call and adds the hover to `hovers`.
 * Returns the lines whose diagnostic came.
 */
async function learnedFindings(document, file, hovers) {
  const found = [];
  const lines = document.getText().split('\n');
  for (let line = 0; line < lines.length; line++) {
    const marker = /\/\/ once learned(?:\(\w+\))?: (\w+)/.exec(lines[line]);
    if (marker === null) continue;
    const here = (now) => now.some((f) => f.startsWith(`${line}: `) && f.includes(marker[1]));
    const came = here(findings(document.uri)) || (await diagnosticsOf(document.uri, here, 60)) !== null;
    if (!came) continue;
    found.push(line);
    const character = lines[line].indexOf(`${marker[1]}(`) + 1;
    const hover = await vscode.commands.executeCommand('vscode.executeHoverProvider', document.uri, new vscode.Position(line, character));
    const text = (hover ?? []).flatMap((h) => h.contents.map((c) => (typeof c === 'string' ? c : c.value))).join('\n');
    hovers.push({ file, line, character, text });
  }
  return found;
}

/** The typestar findings VS Code holds for `uri`, as `line: message`. */
const findings = (uri) =>
  vscode.languages.getDiagnostics(uri).filter((d) => d.source === 'typestar').map((d) => `${d.range.start.line}: ${d.message}`);

/** Resolves at the next diagnostics change of `uri` for which `done(findings)` holds, or with null after `seconds`. */
const diagnosticsOf = (uri, done, seconds) =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      listener.dispose();
      resolve(null);
    }, seconds * 1000);
    const listener = vscode.languages.onDidChangeDiagnostics((event) => {
      if (!event.uris.some((u) => u.toString() === uri.toString()) || !done(findings(uri))) return;
      clearTimeout(timer);
      listener.dispose();
      resolve(findings(uri));
    });
  });

/**
 * Applies the quick fix `fix.action` to its document, records the fixed text and the findings the server publishes
 * for it once the fixed one is gone (null when that never happens), then puts the document's text back as it was on
 * disk (the markers are read from there) and waits for the findings to come back.
 */
async function applyAndRevert(fix) {
  const { document, file, line, action } = fix;
  const original = document.getText();
  const before = findings(document.uri);
  const message = (f) => f.slice(f.indexOf(': ') + 2);
  const fixed = before.filter((f) => f.startsWith(`${line}: `)).map(message);
  const settled = diagnosticsOf(document.uri, (now) => !now.map(message).some((m) => fixed.includes(m)), 30);
  const applied = action.edit === undefined ? false : await vscode.workspace.applyEdit(action.edit);
  const after = applied ? await settled : null;
  const result = { file, line, title: action.title, applied, before, after, text: document.getText() };
  // The text is put back by an edit of this document, then saved unchanged: `workbench.action.files.revert` acts on
  // whichever editor is active, and on a loaded machine that was not always this one.
  const restored = diagnosticsOf(document.uri, (now) => now.length === before.length, 30);
  const back = new vscode.WorkspaceEdit();
  back.replace(document.uri, new vscode.Range(document.positionAt(0), document.positionAt(document.getText().length)), original);
  const reverted = (await vscode.workspace.applyEdit(back)) && (await document.save());
  result.restored = reverted && document.getText() === original && (await restored) !== null;
  return result;
}
