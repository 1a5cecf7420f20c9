// The physical board as the sensors report it, and how it is compared with game positions.
// Codes are the engine's mailbox codes (0 empty, 1 w, 2 b, 3 W, 4 B) plus OCCUPIED for a piece of
// unknown colour (occupancy-only boards). Moves are matched on colour only: whether a piece is a man
// or a king follows from the game, so a crown put on late is not a change (docs/irregularities.md);
// only a king shown where the game has a man disagrees (a result gesture in progress, a wrong piece).
import type { PieceCode } from '../../firmware-protocol/events.ts';
import type { Side, Move, Piece, Position } from '../engine/index.ts';

export const EMPTY = 0;
export const OCCUPIED = 5;

const CODE: Record<PieceCode, number> = { w: 1, b: 2, W: 3, B: 4 };
const PIECE: readonly (Piece | undefined)[] = [undefined, 'w', 'b', 'W', 'B'];

export const isWhiteCode = (c: number): boolean => c === 1 || c === 3;
export const isKingCode = (c: number): boolean => c === 3 || c === 4;
export const pieceOfCode = (c: number): Piece => PIECE[c]!;
export const colorOfCode = (c: number): Side => (isWhiteCode(c) ? 'white' : 'black');

/** The code a put reports: the piece, or OCCUPIED when the board cannot tell. */
export function codeOfPut(piece: PieceCode | undefined, occupancyOnly: boolean): number {
  return piece && !occupancyOnly ? CODE[piece] : OCCUPIED;
}

/** One character of a board string (`w b W B . o`) as a code; undefined when it is none of them. */
export function codeOfChar(ch: string, occupancyOnly: boolean): number | undefined {
  if (ch === '.') return EMPTY;
  if (ch === 'o') return OCCUPIED;
  if (ch === 'w' || ch === 'b' || ch === 'W' || ch === 'B') return occupancyOnly ? OCCUPIED : CODE[ch];
  return undefined;
}

/**
 * Whether the change from sensed board `before` to `after` completes a move under way at `before`
 * rather than making one from rest: pieces only taken off (a capture's, after it landed), or a
 * piece put on where none of its colour came off (it was in the hand) — on a board of occupancy
 * alone, a piece put on and none taken off.
 */
export function completesMove(before: Int8Array, after: Int8Array): boolean {
  let puts = 0;
  let offs = 0;
  const put = new Set<boolean>();
  const off = new Set<boolean>();
  let colours = true;
  for (let s = 1; s < before.length; s++) {
    if (before[s] === EMPTY && after[s] !== EMPTY) {
      puts++;
      if (after[s] === OCCUPIED) colours = false;
      else put.add(isWhiteCode(after[s]));
    } else if (before[s] !== EMPTY && after[s] === EMPTY) {
      offs++;
      if (before[s] !== OCCUPIED) off.add(isWhiteCode(before[s]));
    }
  }
  if (puts === 0) return offs > 0;
  if (!colours) return offs === 0;
  return [...put].some((white) => !off.has(white));
}

/** Does what the sensor shows on a square agree with the game's piece there? */
export function agrees(sensed: number, game: number): boolean {
  if (game === EMPTY) return sensed === EMPTY;
  if (sensed === EMPTY) return false;
  if (sensed === OCCUPIED) return true;
  // A man where the game has a king is a crown not put on yet; a king where it has a man is not it.
  return isWhiteCode(sensed) === isWhiteCode(game) && !(isKingCode(sensed) && !isKingCode(game));
}

/** How many squares of a mailbox (or of the sensed board) hold a piece. */
export function occupiedSquares(board: Int8Array): number {
  let n = 0;
  for (let s = 1; s < board.length; s++) if (board[s] !== EMPTY) n++;
  return n;
}

/** The physical board agrees with `board` on these squares. */
export function agreesOn(phys: Int8Array, board: Int8Array, squares: readonly number[]): boolean {
  for (const s of squares) if (!agrees(phys[s], board[s])) return false;
  return true;
}

/** The physical board shows `board` (a position's mailbox), square by square. */
export function showsBoard(phys: Int8Array, board: Int8Array): boolean {
  for (let s = 1; s < board.length; s++) if (!agrees(phys[s], board[s])) return false;
  return true;
}

export function shows(phys: Int8Array, pos: Position): boolean {
  return showsBoard(phys, pos.board);
}

/** The code on square `s` once `move` (legal in `pos`) is played: `play` square by square, building nothing. */
export function codeAfter(pos: Position, move: Move, s: number): number {
  if (s === move.to) {
    const code = pos.board[move.from];
    // A man's king is its code + 2 (w 1 → W 3, b 2 → B 4).
    return move.promotes ? code + 2 : code;
  }
  if (s === move.from || move.captured.includes(s)) return EMPTY;
  return pos.board[s];
}

