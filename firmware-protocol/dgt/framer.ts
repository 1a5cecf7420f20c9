// DGT framing, shared by the decoder and the calibration's raw reader: a byte with the high bit set
// always starts a message, so the framer resynchronises on the next such byte after any damage.
import { fault } from '../board-string.ts';
import type { FaultEvent } from '../events.ts';
import { FIXED_SIZE, MAX_SIZE } from './constants.ts';

/** Every message is kept whole, up to the longest a size can say (EE_MOVES: 0x1f00 bytes and more). */
const MAX_KEPT = MAX_SIZE;

/** One whole message: its id, its data bytes (a view, valid during the callback) and where it began. */
export interface DgtFrame {
  id: number;
  /** The size the header says (3 header bytes included). */
  size: number;
  data: Uint8Array;
  offset: number;
}

export class DgtFramer {
  private readonly frame = new Uint8Array(MAX_KEPT);
  /** Bytes of the current frame received so far (0: between frames). */
  private have = 0;
  private size = 0;
  private frameStart = 0;
  /** Absolute offset of the next byte. */
  private offset = 0;
  private inGarbage = false;
  /** Bytes outside any message since the last fault that reported them. */
  private garbage = 0;

  /** Feeds bytes; calls `onFrame` for each whole message and `onFault` for damage (time `t`). */
  push(
    chunk: Uint8Array,
    t: number,
    onFrame: (frame: DgtFrame) => void,
    onFault: (f: FaultEvent) => void,
  ): void {
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const b = chunk[i];
      if (b & 0x80) {
        if (this.have > 0) onFault(this.truncated(t));
        this.frame[0] = b;
        this.have = 1;
        this.frameStart = this.offset;
        this.inGarbage = false;
        continue;
      }
      if (this.have === 0) {
        // Reported when it starts, and again for every longest message's worth: a board streaming
        // bytes that never start a message is asked to resync each time.
        if (!this.inGarbage || ++this.garbage >= MAX_SIZE) {
          onFault(fault(t, 'garbage', 'bytes outside any message', this.offset, true));
          this.garbage = 0;
        }
        this.inGarbage = true;
        continue;
      }
      if (this.have < MAX_KEPT) this.frame[this.have] = b;
      this.have++;
      if (this.have === 3) {
        this.size = (this.frame[1] << 7) | this.frame[2];
        const problem = sizeProblem(this.frame[0], this.size);
        if (problem) {
          onFault(fault(t, 'bad-length', problem, this.frameStart, true));
          this.have = 0;
          this.inGarbage = true; // the rest of this message is garbage: already reported
          this.garbage = 0;
          continue;
        }
      }
      if (this.have >= 3 && this.have === this.size) {
        this.have = 0;
        onFrame({
          id: this.frame[0],
          size: this.size,
          data: this.frame.subarray(3, Math.min(this.size, MAX_KEPT)),
          offset: this.frameStart,
        });
      }
    }
  }

  /** End of the stream: a fault when a message was left half-received. */
  flush(t: number): FaultEvent[] {
    return this.have > 0 ? [this.truncated(t)] : [];
  }

  private truncated(t: number): FaultEvent {
    const id = this.frame[0].toString(16);
    const f = fault(
      t,
      'truncated',
      `message 0x${id} cut short after ${this.have} byte(s)`,
      this.frameStart,
      true,
    );
    this.have = 0;
    return f;
  }
}

function sizeProblem(id: number, size: number): string | undefined {
  if (size < 3 || size > MAX_SIZE) return `message 0x${id.toString(16)} says it is ${size} bytes long`;
  const fixed = FIXED_SIZE[id];
  if (fixed && !fixed.includes(size))
    return `message 0x${id.toString(16)} is ${size} bytes long, expected ${fixed.join(' or ')}`;
  return undefined;
}
