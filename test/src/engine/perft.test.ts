// engine-vectors.md: published perft figures (rhalbersma/dctl, Aart Bik), canonical move counting.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { geometry, type Piece, parseFen, Position, type Variant } from '../../../src/engine/index.ts';
import { perft, perftDivide, perftReference } from '../../../src/engine/perft.ts';

describe('perft, International 10×10, initial position W:W31-50:B1-20', () => {
  const initial = Position.initial('international');
  const figures = [9, 81, 658, 4265, 27117, 167140, 1049442, 6483961];
  figures.forEach((nodes, i) => {
    it(`depth ${i + 1} = ${nodes.toLocaleString('en')}`, () => {
      expect(perft(initial, i + 1)).toBe(nodes);
    });
  });

  it('the FEN W:W31-50:B1-20 is the initial position', () => {
    const r = parseFen('W:W31-50:B1-20');
    expect(r.ok && r.value.equals(initial)).toBe(true);
  });

  it('divide sums to the total and names the first moves', () => {
    const parts = perftDivide(initial, 3);
    expect(parts.map((p) => p.move)).toContain('32-28');
    expect(parts).toHaveLength(9);
    expect(parts.reduce((a, p) => a + p.nodes, 0)).toBe(658);
  });
});

describe('perft, Brazilian 8×8, initial position W:W21-32:B1-12', () => {
  const initial = Position.initial('brazilian');
  [7, 49, 302, 1469].forEach((nodes, i) => {
    it(`depth ${i + 1} = ${nodes.toLocaleString('en')}`, () => {
      expect(perft(initial, i + 1)).toBe(nodes);
    });
  });

  it('the FEN W:W21-32:B1-12 is the initial position', () => {
    const r = parseFen('W:W21-32:B1-12', { variant: 'brazilian' });
    expect(r.ok && r.value.equals(initial)).toBe(true);
  });
});

describe('bitboard perft agrees with the reference walk of legalMoves/play', () => {
  it('on random positions with men and kings (both variants, depth 1–3)', () => {
    fc.assert(
      fc.property(
        fc.constantFrom<Variant>('international', 'brazilian'),
        fc.array(fc.constantFrom<Piece | undefined>(undefined, undefined, undefined, 'w', 'b', 'W', 'B'), {
          minLength: 50,
          maxLength: 50,
        }),
        fc.boolean(),
        fc.integer({ min: 1, max: 3 }),
        (variant, cells, white, depth) => {
          const g = geometry(variant);
          const pieces: Array<[number, Piece]> = [];
          for (let s = 1; s <= g.squares; s++) {
            const p = cells[s - 1];
            if (!p) continue;
            if (p === 'w' && g.whitePromotion(s)) pieces.push([s, 'W']);
            else if (p === 'b' && g.blackPromotion(s)) pieces.push([s, 'B']);
            else pieces.push([s, p]);
          }
          const pos = Position.setup(variant, white ? 'white' : 'black', pieces);
          expect(perft(pos, depth)).toBe(perftReference(pos, depth));
        },
      ),
      { numRuns: 150 },
    );
  });

  it('on the positions of the article move lists', () => {
    for (const fen of [
      'W:W47:B13,14,22,24,31,34,K41,44',
      'W:WK1:B7,9,17,19,20,30,31,33,43,44',
      'W:WK41,49:B9,10,12,19,38',
      'B:W27,28,38,39,42:BK25',
      'W:WK48:B7,8,31,34,K42,44',
      'W:WK21:B10,12,13,14,18,23,29,32,38',
    ]) {
      const r = parseFen(fen);
      if (!r.ok) throw new Error(fen);
      for (const d of [1, 2, 3])
        expect(perft(r.value, d), `${fen} depth ${d}`).toBe(perftReference(r.value, d));
    }
  });

  it('the reference walk reproduces perft 1–5 of the initial position', () => {
    expect([1, 2, 3, 4, 5].map((d) => perftReference(Position.initial(), d))).toEqual([
      9, 81, 658, 4265, 27117,
    ]);
  });
});
