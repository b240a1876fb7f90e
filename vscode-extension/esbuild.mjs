// Bundles the extension into dist/extension.js; with --test, also bundles the modules the unit tests load into out/.
import { build } from 'esbuild';

const common = {
  bundle: true,
  platform: 'node',
  format: 'cjs',
  target: 'node20',
  external: ['vscode'],
  logLevel: 'warning',
};

await build({ ...common, entryPoints: ['src/extension.ts'], outfile: 'dist/extension.js', minify: true, keepNames: true });
// The protocol view's script runs in the webview (a browser); it carries Graphviz as WebAssembly.
await build({ ...common, platform: 'browser', format: 'iife', external: [], entryPoints: ['src/webview/main.ts'], outfile: 'dist/webview.js', minify: true });
if (process.argv.includes('--test')) {
  await build({ ...common, entryPoints: ['src/server.ts', 'src/commands.ts', 'src/status.ts', 'src/protocol.ts', 'src/protocolPanel.ts'], outdir: 'out' });
}
