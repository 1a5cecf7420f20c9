/**
 * The time that stamps what the daemon reads, aware that the daemon itself may be held up (a long
 * GC, a slow disk). Bytes read right after such a pause arrived at some moment of it: they are
 * stamped with its start, not with the time they are read — or a put that came 100 ms after its
 * lift would look seconds late to the tracker (a false 5.4.7), ten times more so at --time-scale 10.
 *
 * A heartbeat runs every HEARTBEAT_MS; the daemon was held up when the beat is overdue by more than
 * HELD_UP_MS. That is checked both by the beat itself and before stamping anything, since a pause
 * can end in any phase of the event loop and the next read may come before the next beat.
 * The mark lasts until the immediates of the turn in which it was noticed, i.e. past that turn's
 * reads (immediates run after I/O).
 */
export const HEARTBEAT_MS = 20;
export const HELD_UP_MS = 30;

export class HoldUpClock {
  private beat: number;
  private timer: NodeJS.Timeout | undefined;
  /** Input time at which the pause being caught up on began. */
  private mark: number | undefined;

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
    this.timer = setInterval(() => {
      this.now();
      this.beat = this.wall();
    }, HEARTBEAT_MS);
  }

  stop(): void {
    clearInterval(this.timer);
    this.timer = undefined;
  }

  /** The time to stamp an input read now. */
  now(): number {
    if (this.mark !== undefined) return this.mark;
    if (this.timer === undefined) return this.inputNow();
    const wall = this.wall();
    const late = wall - this.beat - HEARTBEAT_MS;
    if (late <= HELD_UP_MS) return this.inputNow();
    this.beat = wall;
    const mark = this.inputNow() - Math.round(late * this.scale);
    this.mark = mark;
    setImmediate(() => {
      this.mark = undefined;
    });
    return mark;
  }
}
