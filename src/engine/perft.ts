// Perft: the number of leaf nodes of the legal-move tree, counting canonical moves (engine-vectors.md).
import { legalMoves } from './movegen.ts';
import { moveNotation } from './notation.ts';
import { play } from './play.ts';
import type { Position } from './position.ts';

/** Leaves at `depth` plies below `pos` (bulk counting at the last ply). */
export function perft(pos: Position, depth: number): number {
  if (depth <= 0) return 1;
  const moves = legalMoves(pos);
  if (depth === 1) return moves.length;
  let n = 0;
  for (const m of moves) n += perft(play(pos, m), depth - 1);
  return n;
}

/** Perft split by first move, each with its PDN text. */
export function perftDivide(pos: Position, depth: number): Array<{ move: string; nodes: number }> {
  const moves = legalMoves(pos);
  return moves.map((m) => ({ move: moveNotation(pos, m, moves), nodes: perft(play(pos, m), depth - 1) }));
}
