// The lost plies after a dump (a reconnect, a restart, an HID board): the lines of legal play from
// the game position to the board, found by the gap search (./gap-search.ts), and of those the ones
// the hands seen before the gap agree with best.
import { type Move, moveKey, type Position } from '../engine/index.ts';
import { GAP_NODES, type GapLine, searchGap } from './gap-search.ts';
import type { SensedBoard } from './sensed.ts';

/** Nodes searched after a dump. */
export const RESYNC_NODES = GAP_NODES;
/**
 * The search budget while stuck on unknown-position outside a dump's episode: it is tried at every
 * settle of a board the players keep playing on, where the full budget would let a few stuck boards
 * take the daemon's CPU. Continuations of a ply or two are still found.
 */
export const RESYNC_NODES_STUCK = 2_000;

export interface LostLines {
  /** The lines that fit best, first the one tracked meanwhile (see `likeliest`). */
  lines: GapLine[];
  /** Lines found in all (the search lists at most GAP_MAX_LINES). */
  total: number;
  /** One line, and the search proved no other leads to the board. */
  unique: boolean;
}

/**
 * The lines of up to GAP_PLIES legal plies from `from` that end on the board (the last may be
 * under way), searched within `budget` nodes; undefined when none is found.
 */
export function findLostLines(from: Position, board: SensedBoard, budget: number): LostLines | undefined {
  const found = searchGap(from, board.squares, { nodes: budget });
  if (found.kind === 'none') return undefined;
  const lines = likeliest(found.lines, board.liftOrder());
  const unique = lines.length === 1 && found.complete && found.total === found.lines.length;
  return { lines, total: found.total, unique };
}

/**
 * Of lines that explain the board equally well, the ones whose moves start where the hands were
 * seen lifting pieces, in that order (the events before the gap); then completed lines.
 */
function likeliest<T extends { line: readonly Move[]; underWay: boolean }>(
  found: readonly T[],
  lifts: readonly number[],
): T[] {
  const score = (c: T): number => {
    let agreeing = 0;
    for (let i = 0; i < c.line.length && i < lifts.length; i++) {
      if (c.line[i].from !== lifts[i]) break;
      agreeing++;
    }
    return agreeing * 2 + (c.underWay ? 0 : 1);
  };
  const best = Math.max(...found.map(score));
  // A line found twice (a capture under way reached by two of its sequences) is one line.
  const seen = new Set<string>();
  return found.filter((c) => {
    const key = `${c.underWay}:${c.line.map(moveKey).join(' ')}`;
    if (score(c) !== best || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
