// Board strings (one char per FMJD square) and the helpers every protocol shares:
// start position, 180° rotation, FEN → board string, and the diff that turns two pictures into events.
import type {
  BoardEvent,
  BoardStamp,
  BoardString,
  FaultEvent,
  LiftEvent,
  PieceCode,
  PutEvent,
} from './events.ts';
import { PIECE_CODES } from './events.ts';
import { readFenBoard } from './fen-board.js';

/** 10 = international 10×10 (50 squares), 8 = 64-square board (32 squares). */
export type BoardSize = 10 | 8;
export type SquareChar = PieceCode | '.' | 'o';

export const squareCount = (size: BoardSize): 50 | 32 => (size === 10 ? 50 : 32);
export const sizeOfSquareCount = (n: number): BoardSize | undefined =>
  n === 50 ? 10 : n === 32 ? 8 : undefined;

const SQUARE_CHARS = new Set(['w', 'b', 'W', 'B', '.', 'o']);
export const isPieceCode = (c: string): c is PieceCode => (PIECE_CODES as readonly string[]).includes(c);

/** True when `board` is a 50- or 32-char string of `w b W B . o` (of length `n` when given). */
export function isSquareString(board: string, n?: number): boolean {
  if (n !== undefined ? board.length !== n : board.length !== 50 && board.length !== 32) return false;
  for (let i = 0; i < board.length; i++) if (!SQUARE_CHARS.has(board[i])) return false;
  return true;
}

/** Black men on the first 20 (12) squares, White men on the last 20 (12): rule 5.1's set-up. */
export function startPosition(size: BoardSize): string {
  const n = squareCount(size);
  const rows = size === 10 ? 20 : 12;
  return 'b'.repeat(rows) + '.'.repeat(n - 2 * rows) + 'w'.repeat(rows);
}

/** A board turned 180°: square s ↦ N+1−s, i.e. the string reversed. */
export const rotateBoard = (board: string): string => [...board].reverse().join('');
export const rotateSquare = (square: number, n: number): number => n + 1 - square;

/** Square count a board's dark-square numbering has per row (5 on 10×10, 4 on 8×8). */
const perRow = (size: BoardSize): number => size / 2;

/**
 * Default numbering of a full (all-squares) scan: field i is row ⌊i/size⌋ from the top (Black's side),
 * column i mod size from the left, as White sees the board. Dark squares ((row+col) odd) get their
 * FMJD number, light squares 0.
 */
export function fullScanFieldMap(size: BoardSize): number[] {
  const map: number[] = [];
  for (let i = 0; i < size * size; i++) {
    const row = Math.floor(i / size);
    const col = i % size;
    map.push((row + col) % 2 === 1 ? row * perRow(size) + Math.floor(col / 2) + 1 : 0);
  }
  return map;
}

/** Identity numbering of a dark-squares-only scan: field i is FMJD square i+1. */
export const darkScanFieldMap = (size: BoardSize): number[] =>
  Array.from({ length: squareCount(size) }, (_, i) => i + 1);

/**
 * Checks a field map: every value 0 (not a playing square) or a square 1..n, no square twice,
 * and every square present. Returns a message when it is wrong.
 */
export function fieldMapProblem(map: readonly number[], fields: number, n: number): string | undefined {
  if (map.length !== fields) return `has ${map.length} entries, expected ${fields}`;
  const seen = new Set<number>();
  for (const sq of map) {
    if (!Number.isInteger(sq) || sq < 0 || sq > n) return `entry ${sq} is not 0 or a square 1–${n}`;
    if (sq !== 0 && seen.has(sq)) return `square ${sq} appears twice`;
    if (sq !== 0) seen.add(sq);
  }
  if (seen.size !== n) return `covers ${seen.size} of the ${n} squares`;
  return undefined;
}

/** field → square map turned around: square (1-based) → field index. */
export function invertFieldMap(map: readonly number[], n: number): number[] {
  const inverse = new Array<number>(n + 1).fill(-1);
  map.forEach((sq, field) => {
    if (sq > 0) inverse[sq] = field;
  });
  return inverse;
}

/**
 * A snapshot's board as a square string: square strings pass through, FEN (`W:W31,32,K33:B1-20`) is
 * expanded. Undefined when it is neither (or has the wrong square count).
 */
export function toSquareString(board: BoardString, n: number): string | undefined {
  if (isSquareString(board, n)) return board;
  // A side to move alone is not a board.
  const read = board.includes(':') ? readFenBoard(board) : undefined;
  if (!read?.ok) return undefined;
  const cells: SquareChar[] = new Array(n).fill('.');
  for (const { first, last, piece } of read.value.items) {
    if (first < 1 || last > n) return undefined;
    for (let s = first; s <= last; s++) cells[s - 1] = piece;
  }
  return cells.join('');
}

/**
 * What changed between two pictures of the board, as a person would have done it: first every lift
 * (squares emptied or whose piece changed), then every put, each in square order.
 */
export function diffBoards(before: string, after: string, t: number): (LiftEvent | PutEvent)[] {
  const lifts: LiftEvent[] = [];
  const puts: PutEvent[] = [];
  for (let i = 0; i < after.length; i++) {
    const was = before[i];
    const now = after[i];
    if (was === now) continue;
    if (was !== '.') lifts.push({ t, type: 'lift', square: i + 1 });
    if (now !== '.')
      puts.push(
        isPieceCode(now) ? { t, type: 'put', square: i + 1, piece: now } : { t, type: 'put', square: i + 1 },
      );
  }
  return [...lifts, ...puts];
}

/** Builds a fault event (every decoder reports problems this way). */
export function fault(
  t: number,
  code: string,
  message: string,
  offset?: number,
  resync?: boolean,
): FaultEvent {
  const f: FaultEvent = { t, type: 'fault', code, message };
  if (offset !== undefined) f.offset = offset;
  if (resync) f.resync = true;
  return f;
}

/** An event with its squares renumbered: `map[s − 1]` is what reported square s really is. */
export function renumberSquares(event: BoardEvent, map: readonly number[]): BoardEvent {
  if (event.type === 'lift' || event.type === 'put')
    return { ...event, square: map[event.square - 1] ?? event.square };
  if (event.type !== 'snapshot' || !isSquareString(event.board, map.length)) return event;
  const cells = new Array<string>(map.length).fill('.');
  for (let i = 0; i < map.length; i++) if (map[i]) cells[map[i] - 1] = event.board[i];
  return { ...event, board: cells.join('') };
}

/** A history board's number and time of a change (line protocol 1.1), if the event carries them. */
export const changeStamp = (event: BoardEvent): BoardStamp | undefined =>
  event.type === 'lift' || event.type === 'put' || event.type === 'press' ? event.stamp : undefined;

/** A change a history board sent again from its memory (a `rec` line). */
export const isRecalled = (event: BoardEvent): boolean => changeStamp(event)?.recalled === true;
