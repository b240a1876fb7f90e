#!/usr/bin/env node
// Test-only stand-in for `typestar` used by `run-code-server.sh --stand-in`, to check the editor plumbing before
// the real server publishes diagnostics. It answers `--version` and, under `lsp`, speaks just enough LSP over stdio:
// each opened or changed document gets one diagnostic per `// expect: TEXT` marker, on that line, and
// `workspace/executeCommand` answers with the arguments it got. It checks nothing.
'use strict';

if (process.argv[2] === '--version') {
  console.log('typestar 0.0.0-stand-in');
  process.exit(0);
}
if (process.argv[2] !== 'lsp') {
  console.error('usage: stand-in-server.cjs --version | lsp');
  process.exit(2);
}

const send = (message) => {
  const body = JSON.stringify({ jsonrpc: '2.0', ...message });
  process.stdout.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
};

const publish = (uri, text) => {
  const diagnostics = [];
  text.split('\n').forEach((line, n) => {
    const marker = /\/\/ expect: (.*)$/.exec(line);
    if (marker) {
      const start = line.search(/\S/);
      diagnostics.push({
        range: { start: { line: n, character: start }, end: { line: n, character: marker.index } },
        severity: 1,
        source: 'typestar',
        code: 'typestate-violation',
        message: `stand-in: ${marker[1].trim()}`,
      });
    }
  });
  send({ method: 'textDocument/publishDiagnostics', params: { uri, diagnostics } });
};

const handle = (message) => {
  switch (message.method) {
    case 'initialize':
      return send({ id: message.id, result: { capabilities: { textDocumentSync: 1 }, serverInfo: { name: 'stand-in' } } });
    case 'shutdown':
      return send({ id: message.id, result: null });
    case 'exit':
      return process.exit(0);
    case 'workspace/executeCommand':
      return send({ id: message.id, result: { status: 'stand-in', arguments: message.params.arguments } });
    case 'textDocument/didOpen':
      return publish(message.params.textDocument.uri, message.params.textDocument.text);
    case 'textDocument/didChange':
      return publish(message.params.textDocument.uri, message.params.contentChanges.at(-1).text);
    default:
      if (message.id !== undefined && message.method !== undefined) {
        send({ id: message.id, error: { code: -32601, message: `stand-in: no ${message.method}` } });
      }
  }
};

let buffer = Buffer.alloc(0);
process.stdin.on('data', (chunk) => {
  buffer = Buffer.concat([buffer, chunk]);
  for (;;) {
    const headerEnd = buffer.indexOf('\r\n\r\n');
    if (headerEnd < 0) return;
    const length = Number(/Content-Length: (\d+)/i.exec(buffer.toString('ascii', 0, headerEnd))[1]);
    if (buffer.length < headerEnd + 4 + length) return;
    handle(JSON.parse(buffer.toString('utf8', headerEnd + 4, headerEnd + 4 + length)));
    buffer = buffer.subarray(headerEnd + 4 + length);
  }
});
