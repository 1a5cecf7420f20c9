// The boards' gap searches share the daemon's time: the least served first (past LONG_SEARCH nodes,
// the most served first), one step a board, until the turn's share is spent (at least one step a turn); boards not searching, away, unwatched or
// being calibrated get none.
import { describe, expect, it } from 'vitest';
import type { LiveBoard } from '../../../daemon/live-board.ts';
import type { ConnectionState } from '../../../src/game/types.ts';
import { grantSteps, LONG_SEARCH, SearchShare, searchOrder } from '../../../daemon/ingest/searches.ts';

function board(
  n: number,
  nodes: number | undefined,
  extra: Partial<LiveBoard> & { state?: ConnectionState } = {},
): LiveBoard {
  const { state = 'active', ...rest } = extra;
  return {
    setup: { board: n },
    game: {
      tracker: { searching: nodes !== undefined, searchNodes: nodes ?? 0 },
      record: { connection: { state } },
    },
    time: { gap: false },
    ...rest,
  } as unknown as LiveBoard;
}

describe('searchOrder', () => {
  it('the searching boards, fewest nodes first, then in board order', () => {
    const boards = [board(1, 9000), board(2, undefined), board(3, 500), board(4, 9000), board(5, 0)];
    expect(searchOrder(boards).map((b) => b.setup.board)).toEqual([5, 3, 1, 4]);
  });

  it('long searches after the short ones, the furthest first: they end one after another', () => {
    const boards = [
      board(1, LONG_SEARCH),
      board(2, 900_000),
      board(3, LONG_SEARCH - 1),
      board(4, 900_000),
      board(5, 1_500_000),
      board(6, 0),
    ];
    expect(searchOrder(boards).map((b) => b.setup.board)).toEqual([6, 3, 5, 2, 4, 1]);
  });

  it('among the short searches the latest begun goes first (a board back alone after the hall)', () => {
    const boards = [board(1, 9000), board(2, 12_000), board(3, 30_000), board(4, 900_000)];
    const begun = new Map([
      [1, 1],
      [2, 40],
      [3, 1],
      [4, 1],
    ]);
    expect(searchOrder(boards, (b) => begun.get(b.setup.board)!).map((b) => b.setup.board)).toEqual([
      2, 1, 3, 4,
    ]);
  });

  it('none for a board away, unwatched or being calibrated', () => {
    const boards = [
      board(1, 0, { time: { gap: true } as LiveBoard['time'] }),
      board(2, 0, { state: 'lost' }),
      board(3, 0, { calibrating: true }),
      board(4, 0),
    ];
    expect(searchOrder(boards).map((b) => b.setup.board)).toEqual([4]);
  });
});

describe('grantSteps', () => {
  const order = [board(1, 0), board(2, 0), board(3, 0), board(4, 0)];
  /** The boards granted a step from `creditMs`, each step taking `stepMs`. */
  function granting(stepMs: number, creditMs: number): { boards: number[]; spent: number } {
    let clock = 0;
    const boards: number[] = [];
    const { granted, spent } = grantSteps(
      order,
      creditMs,
      () => clock,
      (b) => {
        boards.push(b.setup.board);
        clock += stepMs;
      },
    );
    expect(granted).toBe(boards.length);
    return { boards, spent };
  }

  it('a step a board in order while the next one fits the credit; one at least while there is credit', () => {
    // 3 ms of credit: steps of 1.5 ms, two fit.
    expect(granting(1.5, 3)).toEqual({ boards: [1, 2], spent: 3 });
    // Steps of 2 ms: a second would end at 4 ms, past the credit.
    expect(granting(2, 3)).toEqual({ boards: [1], spent: 2 });
    // A little credit: one step, which may overspend it.
    expect(granting(8, 0.5)).toEqual({ boards: [1], spent: 8 });
    // None: no step.
    expect(granting(1, 0)).toEqual({ boards: [], spent: 0 });
    expect(
      grantSteps(
        [],
        3,
        () => 0,
        () => {},
      ).granted,
    ).toBe(0);
  });
});

describe('SearchShare', () => {
  it("steps longer than a turn's share come every few turns: the searches take the share over time", () => {
    // A share of 0.3 of 10 ms turns (3 ms a turn); each step takes 12 ms of a slow machine.
    const share = new SearchShare(0.3, 10);
    let clock = 0;
    let searching = 0;
    const order = [board(1, 0)];
    for (let turn = 0; turn < 1000; turn++) {
      share.turn(
        order,
        () => clock,
        () => {
          clock += 12;
          searching += 12;
        },
      );
      clock += 10;
    }
    // Before: a step every turn, 12 ms of every 22 (55 %).
    expect(searching / clock).toBeLessThanOrEqual(0.31);
    expect(searching / clock).toBeGreaterThan(0.25);
  });

  it('a quiet spell leaves a few turns of credit, not a burst', () => {
    const share = new SearchShare(0.3, 10);
    let clock = 0;
    share.turn(
      [],
      () => clock,
      () => {},
    );
    clock = 60_000;
    let steps = 0;
    share.turn(
      [board(1, 0), board(2, 0), board(3, 0), board(4, 0)],
      () => clock,
      () => {
        clock += 1;
        steps++;
      },
    );
    // 10 turns' share: 30 ms of credit, steps of 1 ms, four boards a step each.
    expect(steps).toBe(4);
    // Turn after turn with no time between them but the steps' own: the credit of those 10 turns
    // runs out (a step's millisecond earns 0.3 back) — not the 18 s a minute's share would be.
    let more = 0;
    for (let turn = 0; turn < 100; turn++)
      more += share.turn(
        [board(1, 0)],
        () => clock,
        () => {
          clock += 1;
        },
      );
    expect(more).toBeGreaterThan(30);
    expect(more).toBeLessThan(45);
  });
});
