// Move text: `32-28`, `19x28`, and the PDN 3.0 path (`47x38x24x13x36`) when two legal moves share
// from and to. Reading accepts `-`, `x` and `:` separators and any intermediate squares the piece
// passes through (PDN 3.0 turning points, the squares behind the captured pieces, or every landing).
import { err, ok, type Result } from '../result.ts';
import { legalMoves, legalSequences } from './movegen.ts';
import type { Position } from './position.ts';
import type { Move } from './types.ts';
import { moveKey } from './types.ts';
import { type Geometry, geometry } from './variant.ts';

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

/** Reads `32-28`, `19x28`, `47x38x24x13x36`, `19:28`. Offsets in errors are 0-based within `text`. */
export function parseMoveText(text: string): Result<MoveText> {
  const m = /^(\d+)((?:[-x:]\d+)+)$/i.exec(text.trim());
  if (!m) return err({ code: 'bad-move-text', message: `"${text}" is not a move (like 32-28 or 19x28)` });
  const squares = text
    .trim()
    .split(/[-x:]/i)
    .map((s) => Number(s));
  const seps = new Set(m[2].replace(/\d+/g, '').toLowerCase());
  if (seps.has('-') && seps.has('x')) {
    return err({ code: 'bad-move-text', message: `"${text}" mixes "-" and "x"` });
  }
  const capture = seps.has('x') ? true : seps.has('-') ? false : undefined;
  if (capture === false && squares.length > 2) {
    return err({ code: 'bad-move-text', message: `"${text}": a quiet move has only two squares` });
  }
  return ok({ squares, capture });
}

/** Every square a move's piece passes over or lands on, in order, after `from`. */
function route(g: Geometry, move: Move): number[] {
  const out: number[] = [];
  for (let i = 0; i + 1 < move.path.length; i++) {
    const a = move.path[i];
    const b = move.path[i + 1];
    const ray = g.rays[a][directionOf(g, a, b)];
    for (const s of ray) {
      out.push(s);
      if (s === b) break;
    }
  }
  return out;
}

/** True when `via` appears in order along the route, the last one being the route's end. */
function followsRoute(routeSquares: readonly number[], via: readonly number[]): boolean {
  let k = 0;
  for (let i = 0; i < routeSquares.length && k < via.length; i++) {
    if (routeSquares[i] === via[k]) k++;
  }
  return k === via.length;
}

/**
 * Resolves move text against the legal moves of `pos`: the canonical legal move it names, or a
 * typed error (`illegal-move`, `ambiguous-move`, `bad-move-text`). Never throws.
 */
export function resolveMove(pos: Position, text: string): Result<Move> {
  const parsed = parseMoveText(text);
  if (!parsed.ok) return parsed;
  const { squares, capture } = parsed.value;
  const from = squares[0];
  const to = squares[squares.length - 1];
  const via = squares.slice(1, -1);
  const g = geometry(pos.variant);
  const candidates = legalSequences(pos).filter(
    (m) => m.from === from && m.to === to && (capture === undefined || capture === m.captured.length > 0),
  );
  // Exact PDN 3.0 path or full landing path first: a looser reading may fit several moves.
  const same = (a: readonly number[]) => a.length === squares.length && a.every((s, i) => s === squares[i]);
  const exact = candidates.filter((m) => same(m.path) || same(pdnCapturePath(pos.variant, m)));
  const sequences =
    via.length === 0
      ? candidates
      : exact.length > 0
        ? exact
        : candidates.filter((m) => followsRoute(route(g, m), [...via, to]));
  const keys = new Set(sequences.map(moveKey));
  if (keys.size === 1) {
    const key = sequences[0] && moveKey(sequences[0]);
    const canonical = legalMoves(pos).find((m) => moveKey(m) === key);
    return ok(canonical ?? sequences[0]);
  }
  if (keys.size === 0) {
    return err({ code: 'illegal-move', message: `${text.trim()} is not a legal move here` });
  }
  const options = legalMoves(pos)
    .filter((m) => keys.has(moveKey(m)))
    .map((m) => pdnCapturePath(pos.variant, m).join('x'));
  return err({
    code: 'ambiguous-move',
    message: `${text.trim()} is ambiguous: it could be ${options.join(' or ')}`,
  });
}
