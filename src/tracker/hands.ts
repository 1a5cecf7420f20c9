// What the hand events of one move say beyond the final board: which capture path and order was
// played (4.11), and the irregularities hidden in the way it was played — touching another piece
// (5.4.3), removing during the capture (5.4.10), pausing in the removal (5.4.13).
// Bounds and orders are the ones written in docs/irregularities.md.
import { legalSequences, type Move, moveKey, type Position } from '../engine/index.ts';
import type { RuleId } from './types.ts';

export interface HandEvent {
  kind: 'lift' | 'put';
  square: number;
  t: number;
  /** > 0 when the change came with others in one snapshot (their order is unknown). */
  batch: number;
}

/** A lift and put back on the same square within this is contact bounce, not a touch. */
export const BOUNCE_MS = 100;
/** A pause longer than this between two removals interrupts the removal (5.4.13). */
export const REMOVAL_PAUSE_MS = 1500;

export interface PlayedMove {
  /** The sequence the hand followed: path and capture order. */
  move: Move;
  rules: RuleId[];
}

const lastIndex = (
  hand: readonly HandEvent[],
  kind: HandEvent['kind'],
  square: number,
  before = hand.length,
) => {
  for (let i = Math.min(before, hand.length) - 1; i >= 0; i--) {
    if (hand[i].kind === kind && hand[i].square === square) return i;
  }
  return -1;
};

const sameOrder = (a: readonly number[], b: readonly number[]) => a.every((x, i) => x === b[i]);

/** Index in `hand` at which the capturing piece first stood on its final square after its last landing. */
function completionIndex(hand: readonly HandEvent[], seq: Move): number {
  const landings = new Set(seq.path.slice(1, -1).filter((s) => s !== seq.to));
  // From the first lift of the piece (a circular capture ends on its own square, and may be adjusted there).
  let after = hand.findIndex((h) => h.kind === 'lift' && h.square === seq.from);
  for (let i = 0; i < hand.length; i++) {
    if (hand[i].kind === 'put' && landings.has(hand[i].square)) after = Math.max(after, i);
  }
  for (let i = after + 1; i < hand.length; i++) {
    if (hand[i].kind === 'put' && hand[i].square === seq.to) return i;
  }
  return lastIndex(hand, 'put', seq.to);
}

/**
 * The legal move `move` (canonical) was shown on the board; `hand` holds the lifts and puts since
 * the previous decision. Picks the sequence the hand played and lists the irregularities in it.
 */
export function readPlayedMove(pos: Position, move: Move, hand: readonly HandEvent[]): PlayedMove {
  const rules: RuleId[] = [];
  if (touchedAnother(pos, move, hand)) rules.push('5.4.3');
  if (move.captured.length === 0) return { move, rules };

  const key = moveKey(move);
  const sequences = legalSequences(pos).filter((m) => moveKey(m) === key);
  const removal = move.captured.map((s) => ({ square: s, at: lastIndex(hand, 'lift', s) }));
  const orderKnown = removal.every((r) => r.at >= 0 && (hand[r.at].batch === 0 || unique(hand, r.at)));
  // 4.9: the landing squares were touched in the order of this path.
  const touchedAll = (seq: Move) => {
    const landings = seq.path.slice(1, -1);
    let k = 0;
    for (const h of hand) if (k < landings.length && h.kind === 'put' && h.square === landings[k]) k++;
    return k === landings.length;
  };
  const byTouch = (list: Move[]) => list.find(touchedAll) ?? list[0];
  if (!orderKnown) return { move: byTouch(sequences) ?? move, rules };

  const order = [...removal].sort((a, b) => a.at - b.at).map((r) => r.square);
  const reversed = [...order].reverse();
  const fitting = sequences.filter((m) => sameOrder(m.captured, order) || sameOrder(m.captured, reversed));
  const played = byTouch(fitting.length > 0 ? fitting : sequences) ?? move;
  if (fitting.length === 0 && move.captured.length > 1) rules.push('4.11');

  const done = completionIndex(hand, played);
  const times = removal.filter((r) => r.at > done).sort((a, b) => a.at - b.at);
  if (removal.some((r) => r.at < done)) rules.push('5.4.10');
  for (let i = 1; i < times.length; i++) {
    if (hand[times[i].at].t - hand[times[i - 1].at].t > REMOVAL_PAUSE_MS) {
      rules.push('5.4.13');
      break;
    }
  }
  return { move: played, rules };
}

/** True when no other change shares the snapshot batch of `hand[i]`'s change. */
function unique(hand: readonly HandEvent[], i: number): boolean {
  return hand.filter((h) => h.batch === hand[i].batch).length === 1;
}

/**
 * 5.4.3: a piece of the side to move that had a legal move was lifted and put back on its square
 * (held longer than a bounce), and then another piece moved.
 */
export function touchedAnother(pos: Position, move: Move, hand: readonly HandEvent[]): boolean {
  const movable = new Set(legalSequences(pos).map((m) => m.from));
  for (let i = 0; i < hand.length; i++) {
    const h = hand[i];
    if (h.kind !== 'lift' || h.square === move.from || !movable.has(h.square)) continue;
    for (let j = i + 1; j < hand.length; j++) {
      const back = hand[j];
      if (back.square !== h.square) continue;
      if (back.kind === 'put' && back.t - h.t > BOUNCE_MS) return true;
      break;
    }
  }
  return false;
}

/**
 * Where the piece now on `to` came from: among `candidates` (vacated squares), the one lifted last
 * before the last put on `to`; the first candidate when the hand events do not say.
 */
export function originOf(
  hand: readonly HandEvent[],
  to: number,
  candidates: readonly number[],
): number | undefined {
  const putAt = lastIndex(hand, 'put', to);
  let best: number | undefined;
  let bestAt = -1;
  for (const c of candidates) {
    const at = lastIndex(hand, 'lift', c, putAt < 0 ? hand.length : putAt);
    if (at > bestAt) {
      bestAt = at;
      best = c;
    }
  }
  return best ?? candidates[0];
}
