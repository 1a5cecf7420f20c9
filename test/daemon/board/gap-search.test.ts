// A gap search of several steps in the daemon: the board's first dump shows 10 plies the daemon
// never saw; the ticks go on while the search runs however quiet the board is, each tick that
// granted a step is journaled, and a restart replays the journal to the same game. Searches of
// several boards share the daemon's time, the least served first.
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { Controller } from '../../../daemon/controller.ts';
import { Journal } from '../../../daemon/journal/index.ts';
import { Position } from '../../../src/engine/index.ts';
import { lineNotation } from '../../../src/tracker/gap/answer.ts';
import { searchGap } from '../../../src/tracker/gap/search.ts';
import type { TrackerFactory } from '../../../src/game/board-game.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import { RESYNC_NODES } from '../../../src/tracker/gap/lost-lines.ts';
import { selfPlayed, sensedBoard } from '../../src/tracker/fixtures/gap-lines.ts';
import { TIMING, until } from '../fixtures/controller-timing.ts';
import { FakeBoard } from '../fixtures/fake-board.ts';

const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const c of cleanups.splice(0).reverse()) await c();
});

function controller(
  path: string,
  sources: string[],
  trackers: TrackerFactory = createTracker,
  windowMs = 300,
) {
  const config = loadConfig({ flags: { boards: sources }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(path);
  // Ticks every 20 ms; a board quiet for 300 ms would get no more (the search takes longer). The
  // searches may take the whole core: the steps are what is tested here, not the share.
  const c = new Controller({
    config: config.value,
    journal,
    createTracker: trackers,
    timing: TIMING,
    tickMs: 20,
    tickWindowMs: windowMs,
    searchShare: 1,
  });
  cleanups.push(() => {
    c.stop();
    journal.close();
  });
  return c;
}

/** The first 10 plies of self-play game 3: one line leads there, and proving it takes ~40,000 nodes. */
function tenPlies(): { line: string[]; board: Position } {
  const { line, position } = selfPlayed(3, 10);
  return { line: lineNotation(Position.initial('international'), line), board: position };
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
    const c = controller(path, [`tcp://127.0.0.1:${b.port}`]);
    c.start();
    await until(() => c.snapshot(1)!.moves.length > 0);
    const s = c.snapshot(1)!;
    expect(s.moves.map((m) => m.pdn)).toEqual(line);
    expect(s.moves.every((m) => m.recovered === true)).toBe(true);
    expect(s.alerts).toEqual([]);
    c.stop();
    const again = controller(path, ['tcp://127.0.0.1:1']);
    expect(again.snapshot(1)!.moves.map((m) => m.pdn)).toEqual(line);
    expect(again.snapshot(1)!.moves.map((m) => m.t)).toEqual(s.moves.map((m) => m.t));
  });

  it('two boards searching at once: the short gap is found while the hopeless one goes on; a restart rebuilds both', async () => {
    const { line, board } = tenPlies();
    // The same board with a white man one row further on (31 to 25): no line is found within 60,000
    // nodes, and proving the ten plies takes fewer.
    const hopeless = [...board.toBoardString()];
    expect([hopeless[30], hopeless[24]]).toEqual(['w', '.']);
    hopeless[24] = 'w';
    hopeless[30] = '.';
    const budget: TrackerFactory = (o) =>
      createTracker({ ...o, gapBudget: { step: RESYNC_NODES, total: 60_000 } });
    const far = new FakeBoard('DL-1');
    far.board = hopeless.join('');
    const near = new FakeBoard('DL-2');
    near.board = board.toBoardString();
    for (const b of [far, near]) {
      await b.listen();
      cleanups.push(() => b.close());
    }
    const path = join(mkdtempSync(join(tmpdir(), 'damlink-gap-share-')), 'journal.sqlite');
    // Ticks go on past the tracker's stall time, when the hopeless board is given up.
    const c = controller(path, [`tcp://127.0.0.1:${far.port}`, `tcp://127.0.0.1:${near.port}`], budget, 6000);
    c.start();
    await until(() => c.snapshot(2)!.moves.length > 0);
    // The hopeless board, though its search began first, has not spent its budget yet: the board
    // list says it is searching.
    expect(c.snapshot(1)!.alerts).toEqual([]);
    const searching = c.boards().find((b) => b.board === 1)!.searching;
    expect(searching?.positions).toBeGreaterThan(10_000);
    expect(c.boards().find((b) => b.board === 2)!.searching).toBeUndefined();
    expect(c.snapshot(2)!.moves.map((m) => m.pdn)).toEqual(line);
    await until(() => c.snapshot(1)!.alerts.length > 0, 10_000);
    expect(c.snapshot(1)!.alerts.map((a) => a.rule)).toEqual(['unknown-position']);
    expect(c.snapshot(1)!.moves).toEqual([]);
    c.stop();
    // The journaled grants: the two searches took steps in turn, the one with fewer nodes first, so
    // when the ten plies were proved the hopeless board had had about as many steps, not its 120.
    const grants: number[] = [];
    const journal = Journal.open(path);
    journal.forEachRoundInput(1, (board, input) => {
      if (input.kind === 'event' && input.event.type === 'tick' && input.event.steps) grants.push(board);
    });
    journal.close();
    const nearDone = grants.lastIndexOf(2);
    const farBefore = grants.slice(0, nearDone).filter((b) => b === 1).length;
    expect(grants.filter((b) => b === 1).length).toBeGreaterThanOrEqual(119);
    expect(farBefore).toBeGreaterThan(0.5 * (nearDone + 1 - farBefore));
    expect(farBefore).toBeLessThan(110);
    const again = controller(path, ['tcp://127.0.0.1:1', 'tcp://127.0.0.1:1'], budget);
    expect(again.snapshot(2)!.moves.map((m) => [m.pdn, m.t])).toEqual(
      c.snapshot(2)!.moves.map((m) => [m.pdn, m.t]),
    );
    expect(again.snapshot(1)!.alerts.map((a) => [a.rule, a.t])).toEqual(
      c.snapshot(1)!.alerts.map((a) => [a.rule, a.t]),
    );
  });
});
