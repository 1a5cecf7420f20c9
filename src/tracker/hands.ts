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
  /** > 0 when the change came with others in one snapshot (a dump's differences). */
  batch: number;
  /**
   * The observation it belongs to (rising): changes of one observation came back to back, or in one
   * scan of a board that reports by scans, and their order is nobody's; observations are in order.
   */
  scan: number;
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

/**
 * Index in `hand` at which the capturing piece first stood on its final square after its last
 * landing; a put the board observed together with that lift or landing counts as after it.
 */
function completionIndex(hand: readonly HandEvent[], seq: Move): number {
  const landings = new Set(seq.path.slice(1, -1).filter((s) => s !== seq.to));
  // From the first lift of the piece (a circular capture ends on its own square, and may be adjusted there).
  let after = hand.findIndex((h) => h.kind === 'lift' && h.square === seq.from);
  for (let i = 0; i < hand.length; i++) {
    if (hand[i].kind === 'put' && landings.has(hand[i].square)) after = Math.max(after, i);
  }
  const scan = after >= 0 ? hand[after].scan : Number.POSITIVE_INFINITY;
  for (let i = 0; i < hand.length; i++) {
    if (hand[i].kind === 'put' && hand[i].square === seq.to && (i > after || hand[i].scan === scan)) return i;
  }
  return lastIndex(hand, 'put', seq.to);
}

/**
 * The legal move `move` (canonical) was shown on the board; `hand` holds the lifts and puts since
 * the previous decision. Picks the sequence the hand played and lists the irregularities in it.
 * The hands' order is what the board observed: a partial order (changes of one observation have
 * none among them), and an irregularity is read only when every order it allows shows it.
 */
export function readPlayedMove(
  pos: Position,
  move: Move,
  hand: readonly HandEvent[],
  scanMs?: number,
  /** The position's legal moves, when the caller has them. */
  legal: readonly Move[] = legalSequences(pos),
): PlayedMove {
  const rules: RuleId[] = [];
  if (touchedAnother(pos, move, hand, legal)) rules.push('5.4.3');
  if (move.captured.length === 0) return { move, rules };

  const key = moveKey(move);
  const sequences = legalSequences(pos).filter((m) => moveKey(m) === key);
  const removal = move.captured.map((s) => ({ square: s, at: lastIndex(hand, 'lift', s) }));
  // 4.9: the landing squares were touched in the order of this path.
  const touchedAll = (seq: Move) => {
    const landings = seq.path.slice(1, -1);
    let k = 0;
    for (const h of hand) if (k < landings.length && h.kind === 'put' && h.square === landings[k]) k++;
    return k === landings.length;
  };
  const byTouch = (list: Move[]) => list.find(touchedAll) ?? list[0];
  if (removal.some((r) => r.at < 0)) return { move: byTouch(sequences) ?? move, rules };

  // 4.11: the removal may have followed this order when no piece of it was seen off before one
  // that comes earlier in it.
  const scanOf = new Map(removal.map((r) => [r.square, hand[r.at].scan]));
  const mayFollow = (order: readonly number[]) =>
    order.every((s, i) => i === 0 || scanOf.get(s)! >= scanOf.get(order[i - 1])!);
  const fitting = sequences.filter((m) => mayFollow(m.captured) || mayFollow([...m.captured].reverse()));
  const played = byTouch(fitting.length > 0 ? fitting : sequences) ?? move;
  if (fitting.length === 0) rules.push('4.11');

  // 5.4.10 is removing during an unfinished *multi*-capture: one captured piece taken off while the
  // capturing piece is still in the hand completes that capture (4.4), it interrupts nothing.
  const done = completionIndex(hand, played);
  const offBefore = (at: number) => {
    const off = hand[at];
    const landed = hand[done];
    if (off.scan >= landed.scan) return false;
    // A board that reports by scans may miss a put for a scan (a bounce across its reading): a
    // piece seen off in the scan before the landing's was not shown taken before it — unless the
    // capturing piece stood on a landing square then, or more than a scan came between.
    return scanMs === undefined || landed.t - off.t > 1.5 * scanMs || onLanding(hand, played, off.scan);
  };
  if (move.captured.length > 1 && done >= 0 && removal.some((r) => offBefore(r.at))) rules.push('5.4.10');
  // 5.4.13 times the removal from the landing's observation on: a piece seen off in the same scan
  // as the landing was not taken before it, and a pause after it interrupts the removal.
  const times = removal
    .filter((r) => r.at > done || (done >= 0 && hand[r.at].scan === hand[done].scan))
    .sort((a, b) => a.at - b.at);
  for (let i = 1; i < times.length; i++) {
    if (hand[times[i].at].t - hand[times[i - 1].at].t > REMOVAL_PAUSE_MS) {
      rules.push('5.4.13');
      break;
    }
  }
  return { move: played, rules };
}

/** The capturing piece stood on a landing square of `seq` (not its last) at observation `scan`. */
function onLanding(hand: readonly HandEvent[], seq: Move, scan: number): boolean {
  const landings = new Set(seq.path.slice(1, -1).filter((s) => s !== seq.to));
  for (const square of landings) {
    let standing = false;
    for (const h of hand) {
      if (h.square !== square || h.scan > scan) continue;
      standing = h.kind === 'put';
    }
    if (standing) return true;
  }
  return false;
}

/**
 * 5.4.3: a piece of the side to move that had a legal move was lifted and put back on its square
 * (held longer than a bounce), and then another piece moved.
 */
export function touchedAnother(
  pos: Position,
  move: Move,
  hand: readonly HandEvent[],
  /** The position's legal moves or sequences: the same squares move in either. */
  legal: readonly Move[] = legalSequences(pos),
): boolean {
  const movable = new Set(legal.map((m) => m.from));
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
 * before the last put on `to` — a lift the board observed with that put counts as before it (a
 * scan reports a move's squares in its own order); among lifts of that one observation, one
 * `likely` says first. None lifted before: the one lifted first after it (the new square reported
 * before the old, `likely` first). The first candidate when the hand events do not say.
 */
export function originOf(
  hand: readonly HandEvent[],
  to: number,
  candidates: readonly number[],
  likely: (from: number) => boolean = () => false,
): number | undefined {
  const putAt = lastIndex(hand, 'put', to);
  const putScan = putAt < 0 ? Number.POSITIVE_INFINITY : hand[putAt].scan;
  const before = (i: number) => putAt < 0 || i < putAt || hand[i].scan <= putScan;
  // A candidate's rank: lifted before the put (the later observation, then `likely`) above lifted
  // after it (`likely`, then the earlier observation).
  const rank = (c: number): number[] | undefined => {
    let after: HandEvent | undefined;
    for (let i = hand.length - 1; i >= 0; i--) {
      const h = hand[i];
      if (h.kind !== 'lift' || h.square !== c) continue;
      if (before(i)) return [1, h.scan, likely(c) ? 1 : 0];
      after = h;
    }
    return after && [0, likely(c) ? 1 : 0, -after.scan];
  };
  let best: number | undefined;
  let bestRank: number[] = [];
  for (const c of candidates) {
    const r = rank(c);
    if (r && greater(r, bestRank)) {
      best = c;
      bestRank = r;
    }
  }
  return best ?? candidates[0];
}

/** `a` ranks above `b` (compared element by element; anything ranks above nothing). */
const greater = (a: readonly number[], b: readonly number[]): boolean => {
  for (let i = 0; i < a.length; i++) if (i >= b.length || a[i] !== b[i]) return i >= b.length || a[i] > b[i];
  return false;
};
