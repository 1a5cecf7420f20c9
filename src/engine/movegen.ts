// READ /work/main/CONTRIBUTING.md BEFORE EDITING: several engineers share this tree (commit only your own paths, never `git add -A`).
// Legal moves: compulsory maximum capture (4.13), flying kings (4.3), captured pieces block until
// the capture ends and are jumped once (4.8), promotion only at the end of a move (4.15).
import { EMPTY, type Position, PIECE_OF } from './position.ts';
import type { Move, Piece } from './types.ts';
import { moveKey } from './types.ts';
import { type Geometry, geometry } from './variant.ts';

const isWhiteCode = (c: number) => c === 1 || c === 3;
const isKingCode = (c: number) => c >= 3;

function promotes(g: Geometry, code: number, to: number): boolean {
  if (code === 1) return g.whitePromotion(to);
  if (code === 2) return g.blackPromotion(to);
  return false;
}

/**
 * Every maximal capture sequence of the side to move, including sequences that differ only in
 * path or capture order (the tracker needs them all to tell from the removal order which was
 * played). Empty when no capture is possible.
 */
export function captureSequences(pos: Position): Move[] {
  const g = geometry(pos.variant);
  const board = Int8Array.from(pos.board);
  const white = pos.turn === 'white';
  const found: Move[] = [];
  let best = 1;
  const captured: number[] = [];
  const path: number[] = [];
  const taken = new Uint8Array(board.length);

  const search = (sq: number, code: number, from: number, piece: Piece) => {
    const king = isKingCode(code);
    let extended = false;
    for (let d = 0; d < 4; d++) {
      const ray = g.rays[sq][d];
      let i = 0;
      if (king) while (i < ray.length && board[ray[i]] === EMPTY) i++;
      if (i >= ray.length - 1) continue;
      const victim = ray[i];
      const vc = board[victim];
      if (vc === EMPTY || taken[victim] || isWhiteCode(vc) === white) continue;
      for (let j = i + 1; j < ray.length && board[ray[j]] === EMPTY; j++) {
        const land = ray[j];
        extended = true;
        taken[victim] = 1;
        captured.push(victim);
        path.push(land);
        search(land, code, from, piece);
        path.pop();
        captured.pop();
        taken[victim] = 0;
        if (!king) break;
      }
    }
    if (!extended && captured.length >= best) {
      if (captured.length > best) {
        best = captured.length;
        found.length = 0;
      }
      found.push({
        from,
        to: sq,
        path: [from, ...path],
        captured: [...captured],
        promotes: promotes(g, code, sq),
        piece,
      });
    }
  };

  for (let from = 1; from < board.length; from++) {
    const code = board[from];
    if (code === EMPTY || isWhiteCode(code) !== white) continue;
    board[from] = EMPTY; // the mover's start square is empty during its own capture
    search(from, code, from, PIECE_OF[code]!);
    board[from] = code;
  }
  return found;
}

function quietMoves(pos: Position): Move[] {
  const g = geometry(pos.variant);
  const board = pos.board;
  const white = pos.turn === 'white';
  const out: Move[] = [];
  for (let from = 1; from < board.length; from++) {
    const code = board[from];
    if (code === EMPTY || isWhiteCode(code) !== white) continue;
    const piece = PIECE_OF[code]!;
    if (isKingCode(code)) {
      for (let d = 0; d < 4; d++) {
        for (const to of g.rays[from][d]) {
          if (board[to] !== EMPTY) break;
          out.push({ from, to, path: [from, to], captured: [], promotes: false, piece });
        }
      }
    } else {
      for (const d of white ? [0, 1] : [2, 3]) {
        const to = g.rays[from][d][0];
        if (to !== undefined && board[to] === EMPTY) {
          out.push({ from, to, path: [from, to], captured: [], promotes: promotes(g, code, to), piece });
        }
      }
    }
  }
  return out;
}

/** One move per canonical identity (from, to, set of captured pieces). */
export function dedupe(moves: readonly Move[]): Move[] {
  if (moves.length < 2) return [...moves];
  const seen = new Set<string>();
  const out: Move[] = [];
  for (const m of moves) {
    const k = moveKey(m);
    if (!seen.has(k)) {
      seen.add(k);
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
