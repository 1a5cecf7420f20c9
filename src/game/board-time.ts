// A board's own time on top of the clock that stamps inputs: time while a board is not watched does
// not count for its tracker. Pure: the time arrives with each input.
import type { ConnectionState } from './types.ts';

/**
 * A gap counts as this short pause: longer than the tracker's settle time, so what the hands did
 * before the gap settles on its own and the dump after it reads as a fresh picture; far shorter
 * than its stall time, so a piece in the air at the gap is no irregularity.
 */
export const RESUME_PAUSE_MS = 500;

const WATCHED: ReadonlySet<ConnectionState> = new Set(['active', 'silent']);

/** Whether the daemon is watching a board in this state (so time passes for its tracker). */
export const watched = (state: ConnectionState): boolean => WATCHED.has(state);

/**
 * One board's time. While a board is away (unplugged, or the daemon down) nobody watches it, so
 * that time must not count for the tracker — a man lifted just before the plug was pulled is no
 * 5.4.7 stall five seconds later; the full dump on reconnect tells what happened meanwhile. So a
 * board's time resumes right after its last input when it comes back.
 */
export class BoardTime {
  /** Time of the board's latest input. */
  last = 0;
  /** The board is away (lost, or the daemon was down): its next input resumes right after `last`. */
  gap = false;
  /** Board time = input clock − offset. */
  private offset = 0;

  /** The board's time when the input clock reads `now`. */
  at(now: number): number {
    if (this.gap) {
      this.gap = false;
      this.offset = now - (this.last + RESUME_PAUSE_MS);
    }
    return Math.max(this.last, now - this.offset);
  }

  /**
   * The board's time moves on by `ms` at once: changes a board recalled from its memory reach back
   * into time that did not count for it (an outage), so they are moved on, their intervals kept, and
   * the board's time after them too.
   */
  skip(ms: number): void {
    this.offset -= ms;
  }

  /** An input at `t` was taken. */
  saw(t: number): void {
    if (t > this.last) this.last = t;
  }
}
