// A real server on a free loopback port with a FakeHub, WebSocket clients with the headers a browser
// or another host would send, and the log lines the server wrote.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type WebSocket from 'ws';
import { type RunningServer, type ServerOptions, startServer } from '../../daemon/server/index.ts';
import { FakeHub } from '../server/fake-hub.ts';
import { TestClient } from '../server/ws-client.ts';

export const ROOT = join(import.meta.dirname, '..', '..');
export const ARBITER = 'arbiter-token-0123456789';
export const ADMIN = 'admin-token-0123456789ab';

export interface Served {
  hub: FakeHub;
  server: RunningServer;
  logged: Array<{ msg?: string; obj: Record<string, unknown> }>;
  open(query?: string, options?: WebSocket.ClientOptions): Promise<TestClient>;
  close(): Promise<void>;
}

export async function serve(options: Partial<ServerOptions> = {}, hub = new FakeHub(3)): Promise<Served> {
  const logged: Served['logged'] = [];
  const record = (obj: object, msg?: string) => logged.push({ obj: { ...obj }, msg });
  const server = await startServer({
    hub,
    port: 0,
    tokens: { arbiter: ARBITER, admin: ADMIN },
    log: { info: record, warn: record, debug: record },
    ...options,
  });
  const clients: TestClient[] = [];
  return {
    hub,
    server,
    logged,
    async open(query = '', opts) {
      const c = await TestClient.open(server.wsUrl + query, opts);
      clients.push(c);
      return c;
    },
    async close() {
      for (const c of clients) c.close();
      await server.close();
    },
  };
}

const dirs: string[] = [];
export const tempDir = (): string => {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-security-'));
  dirs.push(dir);
  return dir;
};
export const removeTempDirs = (): void => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
};

/** `damlink run …` until `until` matches its stdout (or it exits): its output and exit code. */
export function runDaemon(
  args: string[],
  env: NodeJS.ProcessEnv,
  until: RegExp,
): Promise<{ out: string; err: string; code: number | null; stop(): Promise<void> }> {
  const proc = spawn(process.execPath, ['bin/damlink.js', 'run', '--log-level', 'warn', ...args], {
    cwd: ROOT,
    // Only what the test gives: no DAMLINK_ setting of the machine running the tests.
    env: {
      ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('DAMLINK_'))),
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const exited = new Promise<number | null>((resolve) => proc.once('close', (code) => resolve(code)));
  const stop = async () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
    await exited;
  };
  proc.stderr!.on('data', (d: Buffer) => {
    err += d.toString();
  });
  // Never left running: a daemon that neither prints what is awaited nor exits is stopped.
  const limit = setTimeout(() => void stop(), 20_000);
  void exited.then(() => clearTimeout(limit));
  return new Promise((resolve) => {
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) resolve({ out, err, code: null, stop });
    });
    void exited.then((code) => resolve({ out, err, code, stop }));
  });
}
