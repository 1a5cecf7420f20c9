// One timer for every virtual board: a min-heap of due times (wall clock, ms from performance.now)
// so a thousand boards cost one setTimeout, and lateness is measured in one place.
import { performance } from 'node:perf_hooks';

interface Job {
  due: number;
  seq: number;
  run: (lateMs: number) => void;
}

export class Scheduler {
  private heap: Job[] = [];
  private seq = 0;
  private timer: NodeJS.Timeout | undefined;
  private timerDue = Number.POSITIVE_INFINITY;
  private stopped = false;

  now(): number {
    return performance.now();
  }

  /** Runs `run` at wall time `due` (ms, performance.now scale); it receives how late it ran. */
  at(due: number, run: (lateMs: number) => void): void {
    if (this.stopped) return;
    this.push({ due, seq: this.seq++, run });
    if (due < this.timerDue) this.arm();
  }

  stop(): void {
    this.stopped = true;
    this.heap = [];
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  get pending(): number {
    return this.heap.length;
  }

  private arm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    const first = this.heap[0];
    if (!first || this.stopped) return;
    this.timerDue = first.due;
    this.timer = setTimeout(() => this.fire(), Math.max(0, first.due - this.now()));
  }

  private fire(): void {
    this.timer = undefined;
    this.timerDue = Number.POSITIVE_INFINITY;
    // Everything due now (or within a millisecond: setTimeout's granularity) runs in this turn.
    while (this.heap.length > 0 && !this.stopped) {
      const now = this.now();
      if (this.heap[0].due > now + 1) break;
      const job = this.pop()!;
      job.run(Math.max(0, now - job.due));
    }
    this.arm();
  }

  private push(job: Job): void {
    const h = this.heap;
    h.push(job);
    let i = h.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!before(h[i], h[p])) break;
      [h[i], h[p]] = [h[p], h[i]];
      i = p;
    }
  }

  private pop(): Job | undefined {
    const h = this.heap;
    const top = h[0];
    const last = h.pop();
    if (h.length > 0 && last) {
      h[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1;
        const r = l + 1;
        let m = i;
        if (l < h.length && before(h[l], h[m])) m = l;
        if (r < h.length && before(h[r], h[m])) m = r;
        if (m === i) break;
        [h[i], h[m]] = [h[m], h[i]];
        i = m;
      }
    }
    return top;
  }
}

const before = (a: Job, b: Job): boolean => a.due < b.due || (a.due === b.due && a.seq < b.seq);
