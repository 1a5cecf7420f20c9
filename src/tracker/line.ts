// The game as the tracker has recorded it: the moves, the position after them, and the positions
// since the game last continued from a set position — what takebacks and corrections go back to.
import type { Move, Position } from '../engine/index.ts';
import { earlierPositionShown } from './takeback.ts';

export class GameLine {
  moves: Move[] = [];
  /** Positions since the last set position; `base + i` moves had been played at `positions[i]`. */
  private positions: Position[];
  private base = 0;

  constructor(start: Position) {
    this.positions = [start];
  }

  /** The game position: after the last recorded move. */
  get position(): Position {
    return this.positions[this.positions.length - 1];
  }

  /** The position the last move was played from, when the line knows it. */
  get previous(): Position | undefined {
    return this.positions.length >= 2 ? this.positions[this.positions.length - 2] : undefined;
  }

  get last(): Move | undefined {
    return this.moves[this.moves.length - 1];
  }

  play(move: Move, after: Position): void {
    this.moves.push(move);
    this.positions.push(after);
  }

  /** The last move leaves the record (it is recorded again, whole or marked). */
  undoLast(): Move | undefined {
    if (this.positions.length < 2) return undefined;
    this.positions.pop();
    return this.moves.pop();
  }

  /** Only the first `keep` moves stay, and the game continues from `at` (a correction, a takeback). */
  cut(keep: number, at: Position): void {
    this.moves = this.moves.slice(0, keep);
    const i = keep - this.base;
    if (i >= 0) this.positions = [...this.positions.slice(0, i), at];
    else this.restartFrom(at);
  }

  /** The position after `ply` moves, when the line still knows it (not before a set position). */
  positionAt(ply: number): Position | undefined {
    return ply >= this.base ? this.positions[ply - this.base] : undefined;
  }

  /** `count` moves from `ply` on are `moves` instead, leading to `positions` (a gap's line decided). */
  replace(ply: number, count: number, moves: readonly Move[], positions: readonly Position[]): void {
    this.moves.splice(ply, count, ...moves);
    this.positions.splice(ply - this.base + 1, count, ...positions);
  }

  /** The position after the last move is `pos` instead (captured pieces left on taken off later). */
  amend(pos: Position): void {
    this.positions[this.positions.length - 1] = pos;
  }

  /** The game continues from `pos` (set by the arbiter, or the board as it stands). */
  restartFrom(pos: Position): void {
    this.positions = [pos];
    this.base = this.moves.length;
  }

  /** A new game from `start`. */
  reset(start: Position): void {
    this.moves = [];
    this.positions = [start];
    this.base = 0;
  }

  /** The earlier position of the line the board shows (5.4.4): how many moves it keeps, and it. */
  earlierShown(phys: Int8Array): { kept: number; position: Position } | undefined {
    const i = earlierPositionShown(phys, this.positions);
    return i === undefined ? undefined : { kept: this.base + i, position: this.positions[i] };
  }
}
