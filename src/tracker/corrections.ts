// What the players may still put right on the board themselves (5.4, 5.7): the last irregularity
// until the opponent moves on, a takeback until the move taken back is played again, and the board
// of a W alert until play goes on from it. The tracker decides when to look; this module holds what
// may be corrected and reads the board for it. A correction closes the alerts and takes the
// irregular move out of the record (a `correction` output).
import { legalMoves, type Move, moveKey, opposite, type Position } from '../engine/index.ts';
import { shows, showsAfter } from './sensed-codes.ts';
import type { SensedBoard } from './sensed.ts';
import type { Alert } from './types.ts';

/** What the players undo when they correct an irregularity on the board (5.4). */
export interface Correctable {
  alerts: Alert[];
  /** Moves kept: the ones after them (the irregular move) leave the record. */
  keep: number;
  /** The position the board shows once corrected. */
  restore: Position;
  /** After a takeback: the move taken back. Played again, it corrects the takeback. */
  undone?: Move;
}

/** A W alert: nothing recorded until the board shows the game again or play goes on from it. */
export interface Waiting {
  alert: Alert;
  /** The board as it stood at the alert: a legal move from it means the irregularity stands (5.7). */
  base?: Position;
}

/** A legal move on the board from the position it was played from. */
export interface ShownMove {
  from: Position;
  move: Move;
}

export class Corrections {
  /** The last irregularity (or takeback), until the opponent moves on (5.7). */
  last: Correctable | undefined;

  /**
   * The position before the last irregularity is back on the board: corrected — even where it is
   * also a legal move of the opponent's (a man the mover stepped back to where it came from).
   */
  restored(sensed: Int8Array): Correctable | undefined {
    const c = this.last;
    return c && !c.undone && shows(sensed, c.restore) ? c : undefined;
  }

  /** The move taken back is played again: the takeback is corrected. */
  replayed(legal: Move): Correctable | undefined {
    const c = this.last;
    return c?.undone && moveKey(c.undone) === moveKey(legal) ? c : undefined;
  }

  /**
   * A legal move from the position before the last irregularity is on the board, played instead:
   * one the hands have played since (a piece put on its square — on a board of occupancy alone a
   * piece in the hand can look like a capture made), or the recorded move itself, once a piece
   * taken off with it is back.
   */
  playedInstead(board: SensedBoard, recorded: Move | undefined): ShownMove | undefined {
    const c = this.last;
    if (!c || c.undone) return undefined;
    const move = legalMoves(c.restore).find(
      (m) =>
        showsAfter(board.squares, c.restore, m) &&
        (board.putOn(m.to, m.from) || (recorded?.from === m.from && recorded.to === m.to)),
    );
    return move && { from: c.restore, move };
  }

  /** The arbiter's word on `alert` ends what the players could still correct of it. */
  decided(alert: Alert): void {
    if (this.last?.alerts.includes(alert)) this.last = undefined;
  }
}

/** While waiting (W): a legal move, of either side, from the board as it stood at the alert (5.7). */
export function playedOn(w: Waiting, sensed: Int8Array): ShownMove | undefined {
  if (!w.base) return undefined;
  for (const from of [w.base, w.base.withTurn(opposite(w.base.turn))]) {
    const move = legalMoves(from).find((m) => showsAfter(sensed, from, m));
    if (move) return { from, move };
  }
  return undefined;
}
