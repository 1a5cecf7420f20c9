// `damlink` as a user runs it: a child process through bin/damlink.js, without DAMLINK_… variables
// from the environment unless a test gives them.
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

export const ROOT = join(import.meta.dirname, '../..');
export const BIN = join(ROOT, 'bin/damlink.js');

const cleanEnv = (): NodeJS.ProcessEnv =>
  Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DAMLINK_')));

export function damlink(args: readonly string[], env: NodeJS.ProcessEnv = {}) {
  const r = spawnSync(process.execPath, [BIN, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    env: { ...cleanEnv(), ...env },
    timeout: 60_000,
  });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}
