// The gap search (src/tracker/gap/search.ts) against the plain enumeration of every line
// (fixtures/gap-reference.ts) on random short gaps: a random game, then 1–6 random plies nobody
// saw. The search must find the same lines — so the same verdict: one line, several (a `gap`
// alert), none — unless it explains the board by a shorter line whose last move is still under way.
// The enumeration's one bound of its own (landings) is held to the enumeration without it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { GAP_MAX_LINES, searchGap } from '../../../src/tracker/gap/search.ts';
import { referenceLines } from './fixtures/gap-reference.ts';
import { lineKey } from './fixtures/gap-lines.ts';
import { gapArb, randomGap } from './fixtures/random-gaps.ts';

describe('gap search = plain enumeration on random gaps of up to 6 plies', () => {
  it('the enumeration finds the same lines with and without its landings bound', () => {
    fc.assert(
      fc.property(gapArb, (arb) => {
        const { start, board, played } = randomGap(arb);
        const bounded = referenceLines(start.from, board, played.length, GAP_MAX_LINES + 1);
        const plain = referenceLines(start.from, board, played.length, GAP_MAX_LINES + 1, undefined, {
          landings: false,
        });
        expect(bounded.plies).toBe(plain.plies);
        expect(bounded.lines.map(lineKey).sort()).toEqual(plain.lines.map(lineKey).sort());
        expect(bounded.nodes).toBeLessThanOrEqual(plain.nodes);
      }),
      { numRuns: 150, seed: 20261202 },
    );
  });

  it('the same shortest lines (counted up to GAP_MAX_LINES), or a shorter line with a move under way', () => {
    fc.assert(
      fc.property(gapArb, (arb) => {
        const { start, board, played } = randomGap(arb);
        const ref = referenceLines(start.from, board, played.length, GAP_MAX_LINES + 1);
        const fast = searchGap(start.from, board, { nodes: 1_000_000 });
        // The played line is a line: the reference finds one of at most its length.
        expect(ref.plies).toBeLessThanOrEqual(played.length);
        expect(fast.kind).toBe('found');
        if (fast.kind !== 'found') return;
        expect(fast.complete).toBe(true);
        const refKeys = ref.lines.map(lineKey).sort();
        const complete = fast.lines.filter((l) => !l.underWay).map((l) => lineKey(l.line));
        const underWay = fast.lines.filter((l) => l.underWay);
        if (underWay.length > 0) {
          // A line plus a move under way: shorter than every complete line.
          expect(underWay[0].line.length + 1).toBeLessThanOrEqual(ref.plies!);
          for (const key of complete) expect(refKeys).toContain(key);
          return;
        }
        expect(fast.lines[0].line.length).toBe(ref.plies);
        if (ref.count <= GAP_MAX_LINES) {
          expect(complete.sort()).toEqual(refKeys);
          expect(fast.total).toBe(ref.count);
        } else {
          for (const key of complete) expect(refKeys).toContain(key);
          expect(fast.total).toBe(GAP_MAX_LINES);
        }
      }),
      { numRuns: 150, seed: 20261201 },
    );
  });
});
