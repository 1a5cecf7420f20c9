// The takeback search (5.4.4): does the sensed board show an earlier position of this game?
import type { Position } from '../engine/index.ts';
import { agreesOn, differences, occupiedSquares, shows } from './sensed-codes.ts';

/** How many earlier positions a takeback may go back to. */
export const TAKEBACK_PLIES = 40;

/**
 * The index in `history` (positions of the game, the last one the game's) of the earlier position
 * the board shows, the latest first; undefined when it shows none.
 */
export function earlierPositionShown(phys: Int8Array, history: readonly Position[]): number | undefined {
  const last = history.length - 1;
  const current = history[last];
  // Pieces only come off: a board with fewer than the game (a piece in the hand) shows no earlier
  // position, since earlier positions never have fewer.
  if (occupiedSquares(phys) < occupiedSquares(current.board)) return undefined;
  // Where the board differs from the game: an earlier position it shows agrees there, so those
  // few squares rule out most candidates.
  const changed = differences(phys, current);
  for (let i = last - 1; i >= Math.max(0, last - TAKEBACK_PLIES); i--) {
    const earlier = history[i];
    if (agreesOn(phys, earlier.board, changed) && shows(phys, earlier)) return i;
  }
  return undefined;
}
