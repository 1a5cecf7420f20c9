// Host side of the line protocol: bytes in, BoardEvents out. Checks framing, checksum,
// sequence numbers and the protocol version; asks for a resync (fault with resync) on any loss.
import { fault, renumberSquares, squareCount } from '../board-string.ts';
import type { BoardEvent } from '../events.ts';
import type { Decoder, ProtocolOptions } from '../types.ts';
import { LINE_PROTOCOL_MAJOR, LineSplitter, MAX_LINE, unframeLine } from './frame.ts';
import { parseBoardLine } from './messages.ts';

const SEQ = /^\d{1,3}$/;

export class LineDecoder implements Decoder {
  readonly protocol = 'line';
  private readonly splitter = new LineSplitter();
  private lineNo = 0;
  /** Last sequence number seen; null until the first line, after a garbled line, or after hello. */
  private lastSeq: number | null = null;
  private squares: number;
  /** Set after a hello with a major version we do not speak: lines are ignored until a good hello. */
  private incompatible = false;
  private readonly squareMap: readonly number[] | undefined;

  constructor(options: ProtocolOptions = {}) {
    this.squares = squareCount(options.size ?? 10);
    this.squareMap = options.squareMap;
  }

  push(chunk: Uint8Array, t: number): BoardEvent[] {
    const out: BoardEvent[] = [];
    this.splitter.push(
      chunk,
      (line) => {
        this.lineNo++;
        // A line too long was reported when it passed the limit; its end only resumes decoding.
        if (line !== undefined) this.decodeLine(line, t, out);
      },
      () => this.garbled(out, t, 'line-too-long', `line longer than ${MAX_LINE} characters`, this.lineNo + 1),
    );
    return out;
  }

  flush(t: number): BoardEvent[] {
    if (!this.splitter.flush()) return [];
    const out: BoardEvent[] = [];
    this.garbled(out, t, 'truncated', 'stream ended inside a line', this.lineNo + 1);
    return out;
  }

  private garbled(out: BoardEvent[], t: number, code: string, message: string, line = this.lineNo): void {
    this.lastSeq = null;
    out.push(fault(t, code, message, line, true));
  }

  private decodeLine(line: string, t: number, out: BoardEvent[]): void {
    if (line === '') return;
    const framed = unframeLine(line);
    if (!framed.ok) {
      this.garbled(out, t, framed.error.code, framed.error.message);
      return;
    }
    const body = framed.value;
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
    if (!parsed.ok)
      return void out.push(fault(t, parsed.error.code, parsed.error.message, this.lineNo, true));
    const { events, hello } = parsed.value;
    if (hello) {
      const major = Number(hello.protocol.split('/')[1]?.split('.')[0]);
      this.incompatible = major !== LINE_PROTOCOL_MAJOR;
      if (this.incompatible) {
        return void out.push(
          fault(
            t,
            'unsupported-version',
            `board speaks ${hello.protocol}; this host speaks major version ${LINE_PROTOCOL_MAJOR}`,
            this.lineNo,
          ),
        );
      }
      this.squares = hello.squares;
    }
    const map = this.squareMap;
    out.push(...(map ? events.map((e) => renumberSquares(e, map)) : events));
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
