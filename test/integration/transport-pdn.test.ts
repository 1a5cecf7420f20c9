// Simulator boards → the daemon (a real process) over tcp and over a socat PTY via serialport:
// the round's games.pdn equals what the simulator played.
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulation, type Simulation } from '../../simulator/index.ts';
import {
  type Daemon,
  fetchText,
  startDaemon,
  tempDir,
  servedGames,
  cleanUp,
  onCleanup,
} from './fixtures/helpers.ts';

// Fast enough for CI, slow enough that the daemon's receive times keep human-scale gaps on a busy machine.
const SPEED = 5;

afterEach(cleanUp);

async function playRound(transport: 'tcp' | 'pty', boards: number, seed: number): Promise<void> {
  const sim: Simulation = await startSimulation({
    boards,
    transport,
    speed: SPEED,
    seed,
    game: { noise: 'none', maxPlies: 16, thinkMs: 1500 },
  });
  onCleanup(() => sim.stop());
  const daemon: Daemon = await startDaemon(
    sim.boards.map((b) => (transport === 'pty' ? `serial:${b.address}` : b.address)),
    tempDir(`it-${transport}`),
    // The daemon's clock runs as fast as the simulated people play.
    ['--time-scale', String(SPEED)],
  );
  onCleanup(() => daemon.stop());
  await sim.done;
  const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
  expect(truth.every((moves) => moves.length >= 12)).toBe(true);
  const served = await servedGames(daemon.url, truth, 10_000, 'games.pdn to match the simulated games');
  expect(served).toEqual(truth);
  const boardsJson = JSON.parse(await fetchText(`${daemon.url}/api/v1/boards`));
  const serials = (boardsJson.boards ?? boardsJson).map((b: { serial?: string }) => b.serial);
  expect(serials).toEqual(sim.boards.map((b) => b.serial));
}

describe('boards in, PDN out (real daemon process)', () => {
  it('over tcp: games.pdn equals the simulated games', async () => {
    await playRound('tcp', 3, 11);
  }, 90_000);

  it('over a socat PTY through serialport: games.pdn equals the simulated games', async () => {
    await playRound('pty', 2, 12);
  }, 90_000);
});
