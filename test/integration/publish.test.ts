// Publishing beyond the hall against real servers on loopback: a local folder, OpenSSH's sftp
// server with a key, vsftpd. Files follow the moves, carry the routes' names and contents, catch
// up after a server went away, and wrong credentials show in /health without the secret.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { PublishConfig, PublishTarget } from '../../daemon/config/index.ts';
import { type Publishing, startPublishing } from '../../daemon/publish/index.ts';
import { startServer } from '../../daemon/server/index.ts';
import { player } from '../src/game/fixtures/helpers.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { type PublishServer, startSshd, startVsftpd } from './fixtures/file-servers.ts';
import {
  arbiterHealth,
  cleanBoards,
  cleanUp,
  fetchText,
  onCleanup,
  startDaemon,
  tempDir,
  until,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

const ROUND_FILES = ['games.pdn', 'games.json', 'index.json', '1.pdn', '2.pdn', 'game-1.PDN', 'game-2.PDN'];

interface Logged {
  level: string;
  obj: object;
  msg: string;
}

const HALL_TOKEN = 'hall-arbiter-token-0123';

/** A round of 2 boards published to `targets`, served over HTTP too, with /health. */
async function hall(targets: PublishTarget[], timing: Partial<PublishConfig> = {}) {
  const hub = new FakeHub(2, 3, { event: 'Loopback Open' });
  const logged: Logged[] = [];
  const log = {
    info: (obj: object, msg: string) => logged.push({ level: 'info', obj, msg }),
    warn: (obj: object, msg: string) => logged.push({ level: 'warn', obj, msg }),
  };
  const config: PublishConfig = {
    targets,
    coalesceMs: 100,
    retry: { firstMs: 200, maxMs: 1000 },
    timeoutMs: 3000,
    ...timing,
  };
  const publishing: Publishing = startPublishing({ hub, config, log });
  onCleanup(() => publishing.stop());
  const server = await startServer({
    hub,
    port: 0,
    tokens: { arbiter: HALL_TOKEN },
    health: () => ({ publish: publishing.state() }),
  });
  onCleanup(() => server.close());
  const players = [player(), player()];
  let t = 0;
  // biome-ignore lint/suspicious/noExplicitAny: /health is checked field by field
  const health = async (): Promise<any> => arbiterHealth(server.url, HALL_TOKEN);
  return {
    hub,
    logged,
    publishing,
    move: (board: number, text: string) => hub.feed(board, players[board - 1].move(text, ++t * 1000)),
    route: async (name: string) => (await fetch(`${server.url}/rounds/3/${name}`)).text(),
    health,
    url: server.url,
    /** The target's state once it has failed `n` tries in a row. */
    failed: (n: number) =>
      until(
        async () => {
          const s = (await health()).publish[0];
          return s.failures >= n ? s : undefined;
        },
        10_000,
        `${n} failed tries reported`,
      ),
  };
}

const read = (root: string, name: string) => {
  const path = join(root, 'rounds', '3', name);
  return existsSync(path) ? readFileSync(path, 'utf8') : undefined;
};

/** Waits until the published file holds `text` (how soon is the publish bench's business). */
async function landed(root: string, name: string, text: string, ms = 10_000): Promise<void> {
  await until(() => read(root, name)?.includes(text), ms, `${name} in ${root} holds ${text}`);
}

/** Every route of the round and its published copy are the same bytes. */
async function sameAsRoutes(root: string, route: (name: string) => Promise<string>) {
  expect(readdirSync(join(root, 'rounds', '3')).sort()).toEqual([...ROUND_FILES].sort());
  for (const name of ROUND_FILES) expect(read(root, name), name).toBe(await route(name));
}

describe('publish: local folder', () => {
  it('holds the routes of the round under the same names, replaced whole, after each move', async () => {
    const root = tempDir('published');
    const h = await hall([{ kind: 'directory', path: root }]);
    await landed(root, 'games.pdn', '[Event "Loopback Open"]');
    h.move(1, '32-28');
    h.move(2, '33-29');
    await landed(root, 'game-2.PDN', '1. 33-29 *');
    await until(async () => (await h.health()).publish[0].pending === 0, 5000, 'nothing pending');
    await sameAsRoutes(root, h.route);
    const state = (await h.health()).publish[0];
    expect(state).toMatchObject({ target: `directory ${root}`, pending: 0, lastError: null, failures: 0 });
    expect(state.lastSuccess).toBeGreaterThan(Date.now() - 10_000);
  });

  it('a name with a newline and quotes stays one tag line lidraughts keeps whole, served and published', async () => {
    const root = tempDir('published');
    const h = await hall([{ kind: 'directory', path: root }]);
    await h.hub.setInfo(1, { white: 'Anna\nvan "Dam"' });
    await landed(root, '1.pdn', `[White "Anna van 'Dam'"]`);
    const served = await h.route('games.pdn');
    expect(served).toContain(`[White "Anna van 'Dam'"]\n[Black `);
    expect(served.split('\n').filter((l) => l.startsWith('[White '))).toHaveLength(2);
  });
});

interface Remote {
  name: string;
  start: () => Promise<PublishServer>;
  /** What the server says to the refused login. */
  refusal: RegExp;
}

const SECRET = 'not-the-password-42';

const remotes: Remote[] = [
  { name: 'SFTP (OpenSSH, key)', start: startSshd, refusal: /authentication/i },
  { name: 'FTP (vsftpd)', start: () => startVsftpd(), refusal: /530/ },
  { name: 'FTPS (vsftpd, explicit TLS)', start: () => startVsftpd({ tls: true }), refusal: /530/ },
];

describe.each(remotes)('publish: $name on loopback', (remote) => {
  it('uploads the round after each move, the same bytes as the routes', async () => {
    const server = await remote.start();
    onCleanup(() => server.stop());
    const h = await hall([server.target()]);
    await landed(server.root, 'games.pdn', '[Round "3"]');
    h.move(1, '32-28');
    await landed(server.root, '1.pdn', '1. 32-28 *');
    h.move(1, '19-23');
    h.move(2, '31-27');
    await landed(server.root, 'games.pdn', '1. 31-27 *');
    await until(async () => (await h.health()).publish[0].pending === 0, 5000, 'nothing pending');
    await sameAsRoutes(server.root, h.route);
    expect((await h.health()).publish[0]).toMatchObject({ pending: 0, lastError: null });
  });

  it('a server gone for 3 s: the failure shows in /health, then the files catch up', async () => {
    const server = await remote.start();
    onCleanup(() => server.stop());
    const h = await hall([server.target()]);
    h.move(1, '32-28');
    await landed(server.root, '1.pdn', '32-28');
    await server.stop();
    h.move(1, '19-23');
    h.move(2, '34-30');
    const failing = await h.failed(2);
    expect(failing.pending).toBeGreaterThan(0);
    expect(failing.lastError.message).not.toBe('');
    expect(failing.retryAt).toBeGreaterThan(failing.lastError.at);
    expect(read(server.root, '1.pdn')).not.toContain('19-23');
    await new Promise((r) => setTimeout(r, 3000));
    await server.start();
    await landed(server.root, 'game-2.PDN', '1. 34-30 *');
    await until(async () => (await h.health()).publish[0].pending === 0, 5000, 'caught up');
    await sameAsRoutes(server.root, h.route);
    expect(h.logged.some((l) => l.msg === 'publish target caught up')).toBe(true);
  });

  it('wrong credentials: reported in /health, retried, the secret in no message', async () => {
    const server = await remote.start();
    onCleanup(() => server.stop());
    const h = await hall([server.refused(SECRET)]);
    const state = await h.failed(2);
    expect(state.lastError.message).toMatch(remote.refusal);
    expect(state.lastSuccess).toBeNull();
    // The round's files and the event's list of rounds (rounds/index.json).
    expect(state.pending).toBe(ROUND_FILES.length + 1);
    expect(JSON.stringify(await h.health())).not.toContain(SECRET);
    // The public /health says the target fails, not where it is nor why.
    const shown = await (await fetch(`${h.url}/health`)).text();
    expect(JSON.parse(shown).publish).toEqual([
      expect.objectContaining({ status: 'failing', pending: ROUND_FILES.length + 1 }),
    ]);
    expect(shown).not.toContain(state.target);
    expect(shown).not.toContain(state.lastError.message);
    expect(JSON.stringify(h.logged)).not.toContain(SECRET);
    expect(h.logged.filter((l) => l.msg === 'publish failed').length).toBeGreaterThanOrEqual(2);
  });
});

describe('publish: the server is who it claims', () => {
  it('an FTPS server whose certificate is not trusted is refused', async () => {
    const server = await startVsftpd({ tls: true });
    onCleanup(() => server.stop());
    const h = await hall([{ ...server.target(), ca: undefined } as PublishTarget]);
    const state = await h.failed(1);
    expect(state.lastError.message).toMatch(/self-signed certificate/);
    expect(existsSync(join(server.root, 'rounds'))).toBe(false);
  });

  it('an SFTP server whose host key is not the configured fingerprint is refused', async () => {
    const server = await startSshd();
    onCleanup(() => server.stop());
    const h = await hall([
      { ...server.target(), hostFingerprint: `SHA256:${'A'.repeat(43)}` } as PublishTarget,
    ]);
    const state = await h.failed(1);
    expect(state.lastError.message).toMatch(/host/i);
    expect(existsSync(join(server.root, 'rounds'))).toBe(false);
  });
});

/** An SSH server posing as the club's (ssh2's Server, its own host key) that notes every login it is offered. */
async function posingSshServer() {
  const { Server, utils } = await import('ssh2');
  const offered: string[] = [];
  // ECDSA: ssh2 writes about one ed25519 key in 250 with a 31-byte public key, which its own
  // Server then refuses as malformed.
  const hostKey = utils.generateKeyPairSync('ecdsa', { bits: 256 }).private;
  const server = new Server({ hostKeys: [hostKey] }, (client) => {
    client.on('authentication', (ctx) => {
      offered.push(ctx.method === 'password' ? `password ${ctx.password}` : ctx.method);
      ctx.reject();
    });
    client.on('error', () => {});
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  onCleanup(() => new Promise<void>((resolve) => server.close(() => resolve())));
  const port = (server.address() as { port: number }).port;
  return {
    offered,
    target: (more: object) =>
      ({
        kind: 'sftp',
        host: '127.0.0.1',
        port,
        user: 'club',
        password: SECRET,
        dir: '.',
        ...more,
      }) as PublishTarget,
  };
}

describe('publish: no login before the server is known', () => {
  it('SFTP without a host key to check is refused before the password goes out', async () => {
    const posing = await posingSshServer();
    const h = await hall([posing.target({})]);
    const state = await h.failed(2);
    expect(state.lastError.message).toMatch(/host/i);
    expect(posing.offered).toEqual([]);
  });

  it('a known_hosts file: the server it lists is published to, a server posing as it gets no password', async () => {
    const server = await startSshd();
    onCleanup(() => server.stop());
    const knownHosts = join(tempDir('known-hosts'), 'known_hosts');
    writeFileSync(knownHosts, `# the club's server\n${server.knownHostsLine}\n`);
    const { hostFingerprint: _, ...byFile } = server.target() as Extract<PublishTarget, { kind: 'sftp' }>;
    const h = await hall([{ ...byFile, knownHosts }]);
    await landed(server.root, 'games.pdn', '[Round "3"]');
    const posing = await posingSshServer();
    const other = await hall([posing.target({ knownHosts })]);
    const state = await other.failed(1);
    expect(state.lastError.message).toMatch(/not in .*known_hosts for this host/);
    expect(posing.offered).toEqual([]);
    expect(h.logged.filter((l) => l.level === 'warn')).toEqual([]);
  });

  it('acceptAnyHostKey: spelled out, then the login goes to whoever answers, with a warning at start', async () => {
    const posing = await posingSshServer();
    const h = await hall([posing.target({ acceptAnyHostKey: true })]);
    await h.failed(1);
    expect(posing.offered).toContain(`password ${SECRET}`);
    expect(h.logged).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/host key is not checked/) }),
    );
  });

  it('plain FTP, named (secure: false), is a warning at start', async () => {
    const server = await startVsftpd();
    onCleanup(() => server.stop());
    const h = await hall([server.target()]);
    await landed(server.root, 'games.pdn', '[Round "3"]');
    expect(h.logged).toContainEqual(
      expect.objectContaining({ level: 'warn', msg: expect.stringMatching(/plain FTP/) }),
    );
  });
});

