// An immutable position: pieces on squares, side to move, and its Zobrist hash.
import type { Side, Piece } from './types.ts';
import { colorOf } from './types.ts';
import type { Variant } from './variant.ts';
import { geometry } from './variant.ts';

/** Mailbox codes: 0 empty, 1 white man, 2 black man, 3 white king, 4 black king. */
export const EMPTY = 0;
export const CODE_OF: Record<Piece, number> = { w: 1, b: 2, W: 3, B: 4 };
export const PIECE_OF: readonly (Piece | undefined)[] = [undefined, 'w', 'b', 'W', 'B'];

// Zobrist keys as two 32-bit halves from a fixed seed, so hashes are stable across runs and machines.
const MAX_SQUARES = 50;
const ZOBRIST_LO = new Uint32Array(5 * (MAX_SQUARES + 1));
const ZOBRIST_HI = new Uint32Array(5 * (MAX_SQUARES + 1));
const SIDE_LO = 0x9e3779b9;
const SIDE_HI = 0x7f4a7c15 & 0x1fffff;
{
  let x = 0x2545f491;
  const next = () => {
    // xorshift32
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return x >>> 0;
  };
  for (let i = 0; i < ZOBRIST_LO.length; i++) {
    ZOBRIST_LO[i] = next();
    ZOBRIST_HI[i] = next() & 0x1fffff; // 21 bits: lo + hi·2³² stays an exact JS number
  }
}

export class Position {
  readonly variant: Variant;
  readonly turn: Side;
  /** Index = square (1-based); do not mutate. */
  readonly board: Int8Array;
  /** Zobrist hash of pieces and side to move (53 bits, exact as a number). */
  readonly hash: number;

  private constructor(variant: Variant, turn: Side, board: Int8Array, hash?: number) {
    this.variant = variant;
    this.turn = turn;
    this.board = board;
    if (hash !== undefined) {
      this.hash = hash;
      return;
    }
    let lo = turn === 'black' ? SIDE_LO : 0;
    let hi = turn === 'black' ? SIDE_HI : 0;
    for (let s = 1; s < board.length; s++) {
      const c = board[s];
      if (c !== EMPTY) {
        lo ^= ZOBRIST_LO[c * (MAX_SQUARES + 1) + s];
        hi ^= ZOBRIST_HI[c * (MAX_SQUARES + 1) + s];
      }
    }
    this.hash = (hi >>> 0) * 0x100000000 + (lo >>> 0);
  }

  /** Builds a position from a square → piece map; squares outside the board are ignored. */
  static setup(variant: Variant, turn: Side, pieces: Iterable<readonly [number, Piece]>): Position {
    const n = geometry(variant).squares;
    const board = new Int8Array(n + 1);
    for (const [s, p] of pieces) if (s >= 1 && s <= n) board[s] = CODE_OF[p];
    return new Position(variant, turn, board);
  }

  /** Internal: takes ownership of `board`. */
  static fromBoard(variant: Variant, turn: Side, board: Int8Array): Position {
    return new Position(variant, turn, board);
  }

  /**
   * The position after the piece on `from` went to `to` (arriving as `code`, a promotion's king)
   * taking the pieces on `captured`, the other side to move. Its hash is the parent's updated by
   * the squares that changed, not computed again from every square: a search builds many.
   */
  static afterMove(
    pos: Position,
    from: number,
    to: number,
    captured: readonly number[],
    code: number,
  ): Position {
    const board = pos.board.slice();
    const h = pos.hash;
    // ToUint32 is the hash modulo 2³²: its low half.
    let lo = (h >>> 0) ^ SIDE_LO;
    let hi = ((h - (h >>> 0)) / 0x100000000) ^ SIDE_HI;
    const moving = board[from];
    lo ^= ZOBRIST_LO[moving * (MAX_SQUARES + 1) + from];
    hi ^= ZOBRIST_HI[moving * (MAX_SQUARES + 1) + from];
    board[from] = EMPTY;
    for (let i = 0; i < captured.length; i++) {
      const s = captured[i];
      const c = board[s];
      if (c === EMPTY) continue;
      lo ^= ZOBRIST_LO[c * (MAX_SQUARES + 1) + s];
      hi ^= ZOBRIST_HI[c * (MAX_SQUARES + 1) + s];
      board[s] = EMPTY;
    }
    const there = board[to];
    if (there !== EMPTY) {
      lo ^= ZOBRIST_LO[there * (MAX_SQUARES + 1) + to];
      hi ^= ZOBRIST_HI[there * (MAX_SQUARES + 1) + to];
    }
    board[to] = code;
    lo ^= ZOBRIST_LO[code * (MAX_SQUARES + 1) + to];
    hi ^= ZOBRIST_HI[code * (MAX_SQUARES + 1) + to];
    return new Position(
      pos.variant,
      pos.turn === 'white' ? 'black' : 'white',
      board,
      (hi >>> 0) * 0x100000000 + (lo >>> 0),
    );
  }

  static initial(variant: Variant = 'international'): Position {
    const g = geometry(variant);
    return Position.setup(variant, 'white', [
      ...g.initialWhite.map((s) => [s, 'w'] as const),
      ...g.initialBlack.map((s) => [s, 'b'] as const),
    ]);
  }

  get squareCount(): number {
    return this.board.length - 1;
  }

  pieceAt(square: number): Piece | undefined {
    return PIECE_OF[this.board[square] ?? 0];
  }

  /** Every occupied square with its piece, in square order. */
  pieces(color?: Side): Array<[number, Piece]> {
    const out: Array<[number, Piece]> = [];
    for (let s = 1; s < this.board.length; s++) {
      const p = PIECE_OF[this.board[s]];
      if (p && (!color || colorOf(p) === color)) out.push([s, p]);
    }
    return out;
  }

  count(color: Side): { men: number; kings: number } {
    let men = 0;
    let kings = 0;
    for (let s = 1; s < this.board.length; s++) {
      const c = this.board[s];
      if (color === 'white' ? c === 1 : c === 2) men++;
      else if (color === 'white' ? c === 3 : c === 4) kings++;
    }
    return { men, kings };
  }

  withTurn(turn: Side): Position {
    return turn === this.turn ? this : new Position(this.variant, turn, this.board);
  }

  equals(other: Position): boolean {
    if (this.hash !== other.hash || this.turn !== other.turn || this.variant !== other.variant) return false;
    for (let s = 1; s < this.board.length; s++) if (this.board[s] !== other.board[s]) return false;
    return true;
  }

  /** One character per square: `w b W B` or `.` — the sensor contract's board string. */
  toBoardString(): string {
    let s = '';
    for (let i = 1; i < this.board.length; i++) s += PIECE_OF[this.board[i]] ?? '.';
    return s;
  }
}
