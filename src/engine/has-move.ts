// Whether the side to move has any legal move (7.2), without building Move objects: the bitboard
// counter (bitboard.ts, the one perft uses) counts canonical moves in a few shifts and masks, which
// is far cheaper than legalMoves when only "none or some" matters (draw.ts judges every ply).
import { counter } from './bitboard.ts';
import type { Position } from './position.ts';

export function hasLegalMove(pos: Position): boolean {
  return counter(pos.variant).countMoves(pos) > 0;
}
