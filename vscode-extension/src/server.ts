// Finds the `typestar` binary that `typestar lsp` runs: the `typestar.server.path` setting,
// then the binary bundled in the extension, then `typestar` on PATH. This is the only place that decides.
import { execFile } from 'node:child_process';
import { constants, promises as fs } from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { workspace } from 'vscode';

/** The setting that names the binary explicitly; every discovery error names it. */
export const SERVER_PATH_SETTING = 'typestar.server.path';

/** A binary that answered `--version`. */
export interface Server {
  readonly path: string;
  readonly version: string;
  readonly source: 'setting' | 'bundled' | 'PATH';
}

/** Finds the server and runs `<binary> --version` once. Throws an Error whose message names the setting to fix. */
export async function findServer(extensionPath: string, env: NodeJS.ProcessEnv = process.env): Promise<Server> {
  const exe = process.platform === 'win32' ? 'typestar.exe' : 'typestar';
  const configured = workspace.getConfiguration('typestar').get<string>('server.path', '').trim();
  if (configured !== '') {
    const file = configured.startsWith('~') ? path.join(os.homedir(), configured.slice(1)) : configured;
    if (!(await isExecutable(file))) {
      throw new Error(`Typestar: \`${SERVER_PATH_SETTING}\` is "${configured}", which is not an executable file. Fix or clear the setting.`);
    }
    return { path: file, version: await version(file, SERVER_PATH_SETTING), source: 'setting' };
  }
  const bundled = path.join(extensionPath, 'bin', exe);
  if (await isExecutable(bundled)) {
    return { path: bundled, version: await version(bundled, 'the bundled binary'), source: 'bundled' };
  }
  for (const dir of (env['PATH'] ?? '').split(path.delimiter)) {
    const file = path.join(dir, exe);
    if (dir !== '' && (await isExecutable(file))) {
      return { path: file, version: await version(file, 'PATH'), source: 'PATH' };
    }
  }
  throw new Error(
    `Typestar: no \`typestar\` binary found. Set \`${SERVER_PATH_SETTING}\` to its path, or put \`typestar\` on PATH ` +
      `(looked in the setting, ${bundled} and PATH).`,
  );
}

async function isExecutable(file: string): Promise<boolean> {
  try {
    await fs.access(file, constants.X_OK);
    return (await fs.stat(file)).isFile();
  } catch {
    return false;
  }
}

function version(file: string, from: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(file, ['--version'], { timeout: 10_000 }, (error, stdout, stderr) => {
      if (error) {
        const detail = (stderr.trim() || error.message).split('\n')[0];
        reject(new Error(`Typestar: \`${file} --version\` failed (${detail}); found via ${from}. Set \`${SERVER_PATH_SETTING}\` to a working binary.`));
      } else {
        resolve(stdout.trim());
      }
    });
  });
}
