// One episode of a board: what it has seen from one decision to the next (the proof of an alert, a
// dump, the press, the stall time, a search and what waits for it), and who takes the next decision.
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import type { SearchEpisode } from './gap/index.ts';

/**
 * Who takes a decision: a clock press by that side, the stall time, the next board change after a
 * board that waits for one (a legal move of the side not to move), or nobody (the board settled).
 */
export type Decider = Side | 'stall' | 'change' | undefined;
export const isSide = (d: Decider): d is Side => d === 'white' || d === 'black';

/** Events kept as an alert's proof, at most: a board in disorder must not grow it without end. */
const PROOF_LIMIT = 400;

/**
 * What one episode — from one decision to the next — has seen, and how it changes. A decision
 * begins a new one (RecordingTracker.afterDecision).
 */
export class Episode implements SearchEpisode {
  /** The events since the previous decision: an alert's proof. */
  proof: BoardEvent[] = [];
  /**
   * A snapshot changed the board: events may have been lost before it (a reconnect dump), so
   * legal plies may stand between the game and the board. A one-square snapshot counts when it is
   * the dump of a (re)connection (right after a `hello`), or when it completes a legal move (the
   * next ply may be under way before it settles); other one-square snapshots are an HID board's
   * ordinary reports.
   */
  snapshot = false;
  /** A dump brought changes whose events were lost (not an HID report). */
  eventsLost = false;
  /** The board settled on nothing decidable: the stall time runs. */
  undecided = false;
  stallDone = false;
  /** The press of the side to move, taking effect after the press's grace (timing.ts). */
  pressAt: number | undefined = undefined;
  /** The board settled on a legal move of the side not to move: whose it was, the clock tells. */
  wrongSide = false;
  search: SearchEpisode['search'] = undefined;
  searched = 0;
  /** A press or the stall time that came while it searched: it decides once the search found nothing. */
  deferred: Decider = undefined;

  /** An event that may prove an alert. */
  note(event: BoardEvent): void {
    if (this.proof.length < PROOF_LIMIT) this.proof.push(event);
  }

  /**
   * The board changed: not undecided (it settles again first), the stall time starts anew, and a
   * press or stall time kept for the board searched waits for the changed board's own.
   */
  changed(): void {
    this.undecided = false;
    this.stallDone = false;
    this.deferred = undefined;
  }

  /** An alert waits for the board (W): the stall time reads nothing more, the proof starts anew. */
  waiting(): void {
    this.undecided = false;
    this.proof = [];
  }
}
