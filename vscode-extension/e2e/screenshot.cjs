// Saves a PNG of the code-server page that headless Chromium shows, through the Chrome DevTools Protocol
// (Page.captureScreenshot). Usage: node screenshot.cjs DEBUGGING_PORT OUT.png. Needs Node 22+ (global WebSocket).
'use strict';
const fs = require('node:fs');

const [port, out] = process.argv.slice(2);
(async () => {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const page = targets.find((t) => t.type === 'page');
  if (page === undefined) throw new Error(`no page among ${JSON.stringify(targets)}`);
  const socket = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`cannot connect to ${page.webSocketDebuggerUrl}`));
  });
  const reply = new Promise((resolve) => {
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.id === 1) resolve(message);
    };
  });
  socket.send(JSON.stringify({ id: 1, method: 'Page.captureScreenshot', params: { format: 'png' } }));
  const message = await reply;
  socket.close();
  if (message.error) throw new Error(JSON.stringify(message.error));
  fs.writeFileSync(out, Buffer.from(message.result.data, 'base64'));
})().catch((e) => {
  console.error(`screenshot failed: ${e.message}`);
  process.exit(1);
});
