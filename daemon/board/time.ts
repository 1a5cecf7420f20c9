// Board time: the clock that stamps inputs, and each board's own time on top of it — time while a
// board is not watched does not count for its tracker.
import type { ConnectionState } from '../../src/game/types.ts';

/**
 * The clock that stamps inputs: runs `scale` times faster than the wall clock (1 for real boards)
 * and never goes back — not after a restart (it starts after the journal's last entry), nor when
 * the system clock is stepped back — so the tracker always sees time moving forward.
 */
export function inputClock(scale: number, after = 0, wall: () => number = Date.now): () => number {
  const wall0 = wall();
  const base = Math.max(wall0, after + 1);
  let last = base;
  return () => {
    last = Math.max(last, Math.round(base + (wall() - wall0) * scale));
    return last;
  };
}

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
