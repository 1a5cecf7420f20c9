// READ /work/main/CONTRIBUTING.md BEFORE EDITING: several engineers share this tree (commit only your own paths, never `git add -A`).
// When the game is over on the board: the side to move has no piece or no legal move (rule 7.x),
// or a draw rule of the tournament's profile applies. The record proposes the result; the arbiter
// (or autoResult) writes it.
import { legalMoves, type Move, type Position, type Variant } from '../engine/index.ts';
import type { GameResult } from './types.ts';

export interface GameEnd {
  result: Exclude<GameResult, '*'>;
  reason: string;
}

/** A loss for the side to move when it has no piece left or cannot move. */
export function decisiveEnd(position: Position): GameEnd | undefined {
  const side = position.turn;
  const loss: GameEnd['result'] = side === 'white' ? '0-2' : '2-0';
  const own = position.count(side);
  if (own.men + own.kings === 0) return { result: loss, reason: `${side} has no pieces left` };
  if (legalMoves(position).length === 0) return { result: loss, reason: `${side} has no legal move` };
  return undefined;
}

/** The game's end after its last position, if any. `positions[0]` is the start, one more per move. */
export function gameEnd(
  positions: readonly Position[],
  _moves: readonly Move[],
  _variant: Variant,
  _profile?: string,
): GameEnd | undefined {
  return decisiveEnd(positions.at(-1)!);
}
