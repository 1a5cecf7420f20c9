// Boards that remember nothing (line protocol 1.0, `--no-history`), the real daemon killed with -9
// while they play on at 10×, restarted, and nobody answering alerts: the search bridges each gap of
// a dozen plies and more while the players go on (their moves read from the line found), a gap with
// several lines is published with its first line provisional, and every published game reads as a
// legal game that ends on the position the board shows, with every ply played.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { parsePdn, Position, play, resolveMove, writeFen } from '../../src/engine/index.ts';
import { downWhilePlaying } from './fixtures/down-while-playing.ts';
import {
  cleanBoards,
  cleanUp,
  type Daemon,
  fetchText,
  onCleanup,
  pdnMoves,
  startDaemon,
  tempDir,
  until,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

const SPEED = 10;
/**
 * A ply every second of wall time at SPEED: the daemon's restart (about a second, several on a
 * loaded machine) adds a ply or a few to the gap, not a dozen.
 */
const THINK_MS = 10_000;

/** The position after these moves from the start, or undefined when one is not legal. */
function finalFen(moves: readonly string[]): string | undefined {
  let pos = Position.initial();
  for (const text of moves) {
    const move = resolveMove(pos, text);
    if (!move.ok) return undefined;
    pos = play(pos, move.value);
  }
  return writeFen(pos);
}

describe('boards that remember nothing, through a kill -9 (real daemon process)', () => {
  it('every published game is legal, ends on the true final position with every ply, no arbiter needed', async () => {
    const sim = await cleanBoards(2, {
      speed: SPEED,
      seed: 5,
      history: false,
      maxPlies: 40,
      thinkMs: THINK_MS,
    });
    const dataDir = tempDir('it-no-history');
    const config = join(dataDir, 'damlink.yaml');
    writeFileSync(config, 'gapSearch: { share: 1, positions: 6000000 }\n');
    const start = async () => {
      const d = await startDaemon(
        sim.boards.map((b) => b.address),
        dataDir,
        ['--config', config, '--time-scale', String(SPEED)],
      );
      onCleanup(() => d.stop());
      return d;
    };
    const served = async (d: Daemon) => pdnMoves(await fetchText(`${d.url}/rounds/1/games.pdn`));
    // Down for a dozen plies: the restart itself adds none on a fast start.
    const daemon = await downWhilePlaying(sim, await start(), start, 6, 12);
    await sim.done;
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    await until(
      async () => {
        const games = await served(daemon);
        return games.every((g, i) => g.length === truth[i].length && finalFen(g) === finalFen(truth[i]))
          ? true
          : undefined;
      },
      90_000,
      'every game published whole',
    ).catch(async (e) => {
      console.error(
        JSON.stringify(await served(daemon)),
        JSON.stringify(truth),
        daemon.stderr().slice(-2000),
        await fetchText(`${daemon.url}/api/v1/boards`),
        JSON.stringify(
          JSON.parse(await fetchText(`${daemon.url}/api/v1/games`)).map(
            (g: {
              alerts: { rule: string; ply: number; message: string; boardShown?: string }[];
              moves: unknown[];
            }) => [g.moves.length, g.alerts.map((a) => [a.rule, a.ply, a.message, a.boardShown])],
          ),
        ),
      );
      throw e;
    });
    // Read as a strict reader would: every game legal from its start.
    const pdn = await fetchText(`${daemon.url}/rounds/1/games.pdn`);
    const parsed = parsePdn(pdn);
    expect(parsed.errors).toEqual([]);
    expect(parsed.games.map((g) => g.moves.length)).toEqual(truth.map((t) => t.length));
    // The only alerts are gaps nobody answered; each one's first line is published provisional.
    const games = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`)) as {
      alerts: { rule: string }[];
      moves: { provisional?: true; recovered?: true }[];
    }[];
    for (const g of games) {
      // A dozen plies and more bridged by the search, not by moves seen.
      expect(g.moves.filter((m) => m.recovered).length).toBeGreaterThanOrEqual(12);
      expect(g.alerts.every((a) => a.rule === 'gap')).toBe(true);
      expect(g.moves.some((m) => m.provisional)).toBe(g.alerts.length > 0);
    }
  }, 240_000);
});
