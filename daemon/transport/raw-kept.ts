// The raw bytes a connection keeps for the journal until events carry them.
import { concatBytes } from '../../firmware-protocol/bytes.ts';

/**
 * Raw bytes kept for the journal with the next events, at most: a board whose messages decode to
 * nothing for hours (identical HID reports, clock messages without a clock) would otherwise make
 * one row of everything it sent. The newest bytes are kept — the ones that led to the events.
 */
export const RAW_KEPT = 64 * 1024;

/** The newest RAW_KEPT bytes received since the last events took them. */
export class RawKept {
  private chunks: Uint8Array[] = [];
  private bytes = 0;

  keep(bytes: Uint8Array): void {
    const kept = bytes.length > RAW_KEPT ? bytes.subarray(bytes.length - RAW_KEPT) : bytes;
    this.chunks.push(kept);
    this.bytes += kept.length;
    while (this.bytes > RAW_KEPT) {
      const oldest = this.chunks[0];
      const over = this.bytes - RAW_KEPT;
      if (oldest.length <= over) {
        this.chunks.shift();
        this.bytes -= oldest.length;
      } else {
        this.chunks[0] = oldest.subarray(over);
        this.bytes -= over;
      }
    }
  }

  /** The bytes kept, handed to the events that take them. */
  take(): Uint8Array {
    const raw = concatBytes(this.chunks);
    this.clear();
    return raw;
  }

  /** Bytes no event will carry (a new link, a message cut by a calibration) are dropped. */
  clear(): void {
    this.chunks = [];
    this.bytes = 0;
  }
}
