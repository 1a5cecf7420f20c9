// Line framing shared by both directions: `BODY*CCCC\n`, CCCC = CRC-16/CCITT-FALSE of BODY in hex.
import { err, ok, type ParseError, type Result } from '../result.ts';

/** Longest line (without CR LF) a host or board must accept. */
export const MAX_LINE = 200;
export const LINE_PROTOCOL_VERSION = '1.2';
export const LINE_PROTOCOL_MAJOR = 1;

/** The CRC of each byte value on its own (the bitwise loop, done once): a byte a table lookup. */
const CRC_TABLE = Uint16Array.from({ length: 256 }, (_, byte) => {
  let crc = byte << 8;
  for (let bit = 0; bit < 8; bit++) crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
  return crc;
});

/** CRC-16/CCITT-FALSE: polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR. */
export function crc16(text: string): number {
  let crc = 0xffff;
  for (let i = 0; i < text.length; i++)
    crc = ((crc << 8) & 0xffff) ^ CRC_TABLE[((crc >> 8) ^ text.charCodeAt(i)) & 0xff];
  return crc;
}

const hex4 = (n: number): string => n.toString(16).toUpperCase().padStart(4, '0');

/** BODY → the full line with checksum and LF. */
export const frameLine = (body: string): string => `${body}*${hex4(crc16(body))}\n`;

const HEX4 = /^[0-9A-F]{4}$/;

/** A received line (CR/LF already removed) → its checked body; errors are `bad-frame` or `checksum`. */
export function unframeLine(line: string): Result<string, ParseError<'bad-frame' | 'checksum'>> {
  const star = line.lastIndexOf('*');
  if (star < 0) return err({ code: 'bad-frame', message: 'no checksum (missing *)' });
  const sum = line.slice(star + 1);
  if (!HEX4.test(sum))
    return err({ code: 'bad-frame', message: `checksum "${sum}" is not 4 upper-case hex digits` });
  const body = line.slice(0, star);
  const want = crc16(body);
  if (Number.parseInt(sum, 16) !== want)
    return err({ code: 'checksum', message: `checksum ${sum} does not match ${hex4(want)}` });
  return ok(body);
}

/**
 * Cuts a byte stream into lines at LF: the one framing both ends of the line protocol read with. It
 * holds at most MAX_LINE + 1 bytes of an unfinished line (room for a CR), so a board that never sends
 * LF costs no more than that; such a line is reported as too long once its LF comes.
 */
export class LineSplitter {
  private readonly pending = new Uint8Array(MAX_LINE + 1);
  private length = 0;
  /** Bytes of the current line since it passed the limit (0: within it). */
  private overflow = 0;

  /**
   * Calls `line` with each complete line (CR LF removed). A line past MAX_LINE is dropped: `tooLong`
   * is called when it passes the limit and again each time another line's worth arrives without an
   * LF, so a link streaming bytes that never end a line is reported while it streams, and nothing
   * collects what it sends meanwhile; at its LF, `line` gets undefined (the line is counted, not read).
   */
  push(chunk: Uint8Array, line: (text: string | undefined) => void, tooLong: () => void = () => {}): void {
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== 0x0a) continue;
      this.take(chunk, start, i, tooLong);
      const dropped = this.overflow > 0;
      const end = this.length > 0 && this.pending[this.length - 1] === 0x0d ? this.length - 1 : this.length;
      // One char per byte (latin-1); apply rather than spread, as this runs for every line.
      const text = dropped
        ? undefined
        : String.fromCharCode.apply(null, this.pending.subarray(0, end) as unknown as number[]);
      this.length = 0;
      this.overflow = 0;
      line(text);
      start = i + 1;
    }
    this.take(chunk, start, chunk.length, tooLong);
  }

  /** End of the stream: true when it ended inside a line (which is dropped). */
  flush(): boolean {
    const inside = this.length > 0 || this.overflow > 0;
    this.length = 0;
    this.overflow = 0;
    return inside;
  }

  private take(chunk: Uint8Array, from: number, to: number, tooLong: () => void): void {
    if (from >= to) return;
    const worth = this.pending.length;
    const before = this.overflow > 0 ? this.overflow : this.length;
    const after = before + (to - from);
    if (after <= worth) {
      this.pending.set(chunk.subarray(from, to), this.length);
      this.length = after;
      return;
    }
    this.length = 0;
    this.overflow = after;
    if (Math.floor((after - 1) / worth) > Math.floor(Math.max(0, before - 1) / worth)) tooLong();
  }
}

/** Printable ASCII without `*` (free text in `fault` and `text` lines). */
export const sanitizeText = (text: string): string => text.replace(/[^\x20-\x29\x2b-\x7e]/g, '?');

/** Latin-1 text → bytes: one byte per char (LineSplitter reads them back one char per byte, so any
 * byte sequence survives decoding). */
export const textToBytes = (text: string): Uint8Array => Uint8Array.from(text, (c) => c.charCodeAt(0) & 0xff);
