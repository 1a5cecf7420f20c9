// The search for plies whose events were lost (a reconnect dump, an HID board): the line of legal
// play from the game position to the board. One function with a narrow interface, so a stronger
// search can replace its body.
import { legalMoves, type Move, play, type Position } from '../engine/index.ts';
import { codeAfter, agrees, EMPTY, occupiedSquares, shows } from './board.ts';
import type { SensedBoard } from './sensed.ts';

/** A dump may bring up to this many plies whose events were lost (reconnect). */
export const RESYNC_PLIES = 4;
/** Nodes searched after a dump. */
export const RESYNC_NODES = 20_000;
/**
 * The search budget while stuck on unknown-position outside a dump's episode: it is tried at every
 * settle of a board the players keep playing on, where the full budget would let a few stuck boards
 * take the daemon's CPU. Continuations of a ply or two are still found.
 */
export const RESYNC_NODES_STUCK = 2_000;

export interface LostLine {
  /** The lost plies, in order, from the game position (empty: none lost, a move under way). */
  line: Move[];
  /** The board shows the next move under way after the line: a piece in the hand, a capture landed. */
  underWay: boolean;
}

/** The board shows `move` (a capture from `pos`) landed, its captured pieces still on or partly off. */
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

/**
 * The line of 2–RESYNC_PLIES legal plies from `from` that ends on the board (the last one may be
 * under way), searched within `budget` nodes; of lines that explain the board equally well, the
 * one whose moves start where the hands were seen lifting, in that order (the events before the
 * gap), then a completed line. Undefined when none is found.
 */
export function findLostLine(from: Position, board: SensedBoard, budget: number): LostLine | undefined {
  if (board.morePiecesThan(from)) return undefined;
  const phys = board.squares;
  const occupied = occupiedSquares(phys);
  let frontier: Array<{ pos: Position; line: Move[] }> = [{ pos: from, line: [] }];
  const seen = new Set<number>([from.hash]);
  let nodes = 0;
  for (let depth = 1; depth <= RESYNC_PLIES && nodes < budget; depth++) {
    // Every explanation of this length: plies in another order (or another capture) may end on
    // the same board, and the hand events seen before the gap tell which one was played.
    const found: LostLine[] = [];
    const next: typeof frontier = [];
    for (const node of frontier) {
      const moves = legalMoves(node.pos);
      // The lost plies, then the next move under way: a piece in the hand. Shorter than any
      // line of more plies that happens to end on the same occupancy (plies that cancel out).
      if (board.pieceInHand(node.pos, moves)) found.push({ line: node.line, underWay: true });
      for (const move of moves) {
        const after = play(node.pos, move);
        if (depth > 1 && shows(phys, after)) found.push({ line: [...node.line, move], underWay: false });
        // A capture landed, its pieces still coming off: decided like any other move (stall, press).
        else if (showsCaptureUnderWay(phys, node.pos, move)) found.push({ line: node.line, underWay: true });
        if (seen.has(after.hash)) continue;
        seen.add(after.hash);
        nodes++;
        if (occupiedSquares(after.board) >= occupied) next.push({ pos: after, line: [...node.line, move] });
      }
    }
    if (found.length > 0) return likeliest(found, board.liftOrder());
    frontier = next;
  }
  return undefined;
}

/** Of lines that explain the board equally well, the one that agrees longest with the lifts seen. */
function likeliest(found: readonly LostLine[], lifts: readonly number[]): LostLine {
  const score = (c: LostLine): number => {
    let agreeing = 0;
    for (let i = 0; i < c.line.length && i < lifts.length; i++) {
      if (c.line[i].from !== lifts[i]) break;
      agreeing++;
    }
    return agreeing * 2 + (c.underWay ? 0 : 1);
  };
  return found.reduce((a, b) => (score(b) > score(a) ? b : a));
}
