// Perft: the number of leaf nodes of the legal-move tree, counting canonical moves (engine-vectors.md).
// `perft` runs on bitboards (bitboard.ts); `perftReference` walks the public legalMoves/play and
// is kept to check the fast one against.
import { counter } from './bitboard.ts';
import { legalMoves } from './movegen.ts';
import { moveNotation } from './notation.ts';
import { play } from './play.ts';
import type { Position } from './position.ts';

/** Leaves at `depth` plies below `pos` (bulk counting at the last ply). */
export function perft(pos: Position, depth: number): number {
  return counter(pos.variant).perft(pos, depth);
}

/** The same count through legalMoves and play (slow; for cross-checks). */
export function perftReference(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += perftReference(play(pos, m), depth - 1);
  return n;
}

/** Perft split by first move, each with its PDN text. */
export function perftDivide(pos: Position, depth: number): Array<{ move: string; nodes: number }> {
  const moves = legalMoves(pos);
  return moves.map((m) => ({ move: moveNotation(pos, m, moves), nodes: perft(play(pos, m), depth - 1) }));
}
