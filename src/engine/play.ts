import * as position from './position.ts';
import { Position } from './position.ts';
import type { Move } from './types.ts';
import * as types from './types.ts';

// Module-local copies: under tsx an imported binding is read through a getter call (see movegen.ts).
const { CODE_OF } = position;
const { colorOf, kingOf } = types;

/** The position after `move` (assumed legal in `pos`). */
export function play(pos: Position, move: Move): Position {
  const code = move.promotes ? CODE_OF[kingOf(colorOf(move.piece))] : pos.board[move.from];
  return Position.afterMove(pos, move.from, move.to, move.captured, code);
}
