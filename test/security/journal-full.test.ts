// A full disk mid-game, on a real daemon process: the boards are still tracked and broadcast, the
// journal says it is behind (/health 503), arbiter calls are refused with `journal-unavailable`
// (decisions take the same path: durable-decisions.test.ts);
// once space is freed every input kept in memory is written in order and nothing is lost. Past the
// backlog's bound the daemon exits non-zero (to be restarted), and SIGTERM on a full disk exits.
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulation } from '../../simulator/index.ts';
import {
  cleanUp,
  type Daemon,
  onCleanup,
  ROOT,
  startDaemon,
  tempDir,
  until,
} from '../integration/fixtures/helpers.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import { type FullableDisk, fullableDisk } from './fixtures/disk.ts';

const TOKEN = 'journal-full-arbiter-token';

afterEach(cleanUp);

function disk(stays = false): FullableDisk {
  const d = fullableDisk('16m', { stays });
  onCleanup(async () => d.close());
  return d;
}

/** The arbiter's token; `backlog` when the test needs a small one. */
function configFile(backlog?: number): string {
  const file = join(tempDir('journal-full-config'), 'damlink.yaml');
  const journal = backlog === undefined ? '' : `journal:\n  backlog: ${backlog}\n`;
  writeFileSync(file, `tokens:\n  arbiter: ${TOKEN}\n${journal}`);
  return file;
}

interface Health {
  status: number;
  body: { ok: boolean; reason?: string; journal?: { ok: boolean; behind: number } };
}

async function health(url: string): Promise<Health> {
  const res = await fetch(`${url}/health`);
  return { status: res.status, body: (await res.json()) as Health['body'] };
}

async function game(boards: number, maxPlies: number) {
  const sim = await startSimulation({
    boards,
    transport: 'tcp',
    speed: 1,
    seed: 7,
    game: { noise: 'none', maxPlies, thinkMs: 600 },
  });
  onCleanup(() => sim.stop());
  return sim;
}

/** Every move broadcast on the round feed, per board. */
async function spectator(wsUrl: string): Promise<{ moves: Map<number, string[]>; total(): number }> {
  const client = await TestClient.open(wsUrl);
  onCleanup(async () => client.ws.close());
  const moves = new Map<number, string[]>();
  client.ws.on('message', (data) => {
    const m = JSON.parse(data.toString());
    const p = m.param;
    if (m.response !== 'feed') return;
    if (p.kind === 'snapshot')
      moves.set(
        p.board,
        p.snapshot.moves.map((x: { pdn: string }) => x.pdn),
      );
    if (p.kind === 'move') moves.set(p.board, [...(moves.get(p.board) ?? []), p.move.pdn]);
    if (p.kind === 'takeback') moves.set(p.board, (moves.get(p.board) ?? []).slice(0, p.ply));
  });
  await client.call('subscribe', { feed: 'round', id: 'r' });
  return { moves, total: () => [...moves.values()].reduce((n, m) => n + m.length, 0) };
}

const wsOf = (url: string): string => `${url.replace('http', 'ws')}/api/v1`;

/** Exit code, or `what` when the daemon is still running after `ms`. */
const exitWithin = (daemon: Daemon, ms: number, what: string): Promise<number | null | string> =>
  Promise.race([daemon.exited, new Promise<string>((r) => setTimeout(() => r(what), ms))]);

/**
 * A daemon following `boards` games on a disk that is filled once `plies` moves were broadcast;
 * resolves once /health answers 503.
 */
async function fullMidGame(boards: number, maxPlies: number, plies: number, extra: string[], stays = false) {
  const d = disk(stays);
  const sim = await game(boards, maxPlies);
  const daemon = await startDaemon(
    sim.boards.map((b) => b.address),
    d.dir,
    extra,
    d.nodeArgs,
  );
  onCleanup(() => daemon.stop('SIGKILL'));
  const seen = await spectator(wsOf(daemon.url));
  await until(() => seen.total() >= plies, 30_000, 'the first moves');
  d.fill();
  const filled = Date.now();
  const full = await until(
    async () => {
      const h = await health(daemon.url);
      // The log file may fill first; what is awaited is the journal failing.
      return h.status === 503 && h.body.journal?.ok === false ? h : undefined;
    },
    20_000,
    `/health 503 once the disk is full (${d.kind})`,
  );
  return { d, sim, daemon, seen, full, filled };
}

