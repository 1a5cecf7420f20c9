// Host side of the DGT protocol: resynchronising framer (a byte with the high bit set always starts
// a message) and the messages → BoardEvents, through the field map, piece codes and orientation.
import { fault } from '../board.ts';
import type { BoardEvent, HelloEvent, PieceCode, Side } from '../events.ts';
import type { Decoder, ProtocolOptions } from '../types.ts';
import { FLAG_FALLEN, parseBwTime, STATUS } from './clock.ts';
import { FIXED_SIZE, MAX_SIZE, MSG } from './constants.ts';
import { type DgtSetup, dgtSetup } from './mapping.ts';

/** Messages longer than this are skipped without being kept (EE_MOVES dumps: not used here). */
const MAX_KEPT = 3 + 256;

export class DgtDecoder implements Decoder {
  readonly protocol = 'dgt';
  private readonly setup: DgtSetup;
  private scan: '50' | '100';
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
  private serial: string | undefined;
  private version: string | undefined;
  private helloSent: string | undefined;
  private lever: number | undefined;

  constructor(options: ProtocolOptions = {}) {
    this.setup = dgtSetup(options);
    this.scan = this.setup.scan;
  }

  push(chunk: Uint8Array, t: number): BoardEvent[] {
    const out: BoardEvent[] = [];
    for (let i = 0; i < chunk.length; i++, this.offset++) {
      const b = chunk[i];
      if (b & 0x80) {
        if (this.have > 0) this.truncated(out, t);
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
          out.push(fault(t, 'garbage', 'bytes outside any message', this.offset, true));
          this.garbage = 0;
        }
        this.inGarbage = true;
        continue;
      }
      if (this.have < MAX_KEPT) this.frame[this.have] = b;
      this.have++;
      if (this.have === 3) {
        this.size = (this.frame[1] << 7) | this.frame[2];
        const problem = this.sizeProblem(this.frame[0], this.size);
        if (problem) {
          out.push(fault(t, 'bad-length', problem, this.frameStart, true));
          this.have = 0;
          this.inGarbage = true; // the rest of this message is garbage: already reported
          this.garbage = 0;
          continue;
        }
      }
      if (this.have >= 3 && this.have === this.size) {
        this.have = 0;
        this.message(out, t);
      }
    }
    return out;
  }

  flush(t: number): BoardEvent[] {
    const out: BoardEvent[] = [];
    if (this.have > 0) this.truncated(out, t);
    return out;
  }

  private truncated(out: BoardEvent[], t: number): void {
    const id = this.frame[0].toString(16);
    out.push(
      fault(t, 'truncated', `message 0x${id} cut short after ${this.have} byte(s)`, this.frameStart, true),
    );
    this.have = 0;
  }

  private sizeProblem(id: number, size: number): string | undefined {
    if (size < 3 || size > MAX_SIZE) return `message 0x${id.toString(16)} says it is ${size} bytes long`;
    const fixed = FIXED_SIZE[id];
    if (fixed && !fixed.includes(size))
      return `message 0x${id.toString(16)} is ${size} bytes long, expected ${fixed.join(' or ')}`;
    return undefined;
  }

  private message(out: BoardEvent[], t: number): void {
    const id = this.frame[0];
    const data = this.frame.subarray(3, Math.min(this.size, MAX_KEPT));
    switch (id) {
      case MSG.FIELD_UPDATE: {
        this.fieldUpdate(data[0], data[1], out, t);
        return;
      }
      case MSG.BOARD_DUMP_50B:
      case MSG.BOARD_DUMP_50W:
        if (this.setup.size !== 10)
          return void out.push(
            fault(t, 'wrong-board', '50-field dump from a board configured as 8×8', this.frameStart, true),
          );
        {
          this.dump(data, id === MSG.BOARD_DUMP_50B ? this.setup.fields50 : this.setup.fields50W, out, t);
          return;
        }
      case MSG.BOARD_DUMP: {
        const fields = this.size - 3;
        if (fields !== (this.setup.size === 10 ? 100 : 64)) {
          return void out.push(
            fault(
              t,
              'wrong-board',
              `${fields}-field dump from a ${this.setup.size}×${this.setup.size} board`,
              this.frameStart,
              true,
            ),
          );
        }
        if (this.setup.size === 10) this.scan = '100';
        this.dump(data, this.setup.fieldsFull, out, t);
        return;
      }
      case MSG.BWTIME: {
        this.bwTime(data, out, t);
        return;
      }
      case MSG.SERIALNR:
      case MSG.LONG_SERIALNR:
        this.serial = String.fromCharCode(...data)
          .replace(/[^\x20-\x7e]/g, '?')
          .trim();
        this.identity(out, t, true);
        return;
      case MSG.VERSION:
        this.version = `${data[0]}.${String(data[1]).padStart(2, '0')}`;
        this.identity(out, t, false);
        return;
      case MSG.TRADEMARK:
        return void out.push({ t, type: 'tick', reply: 'pong' });
      default:
        return; // known but unused (EE_MOVES, BUSADRES, battery) or unknown: skipped whole
    }
  }

  private fieldUpdate(field: number, code: number, out: BoardEvent[], t: number): void {
    const map = this.scan === '50' ? this.setup.fields50 : this.setup.fieldsFull;
    if (field >= map.length) {
      return void out.push(
        fault(t, 'bad-field', `field ${field} outside the ${map.length}-field scan`, this.frameStart, true),
      );
    }
    const physical = map[field];
    if (physical === 0) {
      // A light square of a 100-field scan is out of play (5.3): a piece put there is the arbiter's business.
      if (code !== 0)
        out.push(fault(t, 'light-square', `a piece stands on light field ${field}`, this.frameStart));
      return;
    }
    const square = this.setup.orientation.square(physical);
    if (code === 0) return void out.push({ t, type: 'lift', square });
    const c = this.setup.charOf(code);
    if (c === undefined || c === '.') {
      out.push(
        fault(t, 'unknown-piece', `piece code 0x${code.toString(16)} on field ${field}`, this.frameStart),
      );
      return void out.push({ t, type: 'put', square });
    }
    out.push({ t, type: 'put', square, piece: c as PieceCode });
  }

  private dump(data: Uint8Array, map: readonly number[], out: BoardEvent[], t: number): void {
    const cells = new Array<string>(this.setup.n).fill('.');
    let unknown = 0;
    for (let field = 0; field < map.length; field++) {
      const sq = map[field];
      if (sq === 0) continue;
      const c = this.setup.charOf(data[field]);
      if (c === undefined) unknown++;
      cells[sq - 1] = c ?? 'o';
    }
    if (unknown)
      out.push(fault(t, 'unknown-piece', `${unknown} field(s) with an unknown piece code`, this.frameStart));
    out.push({ t, type: 'snapshot', board: this.setup.orientation.board(cells.join('')) });
  }

  private bwTime(data: Uint8Array, out: BoardEvent[], t: number): void {
    const parsed = parseBwTime(data);
    if (!parsed.ok) return void out.push(fault(t, parsed.error.code, parsed.error.message, this.frameStart));
    const bw = parsed.value;
    switch (bw.kind) {
      case 'ack':
        return void out.push({ t, type: 'tick', reply: 'ack' });
      case 'empty':
      case 'no-clock':
        return;
      case 'times': {
        const leftSide: Side = this.setup.clockWhite === 'left' ? 'white' : 'black';
        const rightSide: Side = leftSide === 'white' ? 'black' : 'white';
        const lever = bw.status & STATUS.LEVER_RIGHT_HIGH;
        // The lever rises on the side whose clock starts: rising on the right means left pressed.
        if (this.lever !== undefined && lever !== this.lever)
          out.push({ t, type: 'press', side: lever ? leftSide : rightSide });
        this.lever = lever;
        const running =
          bw.status & STATUS.RUNNING
            ? bw.status & STATUS.RIGHT_TURN
              ? rightSide
              : bw.status & STATUS.LEFT_TURN
                ? leftSide
                : null
            : null;
        const left = bw.left.seconds * 1000;
        const right = bw.right.seconds * 1000;
        // The flag bit of the running side first: the one that fell now.
        const fallen = [
          ...(bw.right.flags & FLAG_FALLEN ? [rightSide] : []),
          ...(bw.left.flags & FLAG_FALLEN ? [leftSide] : []),
        ];
        const flag = fallen.find((s) => s === running) ?? fallen[0];
        out.push({
          t,
          type: 'clock',
          white: leftSide === 'white' ? left : right,
          black: leftSide === 'white' ? right : left,
          running,
          ...(flag ? { flag } : {}),
        });
      }
    }
  }

  /**
   * Serial and version replies: a hello once both are known and one of them is new. Otherwise a
   * serial number reply is a keep-alive (the ping), a version reply says nothing.
   */
  private identity(out: BoardEvent[], t: number, isSerial: boolean): void {
    const key = `${this.serial}/${this.version}`;
    if (this.serial === undefined || this.version === undefined || key === this.helloSent) {
      if (isSerial) out.push({ t, type: 'tick', reply: 'pong' });
      return;
    }
    this.helloSent = key;
    const hello: HelloEvent = {
      t,
      type: 'hello',
      serial: this.serial,
      protocol: 'dgt',
      firmware: this.version,
      squares: this.setup.size === 8 ? 64 : this.scan === '100' ? 100 : 50,
      senses: 'pieces',
    };
    out.push(hello);
  }
}
