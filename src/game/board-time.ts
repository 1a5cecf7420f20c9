// A board's own time on top of the clock that stamps inputs: time while a board is not watched does
// not count for its tracker. Pure: the time arrives with each input.
import { isRecalled } from '../../firmware-protocol/board-string.ts';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
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
    return Math.max(this.last, now - this.behind(now));
  }

  /**
   * How far the board's time runs behind the input clock from `now` on: a board back from a gap
   * resumes at `now`, right after its last input.
   */
  behind(now: number): number {
    if (this.gap) {
      this.gap = false;
      this.offset = now - (this.last + RESUME_PAUSE_MS);
    }
    return this.offset;
  }

  /**
   * The board's time moves on by `ms` at once: changes a board recalled from its memory reach back
   * into time that did not count for it (an outage), so they are moved on, their intervals kept, and
   * the board's time after them too.
   */
  skip(ms: number): void {
    this.offset -= ms;
  }

  /**
   * Events a link stamped with the input clock, in the board's time, in order and never back before
   * its latest input. One shift takes them all there, so a recalled history keeps its intervals: a
   * board back from a gap resumes at the earliest live event (the bytes read first), or at the latest
   * recalled change when all are recalled (a slice of a long answer). Recalled changes that would
   * reach back before the board's latest input move on, with what follows them (`skip`).
   */
  receive(stamped: readonly BoardEvent[]): BoardEvent[] {
    let first = Number.POSITIVE_INFINITY;
    let recalled = Number.NEGATIVE_INFINITY;
    for (const e of stamped)
      if (isRecalled(e)) recalled = Math.max(recalled, e.t);
      else first = Math.min(first, e.t);
    const at = Number.isFinite(first) ? first : recalled;
    if (!Number.isFinite(at)) return [];
    const toBoard = -this.behind(at);
    const shift = recalledShift(stamped, this.last - toBoard);
    if (shift > 0) this.skip(shift);
    let last = this.last;
    let shifting = false;
    return stamped.map((received) => {
      shifting ||= isRecalled(received);
      const t = Math.max(last, received.t + toBoard + (shifting ? shift : 0));
      last = t;
      return t === received.t ? received : { ...received, t };
    });
  }

  /** An input at `t` was taken. */
  saw(t: number): void {
    if (t > this.last) this.last = t;
  }
}

/**
 * Changes recalled from a history board carry the board's own times, which reach back into time
 * that did not count for the board (the outage they bridge): how far they, and what follows them,
 * move on so that the first comes right after the board's latest input — or after what came before
 * it in the same batch (a hello read in one go with the answer) — their intervals kept.
 */
function recalledShift(events: readonly BoardEvent[], last: number): number {
  const i = events.findIndex(isRecalled);
  if (i < 0) return 0;
  const before = events.slice(0, i).reduce((t, e) => Math.max(t, e.t), last);
  return events[i].t <= before ? before + 1 - events[i].t : 0;
}
