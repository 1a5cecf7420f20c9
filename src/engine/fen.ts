// FEN: `W:W31,32,…:B1,2,…` — `K` marks a king; ranges `31-50` are read, comma lists are written.
// A FEN is read as a position or refused with a `bad-fen` error: squares of the variant, each once,
// no man on its own crowning row, at most as many pieces a side as the game starts with. The text
// is read by firmware-protocol/fen-board.js, the one FEN reader; the variant's rules are checked here.
import { err, ok, type ParseError, type Result } from '../result.ts';
import { Position } from './position.ts';
import type { Piece, Side } from './types.ts';
import { SIDES } from '../../firmware-protocol/side.ts';
import { geometry, type Variant } from './variant.ts';
import { FEN_SYNTAX_CODES, readFenBoard } from '../../firmware-protocol/fen-board.js';

export interface FenOptions {
  variant?: Variant;
  /**
   * The PDN reading grammar lets the side to move be `?`; it is read as this colour when given
   * (the PDN reader then decides from the first move), and refused otherwise.
   */
  unknownTurn?: Side;
}

/** What can be wrong with a FEN. */
export const FEN_ERROR_CODES = [
  ...FEN_SYNTAX_CODES,
  'square-out-of-range',
  'square-twice',
  'man-on-promotion-row',
  'too-many-pieces',
] as const;
export type FenErrorCode = (typeof FEN_ERROR_CODES)[number];

/** Every FEN problem is of this kind, so that callers can answer `bad-fen` whatever the code. */
export interface FenError extends ParseError<FenErrorCode> {
  kind: 'bad-fen';
}

const fenError = (code: FenErrorCode, message: string, at?: number): FenError => ({
  kind: 'bad-fen',
  code,
  message,
  ...(at === undefined ? {} : { offset: at, col: at + 1 }),
});

/**
 * Checks that a position can stand on a board of its variant: at most as many pieces a side as the
 * initial position (20, or 12 on 8×8) and no man on its own crowning row.
 */
export function validatePosition(pos: Position): Result<Position, FenError> {
  const g = geometry(pos.variant);
  const most = g.initialWhite.length;
  for (const color of SIDES) {
    const n = pos.pieces(color).length;
    if (n > most) {
      return err(
        fenError('too-many-pieces', `${n} ${color} pieces: at most ${most} on the ${pos.variant} board`),
      );
    }
  }
  for (const [s, p] of pos.pieces()) {
    if ((p === 'w' && g.whitePromotion(s)) || (p === 'b' && g.blackPromotion(s))) {
      return err(fenError('man-on-promotion-row', crowningMessage(p === 'w' ? 'white' : 'black', s)));
    }
  }
  return ok(pos);
}

const crowningMessage = (color: Side, s: number) =>
  color === 'white'
    ? `a white man cannot stand on ${s} (White's crowning row)`
    : `a black man cannot stand on ${s} (Black's crowning row)`;

export function parseFen(text: string, options: FenOptions = {}): Result<Position, FenError> {
  const variant = options.variant ?? 'international';
  const g = geometry(variant);
  const read = readFenBoard(text);
  if (!read.ok) return err(fenError(read.error.code, read.error.message, read.error.at));
  const { turn: turnChar, items } = read.value;
  if (turnChar === '?' && options.unknownTurn === undefined) {
    const at = text.length - text.trimStart().length;
    return err(fenError('bad-turn', 'FEN must start with the side to move, W or B; found "?"', at));
  }
  const turn: Side = turnChar === '?' ? options.unknownTurn! : turnChar === 'W' ? 'white' : 'black';
  const pieces = new Map<number, Piece>();
  const count = { white: 0, black: 0 };
  for (const { first, last, piece, at } of items) {
    const fail = (code: FenErrorCode, message: string) => err(fenError(code, message, at));
    const color: Side = piece === 'w' || piece === 'W' ? 'white' : 'black';
    for (let s = first; s <= last; s++) {
      if (s < 1 || s > g.squares) {
        return fail('square-out-of-range', `square ${s} is not on the ${variant} board (1–${g.squares})`);
      }
      if (pieces.has(s)) return fail('square-twice', `square ${s} is listed twice`);
      if ((piece === 'w' && g.whitePromotion(s)) || (piece === 'b' && g.blackPromotion(s))) {
        return fail('man-on-promotion-row', crowningMessage(color, s));
      }
      if (++count[color] > g.initialWhite.length) {
        return fail(
          'too-many-pieces',
          `more than ${g.initialWhite.length} ${color} pieces on the ${variant} board`,
        );
      }
      pieces.set(s, piece);
    }
  }
  return ok(Position.setup(variant, turn, pieces));
}

/** Writes comma lists, kings with `K`, in square order (lidraughts drops ranges). */
export function writeFen(pos: Position): string {
  // Straight from the mailbox (codes 1 w, 2 b, 3 W, 4 B), with no [square, piece] lists between:
  // the tracker and the game record write one FEN a move on every board.
  const white: string[] = [];
  const black: string[] = [];
  const board = pos.board;
  for (let s = 1; s < board.length; s++) {
    const c = board[s];
    if (c === 0) continue;
    (c === 1 || c === 3 ? white : black).push(c >= 3 ? `K${s}` : `${s}`);
  }
  // join gives one flat string (the game keeps one a move); `+` would keep a rope of pieces.
  return `${pos.turn === 'white' ? 'W' : 'B'}:W${white.join(',')}:B${black.join(',')}`;
}
