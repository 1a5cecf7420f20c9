// Host side of the line protocol: bytes or lines in, BoardEvents out. Checks framing, checksum,
// sequence numbers and the protocol version; asks for a resync (fault with resync) on any loss.
import { fault, squareCount } from '../board.ts';
import type { BoardEvent } from '../events.ts';
import type { Decoder, ProtocolOptions } from '../types.ts';
import { LINE_PROTOCOL_MAJOR, MAX_LINE, unframeLine } from './frame.ts';
import { parseBoardLine } from './messages.ts';

const SEQ = /^\d{1,3}$/;

export class LineDecoder implements Decoder {
  readonly protocol = 'line';
  /** The line received so far (bytes, without LF). */
  private readonly pending = new Uint8Array(MAX_LINE + 1);
  private pendingLength = 0;
  /** Bytes of the current line dropped since it passed the limit (0: within it). */
  private overflow = 0;
  private lineNo = 0;
  /** Last sequence number seen; null until the first line, after a garbled line, or after hello. */
  private lastSeq: number | null = null;
  private squares: number;
  /** Set after a hello with a major version we do not speak: lines are ignored until a good hello. */
  private incompatible = false;

  constructor(options: ProtocolOptions = {}) {
    this.squares = squareCount(options.size ?? 10);
  }

  push(chunk: Uint8Array, t: number): BoardEvent[] {
    const out: BoardEvent[] = [];
    let start = 0;
    for (let i = 0; i < chunk.length; i++) {
      if (chunk[i] !== 0x0a) continue;
      this.take(chunk, start, i, t, out);
      const line = String.fromCharCode.apply(
        null,
        this.pending.subarray(0, this.pendingLength) as unknown as number[],
      );
      const overflow = this.overflow > 0;
      this.pendingLength = 0;
      this.overflow = 0;
      this.lineNo++;
      // A line too long was reported when it passed the limit; its end only resumes decoding.
      if (!overflow) this.decodeLine(line, t, out);
      start = i + 1;
    }
    this.take(chunk, start, chunk.length, t, out);
    return out;
  }

  /** One line without its LF (what `@serialport/parser-readline` hands over). */
  pushLine(line: string, t: number): BoardEvent[] {
    const out: BoardEvent[] = [];
    this.lineNo++;
    if (line.length > MAX_LINE + 1)
      this.garbled(out, t, 'line-too-long', `line longer than ${MAX_LINE} characters`);
    else this.decodeLine(line, t, out);
    return out;
  }

  flush(t: number): BoardEvent[] {
    const inLine = this.pendingLength > 0;
    this.pendingLength = 0;
    this.overflow = 0;
    if (!inLine) return [];
    const out: BoardEvent[] = [];
    this.garbled(out, t, 'truncated', 'stream ended inside a line', this.lineNo + 1);
    return out;
  }

  /**
   * Keeps bytes of the current line. Past the limit the line is dropped and reported at once, and
   * again each time another line's worth arrives without an LF: a board streaming bytes that never
   * end a line is asked to resync, and nothing downstream collects what it sends meanwhile.
   */
  private take(chunk: Uint8Array, from: number, to: number, t: number, out: BoardEvent[]): void {
    if (from >= to) return;
    const worth = MAX_LINE + 1;
    const before = this.overflow > 0 ? this.overflow : this.pendingLength;
    const after = before + (to - from);
    if (after <= worth) {
      this.pending.set(chunk.subarray(from, to), this.pendingLength);
      this.pendingLength = after;
      return;
    }
    this.pendingLength = 0;
    this.overflow = after;
    if (Math.floor((after - 1) / worth) > Math.floor(Math.max(0, before - 1) / worth))
      this.garbled(out, t, 'line-too-long', `line longer than ${MAX_LINE} characters`, this.lineNo + 1);
  }

  private garbled(out: BoardEvent[], t: number, code: string, message: string, line = this.lineNo): void {
    this.lastSeq = null;
    out.push(fault(t, code, message, line, true));
  }

  private decodeLine(raw: string, t: number, out: BoardEvent[]): void {
    const line = raw.endsWith('\r') ? raw.slice(0, -1) : raw;
    if (line === '') return;
    const framed = unframeLine(line);
    if (!framed.ok) {
      this.garbled(out, t, framed.code, framed.message);
      return;
    }
    const body = framed.body;
    const sp1 = body.indexOf(' ');
    const type = sp1 < 0 ? body : body.slice(0, sp1);
    const afterType = sp1 < 0 ? '' : body.slice(sp1 + 1);
    const sp2 = afterType.indexOf(' ');
    const seqText = sp2 < 0 ? afterType : afterType.slice(0, sp2);
    const rest = sp2 < 0 ? '' : afterType.slice(sp2 + 1);
    if (!SEQ.test(seqText) || Number(seqText) > 255) {
      this.garbled(out, t, 'bad-frame', `bad sequence number "${seqText}"`);
      return;
    }
    const seq = Number(seqText);
    if (type === 'hello') this.lastSeq = null;
    else if (this.incompatible) return;
    if (!this.checkSequence(seq, t, out)) return;
    const args = rest.split(' ').filter(Boolean);
    const parsed = parseBoardLine(type, args, rest, t, this.squares);
    if (parsed === undefined) return; // unknown line type: ignored (a newer minor version's line)
    if (!parsed.ok) return void out.push(fault(t, parsed.code, parsed.message, this.lineNo, true));
    if (parsed.hello) {
      const major = Number(parsed.hello.protocol.split('/')[1]?.split('.')[0]);
      this.incompatible = major !== LINE_PROTOCOL_MAJOR;
      if (this.incompatible) {
        return void out.push(
          fault(
            t,
            'unsupported-version',
            `board speaks ${parsed.hello.protocol}; this host speaks major version ${LINE_PROTOCOL_MAJOR}`,
            this.lineNo,
          ),
        );
      }
      this.squares = parsed.hello.squares;
    }
    out.push(...parsed.events);
  }

  /** False when the line is a duplicate and must be dropped. */
  private checkSequence(seq: number, t: number, out: BoardEvent[]): boolean {
    const last = this.lastSeq;
    this.lastSeq = seq;
    if (last === null) return true;
    const expected = (last + 1) % 256;
    if (seq === expected) return true;
    if (seq === last) {
      out.push(fault(t, 'sequence-duplicate', `line ${seq} received twice`, this.lineNo, true));
      return false;
    }
    const lost = (seq - expected + 256) % 256;
    out.push(
      fault(
        t,
        'sequence-gap',
        `expected sequence ${expected}, got ${seq} (${lost} line(s) lost)`,
        this.lineNo,
        true,
      ),
    );
    return true;
  }
}
