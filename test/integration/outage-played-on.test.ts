// A board off its link for 22 plies while the daemon stays up (a radio link, a hub), and the
// players play on long after it is back: no line within the search's budget reaches its dump, so
// the board is unknown-position, and the daemon follows the play from the board the alert shows.
// The arbiter gives the score sheet once the game is over: the served game is whole, the lost
// plies `recovered`, every ply played since as it was seen; a restart replays the same game.
import { spawnSync } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { Position, play, resolveMove } from '../../src/engine/index.ts';
import {
  arbiterClient,
  boardAlert,
  boardWithoutHistory,
  configuredDaemon,
  recoveredPlies,
  scoreSheet,
} from './fixtures/daemon-away.ts';
import { cleanUp, fetchText, pdnMoves, ROOT, servedGames, tempDir } from './fixtures/helpers.ts';

afterEach(cleanUp);

const TOKEN = 'arbiter-secret-played-on-1';
const SPEED = 8;

/** How many plies of `moves` lead to `board` (the first such count past `from`). */
function pliesTo(moves: readonly string[], board: string, from: number): number | undefined {
  let pos = Position.initial('international');
  for (let ply = 0; ply <= moves.length; ply++) {
    if (ply >= from && pos.toBoardString() === board) return ply;
    if (ply === moves.length) break;
    const move = resolveMove(pos, moves[ply]);
    if (!move.ok) return undefined;
    pos = play(pos, move.value);
  }
  return undefined;
}

describe('a board back from 22 lost plies, played on while the arbiter waits (real daemon process)', () => {
  it('the play since the unknown-position is followed: the score sheet makes the served game whole', async () => {
    const sim = await boardWithoutHistory({
      speed: SPEED,
      seed: 21,
      game: { noise: 'none', maxPlies: 80, thinkMs: 2000 },
      outage: { afterPly: 10, plies: 22 },
    });
    const dataDir = tempDir('it-played-on');
    // A small budget: the hopeless search ends within a ply or two, and the game goes on after it.
    const start = configuredDaemon(
      sim.boards[0].address,
      dataDir,
      `tokens: { arbiter: ${TOKEN} }\ngapSearch: { positions: 20000, share: 1 }\n`,
      SPEED,
    );
    let daemon = await start();
    const alert = await boardAlert(daemon, 'unknown-position', 60_000);
    expect(alert.ply).toBe(11);
    await sim.done;
    // The board list says how far the play since has been followed.
    const { boards } = JSON.parse(await fetchText(`${daemon.url}/api/v1/boards`));
    const truth = sim.boards[0].board.games[0].moves.map((m) => m.pdn);
    const shown = pliesTo(truth, alert.boardShown, 32);
    expect(shown).toBeDefined();
    // Plies were played on the board after the alert: the ones the daemon followed.
    expect(truth.length - shown!).toBeGreaterThanOrEqual(20);
    expect(boards[0].following).toEqual({ plies: truth.length - shown! });
    const served = async () => pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0] ?? [];
    expect(await served()).toEqual(truth.slice(0, 10));

    const ws = await arbiterClient(daemon, TOKEN);
    // The whole score sheet, as an arbiter writes it up at the game's end: past the board shown.
    const answer = await scoreSheet(ws, alert.id, truth.slice(10));
    expect(answer.param).toEqual({ ok: true });
    const [moves] = await servedGames(daemon.url, [truth], 20_000, 'the whole game served', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const lost = Array.from({ length: shown! - 10 }, (_, i) => 11 + i);
    expect(await recoveredPlies(daemon.url)).toEqual(lost);

    // The journal replays to the same game, with the round's own search budget: an export
    // without the config (the default budget would not end the search where the daemon did)...
    await daemon.stop();
    const exported = spawnSync(
      process.execPath,
      ['bin/damlink.js', 'export', '--round', '1', '--data-dir', dataDir, '--json'],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(exported.stderr).toBe('');
    const games = JSON.parse(exported.stdout).games as { moves: { pdn: string }[] }[];
    expect(games[0].moves.map((m) => m.pdn)).toEqual(truth);
    // ...and the daemon started again.
    daemon = await start();
    expect(pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))[0]).toEqual(truth);
    expect(await recoveredPlies(daemon.url)).toEqual(lost);
  }, 180_000);
});
