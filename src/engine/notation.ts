// Move text: `32-28`, `19x28`, and the PDN 3.0 path (`47x38x24x13x36`) when two legal moves share
// from and to. Reading accepts `-`, `x` and `:` separators, any intermediate squares the piece
// passes through (PDN 3.0 turning points, the squares behind the captured pieces, or every landing),
// a capture written `from-to` when only one move goes there, and algebraic squares on 8×8 (`c3-d4`).
import { err, ok, type ParseError, type Result } from '../result.ts';
import { dedupe, legalMoves, legalSequences } from './movegen.ts';
import type { Position } from './position.ts';
import type { Move } from './types.ts';
import { moveKey } from './types.ts';
import { type Geometry, geometry, type Variant } from './variant.ts';

/** Direction index (0–3, as in geometry rays) of the diagonal step from `a` toward `b`. */
function directionOf(g: Geometry, a: number, b: number): number {
  const up = g.rowOf[b] < g.rowOf[a];
  const left = g.colOf[b] < g.colOf[a];
  return (up ? 0 : 2) + (left ? 0 : 1);
}

/**
 * PDN 3.0 path of a capture: after each captured piece, the square where the piece turns, or,
 * where it goes straight on, the square right behind the captured piece; then the destination.
 */
export function pdnCapturePath(variant: Geometry['variant'], move: Move): number[] {
  const g = geometry(variant);
  const out = [move.from];
  const n = move.captured.length;
  for (let i = 0; i < n - 1; i++) {
    const before = move.path[i];
    const landing = move.path[i + 1];
    const next = move.path[i + 2];
    const d = directionOf(g, before, landing);
    if (d !== directionOf(g, landing, next)) out.push(landing);
    else out.push(g.rays[move.captured[i]][d][0]);
  }
  out.push(move.to);
  return out;
}

/**
 * The PDN text of a legal `move` in `pos`: `from-to` / `fromxto`, or the PDN 3.0 path exactly when
 * another legal move (canonical: another set of captured pieces) shares its from and to.
 */
export function moveNotation(pos: Position, move: Move, legal?: readonly Move[]): string {
  if (move.captured.length === 0) return `${move.from}-${move.to}`;
  // The move list only for captures (a default parameter would make it for every quiet move too).
  const key = moveKey(move);
  const ambiguous = (legal ?? legalMoves(pos)).some(
    (m) => m.from === move.from && m.to === move.to && moveKey(m) !== key,
  );
  return ambiguous ? pdnCapturePath(pos.variant, move).join('x') : `${move.from}x${move.to}`;
}

/** A move's text taken apart: squares in order and whether it was written as a capture. */
export interface MoveText {
  squares: number[];
  /** true for `x`, false for `-`, undefined when only `:` separates the squares. */
  capture: boolean | undefined;
}

/** Why a move's text is no move of the position. */
export const MOVE_ERROR_CODES = ['bad-move-text', 'illegal-move', 'ambiguous-move'] as const;
export type MoveErrorCode = (typeof MOVE_ERROR_CODES)[number];

/** A move that could not be resolved; for an ambiguous one, the PDN 3.0 paths that would decide. */
export interface MoveError<C extends string = MoveErrorCode> extends ParseError<C> {
  candidates?: string[];
}

/** `c3` → the square's number on an 8×8 board (a1 is White's left corner); undefined elsewhere. */
function algebraicSquare(g: Geometry, file: number, rank: number): number | undefined {
  if (g.width !== 8) return undefined;
  for (let s = 1; s <= g.squares; s++) if (g.rowOf[s] === 8 - rank && g.colOf[s] === file) return s;
  return undefined;
}

const notAMove = (text: string) =>
  err<MoveError>({ code: 'bad-move-text', message: `"${text}" is not a move (like 32-28 or 19x28)` });

/**
 * Reads `32-28`, `19x28`, `47x38x24x13x36`, `19:28` (and `c3-d4` on 8×8 boards when `variant` is
 * given). Offsets in errors are 0-based within `text`.
 */
