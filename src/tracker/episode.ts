// One episode of a board: what it has seen from one decision to the next (the proof of an alert, a
// dump, the press, the stall time, a search and what waits for it), and who takes the next decision.
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import { noSearch, type SearchEpisode } from './gap/index.ts';

/**
 * Who takes a decision: a clock press by that side, the stall time, the next board change after a
 * board that waits for one (a legal move of the side not to move), or nobody (the board settled).
 */
export type Decider = Side | 'stall' | 'change' | undefined;
export const isSide = (d: Decider): d is Side => d === 'white' || d === 'black';

/** What one episode — from one decision to the next — has seen. Reset in one place (`newEpisode`). */
export interface Episode extends SearchEpisode {
  /** The events since the previous decision: an alert's proof. */
  proof: BoardEvent[];
  /**
   * A snapshot changed the board: events may have been lost before it (a reconnect dump), so
   * legal plies may stand between the game and the board. A one-square snapshot counts when it is
   * the dump of a (re)connection (right after a `hello`), or when it completes a legal move (the
   * next ply may be under way before it settles); other one-square snapshots are an HID board's
   * ordinary reports.
   */
  snapshot: boolean;
  /** A dump brought changes whose events were lost (not an HID report). */
  eventsLost: boolean;
  /** The board settled on nothing decidable: the stall time runs. */
  undecided: boolean;
  stallDone: boolean;
  /** The press of the side to move, taking effect after the press's grace (timing.ts). */
  pressAt: number | undefined;
  /** The board settled on a legal move of the side not to move: whose it was, the clock tells. */
  wrongSide: boolean;
  /** A press or the stall time that came while it searched: it decides once the search found nothing. */
  deferred: Decider;
}

export const newEpisode = (): Episode => ({
  proof: [],
  snapshot: false,
  eventsLost: false,
  undecided: false,
  stallDone: false,
  pressAt: undefined,
  wrongSide: false,
  ...noSearch(),
  deferred: undefined,
});
