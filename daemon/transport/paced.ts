// A board's events handed on a slice at a time, with a turn of the event loop between slices: a long
// recalled history (tens of thousands of changes, each tracked and journaled) is replayed without
// stalling the other boards' live events and the spectators' answers. Order is kept: what the link
// says while slices wait goes after them.
import type { BoardEvent } from '../../firmware-protocol/events.ts';

/** Events per slice: a slice of a recalled history costs a few milliseconds of the daemon's time. */
export const PACED_SLICE = 200;

type Deliver = (serial: string, events: BoardEvent[], raw: Uint8Array) => void;

const NO_BYTES = new Uint8Array(0);

export class Paced {
  private readonly waiting: Array<{ serial: string; events: BoardEvent[]; raw: Uint8Array }> = [];
  private turn: NodeJS.Immediate | undefined;

  constructor(
    private readonly deliver: Deliver,
    private readonly slice = PACED_SLICE,
  ) {}

  /** Hands `events` on: at once when nothing waits and they fit one slice, else slice by slice. */
  push(serial: string, events: BoardEvent[], raw: Uint8Array): void {
    if (this.waiting.length === 0 && events.length <= this.slice) {
      this.deliver(serial, events, raw);
      return;
    }
    for (let i = 0; i < events.length; i += this.slice)
      this.waiting.push({ serial, events: events.slice(i, i + this.slice), raw: i === 0 ? raw : NO_BYTES });
    if (events.length === 0) this.waiting.push({ serial, events, raw });
    this.next();
  }

  /** Everything still waiting, handed on now (the connection stops: nothing read is dropped). */
  flush(): void {
    if (this.turn) clearImmediate(this.turn);
    this.turn = undefined;
    for (let s = this.waiting.shift(); s; s = this.waiting.shift()) this.deliver(s.serial, s.events, s.raw);
  }

  /** Slices waiting to be handed on. */
  get pending(): number {
    return this.waiting.length;
  }

  private next(): void {
    if (this.turn || this.waiting.length === 0) return;
    const s = this.waiting.shift()!;
    this.deliver(s.serial, s.events, s.raw);
    if (this.waiting.length > 0)
      this.turn = setImmediate(() => {
        this.turn = undefined;
        this.next();
      });
  }
}