export function parseMoveText(text: string, variant?: Variant): Result<MoveText, MoveError> {
  const t = text.trim();
  const g = variant === undefined ? undefined : geometry(variant);
  const squares: number[] = [];
  let dash = false;
  let cross = false;
  // One character at a time: this runs for every move of every file `pdn check` reads.
  for (let i = 0; ; ) {
    const c = t.charCodeAt(i) | 0x20;
    let n: number | undefined;
    if (c >= 0x61 && c <= 0x68 && t[i + 1] >= '1' && t[i + 1] <= '8') {
      if (!g) return notAMove(text);
      n = algebraicSquare(g, c - 0x61, Number(t[i + 1]));
      if (n === undefined) {
        return err({
          code: 'bad-move-text',
          message: `"${t.slice(i, i + 2)}": algebraic squares are read on 8×8 boards only`,
        });
      }
      i += 2;
    } else {
      let k = i;
      while (k < t.length && k - i < 3 && t[k] >= '0' && t[k] <= '9') k++;
      if (k === i) return notAMove(text);
      n = Number(t.slice(i, k));
      i = k;
    }
    squares.push(n);
    if (i === t.length) break;
    const sep = t[i];
    if (sep === '-') dash = true;
    else if (sep === 'x' || sep === 'X') cross = true;
    else if (sep !== ':') return notAMove(text);
    i++;
  }
  if (squares.length < 2) return notAMove(text);
  if (dash && cross) return err({ code: 'bad-move-text', message: `"${text}" mixes "-" and "x"` });
  const capture = cross ? true : dash ? false : undefined;
  if (capture === false && squares.length > 2) {
    return err({ code: 'bad-move-text', message: `"${text}": a quiet move has only two squares` });
  }
  return ok({ squares, capture });
}

/**
 * True when `via` are landing squares of `move` in order, the last one its end: the squares a
 * capture written with some of its landings (`2x30x17`) names. A square the piece only passes over
 * is no landing square.
 */
function landsOn(move: Move, via: readonly number[]): boolean {
  let k = 0;
  for (let i = 1; i < move.path.length && k < via.length; i++) {
    if (move.path[i] === via[k]) k++;
  }
  return k === via.length && move.path[move.path.length - 1] === via[via.length - 1];
}

/** The candidates whose exact path is written, else those landing on the written squares in order. */
function throughSquares(pos: Position, candidates: readonly Move[], squares: readonly number[]): Move[] {
  const same = (a: readonly number[]) => a.length === squares.length && a.every((s, i) => s === squares[i]);
  const exact = candidates.filter((m) => same(m.path) || same(pdnCapturePath(pos.variant, m)));
  return exact.length > 0 ? exact : candidates.filter((m) => landsOn(m, squares.slice(1)));
}

/**
 * Resolves move text against the legal moves of `pos`: the canonical legal move it names, or a
 * typed error (`illegal-move`, `ambiguous-move`, `bad-move-text`). Never throws.
 */
export function resolveMove(pos: Position, text: string): Result<Move, MoveError> {
  const parsed = parseMoveText(text, pos.variant);
  if (!parsed.ok) return parsed;
  const { squares, capture } = parsed.value;
  const from = squares[0];
  const to = squares[squares.length - 1];
  const via = squares.slice(1, -1);
  const all = legalSequences(pos);
  const between = all.filter((m) => m.from === from && m.to === to);
  const written = between.filter((m) => capture === undefined || capture === m.captured.length > 0);
  // `from-to` for a capture, or `fromxto` for a quiet move, as written in the wild: taken when no
  // move of the written kind goes there (pdn.ts warns of the form).
  const candidates = written.length === 0 && capture !== undefined ? between : written;
  // Exact PDN 3.0 path or full landing path first: a looser reading may fit several moves.
  const sequences = via.length === 0 ? candidates : throughSquares(pos, candidates, squares);
  // A quiet move is its own canonical move.
  if (sequences.length === 1 && sequences[0].captured.length === 0) return ok(sequences[0]);
  const keys = new Set(sequences.map(moveKey));
  if (keys.size === 0) {
    return err({ code: 'illegal-move', message: `${text.trim()} is not a legal move here` });
  }
  // The canonical moves (one capture order and path each), as legalMoves gives them.
  const canonical = dedupe(all).filter((m) => keys.has(moveKey(m)));
  if (canonical.length === 1) return ok(canonical[0]);
  const options = canonical.map((m) => pdnCapturePath(pos.variant, m).join('x'));
  return err({
    code: 'ambiguous-move',
    message: `${text.trim()} is ambiguous: it could be ${options.join(' or ')}`,
    candidates: options,
  });
}
