// kill -9 of the daemon at random points of a simulated round, restart, finish: every board's final
// PDN equals what was played — nothing lost (journal + full dump on reconnect), nothing doubled.
import { createRng } from '../../simulator/prng.ts';
import { cpSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import {
  cleanBoards,
  type Daemon,
  fetchText,
  onCleanup,
  pdnMoves,
  removeTempDirs,
  servedGames,
  startDaemon,
  stopAll,
  tempDir,
} from './fixtures/helpers.ts';

// A restart takes 2–5 s on a busy machine; at human speed the boards play on for one or two plies
// meanwhile, which the full dump on reconnect recovers (the tracker reconciles up to 4 plies).
const SPEED = 1;
/** The data dir of a failing run is kept (journal → `damlink export --events` → `damlink replay`). */
let failedDataDir: string | undefined;
afterEach(async () => {
  await stopAll();
  if (failedDataDir) {
    const kept = mkdtempSync(join(tmpdir(), 'damlink-crash-failed-'));
    cpSync(failedDataDir, kept, { recursive: true });
    console.error(`crash test failed: its data dir is kept in ${kept}`);
    failedDataDir = undefined;
  }
  removeTempDirs();
});

/** Seeded so a failure can be replayed. */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

describe('crash recovery (real daemon process, kill -9)', () => {
  it('after kill -9 at random points and a restart, every game equals the truth', async () => {
    const seed = 21;
    const random = rng(seed);
    const sim = await cleanBoards(4, { speed: SPEED, seed, maxPlies: 14, thinkMs: 1500 });
    const dataDir = tempDir('it-crash');
    failedDataDir = dataDir;
    const sources = sim.boards.map((b) => b.address);
    const start = () => startDaemon(sources, dataDir, ['--time-scale', String(SPEED)]);
    let daemon: Daemon = await start();
    onCleanup(() => daemon.stop());
    let kills = 0;
    let finished = false;
    void sim.done.then(() => {
      finished = true;
    });
    while (!finished && kills < 2) {
      await new Promise((r) => setTimeout(r, 4000 + random() * 6000));
      if (finished) break;
      daemon.proc.kill('SIGKILL');
      await daemon.exited;
      kills++;
      daemon = await start();
    }
    await sim.done;
    expect(kills).toBeGreaterThanOrEqual(2);
    const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
    const games = await servedGames(daemon.url, truth, 15_000, 'every game to equal the truth');
    expect(games).toEqual(truth);
    // And a clean restart serves the same games from the journal alone.
    await daemon.stop();
    daemon = await startDaemon(
      sources.map(() => 'tcp://127.0.0.1:1'),
      dataDir,
    );
    expect(pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`))).toEqual(truth);
    failedDataDir = undefined;
  }, 150_000);
});
