// A daemon away for 22 plies, more than any gap search looks for (20): the real daemon (journal on
// disk) is killed after ply 8 and comes back once the board has played the game to its end. Its
// search spends the dump's budget without a line, the board is unknown-position with the board it
// shows, and the arbiter records the moves from the score sheet over the WebSocket API: the served
// game is whole, the lost plies marked recovered, and it stays so across a restart.
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
  pdnMoves,
  servedGames,
  startDaemon,
  tempDir,
  until,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-outage-1';
const SPEED = 4;
const GAME =
  '34-30 19-24 30x19 14x23 35-30 10-14 40-34 16-21 33-28 13-19 31-27 21-26 27-21 9-13 21-16 3-9 ' +
  '39-33 18-22 36-31 20-25 44-39 15-20 45-40 12-18 30-24 20x29 33x24 22x35 32-28 19x39';

describe('a daemon away for 22 plies (real daemon process, kill -9)', () => {
  it('unknown-position with the board shown; the score-sheet moves make the served game whole', async () => {
    const sim = await startSimulation({
      boards: 1,
      transport: 'tcp',
      speed: SPEED,
      seed: 4,
      pdnGames: [GAME],
      game: { noise: 'none', thinkMs: 2000 },
    });
    onCleanup(() => sim.stop());
    const board = sim.boards[0].board;
    const truth = GAME.split(' ');
    const dataDir = tempDir('it-outage');
    const config = join(dataDir, 'damlink.yaml');
    // The whole of a core for the searches: the hopeless one ends sooner.
    writeFileSync(config, `tokens: { arbiter: ${TOKEN} }\ngapSearch: { share: 1 }\n`);
    const start = () =>
      startDaemon([sim.boards[0].address], dataDir, ['--config', config, '--time-scale', String(SPEED)]);
    let daemon: Daemon = await start();
    onCleanup(() => daemon.stop());
    const served = async () => pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0] ?? [];
    await until(async () => ((await served()).length >= 8 ? true : undefined), 60_000, 'eight plies served');
    daemon.proc.kill('SIGKILL');
    await daemon.exited;
    await sim.done;
    expect(board.stats.moves).toBe(truth.length);
    daemon = await start();
    const alert = await until(
      async () => {
        const games = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`));
        return games[0]?.alerts.find((a: { rule: string }) => a.rule === 'unknown-position');
      },
      90_000,
      'the unknown-position alert',
    );
    expect(alert.ply).toBe(9);
    expect(typeof alert.boardShown).toBe('string');
    expect(await served()).toEqual(truth.slice(0, 8));
    const ws = await TestClient.open(`${daemon.url.replace('http', 'ws')}/api/v1?token=${TOKEN}`);
    onCleanup(async () => ws.close());
    const short = await ws.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: truth.slice(8, 29).join(' '),
    });
    expect(short.param).toEqual({
      code: 'bad-param',
      message: 'these moves do not lead to the position on the board',
    });
    const answer = await ws.call('decide', {
      board: 1,
      alertId: alert.id,
      kind: 'moves',
      pdn: truth.slice(8).join(' '),
    });
    expect(answer.param).toEqual({ ok: true });
    const [moves] = await servedGames(daemon.url, [truth], 20_000, 'the whole game served', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const recovered = (url: string) =>
      fetchText(`${url}/api/v1/games`).then((text) =>
        JSON.parse(text)[0]
          .moves.filter((m: { recovered?: boolean }) => m.recovered)
          .map((m: { ply: number }) => m.ply),
      );
    const lost = Array.from({ length: truth.length - 8 }, (_, i) => 9 + i);
    expect(await recovered(daemon.url)).toEqual(lost);
    // The journal replays to the same game.
    await daemon.stop();
    daemon = await start();
    expect(pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0]).toEqual(truth);
    expect(await recovered(daemon.url)).toEqual(lost);
  }, 180_000);
});
