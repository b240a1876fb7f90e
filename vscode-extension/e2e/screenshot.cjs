// Saves a PNG of the code-server page that headless Chromium shows, through the Chrome DevTools Protocol
// (Page.captureScreenshot). With a CSS selector and a second file, it also saves the text the page shows in the first
// element that selector matches (its innerText; empty when nothing matches), read in the page (Runtime.evaluate).
// Usage: node screenshot.cjs DEBUGGING_PORT OUT.png [SELECTOR OUT.txt]. Needs Node 22+ (global WebSocket).
'use strict';
const fs = require('node:fs');

const [port, out, selector, textOut] = process.argv.slice(2);
(async () => {
  const targets = await (await fetch(`http://127.0.0.1:${port}/json/list`)).json();
  const page = targets.find((t) => t.type === 'page');
  if (page === undefined) throw new Error(`no page among ${JSON.stringify(targets)}`);
  const socket = new WebSocket(page.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.onopen = resolve;
    socket.onerror = () => reject(new Error(`cannot connect to ${page.webSocketDebuggerUrl}`));
  });
  const waiting = new Map();
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    waiting.get(message.id)?.(message);
  };
  let next = 0;
  const call = (method, params) =>
    new Promise((resolve, reject) => {
      const id = ++next;
      waiting.set(id, (message) => (message.error ? reject(new Error(`${method}: ${JSON.stringify(message.error)}`)) : resolve(message.result)));
      socket.send(JSON.stringify({ id, method, params }));
    });
  const shot = await call('Page.captureScreenshot', { format: 'png' });
  fs.writeFileSync(out, Buffer.from(shot.data, 'base64'));
  if (selector !== undefined && textOut !== undefined) {
    const expression = `document.querySelector(${JSON.stringify(selector)})?.innerText ?? ""`;
    const { result } = await call('Runtime.evaluate', { expression, returnByValue: true });
    fs.writeFileSync(textOut, String(result.value ?? ''));
  }
  socket.close();
})().catch((e) => {
  console.error(`screenshot failed: ${e.message}`);
  process.exit(1);
});
