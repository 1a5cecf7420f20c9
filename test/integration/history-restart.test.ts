// Never lose a move: four simulated boards that remember (line protocol 1.1, or DGT boards and their
// EEPROM record) over TCP at 10×, the real daemon killed with -9 once every board has a few plies
// served, kept down while the boards play a dozen plies more, then started again with nobody
// answering alerts. Every board is asked for the
// changes it missed and every game is served whole, with no alert and no search; the journal holds
// the recalled changes with the boards' own intervals.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { downWhilePlaying } from './fixtures/down-while-playing.ts';
import {
  cleanBoards,
  cleanUp,
  fetchText,
  onCleanup,
  servedGames,
  startDaemon,
  tempDir,
} from './fixtures/helpers.ts';

afterEach(cleanUp);

const SPEED = 10;
/** Game time per move: 2 s thinking is 0.2 s at SPEED; a dozen plies take about 3 s of wall time. */
const THINK_MS = 2000;

describe('boards that remember, through a kill -9 of the daemon (real daemon process)', () => {
  it.each([
    ['line boards with history (protocol 1.1)', 'line'],
    ['DGT boards (their EEPROM record)', 'dgt'],
  ] as const)(
    '%s: every game whole after the restart; the missed changes recalled, no alert, no search',
    async (_, protocol) => {
      const sim = await cleanBoards(4, { protocol, speed: SPEED, seed: 31, maxPlies: 60, thinkMs: THINK_MS });
      const dataDir = tempDir(`it-history-${protocol}`);
      // A tcp:// board speaks the line protocol unless the configuration says otherwise.
      const config = join(dataDir, 'damlink.yaml');
      const boards = sim.boards.map(
        (b) => `  - { source: "${b.address}", protocol: { name: ${protocol} } }\n`,
      );
      writeFileSync(config, `boards:\n${boards.join('')}`);
      const start = async () => {
        const d = await startDaemon([], dataDir, ['--config', config, '--time-scale', String(SPEED)]);
        onCleanup(() => d.stop());
        return d;
      };
      // A dozen plies on every board while nobody listens.
      const daemon = await downWhilePlaying(sim, await start(), start, 6, 12);
      await sim.done;
      const truth = sim.boards.map((b) => b.board.games[0].moves.map((m) => m.pdn));
      await servedGames(daemon.url, truth, 60_000, 'every game served whole', () =>
        daemon.stderr().slice(-3000),
      );
      const games = JSON.parse(await fetchText(`${daemon.url}/api/v1/games`)) as { alerts: unknown[] }[];
      expect(games.map((g) => g.alerts)).toEqual(sim.boards.map(() => []));
      await daemon.stop();
      // What the restart recalled: changes of every board, each at its board's own interval.
      const db = new Database(join(dataDir, 'journal.sqlite'), { readonly: true });
      // Every input: a board that came back twice has its connection's states between the answers.
      const rows = db.prepare('SELECT board, t, kind, data FROM journal ORDER BY id').all() as {
        board: number;
        t: number;
        kind: string;
        data: string;
      }[];
      // No gap search ran (each one that ends is kept there).
      const searches = db.prepare('SELECT COUNT(*) AS n FROM searches').get() as { n: number };
      db.close();
      expect(searches.n).toBe(0);
      // Each board's event rows, split into the runs of recalled changes one answer brought (a board
      // may come back more than once on a loaded machine: each answer is timed against its own end).
      type Recalled = { t: number; event: { type: string; stamp: { ms: number } } };
      const runs = new Map<number, Recalled[][]>();
      for (const r of rows) {
        const event = r.kind === 'event' ? JSON.parse(r.data).event : undefined;
        const board = runs.get(r.board) ?? [[]];
        runs.set(r.board, board);
        if (event?.stamp?.recalled) board.at(-1)!.push({ t: r.t, event });
        else if (board.at(-1)!.length > 0) board.push([]);
      }
      for (const board of sim.boards.map((_, i) => i + 1)) {
        const answers = (runs.get(board) ?? []).filter((run) => run.length > 0);
        const changes = answers.flat();
        // A put a ply at least (a DGT board's record has no clock presses).
        expect(changes.filter((r) => r.event.type === 'put').length).toBeGreaterThanOrEqual(12);
        for (const run of answers)
          for (let i = 1; i < run.length; i++)
            expect(run[i].t - run[i - 1].t).toBe(run[i].event.stamp.ms - run[i - 1].event.stamp.ms);
      }
    },
    180_000,
  );
});
