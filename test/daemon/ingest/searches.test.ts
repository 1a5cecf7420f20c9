// The boards' gap searches share the daemon's time: the least served first (past LONG_SEARCH nodes,
// the most served first), one step a board, until the turn's share is spent (at least one step a turn); boards not searching, away, unwatched or
// being calibrated get none.
import { describe, expect, it } from 'vitest';
import type { LiveBoard } from '../../../daemon/board/live-board.ts';
import { grantSteps, LONG_SEARCH, searchOrder } from '../../../daemon/ingest/searches.ts';

function board(n: number, nodes: number | undefined, extra: Partial<LiveBoard> = {}): LiveBoard {
  return {
    setup: { board: n },
    game: { tracker: { searching: nodes !== undefined, searchNodes: nodes ?? 0 } },
    time: { gap: false },
    state: 'active',
    ...extra,
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
  it('a step a board in order while the next one ends within the share, and at least one', () => {
    const order = [board(1, 0), board(2, 0), board(3, 0), board(4, 0)];
    let clock = 100;
    const granted: number[] = [];
    // Each step takes 1.5 ms; the share is 3 ms of a turn that began at 100.
    const n = grantSteps(
      order,
      3,
      100,
      () => clock,
      (b) => {
        granted.push(b.setup.board);
        clock += 1.5;
      },
    );
    expect(n).toBe(2);
    expect(granted).toEqual([1, 2]);
    // Steps of 2 ms: a second would end at 4 ms, past the share.
    granted.length = 0;
    clock = 300;
    expect(
      grantSteps(
        order,
        3,
        300,
        () => clock,
        (b) => {
          granted.push(b.setup.board);
          clock += 2;
        },
      ),
    ).toBe(1);
    expect(granted).toEqual([1]);
    // The turn's own ticks spent the share already: one step still.
    granted.length = 0;
    clock = 200;
    expect(
      grantSteps(
        order,
        3,
        190,
        () => clock,
        (b) => granted.push(b.setup.board),
      ),
    ).toBe(1);
    expect(granted).toEqual([1]);
    expect(
      grantSteps(
        [],
        3,
        0,
        () => 0,
        () => granted.push(0),
      ),
    ).toBe(0);
  });
});
