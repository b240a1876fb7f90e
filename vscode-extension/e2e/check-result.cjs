// Exit 0 when <workspace>/.e2e-result.json holds, for each `// expect: TEXT` or `// expect(KIND): TEXT` marker in the
// workspace's Java and Kotlin files, a diagnostic on that line whose message contains TEXT; with the real server
// (`--hovers`), a hover on the marker's call naming the states before it, a preferred quick fix offered at one of
// them at least, that fix applied (the text changed, its finding gone after the recheck, back after the revert), and
// the protocol view opened in a webview; and an answer of the server to
// `typestar.learnClass` (from the stand-in: exactly the document and cursor). With the real server the class must be
// drafted, then learned, and each `// once learned(KIND): TEXT` line must have a diagnostic containing TEXT and a hover
// naming the states, which only the learned protocol can give, and the screenshots `learning`, `learned` and
// `problems` taken (the harness asks for them); the Problems panel's text (`problemsPanel`) must show each expected
// finding's message and position, and expected findings must exist in Java and in Kotlin files; exit 1 otherwise.
// run-code-server.sh then compares the learned protocol with examples/android-app/learned/ by `typestar diff`.
// Usage: node check-result.cjs WORKSPACE [--hovers] [--explain]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const ws = process.argv[2];
let result;
try {
  result = JSON.parse(fs.readFileSync(path.join(ws, '.e2e-result.json'), 'utf8'));
} catch {
  process.exit(1);
}
const missing = [];
const panel = result.problemsPanel ?? '';
const marked = new Set();
const sources = fs
  .readdirSync(ws, { recursive: true })
  .filter((it) => /\.(java|kt)$/.test(it) && !it.split(path.sep).includes('build'));
for (const file of sources) {
  fs.readFileSync(path.join(ws, file), 'utf8').split('\n').forEach((line, n) => {
    const marker = /\/\/ expect(?:\(\w+\))?: (.*)$/.exec(line);
    const text = marker?.[1].trim();
    if (text && !result.diagnostics.some((d) => d.file === file && d.line === n && d.message.includes(text))) {
      missing.push(`${file}:${n + 1}: no diagnostic containing "${text}"`);
    }
    if (text && process.argv.includes('--hovers') && !(result.hovers ?? []).some((h) => h.file === file && h.line === n && h.text.includes('before the call'))) {
      missing.push(`${file}:${n + 1}: no hover on the call naming its states`);
    }
    if (text && process.argv.includes('--hovers')) {
      marked.add(path.extname(file));
      const shown = result.diagnostics.some(
        (d) => d.file === file && d.line === n && d.source === 'typestar' && d.message.includes(text) && inPanel(file, d),
      );
      if (!shown) missing.push(`${file}:${n + 1}: the Problems panel does not show its typestar finding`);
    }
    const learned = /\/\/ once learned(?:\(\w+\))?: (.*)$/.exec(line)?.[1].trim();
    if (learned && process.argv.includes('--hovers')) {
      if (!result.diagnostics.some((d) => d.file === file && d.line === n && d.message.includes(learned))) {
        missing.push(`${file}:${n + 1}: no diagnostic containing "${learned}" from the learned protocol`);
      }
      if (!(result.hovers ?? []).some((h) => h.file === file && h.line === n && h.text.includes('before the call'))) {
        missing.push(`${file}:${n + 1}: no hover on the call naming the learned protocol's states`);
      }
    }
  });
}
if (process.argv.includes('--hovers')) {
  for (const language of ['.java', '.kt']) {
    if (!marked.has(language)) missing.push(`no expected finding in a ${language} file`);
  }
  if ((result.fixes ?? []).length === 0) missing.push('no preferred quick fix offered at any expected finding');
  const fix = result.appliedFix;
  if (!(fix?.applied && Array.isArray(fix.after) && fix.restored)) {
    missing.push(`the first quick fix was not applied, left its finding, or was not reverted: ${JSON.stringify(fix)}`);
  } else if (fix.text === fs.readFileSync(path.join(ws, fix.file), 'utf8')) {
    missing.push(`the quick fix "${fix.title}" did not change ${fix.file}`);
  }
  const view = result.protocolView;
  // The panel is titled `Protocol: CLASS` only once the server's `typestar/protocol` answer named the class.
  if (!(view?.webviews ?? []).some((label) => /^Protocol: \w+$/.test(label))) {
    missing.push(`the protocol view did not open with a class from the server: ${JSON.stringify(view)}`);
  }
}
const learn = result.learnClass;
if (learn === null || learn === undefined) {
  missing.push('typestar.learnClass has not answered yet');
} else if (learn.error !== undefined || typeof learn.answer?.status !== 'string') {
  missing.push(`typestar.learnClass failed: ${JSON.stringify(learn)}`);
} else if (process.argv.includes('--hovers')) {
  if (learn.drafted?.status !== 'drafted' || learn.answer.status !== 'learned' || typeof learn.typestate !== 'string') {
    missing.push(`typestar.learnClass did not draft, then learn, the class: ${JSON.stringify(learn)}`);
  }
  for (const name of ['learning', 'learned', 'problems']) {
    if (!(result.screenshots ?? []).some((s) => s.name === name && s.taken)) missing.push(`no screenshot ${name}.png of the learning`);
  }
} else if (learn.answer.status === 'stand-in') {
  const [args] = learn.answer.arguments;
  const expected = { textDocument: { uri: `file://${path.resolve(ws, learn.file)}` }, position: { line: learn.line, character: learn.character } };
  if (JSON.stringify(args) !== JSON.stringify(expected) || learn.answer.arguments.length !== 1) {
    missing.push(`typestar.learnClass sent ${JSON.stringify(learn.answer.arguments)}, expected [${JSON.stringify(expected)}]`);
  }
}
if (missing.length > 0) {
  if (process.argv.includes('--explain')) console.error(missing.join('\n'));
  process.exit(1);
}

/**
 * Whether the Problems panel's text shows diagnostic `d` of `file`: the file's name, then the first line of the
 * message, then its position (`[Ln L, Col C]`), in that order.
 */
function inPanel(file, d) {
  const named = panel.indexOf(path.basename(file));
  const message = named < 0 ? -1 : panel.indexOf(d.message.split('\n')[0], named);
  return message >= 0 && panel.indexOf(`[Ln ${d.line + 1}, Col ${d.character + 1}]`, message) >= 0;
}
