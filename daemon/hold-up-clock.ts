/**
 * The time that stamps what the daemon reads, aware that the daemon itself may be held up (a long
 * GC, a slow disk, a machine busy elsewhere). The players are judged by the time the bytes arrived,
 * and while the daemon is held up it cannot tell when within the pause they did: so a pause does
 * not count. Board time stops at its start and goes on from there when the daemon runs again;
 * the time it fell behind the input clock is given back slowly (CATCH_UP), so board time keeps
 * with the wall clock in the long run without stretching any hand's interval by much.
 * Stamping what is read after a pause with the pause's start instead (and time running on from the
 * wall clock afterwards) only moved the error: a removal that arrived at the end of a 300 ms pause
 * and the next one 100 ms after it were 400 ms apart for the tracker — 4 s at --time-scale 10,
 * an interrupted removal (5.4.13).
 *
 * A heartbeat runs every HEARTBEAT_MS; the daemon was held up when the beat is overdue by more than
 * HELD_UP_MS. That is checked both by the beat itself and before stamping anything, since a pause
 * can end in any phase of the event loop and the next read may come before the next beat.
 */
export const HEARTBEAT_MS = 20;
export const HELD_UP_MS = 30;
/** Held-up time is given back at this fraction of the wall clock's pace. */
export const CATCH_UP = 0.05;

export class HoldUpClock {
  private beat: number;
  private timer: NodeJS.Timeout | undefined;
  /** Input ms of pauses not given back yet: board time runs this far behind the input clock. */
  private behind = 0;
  /** The last stamp given: stamps never go back, though `behind` grows at a pause. */
  private last = Number.NEGATIVE_INFINITY;

  constructor(
    /** The input clock (ms, scaled). */
    private readonly inputNow: () => number,
    /** Input ms per wall ms. */
    private readonly scale: number,
    private readonly wall: () => number = () => performance.now(),
  ) {
    this.beat = wall();
  }

  start(): void {
    this.beat = this.wall();
    this.timer = setInterval(() => this.heartbeat(), HEARTBEAT_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The time to stamp an input read now. */
  now(): number {
    if (this.timer === undefined) return this.inputNow();
    this.notice();
    this.last = Math.max(this.last, this.inputNow() - this.behind);
    return this.last;
  }

  private heartbeat(): void {
    if (!this.notice()) {
      const given = Math.round((this.wall() - this.beat) * this.scale * CATCH_UP);
      this.behind = Math.max(0, this.behind - given);
    }
    this.beat = this.wall();
  }

  /** A pause since the last beat is taken out of board time; true when there was one. */
  private notice(): boolean {
    const wall = this.wall();
    const late = wall - this.beat - HEARTBEAT_MS;
    if (late <= HELD_UP_MS) return false;
    this.behind += Math.round(late * this.scale);
    this.beat = wall;
    return true;
  }
}

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
