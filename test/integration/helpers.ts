// Real processes for integration tests: the daemon as `damlink run` in a child process, the
// simulator's boards in this process (tcp or socat PTY), and the PDN the daemon serves over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parsePdn } from '../../src/engine/index.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Daemon {
  url: string;
  proc: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

export const tempDir = (prefix: string): string => mkdtempSync(join(tmpdir(), `damlink-${prefix}-`));

export async function startDaemon(boards: string[], dataDir: string, extra: string[] = []): Promise<Daemon> {
  const args = [
    'bin/damlink.js',
    'run',
    ...boards.flatMap((b) => ['--board', b]),
    '--port',
    '0',
    '--data-dir',
    dataDir,
  ];
  const proc = spawn(process.execPath, [...args, '--log-level', 'warn', ...extra], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  const exited = new Promise<number | null>((resolve) => proc.once('exit', (code) => resolve(code)));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`daemon did not start:\n${out}\n${err}`)), 20_000);
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open (http:\/\/\S+?)\/ /.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => reject(new Error(`daemon exited with ${code}:\n${out}\n${err}`)));
  });
  return {
    url,
    proc,
    exited,
    stderr: () => err,
    async stop(signal = 'SIGTERM') {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill(signal);
      await exited;
    },
  };
}

export async function fetchText(url: string): Promise<string> {
  const res = await fetch(url);
  if (!res.ok) throw new Error(`${url}: HTTP ${res.status}`);
  return res.text();
}

/** Each game's moves as damlink writes them (`32-28`, `19x28`), from a multi-game PDN. */
export function pdnMoves(text: string): string[][] {
  return parsePdn(text).games.map((g) => g.moves.map((m) => m.notation));
}

export async function until<T>(
  what: () => Promise<T | undefined> | T | undefined,
  ms: number,
  why: string,
): Promise<T> {
  const end = Date.now() + ms;
  let last: unknown;
  for (;;) {
    try {
      const v = await what();
      if (v !== undefined && v !== false) return v;
    } catch (e) {
      last = e;
    }
    if (Date.now() > end) throw new Error(`timed out: ${why}${last ? ` (${String(last)})` : ''}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Cleanups must not hang a test file: give up on one after `ms`. */
export async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => {}), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}
