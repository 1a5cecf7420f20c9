// The tracker's in-place comparison of the board with a move's outcome (src/tracker/sensed-codes.ts)
// against the engine's `play`, on random positions (kings, promotions, long captures).
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalMoves, parseFen, play } from '../../../src/engine/index.ts';
import { codeAfter, completesMove, showsAfter, showsBoard } from '../../../src/tracker/sensed-codes.ts';
import { gameArb, positionArb } from '../engine/fixtures/arbitraries.ts';

describe('board: a move outcome compared in place', () => {
  for (const variant of ['international', 'brazilian'] as const) {
    it(`${variant}: codeAfter gives play's board square by square; showsAfter is showsBoard of it`, () => {
      fc.assert(
        fc.property(
          fc.oneof(
            positionArb(variant),
            gameArb(variant).map((ps) => ps[ps.length - 1]),
          ),
          fc.nat(),
          (pos, pick) => {
            const moves = legalMoves(pos);
            if (moves.length === 0) return;
            const move = moves[pick % moves.length];
            const expected = play(pos, move).board;
            const built = [...expected].map((_, s) => (s === 0 ? expected[0] : codeAfter(pos, move, s)));
            expect(built).toEqual([...expected]);
            // Every legal move's outcome tested against the board of this one.
            for (const other of moves)
              expect(showsAfter(expected, pos, other)).toBe(showsBoard(expected, play(pos, other).board));
          },
        ),
        { numRuns: 300 },
      );
    });
  }

  it('a crown not put on yet still shows the promotion; a king where the game has a man does not', () => {
    const parsed = parseFen('W:W6,32:B45', { variant: 'international' });
    if (!parsed.ok) throw new Error('bad FEN');
    const pos = parsed.value;
    const moves = legalMoves(pos);
    const crowning = moves.find((m) => m.from === 6 && m.to === 1)!;
    const quiet = moves.find((m) => m.from === 32 && m.to === 28)!;
    expect(crowning.promotes).toBe(true);
    expect(codeAfter(pos, crowning, 1)).toBe(3);

    const board = Int8Array.from(pos.board);
    board[6] = 0;
    board[1] = 1; // the man arrived, its crown not on yet
    expect(showsAfter(board, pos, crowning)).toBe(true);
    expect(showsAfter(board, pos, quiet)).toBe(false);

    const king = Int8Array.from(pos.board);
    king[32] = 0;
    king[28] = 3; // a king put down where the game's man goes
    expect(showsAfter(king, pos, quiet)).toBe(false);
    king[28] = 1;
    expect(showsAfter(king, pos, quiet)).toBe(true);
  });
});

describe('completesMove: a change that ends a move under way, not one made from rest', () => {
  const EMPTY_ = 0;
  const board = (pieces: Record<number, number>) => {
    const b = new Int8Array(51);
    for (const [s, c] of Object.entries(pieces)) b[Number(s)] = c;
    return b;
  };
  // 1 white man, 2 black man, 5 a piece of unknown colour.
  it('a piece put on where none of its colour came off: it was in the hand', () => {
    expect(completesMove(board({ 10: 2 }), board({ 10: 2, 28: 1 }))).toBe(true);
    // In the hand, then landing a capture: the captured piece (the other colour) comes off.
    expect(completesMove(board({ 23: 2 }), board({ 19: 1, 23: EMPTY_ }))).toBe(true);
  });
  it('pieces only taken off: a capture that had landed', () => {
    expect(completesMove(board({ 19: 1, 23: 2, 24: 2 }), board({ 19: 1 }))).toBe(true);
  });
  it('a move from rest: its piece comes off one square and goes on another', () => {
    expect(completesMove(board({ 32: 1 }), board({ 28: 1 }))).toBe(false);
    expect(completesMove(board({ 28: 1, 23: 2 }), board({ 19: 1 }))).toBe(false);
    expect(completesMove(board({ 5: 1 }), board({ 5: 1 }))).toBe(false);
  });
  it('occupancy alone: a piece put on and none taken off', () => {
    expect(completesMove(board({ 10: 5 }), board({ 10: 5, 28: 5 }))).toBe(true);
    expect(completesMove(board({ 32: 5 }), board({ 28: 5 }))).toBe(false);
  });
});