describe('a full disk under a running daemon', () => {
  it('tracks and broadcasts from memory, refuses arbiter calls, then writes everything in order', async () => {
    const { d, sim, daemon, seen, full } = await fullMidGame(2, 24, 4, ['--config', configFile()]);
    expect(full.body.ok).toBe(false);
    expect(full.body.reason).toMatch(/(^|; )journal: failing/);
    expect(full.body.journal?.ok).toBe(false);

    const arbiter = await TestClient.open(wsOf(daemon.url));
    onCleanup(async () => arbiter.ws.close());
    // The console asks as the arbiter: the reason in words.
    const report = await arbiter.call('health', { token: TOKEN });
    expect(report.param.reason).toMatch(/journal: SQLITE_(FULL|IOERR)/);
    for (const [call, param] of [
      ['result', { board: 1, result: '1-1' }],
      ['info', { board: 1, info: { white: 'Someone Else' } }],
    ] as const) {
      const answer = await arbiter.call(call, { ...param, token: TOKEN });
      expect({ call, response: answer.response, code: answer.param?.code }).toEqual({
        call,
        response: 'error',
        code: 'journal-unavailable',
      });
    }

    // The game goes on, from memory, while the journal is behind.
    const atFull = seen.total();
    await until(() => seen.total() >= atFull + 3, 30_000, 'moves broadcast while the disk is full');
    const behind = await health(daemon.url);
    expect(behind.status).toBe(503);
    expect(behind.body.journal?.behind).toBeGreaterThan(0);

    d.free();
    await until(
      async () => ((await health(daemon.url)).status === 200 ? true : undefined),
      20_000,
      '/health 200 once space is freed',
    );
    await sim.done;
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    const broadcast = () => sim.boards.map((_, i) => seen.moves.get(i + 1));
    await until(
      () => (JSON.stringify(broadcast()) === JSON.stringify(truth) ? true : undefined),
      15_000,
      'every move broadcast',
    );
    await daemon.stop('SIGTERM');
    expect(await daemon.exited).toBe(0);

    // The journal holds every move that was broadcast, in order: the arbiter calls changed nothing.
    const exported = spawnSync(
      process.execPath,
      ['bin/damlink.js', 'export', '--round', '1', '--data-dir', d.dir, '--json'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(exported.stderr).toBe('');
    const games = JSON.parse(exported.stdout).games as {
      moves: { pdn: string }[];
      info: { white?: string };
    }[];
    expect(games.map((g) => g.moves.map((m) => m.pdn))).toEqual(broadcast());
    expect(games.map((g) => g.moves.map((m) => m.pdn))).toEqual(truth);
    expect(games[0].info.white).not.toBe('Someone Else');
  }, 120_000);

  it('exits non-zero within seconds once the inputs kept in memory pass journal.backlog', async () => {
    const { daemon, filled } = await fullMidGame(4, 60, 2, ['--config', configFile(200)]);
    const code = await exitWithin(daemon, 60_000, 'still running');
    expect(code).not.toBe('still running');
    expect(code).not.toBe(0);
    expect(daemon.stderr()).toMatch(/journal\.backlog \(200\)/);
    expect(Date.now() - filled).toBeLessThan(60_000);
  }, 120_000);

  it('stops on SIGTERM while the disk is full', async () => {
    // A disk that stays full: on tmpfs the last write at the stop can find freed space, and then
    // rightly exits 0 with nothing lost.
    const { daemon } = await fullMidGame(2, 60, 2, ['--config', configFile(), '--log-level', 'info'], true);
    // Inputs kept in memory first: on a loaded machine the failing write can be the last one before
    // the stop, and a stop with nothing unwritten rightly exits 0.
    await until(
      async () => ((await health(daemon.url)).body.journal?.behind ?? 0) > 0,
      20_000,
      'inputs kept in memory while the disk is full',
    );
    const asked = Date.now();
    daemon.proc.kill('SIGTERM');
    const code = await exitWithin(daemon, 10_000, 'hung');
    // Inputs the journal could not write: said, and a failure exit, not a silent success.
    expect(code).toBe(1);
    expect(daemon.stderr()).toMatch(/could not write/);
    expect(Date.now() - asked).toBeLessThan(10_000);
  }, 120_000);
});
