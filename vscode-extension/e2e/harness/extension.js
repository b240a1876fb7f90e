// Test-only harness for e2e/run-code-server.sh: opens the workspace's Java files and, on every diagnostics change,
// writes all diagnostics (and whether the Typestar extension is active) to <workspace>/.e2e-result.json.
// Then, like the editor context menu, it runs `typestar.learnClass` with the cursor on the word after the
// `// learnClass: WORD` marker, and records the server's answer or the error.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

exports.activate = async (context) => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) return;
  const out = path.join(folder.uri.fsPath, '.e2e-result.json');
  let learnClass = null;
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
    const result = { vscode: vscode.version, event, typestarActive: typestar?.isActive ?? null, diagnostics, learnClass };
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(result, null, 2));
    fs.renameSync(`${out}.tmp`, out); // whole files only: the script reads it while we write
  };
  context.subscriptions.push(vscode.languages.onDidChangeDiagnostics(() => write('diagnostics')));
  for (const uri of await vscode.workspace.findFiles('**/*.java')) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }
  write('opened');

  // The command exists once Typestar's activate() has resolved: it awaits the server's start.
  await vscode.extensions.getExtension('typestar.typestar')?.activate();
  for (const editor of vscode.window.visibleTextEditors) {
    const text = editor.document.getText();
    const marker = /\/\/ learnClass: (\w+)/.exec(text);
    if (marker === null) continue;
    const lineStart = text.lastIndexOf('\n', marker.index) + 1;
    const at = editor.document.positionAt(text.indexOf(marker[1], lineStart));
    editor.selection = new vscode.Selection(at, at);
    await vscode.window.showTextDocument(editor.document);
    try {
      const answer = await vscode.commands.executeCommand('typestar.learnClass', editor.document.uri);
      learnClass = { file: path.relative(folder.uri.fsPath, editor.document.uri.fsPath), line: at.line, character: at.character, answer };
    } catch (e) {
      learnClass = { error: e instanceof Error ? e.message : String(e) };
    }
    write('learnClass');
  }
};
