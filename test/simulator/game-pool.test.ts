// Later games are made in a thread: they must be the very games the boards' own thread would make
// (same seed, same start), and a stopped pool must not leave a board waiting forever.
import { describe, expect, it } from 'vitest';
import { simulateGame } from '../../simulator/game.ts';
import { GamePool } from '../../simulator/game-pool.ts';

describe('game pool', () => {
  it('makes in its thread exactly the game simulateGame makes here', async () => {
    const pool = new GamePool();
    try {
      const options = { seed: 42, maxPlies: 30, noise: 'realistic' as const, startT: 12_345 };
      const [a, b] = await Promise.all([pool.make(options), pool.make({ ...options, seed: 43 })]);
      expect(a).toEqual(simulateGame(options));
      expect(b).toEqual(simulateGame({ ...options, seed: 43 }));
      expect(a).not.toEqual(b);
    } finally {
      await pool.stop();
    }
  });

  it('answers a game still being made with none when stopped', async () => {
    const pool = new GamePool();
    const pending = pool.make({ seed: 1, maxPlies: 200 });
    await pool.stop();
    expect(await pending).toBeUndefined();
  });
});
