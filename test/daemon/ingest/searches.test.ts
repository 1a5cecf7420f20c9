// The boards' gap searches share the daemon's time: the least served first (past LONG_SEARCH nodes,
// the most served first), one step a board, until the turn's share is spent (at least one step a turn); boards not searching, away, unwatched or
// being calibrated get none.
import { describe, expect, it } from 'vitest';
import type { LiveBoard } from '../../../daemon/live-board.ts';
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
  const order = [board(1, 0), board(2, 0), board(3, 0), board(4, 0)];
  /** The boards granted a step, each step taking `stepMs`, in a turn begun at `started`, now `now`. */
  function granting(stepMs: number, started: number, now: number): number[] {
    let clock = now;
    const granted: number[] = [];
    const n = grantSteps(
      order,
      3,
      started,
      () => clock,
      (b) => {
        granted.push(b.setup.board);
        clock += stepMs;
      },
    );
    expect(n).toBe(granted.length);
    return granted;
  }

  it('a step a board in order while the next one ends within the share, and at least one', () => {
    // The share is 3 ms of the turn: steps of 1.5 ms, two fit.
    expect(granting(1.5, 100, 100)).toEqual([1, 2]);
    // Steps of 2 ms: a second would end at 4 ms, past the share.
    expect(granting(2, 300, 300)).toEqual([1]);
    // The turn's own ticks spent the share already: one step still.
    expect(granting(0, 190, 200)).toEqual([1]);
    expect(
      grantSteps(
        [],
        3,
        0,
        () => 0,
        () => {},
      ),
    ).toBe(0);
  });
});
