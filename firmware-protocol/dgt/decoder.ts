// Host side of the DGT protocol: resynchronising framer (a byte with the high bit set always starts
// a message) and the messages → BoardEvents, through the field map, piece codes and orientation.
import { fault } from '../board-string.ts';
import type { BoardEvent, HelloEvent, LiftEvent, PieceCode, PutEvent, Side } from '../events.ts';
import type { Decoder, ProtocolOptions } from '../types.ts';
import { clockAckMeaning, clockCommandName, FLAG_FALLEN, parseBwTime, STATUS } from './clock.ts';
import { MSG } from './constants.ts';
import { parseEeMoves } from './ee-moves.ts';
import { type DgtFrame, DgtFramer } from './framer.ts';
import { type DgtSetup, dgtSetup } from './mapping.ts';

/** How far apart the record's changes are replayed: its only time is "within 250 ms of the one before". */
const EE_QUICK_MS = 100;
const EE_SPACED_MS = 1000;

export class DgtDecoder implements Decoder {
  readonly protocol = 'dgt';
  private readonly setup: DgtSetup;
  private scan: '50' | '100';
  private readonly framer = new DgtFramer();
  /** Where the message being decoded began (for fault offsets). */
  private frameStart = 0;
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
    this.framer.push(
      chunk,
      t,
      (frame) => {
        this.frameStart = frame.offset;
        this.message(frame, out, t);
      },
      (f) => out.push(f),
    );
    return out;
  }

  flush(t: number): BoardEvent[] {
    return this.framer.flush(t);
  }

  private message({ id, size, data }: DgtFrame, out: BoardEvent[], t: number): void {
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
          const map = id === MSG.BOARD_DUMP_50B ? this.setup.fields50 : this.setup.fields50W;
          if (!map)
            return void out.push(
              fault(
                t,
                'unmapped-dump',
                'a 50W dump, whose field order is not known: give fields50W',
                this.frameStart,
              ),
            );
          this.dump(data, map, out, t);
          return;
        }
      case MSG.BOARD_DUMP: {
        const fields = size - 3;
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
      case MSG.EE_MOVES:
        return void out.push(this.eeMoves(data, t));
      default:
        return; // known but unused (BUSADRES, battery) or unknown: skipped whole
    }
  }

  /**
   * The board's record of its field changes (ee-moves.ts), as changes of squares: piece tags are in
   * 50-field numbering on a draughts board; fields that are no square are left out, an unknown piece
   * code is a piece of unknown colour. A record that does not read is a fault (the host reads the
   * board afresh).
   */
  private eeMoves(data: Uint8Array, t: number): BoardEvent {
    const log = parseEeMoves(data);
    if (!log)
      return fault(t, 'bad-ee-moves', "the board's record (EE_MOVES) does not read", this.frameStart, true);
    const changes: (LiftEvent | PutEvent)[] = [];
    let ms = 0;
    for (const e of log.entries) {
      if (e.kind !== 'piece') continue;
      ms += e.quick ? EE_QUICK_MS : EE_SPACED_MS;
      const physical = this.setup.fields50[e.field];
      if (!physical) continue;
      const square = this.setup.orientation.square(physical);
      const stamp = { n: changes.length + 1, ms, recalled: true as const };
      if (e.code === 0) changes.push({ t, type: 'lift', square, stamp });
      else {
        const c = this.setup.charOf(e.code);
        const piece = c === 'w' || c === 'b' || c === 'W' || c === 'B' ? c : undefined;
        changes.push(piece ? { t, type: 'put', square, piece, stamp } : { t, type: 'put', square, stamp });
      }
    }
    return { t, type: 'history-log', changes, ms: ms + EE_SPACED_MS };
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
    if (c === 'o') return void out.push({ t, type: 'put', square });
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
      case 'ack': {
        // Only an ok ack acknowledges a command; a refusal is the arbiter's business; unasked acks
        // (clock ready, a button) carry no board event. Both name the command, so the host can tell
        // the ack of SETNRUN from the one of the END after it.
        const ack = clockAckMeaning(bw.ack);
        if (ack.meaning === 'ok')
          return void out.push({ t, type: 'tick', reply: 'ack', command: ack.command });
        if (ack.meaning === 'error')
          out.push({
            ...fault(
              t,
              'clock-error',
              `the clock refused ${clockCommandName(ack.command)}: is it in the mode that takes it (23 for SETNRUN)?`,
              this.frameStart,
            ),
            command: ack.command,
          });
        return;
      }
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
      senses: this.setup.senses,
    };
    if (this.setup.scanMs > 0) hello.scanMs = this.setup.scanMs;
    out.push(hello);
  }
}
