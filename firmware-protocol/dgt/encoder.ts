// Board side of the DGT protocol (the simulator's DGT board) and the host's command bytes.
import { type SquareChar, startPosition, toSquareString } from '../board-string.ts';
import { concatBytes } from '../bytes.ts';
import type { ClockReading } from '../clock-reading.ts';
import type { BoardEvent, PieceCode, Side } from '../events.ts';
import type { BoardEncoder, CommandParser, HostCommand, ProtocolOptions } from '../types.ts';
import { ackData, bwTimeData, type ClockSideTime, FLAG_FALLEN, STATUS } from './clock.ts';
import { CLOCK, CLOCK_ACK, CMD, MSG, RUN } from './constants.ts';
import { EeLog } from './ee-moves.ts';
import { type DgtSetup, dgtSetup, inverseMaps } from './mapping.ts';

const EMPTY = new Uint8Array(0);

/** A firmware string `1.02` as the VERSION message's two numbers. */
export function versionMessage(firmware = '1.0'): DgtMessage {
  const [major = 1, minor = 0] = firmware.split('.').map((x) => Number.parseInt(x, 10) || 0);
  return { kind: 'version', major, minor };
}

/** Wire-level messages a DGT board sends. */
export type DgtMessage =
  | { kind: 'field-update'; field: number; code: number }
  | { kind: 'dump-50b' | 'dump-50w'; fields: number[] }
  | { kind: 'dump'; fields: number[] }
  | { kind: 'bwtime'; data: number[] }
  | { kind: 'serial'; serial: string }
  | { kind: 'long-serial'; serial: string }
  | { kind: 'version'; major: number; minor: number }
  | { kind: 'trademark'; text: string }
  | { kind: 'ee-moves'; data: Uint8Array };

const frame = (id: number, data: readonly number[]): Uint8Array => {
  const size = data.length + 3;
  return Uint8Array.from([id, (size >> 7) & 0x7f, size & 0x7f, ...data.map((b) => b & 0x7f)]);
};
const ascii = (s: string): number[] => [...s].map((c) => c.charCodeAt(0) & 0x7f);

export function encodeDgtMessage(m: DgtMessage): Uint8Array {
  switch (m.kind) {
    case 'field-update':
      return frame(MSG.FIELD_UPDATE, [m.field, m.code]);
    case 'dump-50b':
      return frame(MSG.BOARD_DUMP_50B, m.fields);
    case 'dump-50w':
      return frame(MSG.BOARD_DUMP_50W, m.fields);
    case 'dump':
      return frame(MSG.BOARD_DUMP, m.fields);
    case 'bwtime':
      return frame(MSG.BWTIME, m.data);
    case 'serial':
      return frame(MSG.SERIALNR, ascii(m.serial.padStart(5, '0').slice(-5)));
    case 'long-serial':
      return frame(MSG.LONG_SERIALNR, ascii(m.serial.padStart(10, '0').slice(-10)));
    case 'version':
      return frame(MSG.VERSION, [m.major, m.minor]);
    case 'trademark':
      return frame(MSG.TRADEMARK, ascii(m.text.slice(0, 256)));
    case 'ee-moves':
      return frame(MSG.EE_MOVES, [...m.data]);
  }
}

/** A clock ack as a board sends it after a clock command (ack0 0x10 fine, 0x40 refused; ack1 = the command). */
export const encodeDgtClockAck = (command: number, status: number = CLOCK_ACK.OK): Uint8Array =>
  encodeDgtMessage({ kind: 'bwtime', data: ackData([status, command, 0, 0]) });

/**
 * A simulated DGT board: field updates through the inverse field map (and its physical orientation:
 * `orientation: 'rotated'` is a board standing turned), dumps, BWTIME (a press flips the lever),
 * serial + version for hello, the serial number for a keep-alive reply.
 */
export class DgtBoardEncoder implements BoardEncoder {
  readonly protocol = 'dgt';
  private readonly setup: DgtSetup;
  private readonly inverse: { dark: number[]; full: number[] };
  private readonly turned: boolean;
  private serial = '00000';
  private lever = 0;
  private lastClock: ClockReading & { flag?: Side } = {
    white: 0,
    black: 0,
    running: null,
  };
  private readonly eeLog = new EeLog();
  private lastTagT = Number.NEGATIVE_INFINITY;

