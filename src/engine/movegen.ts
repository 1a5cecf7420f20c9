// Legal moves: compulsory maximum capture (4.13), flying kings (4.3), captured pieces block until
// the capture ends and are jumped once (4.8), promotion only at the end of a move (4.15).
// Mailbox with flat precomputed rays and module-level scratch buffers: no closures and no copies
// of the board per call, only the Move objects that are returned are allocated.
import * as position from './position.ts';
import type { Position } from './position.ts';
import type { Move, Piece } from './types.ts';
import { moveKey } from './types.ts';
import { geometry, type Variant } from './variant.ts';

// Module-local copies: run through tsx, every read of an imported binding is a getter call, one per
// square in the generator's loops (about 5% of legalMoves' time, docs/performance-history.md).
const { EMPTY, PIECE_OF } = position;

interface Rays {
  /** Ray of square s in direction d: squares[start[s*4+d] … start[s*4+d] + len[s*4+d]). */
  start: Int32Array;
  len: Int32Array;
  squares: Int32Array;
  squareCount: number;
  /** Last square of White's crowning row; first square of Black's. */
  whiteRowEnd: number;
  blackRowStart: number;
}

function buildRays(variant: Variant): Rays {
  const g = geometry(variant);
  const start = new Int32Array((g.squares + 1) * 4);
  const len = new Int32Array((g.squares + 1) * 4);
  const list: number[] = [];
  for (let s = 1; s <= g.squares; s++) {
    for (let d = 0; d < 4; d++) {
      start[s * 4 + d] = list.length;
      len[s * 4 + d] = g.rays[s][d].length;
      list.push(...g.rays[s][d]);
    }
  }
  return {
    start,
    len,
    squares: Int32Array.from(list),
    squareCount: g.squares,
    whiteRowEnd: g.width / 2,
    blackRowStart: g.squares - g.width / 2 + 1,
  };
}

const RAYS: Record<Variant, Rays> = {
  international: buildRays('international'),
  brazilian: buildRays('brazilian'),
};

// Scratch state of one capture search (the engine is synchronous: one search at a time).
const board = new Int8Array(51);
const taken = new Uint8Array(51);
const capturedStack = new Int32Array(64);
const pathStack = new Int32Array(65);
let rays: Rays = RAYS.international;
let found: Move[] = [];
let best = 1;
let whiteToMove = true;
let fromSquare = 0;
let moverCode = 0;
let moverPiece: Piece = 'w';

const isWhiteCode = (c: number) => c === 1 || c === 3;

function promotes(code: number, to: number): boolean {
  if (code === 1) return to <= rays.whiteRowEnd;
  if (code === 2) return to >= rays.blackRowStart;
  return false;
}

function emit(to: number, depth: number): void {
  if (depth > best) {
    best = depth;
    found = [];
  }
  const path = new Array<number>(depth + 1);
  path[0] = fromSquare;
  for (let i = 0; i < depth; i++) path[i + 1] = pathStack[i];
  const captured = new Array<number>(depth);
  for (let i = 0; i < depth; i++) captured[i] = capturedStack[i];
  found.push({ from: fromSquare, to, path, captured, promotes: promotes(moverCode, to), piece: moverPiece });
}

function search(sq: number, depth: number, king: boolean): void {
  const { start, len, squares } = rays;
  let extended = false;
  for (let d = 0; d < 4; d++) {
    const s0 = start[sq * 4 + d];
    const end = s0 + len[sq * 4 + d];
    let i = s0;
    if (king) while (i < end && board[squares[i]] === EMPTY) i++;
    if (i >= end - 1) continue;
    const victim = squares[i];
    const vc = board[victim];
    if (vc === EMPTY || taken[victim] === 1 || isWhiteCode(vc) === whiteToMove) continue;
    for (let j = i + 1; j < end; j++) {
      const land = squares[j];
      if (board[land] !== EMPTY) break;
      extended = true;
      taken[victim] = 1;
      capturedStack[depth] = victim;
      pathStack[depth] = land;
      search(land, depth + 1, king);
      taken[victim] = 0;
      if (!king) break;
    }
  }
  if (!extended && depth >= best) emit(sq, depth);
}

/**
 * Every maximal capture sequence of the side to move, including sequences that differ only in
 * path or capture order (the tracker needs them all to tell from the removal order which was
 * played). Empty when no capture is possible.
 */
export function captureSequences(pos: Position): Move[] {
  rays = RAYS[pos.variant];
  const n = rays.squareCount;
  board.set(pos.board);
  whiteToMove = pos.turn === 'white';
  found = [];
  best = 1;
  for (let from = 1; from <= n; from++) {
    const code = board[from];
    if (code === EMPTY || isWhiteCode(code) !== whiteToMove) continue;
    fromSquare = from;
    moverCode = code;
    moverPiece = PIECE_OF[code]!;
    board[from] = EMPTY; // the mover's start square is empty during its own capture
    search(from, 0, code >= 3);
    board[from] = code;
  }
  const out = found;
  found = [];
  return out;
}

/** The captured list of every quiet move: one shared, frozen array (one allocation less a move). */
const NO_CAPTURES: readonly number[] = Object.freeze([]);

function quietMoves(pos: Position): Move[] {
  const r = RAYS[pos.variant];
  const { start, len, squares } = r;
  const b = pos.board;
  const white = pos.turn === 'white';
  const out: Move[] = [];
  for (let from = 1; from <= r.squareCount; from++) {
    const code = b[from];
    if (code === EMPTY || isWhiteCode(code) !== white) continue;
    const piece = PIECE_OF[code]!;
    if (code >= 3) {
      for (let d = 0; d < 4; d++) {
        const s0 = start[from * 4 + d];
        const end = s0 + len[from * 4 + d];
        for (let i = s0; i < end; i++) {
          const to = squares[i];
          if (b[to] !== EMPTY) break;
          out.push({ from, to, path: [from, to], captured: NO_CAPTURES, promotes: false, piece });
        }
      }
    } else {
      // Men step forward: White up (directions 0, 1), Black down (2, 3).
      for (let d = white ? 0 : 2, last = d + 1; d <= last; d++) {
        if (len[from * 4 + d] === 0) continue;
        const to = squares[start[from * 4 + d]];
        if (b[to] !== EMPTY) continue;
        const crowns = white ? to <= r.whiteRowEnd : to >= r.blackRowStart;
        out.push({ from, to, path: [from, to], captured: NO_CAPTURES, promotes: crowns, piece });
      }
    }
  }
  return out;
}

/** One move per canonical identity (from, to, set of captured pieces). */
export function dedupe(moves: readonly Move[]): Move[] {
  if (moves.length < 2) return [...moves];
  // Sequences of one canonical move have the same from, to and length: compare those first.
  const out: Move[] = [];
  let keys: Set<string> | undefined;
  for (const m of moves) {
    if (m.captured.length < 2) {
      if (!out.some((o) => o.from === m.from && o.to === m.to && o.captured[0] === m.captured[0]))
        out.push(m);
      continue;
    }
    keys ??= new Set(out.map(moveKey));
    const k = moveKey(m);
    if (!keys.has(k)) {
      keys.add(k);
      out.push(m);
    }
  }
  return out;
}

/** The legal moves of the side to move, one per canonical identity. */
export function legalMoves(pos: Position): Move[] {
  const captures = captureSequences(pos);
  return captures.length > 0 ? dedupe(captures) : quietMoves(pos);
}

/** Every legal way to play: all capture paths and orders, or the quiet moves. */
export function legalSequences(pos: Position): Move[] {
  const captures = captureSequences(pos);
  return captures.length > 0 ? captures : quietMoves(pos);
}
