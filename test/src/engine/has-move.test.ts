// 7.2 "no legal move": hasLegalMove (bitboard counter) must agree with legalMoves everywhere,
// since draw.ts judges every ply with it.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  geometry,
  legalMoves,
  parseFen,
  type Piece,
  Position,
  type Variant,
} from '../../../src/engine/index.ts';
import { hasLegalMove } from '../../../src/engine/has-move.ts';

/** Sparse random positions (a few pieces, often blocked ones), men never on their crowning row. */
const sparseArb = (variant: Variant) => {
  const g = geometry(variant);
  const piece = fc.constantFrom<Piece>('w', 'b', 'W', 'B');
  const square = fc.integer({ min: 1, max: g.squares });
  return fc
    .tuple(fc.array(fc.tuple(square, piece), { minLength: 1, maxLength: 8 }), fc.boolean())
    .map(([placed, white]) => {
      const pieces = placed.map(([s, p]): [number, Piece] => {
        if (p === 'w' && g.whitePromotion(s)) return [s, 'W'];
        if (p === 'b' && g.blackPromotion(s)) return [s, 'B'];
        return [s, p];
      });
      return Position.setup(variant, white ? 'white' : 'black', pieces);
    });
};

describe('7.2 hasLegalMove', () => {
  for (const variant of ['international', 'brazilian'] as const) {
    it(`${variant}: agrees with legalMoves on random positions, blocked ones included`, () => {
      let blocked = 0;
      fc.assert(
        fc.property(sparseArb(variant), (pos) => {
          const expected = legalMoves(pos).length > 0;
          const own = pos.count(pos.turn);
          if (!expected && own.men + own.kings > 0) blocked++;
          expect(hasLegalMove(pos)).toBe(expected);
        }),
        { numRuns: 1000, seed: 7 },
      );
      expect(blocked).toBeGreaterThan(0);
    });
  }

  it('7.2 a man blocked against the edge has no move; free, or able to capture, it has one', () => {
    const at = (fen: string) => {
      const r = parseFen(fen);
      if (!r.ok) throw new Error(r.error.message);
      return r.value;
    };
    expect(hasLegalMove(at('B:W50:B45'))).toBe(false);
    expect(hasLegalMove(at('W:W50:B45'))).toBe(true);
    expect(hasLegalMove(at('W:W28:B23'))).toBe(true);
    expect(hasLegalMove(at('W:B1'))).toBe(false);
  });
});
