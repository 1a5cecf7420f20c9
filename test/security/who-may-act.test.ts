// Who may act as arbiter: always a token (the daemon makes one when none is configured), presented
// only from the daemon's own pages, guessed at a bounded rate; tokens in the config that cannot be
// trusted are refused; the pages are served with the headers that keep them to themselves.
import { hostname } from 'node:os';
import { BUILT_IN_WEB_ROOT } from '../../daemon/server/languages.ts';
import { spawnSync } from 'node:child_process';
import { chmodSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../daemon/config/index.ts';
import { adminTokenIn } from '../../daemon/server/admin-token.ts';
import { FILE_MODE } from '../../daemon/data-dir.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import {
  ADMIN,
  ARBITER,
  ROOT,
  removeTempDirs,
  runDaemon,
  type Served,
  serve,
  tempDir,
} from './fixtures/helpers.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  removeTempDirs();
});

describe('an admin token when none is configured', () => {
  it('is random (≥ 128 bits), kept in the data directory with mode 0600, the same at the next start', () => {
    const dir = tempDir();
    const first = adminTokenIn(dir);
    expect(first.created).toBe(true);
    expect(first.file).toBe(join(dir, 'admin-token'));
    expect(statSync(first.file).mode & 0o777).toBe(0o600);
    // base64url: 6 bits a character.
    expect(first.token).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(first.token.length * 6).toBeGreaterThanOrEqual(128);
    expect(adminTokenIn(dir)).toEqual({ ...first, created: false });
    expect(adminTokenIn(tempDir()).token).not.toBe(first.token);
  });

  it('`damlink run` prints the console address with it; loopback without it grants nothing', async () => {
    const dir = tempDir();
    const args = ['--board', 'tcp://127.0.0.1:9', '--port', '0', '--data-dir', dir];
    const run = await runDaemon(args, {}, /arbiter#token=\S+/);
    try {
      const m = /arbiter console (http:\/\/\S+)\/arbiter#token=(\S+)/.exec(run.out);
      expect(m, run.out + run.err).not.toBeNull();
      const [, url, token] = m!;
      expect(token).toBe(adminTokenIn(dir).token);
      const ws = `${url.replace('http', 'ws')}/api/v1`;
      const anonymous = await TestClient.open(ws);
      expect((await anonymous.call('result', { board: 1, result: '2-0' })).param.code).toBe('unauthorized');
      expect((await anonymous.call('subscribe', { feed: 'alerts' })).param.code).toBe('unauthorized');
      expect((await anonymous.call('auth', { token })).param).toEqual({ role: 'admin' });
      anonymous.close();
    } finally {
      await run.stop();
    }
  });

  it('is printed only when made (not into the system journal at every start); `damlink token` prints it again', async () => {
    const dir = tempDir();
    const args = ['--board', 'tcp://127.0.0.1:9', '--port', '0', '--data-dir', dir];
    const first = await runDaemon(args, {}, /arbiter console/);
    await first.stop();
    expect(first.out).toMatch(/arbiter#token=/);
    const again = await runDaemon(args, {}, /arbiter console/);
    await again.stop();
    expect(again.out).not.toContain(adminTokenIn(dir).token);
    expect(again.out).toContain(`damlink token --data-dir ${dir}`);
    const printed = spawnSync(process.execPath, ['bin/damlink.js', 'token', '--data-dir', dir], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    expect(printed.status).toBe(0);
    expect(printed.stdout.trim()).toBe(`http://127.0.0.1:8080/arbiter#token=${adminTokenIn(dir).token}`);
    // The data directory is the daemon's alone: 0700, its journal and log 0600.
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    for (const file of ['journal.sqlite', 'damlink.log', 'admin-token'])
      expect({ file, mode: statSync(join(dir, file)).mode & 0o777 }).toEqual({ file, mode: 0o600 });
  });

  it('a data directory left open by an older version is closed at start', async () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    writeFileSync(join(dir, 'damlink.log'), '', { mode: 0o644 });
    const run = await runDaemon(
      ['--board', 'tcp://127.0.0.1:9', '--port', '0', '--data-dir', dir],
      {},
      /arbiter console/,
    );
    await run.stop();
    expect(statSync(dir).mode & 0o777).toBe(0o700);
    expect(statSync(join(dir, 'damlink.log')).mode & 0o777).toBe(0o600);
    expect(statSync(join(dir, 'journal.sqlite')).mode & 0o777).toBe(0o600);
  });

  it('the logrotate example makes the new log as the daemon makes its files (docs/ops/logrotate.conf)', () => {
    const conf = readFileSync(join(ROOT, 'docs/ops/logrotate.conf'), 'utf8');
    const mode = /^\s*create\s+(0[0-7]{3})\s/m.exec(conf)?.[1];
    expect(mode && Number.parseInt(mode, 8)).toBe(FILE_MODE);
  });
});

describe('Origin on the WebSocket upgrade', () => {
  it('spectators from any page; a token only from the daemon’s own pages, allowed origins or no browser', async () => {
    served = await serve({ allowedOrigins: ['https://live.club.example'] });
    const own = `http://127.0.0.1:${served.server.port}`;
    const evil = { origin: 'http://evil.example' };

    // Clubs embed the viewer: reading is open to every origin.
    const viewer = await served.open('', evil);
    expect((await viewer.call('games', { board: 1 })).param).toHaveLength(1);
    // A token from another site's page is refused however it comes, and never compared.
    await expect(served.open(`?token=${ARBITER}`, evil)).rejects.toThrow('HTTP 403');
    expect((await viewer.call('auth', { token: ARBITER })).param.code).toBe('unauthorized');
    const byParam = await viewer.call('result', { board: 1, result: '2-0', token: ARBITER });
    expect(byParam.param.code).toBe('unauthorized');
    expect(served.hub.calls).toEqual([]);

    const fromOwnPage = await served.open(`?token=${ARBITER}`, { origin: own });
    expect((await fromOwnPage.call('result', { board: 1, result: '2-0' })).param.ok).toBe(true);
    const allowed = await served.open('', { origin: 'https://live.club.example' });
    expect((await allowed.call('auth', { token: ADMIN })).param).toEqual({ role: 'admin' });
    const script = await served.open(); // no Origin: judged by the token alone
    expect((await script.call('auth', { token: ARBITER })).param).toEqual({ role: 'arbiter' });
  });
});

describe('DNS rebinding: a page whose origin equals its Host, under a name that is not this machine', () => {
  it('may not present a token (and its guesses cannot lock the arbiter out); allowedHosts adds a name', async () => {
    served = await serve();
    const port = served.server.port;
    const rebound = {
      origin: `http://rebound.example:${port}`,
      headers: { Host: `rebound.example:${port}` },
    };
    await expect(served.open(`?token=${ARBITER}`, rebound)).rejects.toThrow('HTTP 403');
    const page = await served.open('', rebound);
    for (let i = 0; i < 12; i++)
      expect((await page.call('auth', { token: `guess-${i}-0123456789` })).param.code).toBe('unauthorized');
    // Its ten wrong tokens were never compared: the arbiter's own page still gets in.
    const arbiter = await served.open('', { origin: `http://127.0.0.1:${port}` });
    expect((await arbiter.call('auth', { token: ARBITER })).param).toEqual({ role: 'arbiter' });
    // The machine's own name is its own page.
    const named = { origin: `http://${hostname()}:${port}`, headers: { Host: `${hostname()}:${port}` } };
    expect((await (await served.open('', named)).call('auth', { token: ARBITER })).param).toEqual({
      role: 'arbiter',
    });
    await served.close();

    served = await serve({ allowedHosts: ['rebound.example'] });
    const proxied = {
      origin: `http://rebound.example:${served.server.port}`,
      headers: { Host: `rebound.example:${served.server.port}` },
    };
    expect((await (await served.open('', proxied)).call('auth', { token: ARBITER })).param).toEqual({
      role: 'arbiter',
    });
  });
});

describe('wrong tokens from one address', () => {
  it('are refused with rate-limited after 10, across connections, even the right one; others are not', async () => {
    served = await serve();
    const atWork = await served.open();
    expect((await atWork.call('auth', { token: ARBITER })).param).toEqual({ role: 'arbiter' });
    const guesses = [await served.open(), await served.open(), await served.open()];
    for (let i = 0; i < 10; i++) {
      const c = guesses[i % 3];
      expect((await c.call('auth', { token: `guess-${i}-0123456789` })).param.code).toBe('unauthorized');
    }
    const late = await served.open();
    expect((await late.call('auth', { token: ARBITER })).param.code).toBe('rate-limited');
    expect((await late.call('result', { board: 1, result: '2-0', token: ARBITER })).param.code).toBe(
      'rate-limited',
    );
    await expect(served.open(`?token=${ARBITER}`)).rejects.toThrow('HTTP 429');
    // Another address still gets its token compared.
    const elsewhere = await served.open('', { localAddress: '127.0.0.2' });
    expect((await elsewhere.call('auth', { token: ARBITER })).param).toEqual({ role: 'arbiter' });
    expect(served.hub.calls).toEqual([]);
    // A connection that proved its token before keeps working with it (the console sends it each call).
    expect((await atWork.call('result', { board: 1, result: '2-0', token: ARBITER })).param.ok).toBe(true);
    expect((await atWork.call('auth', { token: ADMIN })).param.code).toBe('rate-limited');
  });

  it('a success is logged with the address and role, never the token', async () => {
    served = await serve();
    await served.open(`?token=${ADMIN}`);
    const c = await served.open();
    await c.call('auth', { token: ARBITER });
    const lines = served.logged.filter((l) => l.msg === 'arbiter authenticated');
    expect(lines.map((l) => [l.obj.role, l.obj.via])).toEqual([
      ['admin', 'url'],
      ['arbiter', 'auth'],
    ]);
    expect(lines.every((l) => l.obj.address === '127.0.0.1')).toBe(true);
    const text = JSON.stringify(served.logged);
    expect(text).not.toContain(ADMIN);
    expect(text).not.toContain(ARBITER);
  });
});

describe('tokens in the configuration', () => {
  const config = (yaml: string, env: NodeJS.ProcessEnv = {}) => {
    const file = join(tempDir(), 'damlink.yaml');
    writeFileSync(file, `boards: [{ source: "tcp://127.0.0.1:9" }]\n${yaml}`);
    return loadConfig({ file, env });
  };

  it('a YAML number, a short token and the example value are errors naming the key', () => {
    const problems = (yaml: string) => {
      const r = config(yaml);
      return r.ok ? [] : r.error;
    };
    expect(problems('tokens: { arbiter: 12345678901234567890 }')).toEqual([
      expect.stringMatching(/damlink\.yaml:\d+ tokens\.arbiter: a number, not text/),
    ]);
    expect(problems('tokens: { admin: "0x1F" }')).toEqual([
      expect.stringMatching(/damlink\.yaml:\d+ tokens\.admin: too short/),
    ]);
    expect(problems('tokens: { arbiter: change-me-arbiter }')).toEqual([
      expect.stringMatching(/damlink\.yaml:\d+ tokens\.arbiter: still the example value/),
    ]);
    expect(problems('tokens: { arbiter: "0123456789012345678" }')).toEqual([]);
  });

  it('environment values are text: a token of digits stays those digits', () => {
    const digits = '12345678901234567890123';
    const r = config('', { DAMLINK_TOKENS__ARBITER: digits, DAMLINK_PORT: '9000' });
    expect(r.ok && r.value.tokens.arbiter).toBe(digits);
    expect(r.ok && r.value.port).toBe(9000);
  });

  it('`damlink run` exits 2 naming the key', async () => {
    const env = { DAMLINK_TOKENS__ADMIN: 'short' };
    const run = await runDaemon(['--board', 'tcp://127.0.0.1:9', '--data-dir', tempDir()], env, /$^/);
    expect(run.code).toBe(2);
    expect(run.err).toContain('DAMLINK_TOKENS__ADMIN: too short');
  });
});

describe('page headers', () => {
  it('CSP on the pages, frame-ancestors none for the console, nosniff and no referrer everywhere', async () => {
    served = await serve({ webRoot: BUILT_IN_WEB_ROOT });
    const get = (path: string) => fetch(`${served!.server.url}${path}`);
    const consolePage = await get('/arbiter');
    const csp = consolePage.headers.get('content-security-policy') ?? '';
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    // The calibration page starts arbiter calls too: never framed.
    const calibration = await get('/calibrate.html');
    expect(calibration.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(calibration.headers.get('x-frame-options')).toBe('DENY');
    const viewer = await get('/');
    expect(viewer.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(viewer.headers.get('content-security-policy')).not.toContain('frame-ancestors');
    for (const res of [consolePage, viewer, await get('/api/v1/boards'), await get('/js/arbiter.js')]) {
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
    }
  });
});