  constructor(options: ProtocolOptions = {}) {
    this.setup = dgtSetup({ ...options, orientation: 'normal' });
    this.inverse = inverseMaps(this.setup);
    this.turned = options.orientation === 'rotated';
  }

  encode(event: BoardEvent): Uint8Array {
    switch (event.type) {
      case 'lift':
      case 'put': {
        const field = this.fieldOf(event.square);
        if (field < 0) return EMPTY;
        if (event.type === 'lift') return encodeDgtMessage({ kind: 'field-update', field, code: 0 });
        return encodeDgtMessage({ kind: 'field-update', field, code: this.pieceCode(event.piece ?? 'o') });
      }
      case 'snapshot':
        return this.dump(event.board);
      case 'clock': {
        this.lastClock = { white: event.white, black: event.black, running: event.running, flag: event.flag };
        // The lever stands high on the side whose clock runs.
        if (event.running !== null) this.lever = this.isLeft(event.running) ? 0 : STATUS.LEVER_RIGHT_HIGH;
        return this.bwTime();
      }
      case 'press': {
        // The presser's button goes down: the lever rises on the other side, whose clock starts.
        this.lever = this.isLeft(event.side) ? STATUS.LEVER_RIGHT_HIGH : 0;
        this.lastClock = { ...this.lastClock, running: event.side === 'white' ? 'black' : 'white' };
        return this.bwTime();
      }
      case 'hello': {
        this.serial = event.serial;
        // Version first: the serial number that follows completes the hello (as after `identify`).
        return concatBytes([encodeDgtMessage(versionMessage(event.firmware)), this.serialMessage()]);
      }
      case 'tick':
        return event.reply === 'pong'
          ? this.serialMessage()
          : event.reply === 'ack'
            ? encodeDgtClockAck(event.command ?? CLOCK.SETNRUN)
            : EMPTY;
      case 'fault':
      case 'history-end':
      case 'history-log':
        return EMPTY;
    }
  }

  /**
   * The board's EEPROM record of what happened on it, sent or not (a board off its link still writes
   * it): a piece tag per field change (r set within 250 ms of the entry before), a time tag of the
   * clock side that pressed, FOURROWS when the start position stands. `eeMoves()` answers 0x49.
   */
  remember(event: BoardEvent): void {
    const log = this.eeLog;
    if (event.type === 'lift' || event.type === 'put') {
      const field = this.darkFieldOf(event.square);
      if (field < 0) return;
      const code = event.type === 'lift' ? 0 : this.pieceCode(event.piece ?? 'o');
      log.write({ kind: 'piece', field, code, quick: event.t - this.lastTagT < 250 });
      this.lastTagT = event.t;
    } else if (event.type === 'press') {
      const ms = event.side === 'white' ? this.lastClock.white : this.lastClock.black;
      log.write({ kind: 'time', side: this.isLeft(event.side) ? 'left' : 'right', seconds: ms / 1000 });
      this.lastTagT = event.t;
    } else if (event.type === 'clock') {
      this.lastClock = { ...this.lastClock, white: event.white, black: event.black };
    } else if (
      event.type === 'snapshot' &&
      toSquareString(event.board, this.setup.n) === startPosition(this.setup.size)
    ) {
      log.write({ kind: 'tag', tag: 'fourrows' });
    }
  }

  /** The EE_MOVES message: the record, oldest first, ending with EOF. */
  eeMoves(): Uint8Array {
    return encodeDgtMessage({ kind: 'ee-moves', data: this.eeLog.bytes() });
  }

  /** The record numbers fields in the 50-field scan on a draughts board, whatever the scan mode. */
  private darkFieldOf(square: number): number {
    if (square < 1 || square > this.setup.n) return -1;
    return this.inverse.dark[this.physical(square)] ?? -1;
  }

  /** The byte for a piece: its code, or the one code of an occupancy board (and for a piece of unknown colour). */
  private pieceCode(c: PieceCode | 'o'): number {
    return c === 'o' || this.setup.senses === 'occupancy' ? this.setup.occupied : this.setup.codeOf[c];
  }

  private serialMessage(): Uint8Array {
    return encodeDgtMessage(
      /^\d{10}$/.test(this.serial)
        ? { kind: 'long-serial', serial: this.serial }
        : { kind: 'serial', serial: this.serial },
    );
  }

  private isLeft(side: Side): boolean {
    return (side === 'white') === (this.setup.clockWhite === 'left');
  }

  private physical(square: number): number {
    return this.turned ? this.setup.n + 1 - square : square;
  }

