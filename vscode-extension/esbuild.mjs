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
if (process.argv.includes('--test')) {
  await build({ ...common, entryPoints: ['src/server.ts', 'src/commands.ts', 'src/status.ts'], outdir: 'out' });
}
