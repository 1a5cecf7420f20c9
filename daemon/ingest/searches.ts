// The gap searches of all the boards share one slice of the daemon's time. After a hall-wide outage
// every board may be searching at once, and each hopeless one costs seconds of CPU: given a step an
// input, they would take the event loop from the boards being played on. Instead the trackers take
// steps only when a tick grants them (TrackerOptions.searchSteps `granted`), and each turn of the
// ticks grants steps, one a board, for at most `share` of the turn — first to the searches that have
// had the fewest nodes, so a short gap is found while a hopeless one is still going. The share is
// kept over time (SearchShare): a step longer than a turn's share is granted only every few turns. Past
// LONG_SEARCH nodes a search is a long one: the long ones come after the short ones, the furthest
// on first (a board takes a step a turn at most, so a share with room for more reaches the next
// ones too). Twenty hopeless boards sharing alike would all come to unknown-position together, at
// the end; the furthest first, they come one after another, and the arbiter has the first to
// answer long before the last. A tick that granted a step is journaled with it: a replay takes the
// same steps at the same inputs.
import type { LiveBoard } from '../live-board.ts';
import { watched } from '../../src/game/board-time.ts';

/**
 * Nodes after which a search is a long one: gaps of 8 plies need up to 32,000, of 12 up to
 * 1,310,000 (docs/performance-history.md).
 */
export const LONG_SEARCH = 50_000;

/**
 * The boards whose search may take a step now: the short searches, the latest begun first
 * (`begun`: when each board's search was first seen, larger later), then the least served; then
 * the long ones, the most served first (each in board order when even). A board back alone after
 * the hall's boards began searching goes first: its gap is likely short, theirs have cost already.
 */
export function searchOrder(
  boards: Iterable<LiveBoard>,
  begun: (board: LiveBoard) => number = () => 0,
): LiveBoard[] {
  const out: LiveBoard[] = [];
  for (const board of boards) {
    if (
      !board.game.tracker.searching ||
      board.time.gap ||
      !watched(board.game.record.connection.state) ||
      board.calibrating
    )
      continue;
    out.push(board);
  }
  const long = (b: LiveBoard) => b.game.tracker.searchNodes >= LONG_SEARCH;
  const nodes = (b: LiveBoard) => b.game.tracker.searchNodes;
  return out.sort((a, b) => {
    if (long(a) !== long(b)) return long(a) ? 1 : -1;
    if (long(a)) return nodes(b) - nodes(a) || a.setup.board - b.setup.board;
    return begun(b) - begun(a) || nodes(a) - nodes(b) || a.setup.board - b.setup.board;
  });
}

/**
 * The searches' time, kept as a credit: the share of the time that passes is added, what the steps
 * take is spent, so over any stretch the searches take at most the share (and a step may come only
 * every few turns when one takes longer than a turn's share). Idle, it keeps at most CREDIT_TURNS
 * turns' worth: a burst after a quiet spell stays short.
 */
export class SearchShare {
  private credit = 0;
  private last: number | undefined;
  private turns = 0;
  /** The turn at which each board's search was first seen (a new dump while searching keeps it). */
  private readonly begun = new Map<LiveBoard, number>();

  constructor(
    private readonly share: number,
    private readonly turnMs: number,
  ) {}

  /** Grants steps to the searching `boards` (searchOrder) from the credit at `now`; the steps granted. */
  turn(boards: readonly LiveBoard[], now: () => number, grant: (board: LiveBoard) => void): number {
    this.turns++;
    for (const board of boards)
      if (!board.game.tracker.searching) this.begun.delete(board);
      else if (!this.begun.has(board)) this.begun.set(board, this.turns);
    const order = searchOrder(boards, (board) => this.begun.get(board) ?? 0);
    const at = now();
    const cap = this.share * this.turnMs * CREDIT_TURNS;
    if (this.last !== undefined) this.credit = Math.min(cap, this.credit + this.share * (at - this.last));
    this.last = at;
    if (order.length === 0) return 0;
    const { granted, spent } = grantSteps(order, this.credit, now, grant);
    this.credit -= spent;
    return granted;
  }
}

/** Turns' worth of share a quiet spell leaves the searches. */
const CREDIT_TURNS = 10;

/**
 * Grants one step to each board of `order` in turn while `creditMs` lasts: none when there is no
 * credit, then one, and another while one as long as the last still fits; `grant` applies the tick.
 * The steps granted and the time they took.
 */
export function grantSteps(
  order: readonly LiveBoard[],
  creditMs: number,
  now: () => number,
  grant: (board: LiveBoard) => void,
): { granted: number; spent: number } {
  let granted = 0;
  let spent = 0;
  let last = 0;
  for (const board of order) {
    // A step begun just inside the credit would end well past it: the share is what searches take.
    if (creditMs <= 0 || (granted > 0 && spent + last > creditMs)) break;
    const before = now();
    grant(board);
    last = now() - before;
    spent += last;
    granted++;
  }
  return { granted, spent };
}
