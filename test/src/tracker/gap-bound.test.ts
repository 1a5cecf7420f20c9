// The gap search's bound counts a board square by square (Tally); the search makes a child's
// tally from its parent's by the squares the move changes. Both ways must count the same.
import { describe, expect, it } from 'vitest';
import { legalMoves, parseFen, type Position, play } from '../../../src/engine/index.ts';
import { GapBound, Tally } from '../../../src/tracker/gap/bound.ts';
import { gapOf, sensedBoard } from './fixtures/gap-lines.ts';

/** A tally's counts, its lists as sorted sets (their order is the order squares came and went). */
function counts(t: Tally) {
  const list = (l: Int32Array, n: Int32Array) =>
    [0, 1].map((c) => [...l.subarray(c * 64, c * 64 + n[c])].sort());
  return {
    have: [...t.have],
    kings: [...t.kings],
    forward: [...t.forward],
    leaving: [...t.leaving],
    rows: [...t.rows],
    menBits: [...t.menBits],
    arrivals: list(t.arrivals, t.arrivalCount),
  };
}

describe('gap bound tally', () => {
  it.each([
    ['International, colours', 3, false],
    ['International, occupancy only', 7, true],
    ['Brazilian, colours', 6, false],
  ])('%s: every child of every position on a gap line counts as its board scanned', (_, seed, occupancy) => {
    const gap = gapOf(seed as number, 12, occupancy as boolean)!;
    const bound = new GapBound(sensedBoard(gap.to, occupancy as boolean), gap.from.variant);
    const parent = new Tally();
    const child = new Tally();
    const scanned = new Tally();
    let pos: Position = gap.from;
    let children = 0;
    let captures = 0;
    for (const played of gap.line) {
      bound.scan(pos.board, parent);
      for (const move of legalMoves(pos)) {
        bound.child(parent, pos, move, child);
        bound.scan(play(pos, move).board, scanned);
        expect(counts(child)).toEqual(counts(scanned));
        children++;
        if (move.captured.length > 0) captures++;
      }
      pos = play(pos, played);
    }
    expect(children).toBeGreaterThan(50);
    expect(captures).toBeGreaterThan(0);
  });

  it('a capture that ends on its own square (7 round 11, 21, 22, 12) counts as its board scanned', () => {
    const pos = parseFen('W:W7,40:B11,12,21,22,30', { variant: 'international' });
    if (!pos.ok) throw new Error(pos.error.message);
    const [move] = legalMoves(pos.value);
    expect([move.from, move.to, move.captured.length]).toEqual([7, 7, 4]);
    const after = play(pos.value, move);
    const bound = new GapBound(sensedBoard(after, false), pos.value.variant);
    const parent = new Tally();
    const child = new Tally();
    const scanned = new Tally();
    bound.scan(pos.value.board, parent);
    bound.child(parent, pos.value, move, child);
    bound.scan(after.board, scanned);
    expect(counts(child)).toEqual(counts(scanned));
  });
});
