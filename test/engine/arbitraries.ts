// fast-check arbitraries of positions, shared by the engine's and the tracker's property tests.
import fc from 'fast-check';
import { geometry, legalMoves, type Piece, play, Position, type Variant } from '../../src/engine/index.ts';

/** A random legal game: each number picks one of the legal moves. */
export const gameArb = (variant: Variant) =>
  fc.array(fc.nat(), { maxLength: 120 }).map((choices) => {
    let pos = Position.initial(variant);
    const positions = [pos];
    for (const c of choices) {
      const moves = legalMoves(pos);
      if (moves.length === 0) break;
      pos = play(pos, moves[c % moves.length]);
      positions.push(pos);
    }
    return positions;
  });

/**
 * A random position: any square may hold any piece, men never on their own crowning row, and no
 * more pieces a side than the game starts with (a FEN with more is not a position).
 */
export const positionArb = (variant: Variant) => {
  const g = geometry(variant);
  const cell = fc.constantFrom<Piece | undefined>(undefined, undefined, undefined, 'w', 'b', 'b', 'W', 'B');
  return fc
    .tuple(fc.array(cell, { minLength: g.squares, maxLength: g.squares }), fc.boolean())
    .map(([cells, white]) => {
      const pieces: Array<[number, Piece]> = [];
      const count = { white: 0, black: 0 };
      cells.forEach((p, i) => {
        const s = i + 1;
        if (!p) return;
        const side = p === 'w' || p === 'W' ? 'white' : 'black';
        if (++count[side] > g.initialWhite.length) return;
        if (p === 'w' && g.whitePromotion(s)) pieces.push([s, 'W']);
        else if (p === 'b' && g.blackPromotion(s)) pieces.push([s, 'B']);
        else pieces.push([s, p]);
      });
      return Position.setup(variant, white ? 'white' : 'black', pieces);
    });
};