/**
 * The physical board shows the position after `move` (legal in `pos`). Compared in place: the
 * tracker asks this of every legal move at every decision, and boards built for the question
 * would live until the next move — long enough for the garbage collector to copy them.
 */
export function showsAfter(phys: Int8Array, pos: Position, move: Move): boolean {
  // The squares the move changes first: most candidates fail there.
  const landed = codeAfter(pos, move, move.to);
  if (!agrees(phys[move.to], landed)) return false;
  // A king that moved is seen as a king: a man put there is another piece (a set-up under way).
  // Only a promotion may be crowned later.
  if (!move.promotes && isKingCode(landed) && (phys[move.to] === 1 || phys[move.to] === 2)) return false;
  if (move.from !== move.to && phys[move.from] !== EMPTY) return false;
  for (let s = 1; s < pos.board.length; s++) if (!agrees(phys[s], codeAfter(pos, move, s))) return false;
  return true;
}

/** The same board turned 180° (square s ↦ N+1−s). */
export function turned(board: Int8Array): Int8Array {
  const n = board.length - 1;
  const out = new Int8Array(board.length);
  for (let s = 1; s <= n; s++) out[s] = board[n + 1 - s];
  return out;
}

/** Squares where the physical board and the position disagree. */
export function differences(phys: Int8Array, pos: Position): number[] {
  const out: number[] = [];
  for (let s = 1; s < pos.board.length; s++) if (!agrees(phys[s], pos.board[s])) out.push(s);
  return out;
}

/**
 * The board shows `move` (a capture from `pos`) landed, its captured pieces still on or partly off:
 * a capture under way, not yet a move.
 */
export function showsCaptureUnderWay(phys: Int8Array, pos: Position, move: Move): boolean {
  if (move.captured.length === 0) return false;
  for (let s = 1; s < pos.board.length; s++) {
    const ok = move.captured.includes(s)
      ? phys[s] === EMPTY || agrees(phys[s], pos.board[s])
      : agrees(phys[s], codeAfter(pos, move, s));
    if (!ok) return false;
  }
  return true;
}

/** The board shows `pos` but for one piece of the side to move that has a legal move: lifted. */
export function showsPieceInHand(phys: Int8Array, pos: Position, moves: readonly Move[]): boolean {
  let lifted = 0;
  for (let s = 1; s < pos.board.length; s++) {
    if (agrees(phys[s], pos.board[s])) continue;
    if (lifted !== 0 || phys[s] !== EMPTY || colorOfCode(pos.board[s]) !== pos.turn) return false;
    lifted = s;
  }
  return lifted !== 0 && moves.some((m) => m.from === lifted);
}

/**
 * The board shows `pos` with the next move (of `moves`, legal there) begun and not done: a piece of
 * the side to move in the hand, or a capture landed with a piece it takes still on — how the gap
 * search reads a line's end (./gap/search.ts, move by move there), for an answer's line
 * (./gap/answer.ts).
 */
export function showsMoveUnderWay(phys: Int8Array, pos: Position, moves: readonly Move[]): boolean {
  if (showsPieceInHand(phys, pos, moves)) return true;
  return moves.some((m) => m.captured.some((s) => phys[s] !== EMPTY) && showsCaptureUnderWay(phys, pos, m));
}

const CHARS = ['.', 'w', 'b', 'W', 'B', 'o'];

/** The sensed board as text, one character per square (`w b W B o .`), as boards dump it. */
export function sensedText(phys: Int8Array): string {
  let text = '';
  for (let s = 1; s < phys.length; s++) text += CHARS[phys[s]] ?? '.';
  return text;
}

/** The sensed codes of a board string (one character a square, `w b W B o .`): sensedText's inverse. */
export function sensedSquares(text: string, occupancyOnly = false): Int8Array {
  const out = new Int8Array(text.length + 1);
  for (let i = 0; i < text.length; i++) out[i + 1] = codeOfChar(text[i], occupancyOnly) ?? EMPTY;
  return out;
}

/** The board shows more pieces (of a colour, when it tells colours) than the position has. */
export function morePieces(seen: Int8Array, pos: Position): boolean {
  let white = 0;
  let black = 0;
  let unknown = 0;
  for (let s = 1; s < seen.length; s++) {
    const t = seen[s];
    if (t === OCCUPIED) unknown++;
    else if (t !== EMPTY) isWhiteCode(t) ? white++ : black++;
  }
  const w = pos.count('white');
  const b = pos.count('black');
  const inWhite = w.men + w.kings;
  const inBlack = b.men + b.kings;
  return white > inWhite || black > inBlack || white + black + unknown > inWhite + inBlack;
}
