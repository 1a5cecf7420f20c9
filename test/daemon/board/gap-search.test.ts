// A gap search of several steps in the daemon: the board's first dump shows 10 plies the daemon
// never saw; the ticks go on while the search runs however quiet the board is, each step's tick is
// journaled, and a restart replays the journal to the same game.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { Controller } from '../../../daemon/controller.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { chooseMove } from '../../../simulator/selfplay.ts';
import { createRng } from '../../../simulator/prng.ts';
import { type Move, moveNotation, Position, play } from '../../../src/engine/index.ts';
import { searchGap } from '../../../src/tracker/gap-search.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { RESYNC_NODES } from '../../../src/tracker/resync.ts';
import { sensedBoard } from '../../src/tracker/fixtures/gap-lines.ts';
import { TIMING, until } from '../fixtures/controller-timing.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function controller(path: string, source: string) {
  const config = loadConfig({ flags: { boards: [source] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(path);
  // Ticks every 20 ms; a board quiet for 300 ms would get no more (the search takes longer).
  const c = new Controller({
    config: config.value,
    journal,
    createTracker,
    timing: TIMING,
    tickMs: 20,
    tickWindowMs: 300,
  });
  cleanups.push(() => {
    c.stop();
    journal.close();
  });
  return c;
}

/** The first 10 plies of self-play game 3: one line leads there, and proving it takes ~40,000 nodes. */
function tenPlies(): { line: string[]; board: Position } {
  const rng = createRng(3);
  let pos = Position.initial('international');
  const line: string[] = [];
  for (let ply = 1; ply <= 10; ply++) {
    const m: Move = chooseMove(pos, ply, rng)!;
    line.push(moveNotation(pos, m));
    pos = play(pos, m);
  }
  return { line, board: pos };
}

describe('a gap search in steps, in the daemon', () => {
  it('the dump of a board 10 plies on: recorded after several ticks, and a restart rebuilds it from the journal', async () => {
    const { line, board } = tenPlies();
    const start = Position.initial('international');
    expect(searchGap(start, sensedBoard(board, false), { nodes: RESYNC_NODES })).toMatchObject({
      complete: false,
    });
    const b = new FakeBoard('DL-9');
    b.board = board.toBoardString();
    await b.listen();
    cleanups.push(() => b.close());
    const path = join(mkdtempSync(join(tmpdir(), 'damlink-gap-steps-')), 'journal.sqlite');
    const c = controller(path, `tcp://127.0.0.1:${b.port}`);
    c.start();
    await until(() => c.snapshot(1)!.moves.length > 0);
    const s = c.snapshot(1)!;
    expect(s.moves.map((m) => m.pdn)).toEqual(line);
    expect(s.moves.every((m) => m.recovered === true)).toBe(true);
    expect(s.alerts).toEqual([]);
    c.stop();
    const again = controller(path, 'tcp://127.0.0.1:1');
    expect(again.snapshot(1)!.moves.map((m) => m.pdn)).toEqual(line);
    expect(again.snapshot(1)!.moves.map((m) => m.t)).toEqual(s.moves.map((m) => m.t));
  });
});
