// Test-only harness for e2e/run-code-server.sh: opens the workspace's Java files and, on every diagnostics change,
// writes all diagnostics (and whether the Typestar extension is active) to <workspace>/.e2e-result.json.
'use strict';
const fs = require('node:fs');
const path = require('node:path');
const vscode = require('vscode');

exports.activate = async (context) => {
  const folder = vscode.workspace.workspaceFolders?.[0];
  if (folder === undefined) return;
  const out = path.join(folder.uri.fsPath, '.e2e-result.json');
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
    const result = { vscode: vscode.version, event, typestarActive: typestar?.isActive ?? null, diagnostics };
    fs.writeFileSync(`${out}.tmp`, JSON.stringify(result, null, 2));
    fs.renameSync(`${out}.tmp`, out); // whole files only: the script reads it while we write
  };
  context.subscriptions.push(vscode.languages.onDidChangeDiagnostics(() => write('diagnostics')));
  for (const uri of await vscode.workspace.findFiles('**/*.java')) {
    await vscode.window.showTextDocument(await vscode.workspace.openTextDocument(uri), { preview: false });
  }
  write('opened');
};
