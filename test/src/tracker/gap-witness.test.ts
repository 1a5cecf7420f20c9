// The second lines the gap bench settles its unsettled cases with (fixtures/gap-witness.ts): held to
// the plain enumeration on random short gaps, and every one cached in fixtures/gap-truth.json
// replayed to its board.
import { readFileSync } from 'node:fs';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { legalMoves, moveKey } from '../../../src/engine/index.ts';
import { gapOf, sensedBoard } from './fixtures/gap-lines.ts';
import { gapArb, randomGap } from './fixtures/random-gaps.ts';
import { referenceLines } from './fixtures/gap-reference.ts';
import { isSecondLine, replayKeys, secondLine } from './fixtures/gap-witness.ts';

const truths: Record<string, { complete: boolean; second?: string[] | null }> = JSON.parse(
  readFileSync(new URL('./fixtures/gap-truth.json', import.meta.url), 'utf8'),
);

describe('a second line of a gap', () => {
  it('is found on a random gap of up to 6 plies exactly when the enumeration finds more than the line played', () => {
    fc.assert(
      fc.property(gapArb, (arb) => {
        const { start, board, played } = randomGap(arb);
        fc.pre(played.length > 1);
        const second = secondLine(start.from, board, played);
        const ref = referenceLines(start.from, board, played.length, 2);
        const onlyPlayed = ref.plies === played.length && ref.count === 1;
        expect(second === undefined).toBe(onlyPlayed);
        if (second) expect(isSecondLine(start.from, board, played, second)).toBe(true);
      }),
      { numRuns: 300, seed: 20261201 },
    );
  });

  it('cached by the bench, replays move by move from its gap to the board shown', () => {
    const cached = Object.entries(truths).filter(([, t]) => t.second);
    expect(cached.length).toBeGreaterThan(0);
    for (const [key, truth] of cached) {
      const [plies, seed] = key.split(':').map(Number);
      const gap = gapOf(seed, plies)!;
      expect(truth.complete, key).toBe(false);
      expect(
        isSecondLine(gap.from, sensedBoard(gap.to, gap.occupancyOnly), gap.line, truth.second!),
        key,
      ).toBe(true);
    }
  });

  it('is not the line played, nor longer, nor a line with an illegal move or ending elsewhere', () => {
    const gap = gapOf(2, 12)!;
    const board = sensedBoard(gap.to, gap.occupancyOnly);
    const played = gap.line.map(moveKey);
    expect(replayKeys(gap.from, played)?.equals(gap.to)).toBe(true);
    expect(isSecondLine(gap.from, board, gap.line, played)).toBe(false);
    const further = legalMoves(gap.to)[0];
    expect(isSecondLine(gap.from, board, [...gap.line, further], [...played, moveKey(further)])).toBe(false);
    expect(isSecondLine(gap.from, board, gap.line, ['1-50:', ...played.slice(1)])).toBe(false);
    const elsewhere = played.slice(0, -2);
    expect(isSecondLine(gap.from, board, gap.line, elsewhere)).toBe(false);
    expect(isSecondLine(gap.from, board, gap.line, [])).toBe(false);
  });
});