  private fieldOf(square: number): number {
    if (square < 1 || square > this.setup.n) return -1;
    const inverse = this.setup.scan === '50' ? this.inverse.dark : this.inverse.full;
    return inverse[this.physical(square)] ?? -1;
  }

  private dump(board: string): Uint8Array {
    const squares = toSquareString(board, this.setup.n);
    if (!squares) return EMPTY;
    const code = (c: SquareChar): number => (c === '.' ? 0 : this.pieceCode(c));
    const fill = (map: readonly number[]) =>
      map.map((sq) => (sq === 0 ? 0 : code(squares[this.physical(sq) - 1] as SquareChar)));
    if (this.setup.size === 10 && this.setup.scan === '50')
      return encodeDgtMessage({ kind: 'dump-50b', fields: fill(this.setup.fields50) });
    return encodeDgtMessage({ kind: 'dump', fields: fill(this.setup.fieldsFull) });
  }

  private bwTime(): Uint8Array {
    const { white, black, running, flag } = this.lastClock;
    const leftIsWhite = this.setup.clockWhite === 'left';
    const side = (ms: number, s: Side): ClockSideTime => ({
      seconds: Math.floor(ms / 1000),
      flags: flag === s ? FLAG_FALLEN : 0,
    });
    const left = leftIsWhite ? side(white, 'white') : side(black, 'black');
    const right = leftIsWhite ? side(black, 'black') : side(white, 'white');
    const runningLeft = running !== null && (running === 'white') === leftIsWhite;
    let status = this.lever;
    if (running !== null) status |= STATUS.RUNNING | (runningLeft ? STATUS.LEFT_TURN : STATUS.RIGHT_TURN);
    return encodeDgtMessage({ kind: 'bwtime', data: bwTimeData(right, left, status) });
  }
}

/** Host command → DGT bytes (empty when DGT has no such command, or an EEPROM scan command not allowed). */
export function encodeDgtCommand(cmd: HostCommand, options: ProtocolOptions = {}): Uint8Array {
  const one = (b: number) => Uint8Array.of(b);
  const size = options.size ?? 10;
  switch (cmd.type) {
    case 'snapshot':
      return one(size === 10 && (options.scan ?? '50') === '50' ? CMD.SEND_BRD_50B : CMD.SEND_BRD);
    case 'ping':
      return one(CMD.RETURN_SERIALNR);
    case 'identify':
      return Uint8Array.of(CMD.SEND_VERSION, CMD.RETURN_SERIALNR);
    case 'serial':
      return one(cmd.long ? CMD.RETURN_LONG_SERIALNR : CMD.RETURN_SERIALNR);
    case 'version':
      return one(CMD.SEND_VERSION);
    case 'trademark':
      return one(CMD.SEND_TRADEMARK);
    case 'reset':
      return one(CMD.RESET);
    case 'clock-request':
      return one(CMD.SEND_CLK);
    case 'history':
      // The board's whole record: what comes after the last change stored is found in it.
      return one(CMD.SEND_EE_MOVES);
    case 'update-mode':
      return one(
        cmd.mode === 'changes'
          ? CMD.SEND_UPDATE_BRD
          : cmd.mode === 'changes+clock'
            ? CMD.SEND_UPDATE
            : CMD.SEND_UPDATE_NICE,
      );
    case 'scan-mode':
      if (!options.allowEepromScanCommands) return EMPTY;
      return one(cmd.scan === '50B' ? CMD.SCAN_50B : cmd.scan === '50W' ? CMD.SCAN_50W : CMD.SCAN_100);
    case 'set-clock': {
      const leftIsWhite = (options.clockWhite ?? 'left') === 'left';
      const hms = (ms: number) => {
        const s = Math.max(0, Math.min(9 * 3600 + 59 * 60 + 59, Math.floor(ms / 1000)));
        return [Math.floor(s / 3600), Math.floor(s / 60) % 60, s % 60];
      };
      const left = hms(leftIsWhite ? cmd.white : cmd.black);
      const right = hms(leftIsWhite ? cmd.black : cmd.white);
      const run =
        cmd.running === null ? RUN.NONE : (cmd.running === 'white') === leftIsWhite ? RUN.LEFT : RUN.RIGHT;
      // The open drivers follow SETNRUN with END ("needed for some clocks").
      return concatBytes([
        clockMessage(CLOCK.SETNRUN, [...left, ...right, run]),
        clockMessage(CLOCK.END, []),
      ]);
    }
    case 'display': {
      const text = [...cmd.text.slice(0, 8).padEnd(8, ' ')].map((c) => c.charCodeAt(0) & 0x7f);
      return clockMessage(CLOCK.ASCII, [...text, 0]);
    }
    default:
      return EMPTY;
  }
}

