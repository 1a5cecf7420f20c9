import * as position from './position.ts';
import { Position } from './position.ts';
import type { Move } from './types.ts';
import * as types from './types.ts';

// Module-local copies: under tsx an imported binding is read through a getter call (see movegen.ts).
const { CODE_OF, EMPTY } = position;
const { colorOf, kingOf, opposite } = types;

/** The position after `move` (assumed legal in `pos`). */
export function play(pos: Position, move: Move): Position {
  const board = Int8Array.from(pos.board);
  const code = board[move.from];
  board[move.from] = EMPTY;
  for (const c of move.captured) board[c] = EMPTY;
  board[move.to] = move.promotes ? CODE_OF[kingOf(colorOf(move.piece))] : code;
  return Position.fromBoard(pos.variant, opposite(pos.turn), board);
}
