// The sensed board: what stands on each square as the sensors report it (turned when the board
// stands the wrong way round, 5.1), and the hand events since the last decision — which pieces
// were lifted and put, in what order. Compared with game positions through ./sensed-codes.ts.
import { toSquareString } from '../../firmware-protocol/board-string.ts';
import type { BoardString, PieceCode, Side } from '../../firmware-protocol/events.ts';
import { Position } from '../engine/index.ts';
import {
  codeOfChar,
  codeOfPut,
  colorOfCode,
  differences,
  EMPTY,
  isWhiteCode,
  OCCUPIED,
  turned,
} from './sensed-codes.ts';
import type { HandEvent } from './hands.ts';
import { observationGapMs, reportLagMs } from './timing.ts';

/** Hand events kept while nothing is decided (a board left in disorder for a long time). */
const HAND_LIMIT = 4000;

export class SensedBoard {
  /** What stands on each square (index = square), in the board's reading (turned when rotated). */
  squares: Int8Array;
  rotated = false;
  /** The lifts and puts since the last decision. */
  hand: HandEvent[] = [];
  private batch = 0;
  /** The observation the last change belonged to, and when it came. */
  private scan = 0;
  private lastChangeT = Number.NEGATIVE_INFINITY;
  private gapMs = observationGapMs(undefined);
  /** How much earlier than a quiet move's lift its put may be reported (docs: 5–60 ms; a scan more on a scanning board). */
  private skewMs = reportLagMs(undefined);

  constructor(
    private readonly n: number,
    start: Position,
    public occupancyOnly: boolean,
  ) {
    this.squares = Int8Array.from(start.board);
    if (occupancyOnly) this.squares = this.squares.map((c) => (c === EMPTY ? EMPTY : OCCUPIED));
  }

  /** A reported square is one of the board's playing squares. */
  onBoard(reported: number): boolean {
    return reported >= 1 && reported <= this.n;
  }

  /** The game's square for a reported one. */
  square(reported: number): number {
    return this.rotated ? this.n + 1 - reported : reported;
  }

  /** The board reports by scans of this period (its hello), or undefined: changes as they come. */
  set scanMs(ms: number | undefined) {
    this.gapMs = observationGapMs(ms);
    this.skewMs = reportLagMs(ms);
  }

  /** The observation a change at `t` belongs to: the last one's when it came back to back with it. */
  private observation(t: number): number {
    if (t - this.lastChangeT > this.gapMs) this.scan++;
    this.lastChangeT = t;
    return this.scan;
  }

  /** A lift (`piece` undefined) or put on a reported square of the board. */
  change(reported: number, put: boolean, piece: PieceCode | undefined, t: number): void {
    const s = this.square(reported);
    this.squares[s] = put ? codeOfPut(piece, this.occupancyOnly) : EMPTY;
    this.hand.push({ kind: put ? 'put' : 'lift', square: s, t, batch: 0, scan: this.observation(t) });
    if (this.hand.length > HAND_LIMIT) this.hand = this.hand.slice(-HAND_LIMIT / 2);
  }

  /**
   * A full scan: the squares it changes, as lifts then puts of one batch (their order is unknown
   * when there are several); undefined when the text is no board of this size.
   */
  snapshot(board: BoardString, t: number): number[] | undefined {
    const read = toSquareString(board, this.n);
    if (read === undefined) return undefined;
    const shown = this.rotated ? [...read].reverse().join('') : read;
    const changed: number[] = [];
    const next = new Int8Array(this.n + 1);
    for (let s = 1; s <= this.n; s++) {
      const code = codeOfChar(shown[s - 1], this.occupancyOnly) ?? EMPTY;
      next[s] = code;
      if (code !== this.squares[s]) changed.push(s);
    }
    if (changed.length === 0) return changed;
    const batch = changed.length > 1 ? ++this.batch : 0;
    const scan = this.observation(t);
    for (const s of changed)
      if (this.squares[s] !== EMPTY) this.hand.push({ kind: 'lift', square: s, t, batch, scan });
    for (const s of changed)
      if (next[s] !== EMPTY) this.hand.push({ kind: 'put', square: s, t, batch, scan });
    this.squares = next;
    return changed;
  }

  /** From now on squares are read turned (5.1), or the right way round again. */
  turn(): void {
    this.rotated = !this.rotated;
    this.squares = turned(this.squares);
  }

  /** A decision was taken: the hand events before it prove nothing about the next one. */
  forget(): void {
    this.hand = [];
  }

  /** Squares the hands were seen lifting since the last decision, first lift first (a dump's differences tell no order). */
  liftOrder(): number[] {
    const lifts: number[] = [];
    for (const h of this.hand)
      if (h.kind === 'lift' && h.batch === 0 && !lifts.includes(h.square)) lifts.push(h.square);
    return lifts;
  }

  /**
   * Was a piece put on `square` since the last decision — when `carriedFrom` is given, one that
   * can be the piece lifted from there: not put before that lift (beyond the scan's skew, which may
   * report a quiet move's new square shortly before its old one).
   */
  putOn(square: number, carriedFrom?: number): boolean {
    const lift =
      carriedFrom === undefined
        ? undefined
        : this.hand.find((h) => h.kind === 'lift' && h.square === carriedFrom);
    const earliest = lift ? lift.t - this.skewMs : Number.NEGATIVE_INFINITY;
    return this.hand.some((h) => h.kind === 'put' && h.square === square && h.t >= earliest);
  }

  /** The last change on `square` is a lift after `t` of a piece of `side` in `pos`. */
  liftedAfter(square: number, t: number, side: Side, pos: Position): boolean {
    const code = pos.board[square];
    if (code === EMPTY || colorOfCode(code) !== side) return false;
    for (let i = this.hand.length - 1; i >= 0; i--) {
      const h = this.hand[i];
      if (h.square === square) return h.kind === 'lift' && h.t > t;
    }
    return false;
  }

  differences(pos: Position): number[] {
    return differences(this.squares, pos);
  }

  /** The board with these squares of `pos` counted as still there (captured pieces left on, 5.4.11). */
  withPiecesOf(pos: Position, squares: readonly number[]): Int8Array {
    const view = Int8Array.from(this.squares);
    for (const sq of squares) if (view[sq] === EMPTY) view[sq] = pos.board[sq];
    return view;
  }

  /**
   * The board as it physically stands, read against `pos` (kinds from the game, a piece of unknown
   * colour from the squares it can have come from), `turn` to move; undefined when it cannot tell.
   */
  physicalPosition(pos: Position, turn: Side = pos.turn): Position | undefined {
    const board = new Int8Array(this.n + 1);
    const vacated = differences(this.squares, pos).filter(
      (s) => this.squares[s] === EMPTY && pos.board[s] !== EMPTY,
    );
    for (let s = 1; s <= this.n; s++) {
      const seen = this.squares[s];
      const game = pos.board[s];
      if (seen === EMPTY) continue;
      if (game !== EMPTY && (seen === OCCUPIED || isWhiteCode(seen) === isWhiteCode(game))) board[s] = game;
      else if (seen !== OCCUPIED) board[s] = seen;
      // A piece of unknown colour came from one of the vacated squares: told when they all held alike.
      else if (vacated.length > 0 && vacated.every((v) => pos.board[v] === pos.board[vacated[0]]))
        board[s] = pos.board[vacated[0]];
      else return undefined;
    }
    return Position.fromBoard(pos.variant, turn, board);
  }
}
