// The gap searches of all the boards share one slice of the daemon's time. After a hall-wide outage
// every board may be searching at once, and each hopeless one costs seconds of CPU: given a step an
// input, they would take the event loop from the boards being played on. Instead the trackers take
// steps only when a tick grants them (TrackerOptions.searchSteps `granted`), and each turn of the
// ticks grants steps, one a board, for at most `share` of the turn — first to the searches that have
// had the fewest nodes, so a short gap is found while a hopeless one is still going. A tick that
// granted a step is journaled with it: a replay takes the same steps at the same inputs.
import type { LiveBoard } from '../board/live-board.ts';
import { watched } from '../board/time.ts';

/** The boards whose search may take a step now, the least served first (then in board order). */
export function searchOrder(boards: Iterable<LiveBoard>): LiveBoard[] {
  const out: LiveBoard[] = [];
  for (const board of boards) {
    if (!board.game.tracker.searching || board.time.gap || !watched(board.state) || board.calibrating)
      continue;
    out.push(board);
  }
  return out.sort(
    (a, b) => a.game.tracker.searchNodes - b.game.tracker.searchNodes || a.setup.board - b.setup.board,
  );
}

/**
 * Grants one step to each board of `order` in turn until `ms` have passed since `started`
 * (at least one step when any board searches): `grant` applies the tick.
 */
export function grantSteps(
  order: readonly LiveBoard[],
  ms: number,
  started: number,
  now: () => number,
  grant: (board: LiveBoard) => void,
): number {
  let granted = 0;
  for (const board of order) {
    if (granted > 0 && now() - started >= ms) break;
    grant(board);
    granted++;
  }
  return granted;
}
