// A daemon restart that misses 12 plies: the real daemon (journal on disk) is killed after ply 8,
// the board plays on, the daemon comes back and the board's dump is 12 or so plies on. Quiet plies
// that transpose: the tracker raises one `gap` alert with the candidate lines and follows play; the
// arbiter answers with the moves from the score sheet over the WebSocket API, and the served game
// is whole — the lost plies, then every move played since.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulation } from '../../simulator/index.ts';
import { TestClient } from '../daemon/server/fixtures/ws-client.ts';
import {
  cleanUp,
  type Daemon,
  fetchText,
  onCleanup,
  servedGames,
  startDaemon,
  tempDir,
  until,
} from './fixtures/helpers.ts';
import { pdnMoves } from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-gap-1';

// Plies 9–22 are quiet moves whose order the board cannot tell (tested: a 10–14 ply gap from ply 8
// is found within the search's budget), then exchanges.
const GAME =
  '34-30 19-24 30x19 14x23 35-30 10-14 40-34 16-21 33-28 13-19 31-27 21-26 27-21 9-13 21-16 3-9 ' +
  '39-33 18-22 36-31 20-25 44-39 15-20 45-40 12-18 30-24 20x29 33x24 22x35 32-28 19x39';

describe('daemon restart missing a dozen plies (real daemon process, kill -9)', () => {
  it('the gap alert lists the lines; decide with the score-sheet moves; the served game equals the truth', async () => {
    const sim = await startSimulation({
      boards: 1,
      transport: 'tcp',
      speed: 1,
      seed: 4,
      pdnGames: [GAME],
      game: { noise: 'none', thinkMs: 2000 },
    });
    onCleanup(() => sim.stop());
    const board = sim.boards[0].board;
    const dataDir = tempDir('it-gap');
    const config = join(dataDir, 'damlink.yaml');
    writeFileSync(config, `tokens: { arbiter: ${TOKEN} }\n`);
    const start = () => startDaemon([sim.boards[0].address], dataDir, ['--config', config]);
    let daemon: Daemon = await start();
    onCleanup(() => daemon.stop());
    const served = async () => pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0] ?? [];
    await until(async () => ((await served()).length >= 8 ? true : undefined), 60_000, 'eight plies served');
    daemon.proc.kill('SIGKILL');
    await daemon.exited;
    // A restart takes a few seconds on a busy machine: the board plays one or two more meanwhile.
    await until(() => (board.stats.moves >= 19 ? true : undefined), 90_000, 'the board to play on');
    daemon = await start();
    const gap = await until(
      async () => {
        const games = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`));
        return games[0]?.alerts.find((a: { rule: string }) => a.rule === 'gap');
      },
      30_000,
      'the gap alert',
    );
    const truth = GAME.split(' ');
    const lost = gap.candidates[0].length;
    expect(gap.ply).toBe(9);
    expect(lost).toBeGreaterThanOrEqual(10);
    // Nothing after ply 8 is served while the alert is open.
    expect(await served()).toEqual(truth.slice(0, 8));
    const ws = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1?token=${TOKEN}`);
    onCleanup(async () => ws.close());
    const wrong = await ws.call('decide', {
      board: 1,
      alertId: gap.id,
      kind: 'moves',
      pdn: truth.slice(8, 10).join(' '),
    });
    expect(wrong.param.code).toBe('bad-param');
    const answer = await ws.call('decide', {
      board: 1,
      alertId: gap.id,
      kind: 'moves',
      pdn: truth.slice(8, 8 + lost).join(' '),
    });
    expect(answer.param).toEqual({ ok: true });
    await sim.done;
    const [moves] = await servedGames(daemon.url, [truth], 20_000, 'the whole game served', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const snapshot = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`))[0];
    expect(
      snapshot.moves.filter((m: { recovered?: boolean }) => m.recovered).map((m: { ply: number }) => m.ply),
    ).toEqual(Array.from({ length: lost }, (_, i) => 9 + i));
  }, 180_000);
});