describe('publish: damlink run with publish: in its config (real daemon process)', () => {
  it('a played round lands in a folder and over SFTP, the same as served; /health shows both', async () => {
    const ssh = await startSshd();
    onCleanup(() => ssh.stop());
    const folder = tempDir('published');
    const dataDir = tempDir('publish-run');
    const config = join(dataDir, 'hall.json');
    const sftp = ssh.target();
    writeFileSync(
      config,
      JSON.stringify({ round: 1, publish: { targets: [{ kind: 'directory', path: folder }, sftp] } }),
    );
    const sim = await cleanBoards(2, { speed: 5, seed: 21, maxPlies: 8, thinkMs: 1000 });
    const daemon = await startDaemon(
      sim.boards.map((b) => b.address),
      dataDir,
      ['--config', config, '--time-scale', '5'],
    );
    onCleanup(() => daemon.stop());
    await sim.done;
    const last = sim.boards[1].board.games[0].moves.at(-1)!.pdn;
    const served = await until(
      async () => {
        const text = await fetchText(`${daemon.url}/rounds/1/games.pdn`);
        return text.includes(` ${last} `) ? text : undefined;
      },
      10_000,
      'the last move served',
    );
    const file = (root: string) => join(root, 'rounds', '1', 'games.pdn');
    await until(
      () => [folder, ssh.root].every((r) => existsSync(file(r)) && readFileSync(file(r), 'utf8') === served),
      5000,
      'both targets hold the served games.pdn',
    );
    const token = readFileSync(join(dataDir, 'admin-token'), 'utf8').trim();
    const health = await arbiterHealth(daemon.url, token);
    expect(health.publish.map((t: { target: string }) => t.target)).toEqual([
      `directory ${folder}`,
      `sftp://${ssh.user}@127.0.0.1:${ssh.port}/${ssh.root.slice(1)}`,
    ]);
    expect(health.publish.every((t: { lastError: unknown }) => t.lastError === null)).toBe(true);
    // Anyone's /health: the targets' states, not where they are. A later change (a clock, the
    // game's end) may still be on its way to a target, so wait for both to settle.
    const settled = (text: string) =>
      JSON.parse(text).publish.every(
        (t: { status: string; pending: number }) => t.status === 'ok' && t.pending === 0,
      );
    const shown = await until(
      async () => {
        const text = await fetchText(`${daemon.url}/health`);
        return settled(text) ? text : undefined;
      },
      5000,
      'both targets settled in /health',
    );
    expect(JSON.parse(shown).publish).toEqual([
      expect.objectContaining({ status: 'ok', pending: 0, failures: 0 }),
      expect.objectContaining({ status: 'ok', pending: 0, failures: 0 }),
    ]);
    expect(shown).not.toContain(folder);
    expect(shown).not.toContain('sftp://');
    await daemon.stop();
    expect(daemon.proc.exitCode).toBe(0);
  }, 90_000);
});
