// Real processes for integration tests: the daemon as `damlink run` in a child process, the
// simulator's boards in this process (tcp or socat PTY), and the PDN the daemon serves over HTTP.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect } from 'vitest';
import { parsePdn } from '../../src/engine/index.ts';

export const ROOT = join(import.meta.dirname, '..', '..');

export interface Daemon {
  url: string;
  proc: ChildProcess;
  stderr(): string;
  exited: Promise<number | null>;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

const made: string[] = [];

/** A fresh directory, removed by `removeTempDirs` (tests call it after each test). */
export const tempDir = (prefix: string): string => {
  const dir = mkdtempSync(join(tmpdir(), `damlink-${prefix}-`));
  made.push(dir);
  return dir;
};

const running: (() => Promise<unknown>)[] = [];

/** Registers something a test started (simulator, daemon, proxy) to be stopped after the test. */
export function onCleanup(stop: () => Promise<unknown>): void {
  running.push(stop);
}

/** Stops what the test started, newest first, each given at most 10 s. */
export async function stopAll(): Promise<void> {
  for (const stop of running.splice(0).reverse()) await withTimeout(stop(), 10_000);
}

/** The usual afterEach: stop everything, then remove the temp dirs. */
export async function cleanUp(): Promise<void> {
  await stopAll();
  removeTempDirs();
}

export function removeTempDirs(): void {
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
}

export async function startDaemon(
  boards: string[],
  dataDir: string,
  extra: string[] = [],
  nodeArgs: string[] = [],
): Promise<Daemon> {
  const args = [
    'run',
    ...boards.flatMap((b) => ['--board', b]),
    '--port',
    '0',
    '--data-dir',
    dataDir,
    ...extra,
  ];
  return startServing(args, nodeArgs);
}

/** `damlink <args>` in a child process, ready once it prints the address it serves on. */
export async function startServing(args: string[], nodeArgs: string[] = []): Promise<Daemon> {
  // Quiet unless the test asks for a level of its own.
  const level = args.includes('--log-level') ? [] : ['--log-level', 'warn'];
  const proc = spawn(process.execPath, [...nodeArgs, 'bin/damlink.js', ...args, ...level], {
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
    const timer = setTimeout(
      () => reject(new Error(`damlink ${args[0]} did not start:\n${out}\n${err}`)),
      20_000,
    );
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /open (http:\/\/\S+?)\/ /.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    });
    void exited.then((code) => reject(new Error(`damlink ${args[0]} exited with ${code}:\n${out}\n${err}`)));
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

/**
 * Waits until the round's games.pdn holds exactly `truth` (each board's moves); on a timeout it
 * shows the difference (and `context`, e.g. the daemon's log) rather than only the timeout.
 */
export async function servedGames(
  daemonUrl: string,
  truth: string[][],
  ms: number,
  why: string,
  context?: () => string,
): Promise<string[][]> {
  const url = `${daemonUrl}/rounds/1/games.pdn`;
  return until(
    async () => {
      const games = pdnMoves(await fetchText(url));
      return JSON.stringify(games) === JSON.stringify(truth) ? games : undefined;
    },
    ms,
    why,
  ).catch(async (e) => {
    if (context) console.error(context());
    expect(pdnMoves(await fetchText(url))).toEqual(truth);
    throw e;
  });
}

/** Cleanups must not hang a test file: give up on one after `ms`. */
export async function withTimeout(p: Promise<unknown>, ms: number): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([p.catch(() => {}), new Promise((r) => (timer = setTimeout(r, ms)))]);
  clearTimeout(timer);
}

export interface BoardProxy {
  /** `tcp://127.0.0.1:PORT` for the daemon. */
  address: string;
  /** Pull the plug: drop the link and refuse new ones for `ms`. */
  unplug(ms: number): void;
  close(): Promise<void>;
}

/**
 * A TCP hop between the daemon and a board that reads the board's lines as they pass, so a test can
 * pull the plug at an exact point of the game (the board itself plays on, unaware).
 */
export async function boardProxy(target: string, onBoardLine: (line: string) => void): Promise<BoardProxy> {
  const { createServer, connect } = await import('node:net');
  const m = /^tcp:\/\/([^:]+):(\d+)$/.exec(target);
  if (!m) throw new Error(`not a tcp address: ${target}`);
  const sockets = new Set<import('node:net').Socket>();
  let downUntil = 0;
  const server = createServer((client) => {
    if (Date.now() < downUntil) {
      client.destroy();
      return;
    }
    const upstream = connect(Number(m[2]), m[1]);
    let pending = '';
    for (const s of [client, upstream]) {
      sockets.add(s);
      s.on('close', () => sockets.delete(s));
      s.on('error', () => {});
    }
    upstream.on('data', (chunk: Buffer) => {
      client.write(chunk);
      pending += chunk.toString('latin1');
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const line of lines) onBoardLine(line);
    });
    client.pipe(upstream);
    client.on('close', () => upstream.destroy());
    upstream.on('close', () => client.destroy());
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return {
    address: `tcp://127.0.0.1:${port}`,
    unplug(ms) {
      downUntil = Date.now() + ms;
      for (const s of sockets) s.destroy();
    },
    async close() {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}
