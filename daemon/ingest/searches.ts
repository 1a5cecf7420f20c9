// The gap searches of all the boards share one slice of the daemon's time. After a hall-wide outage
// every board may be searching at once, and each hopeless one costs seconds of CPU: given a step an
// input, they would take the event loop from the boards being played on. Instead the trackers take
// steps only when a tick grants them (TrackerOptions.searchSteps `granted`), and each turn of the
// ticks grants steps, one a board, for at most `share` of the turn — first to the searches that have
// had the fewest nodes, so a short gap is found while a hopeless one is still going. Past
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
 * The boards whose search may take a step now: the short searches, the least served first; then the
 * long ones, the most served first (each in board order when even).
 */
export function searchOrder(boards: Iterable<LiveBoard>): LiveBoard[] {
  const out: LiveBoard[] = [];
  for (const board of boards) {
    if (!board.game.tracker.searching || board.time.gap || !watched(board.state) || board.calibrating)
      continue;
    out.push(board);
  }
  const rank = (b: LiveBoard): number => {
    const nodes = b.game.tracker.searchNodes;
    return nodes < LONG_SEARCH ? nodes : Number.MAX_SAFE_INTEGER - nodes;
  };
  return out.sort((a, b) => rank(a) - rank(b) || a.setup.board - b.setup.board);
}

/**
 * Grants one step to each board of `order` in turn while another step as long as the last one
 * still ends within `ms` of `started` (at least one step when any board searches): `grant` applies
 * the tick.
 */
export function grantSteps(
  order: readonly LiveBoard[],
  ms: number,
  started: number,
  now: () => number,
  grant: (board: LiveBoard) => void,
): number {
  let granted = 0;
  let last = 0;
  for (const board of order) {
    const before = now();
    // A step begun just inside the share would end well past it: the share is what searches take.
    if (granted > 0 && before - started + last > ms) break;
    grant(board);
    last = now() - before;
    granted++;
  }
  return granted;
}
