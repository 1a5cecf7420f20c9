// The thread of game-pool.ts: makes the games asked for (simulateGame is pure and seeded, so a
// game made here is the very game the boards' own thread would have made).
import { parentPort } from 'node:worker_threads';
import { type SimulateGameOptions, simulateGame } from './game.ts';

parentPort!.on('message', ({ id, options }: { id: number; options: SimulateGameOptions }) => {
  try {
    parentPort!.postMessage({ id, game: simulateGame(options) });
  } catch (e) {
    parentPort!.postMessage({ id, error: String((e as Error).stack ?? e) });
  }
});
