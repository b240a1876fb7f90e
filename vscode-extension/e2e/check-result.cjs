// Exit 0 when <workspace>/.e2e-result.json holds, for each `// expect: TEXT` marker in the workspace's Java files,
// a diagnostic on that line whose message contains TEXT, and an answer of the server to `typestar.learnClass`
// (from the stand-in: exactly the document and cursor); exit 1 otherwise. Usage: node check-result.cjs WORKSPACE
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
for (const file of fs.readdirSync(ws).filter((it) => it.endsWith('.java'))) {
  fs.readFileSync(path.join(ws, file), 'utf8').split('\n').forEach((line, n) => {
    const marker = /\/\/ expect: (.*)$/.exec(line);
    const text = marker?.[1].trim();
    if (text && !result.diagnostics.some((d) => d.file === file && d.line === n && d.message.includes(text))) {
      missing.push(`${file}:${n + 1}: no diagnostic containing "${text}"`);
    }
  });
}
const learn = result.learnClass;
if (learn === null || learn === undefined) {
  missing.push('typestar.learnClass has not answered yet');
} else if (learn.error !== undefined || typeof learn.answer?.status !== 'string') {
  missing.push(`typestar.learnClass failed: ${JSON.stringify(learn)}`);
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
