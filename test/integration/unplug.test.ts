// A board unplugged in the middle of a capture and plugged back 5 s later: the game goes on, the
// capture (made while unplugged) is recognised from the full dump, and no alert is raised for the gap.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulation } from '../../simulator/index.ts';
import {
  boardProxy,
  fetchText,
  pdnMoves,
  startDaemon,
  tempDir,
  servedGames,
  until,
  cleanUp,
  onCleanup,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

// Ply 3 is a capture (28x19); black recaptures at once.
const GAME = '1. 32-28 19-23 2. 28x19 14x23 3. 37-32 10-14 4. 41-37 5-10 5. 46-41 20-24 *';

describe('board unplugged mid-capture (real daemon process)', () => {
  it('recovers the capture from the dump after 5 s, with no false alert', async () => {
    const sim = await startSimulation({
      boards: 1,
      transport: 'tcp',
      speed: 1,
      seed: 3,
      pdnGames: [GAME],
      game: { noise: 'none', thinkMs: 2500 },
    });
    onCleanup(() => sim.stop());
    let presses = 0;
    let unpluggedAt: number | undefined;
    const proxy = await boardProxy(sim.boards[0].address, (line) => {
      if (line.startsWith('press ')) presses++;
      // The capturing man has just been lifted: pull the plug now.
      if (line.startsWith('lift ') && presses === 2 && unpluggedAt === undefined) {
        unpluggedAt = Date.now();
        proxy.unplug(5000);
      }
    });
    onCleanup(() => proxy.close());
    const dataDir = tempDir('it-unplug');
    const daemon = await startDaemon([proxy.address], dataDir);
    onCleanup(() => daemon.stop());
    const url = `${daemon.url}/rounds/1/games.pdn`;

    await until(() => (unpluggedAt !== undefined ? true : undefined), 20_000, 'the capture to start');
    const board = async () => JSON.parse(await fetchText(`${daemon.url}/api/v1/boards`)).boards[0];
    await until(
      async () => ((await board()).state === 'lost' ? true : undefined),
      8_000,
      'the board to be lost',
    );
    expect(pdnMoves(await fetchText(url))[0]).toEqual(['32-28', '19-23']);

    await sim.done;
    const truth = sim.boards[0].board.games[0].moves.map((m) => m.pdn);
    expect(truth[2]).toBe('28x19');
    const [moves] = await servedGames(daemon.url, [truth], 10_000, 'the game to continue to its end', () =>
      daemon.stderr().slice(-2000),
    );
    expect(moves).toEqual(truth);
    const after = await board();
    expect(after.state).toBe('active');
    expect(after.openAlerts).toBe(0);
    expect(await fetchText(url)).not.toMatch(/arbiter: pending/);
  }, 90_000);
});