/** `2b SIZE 03 CMD data… 00`, SIZE = data length + 3. */
const clockMessage = (command: number, data: number[]): Uint8Array =>
  Uint8Array.from([
    CMD.CLOCK_MESSAGE,
    data.length + 3,
    CLOCK.START_MESSAGE,
    command,
    ...data,
    CLOCK.END_MESSAGE,
  ]);

const SINGLE: Readonly<Record<number, HostCommand>> = {
  [CMD.RESET]: { type: 'reset' },
  [CMD.SEND_CLK]: { type: 'clock-request' },
  [CMD.SEND_BRD]: { type: 'snapshot' },
  [CMD.SEND_BRD_50B]: { type: 'snapshot' },
  [CMD.SEND_BRD_50W]: { type: 'snapshot' },
  [CMD.SEND_UPDATE]: { type: 'update-mode', mode: 'changes+clock' },
  [CMD.SEND_UPDATE_BRD]: { type: 'update-mode', mode: 'changes' },
  [CMD.SEND_UPDATE_NICE]: { type: 'update-mode', mode: 'changes+clock-nice' },
  [CMD.RETURN_SERIALNR]: { type: 'serial' },
  [CMD.RETURN_LONG_SERIALNR]: { type: 'serial', long: true },
  [CMD.SEND_VERSION]: { type: 'version' },
  [CMD.SEND_TRADEMARK]: { type: 'trademark' },
  [CMD.SEND_EE_MOVES]: { type: 'history', after: 0 },
  [CMD.SCAN_50B]: { type: 'scan-mode', scan: '50B' },
  [CMD.SCAN_50W]: { type: 'scan-mode', scan: '50W' },
  [CMD.SCAN_100]: { type: 'scan-mode', scan: '100' },
};

/**
 * Board side: DGT command bytes → commands. A board answers `serial` with its serial number (a ping),
 * `version` with its version, `snapshot` with a dump; clock messages come whole (`2b SIZE …`).
 */
export class DgtCommandParser implements CommandParser {
  readonly protocol = 'dgt';
  private clock: number[] | null = null;
  private readonly leftIsWhite: boolean;

  constructor(options: ProtocolOptions = {}) {
    this.leftIsWhite = (options.clockWhite ?? 'left') === 'left';
  }

  push(chunk: Uint8Array): HostCommand[] {
    const out: HostCommand[] = [];
    for (const b of chunk) {
      if (this.clock) {
        this.clock.push(b);
        const size = this.clock[1];
        if (size !== undefined && this.clock.length === size + 2) {
          const cmd = this.clockCommand(this.clock);
          if (cmd) out.push(cmd);
          this.clock = null;
        }
        continue;
      }
      if (b === CMD.CLOCK_MESSAGE) this.clock = [b];
      else if (SINGLE[b]) out.push(SINGLE[b]);
    }
    return out;
  }

  private clockCommand(m: number[]): HostCommand | undefined {
    const data = m.slice(4, -1);
    if (m[2] !== CLOCK.START_MESSAGE || m[m.length - 1] !== CLOCK.END_MESSAGE) return undefined;
    if (m[3] === CLOCK.SETNRUN && data.length === 7) {
      const ms = (h: number, mi: number, s: number) => ((h & 0x0f) * 3600 + mi * 60 + s) * 1000;
      const left = ms(data[0], data[1], data[2]);
      const right = ms(data[3], data[4], data[5]);
      const runLeft = data[6] === RUN.LEFT;
      const runRight = data[6] === RUN.RIGHT;
      const leftSide: Side = this.leftIsWhite ? 'white' : 'black';
      const rightSide: Side = this.leftIsWhite ? 'black' : 'white';
      return {
        type: 'set-clock',
        white: this.leftIsWhite ? left : right,
        black: this.leftIsWhite ? right : left,
        running: runLeft ? leftSide : runRight ? rightSide : null,
      };
    }
    if (m[3] === CLOCK.ASCII && data.length === 9)
      return { type: 'display', text: String.fromCharCode(...data.slice(0, 8)).trimEnd() };
    return undefined;
  }
}
