// HID snapshot boards, both sides: report → snapshot / lift / put (host), board → report (simulator).
import { equalBytes } from '../bytes.ts';
import {
  type BoardSize,
  diffBoards,
  fault,
  type SquareChar,
  squareCount,
  toSquareString,
} from '../board-string.ts';
import type { BoardEvent, HelloEvent } from '../events.ts';
import { Orientation } from '../orientation.ts';
import type { BoardEncoder, CommandParser, Decoder, HostCommand, ProtocolOptions } from '../types.ts';
import { readCell, type ResolvedLayout, resolveLayout, writeCell } from './layout.ts';

const EMPTY = new Uint8Array(0);
/** Far beyond any board's input report: something else is on the other end. */
export const MAX_REPORT = 4096;
const sizeOfLayout = (r: ResolvedLayout): BoardSize =>
  r.layout.cells === 50 || r.layout.cells === 100 ? 10 : 8;

/** Host side. Each `push` is one input report; identical repeats are dropped. */
export class HidDecoder implements Decoder {
  readonly protocol = 'hid';
  private readonly r: ResolvedLayout;
  private readonly n: number;
  private readonly orientation: Orientation;
  private lastReport: Uint8Array | undefined;
  private board: string | undefined;
  private wasRotated = false;
  private reports = 0;

  constructor(options: ProtocolOptions = {}) {
    this.r = resolveLayout(options.hidLayout);
    const size = sizeOfLayout(this.r);
    this.n = squareCount(size);
    this.orientation = new Orientation(options.orientation ?? 'auto', size);
  }

  push(report: Uint8Array, t: number): BoardEvent[] {
    const index = this.reports++;
    if (report.length > MAX_REPORT) {
      return [
        fault(t, 'long-report', `report of ${report.length} bytes, more than ${MAX_REPORT}`, index, true),
      ];
    }
    const { reportId } = this.r.layout;
    if (reportId !== null && report[0] !== reportId) return [];
    if (report.length < this.r.length) {
      return [
        fault(
          t,
          'short-report',
          `report of ${report.length} bytes, layout needs ${this.r.length}`,
          index,
          true,
        ),
      ];
    }
    const relevant = report.subarray(0, this.r.length);
    if (this.lastReport && equalBytes(this.lastReport, relevant)) return [];
    this.lastReport = Uint8Array.from(relevant);
    const out: BoardEvent[] = [];
    const cells = new Array<string>(this.n).fill('.');
    let unknown = 0;
    for (let i = 0; i < this.r.layout.cells; i++) {
      const sq = this.r.cellMap[i];
      if (!sq) continue;
      const c = this.r.charOf.get(readCell(this.r, relevant, i));
      if (c === undefined) unknown++;
      cells[sq - 1] = c ?? 'o';
    }
    if (unknown) out.push(fault(t, 'unknown-piece', `${unknown} cell(s) with an unknown code`, index));
    const board = this.orientation.board(cells.join(''));
    const turned = this.orientation.rotated !== this.wasRotated;
    this.wasRotated = this.orientation.rotated;
    if (this.board === undefined || turned) out.push({ t, type: 'snapshot', board });
    else out.push(...diffBoards(this.board, board, t));
    this.board = board;
    return out;
  }

  flush(): BoardEvent[] {
    return [];
  }
}

/** Board side: keeps the board and sends the whole of it after every change. */
export class HidBoardEncoder implements BoardEncoder {
  readonly protocol = 'hid';
  private readonly r: ResolvedLayout;
  private readonly n: number;
  private readonly turned: boolean;
  private board: SquareChar[];

  constructor(options: ProtocolOptions = {}) {
    this.r = resolveLayout(options.hidLayout);
    this.n = squareCount(sizeOfLayout(this.r));
    this.turned = options.orientation === 'rotated';
    this.board = new Array<SquareChar>(this.n).fill('.');
  }

  encode(event: BoardEvent): Uint8Array {
    switch (event.type) {
      case 'snapshot': {
        const squares = toSquareString(event.board, this.n);
        if (!squares) return EMPTY;
        this.board = [...squares] as SquareChar[];
        return this.report();
      }
      case 'lift':
      case 'put':
        if (event.square < 1 || event.square > this.n) return EMPTY;
        this.board[event.square - 1] =
          event.type === 'lift'
            ? '.'
            : (event.piece ?? (this.r.layout.codes.occupied !== undefined ? 'o' : 'w'));
        return this.report();
      default:
        return EMPTY;
    }
  }

  /** The report for the board as it stands. */
  report(): Uint8Array {
    const out = new Uint8Array(this.r.length);
    if (this.r.layout.reportId !== null) out[0] = this.r.layout.reportId;
    for (let i = 0; i < this.r.layout.cells; i++) {
      const physical = this.r.cellMap[i];
      const sq = !physical ? 0 : this.turned ? this.n + 1 - physical : physical;
      const c: SquareChar = sq ? this.board[sq - 1] : '.';
      writeCell(this.r, out, i, this.r.codeOf[c] ?? this.r.layout.codes.w);
    }
    return out;
  }
}

export function encodeHidCommand(cmd: HostCommand, options: ProtocolOptions = {}): Uint8Array {
  const layout = resolveLayout(options.hidLayout).layout;
  if (cmd.type === 'realtime') return Uint8Array.from(layout.realtimeCommand);
  if (cmd.type === 'snapshot' && layout.snapshotCommand) return Uint8Array.from(layout.snapshotCommand);
  return EMPTY;
}

/** Board side: an output report → the command it is. */
export class HidCommandParser implements CommandParser {
  readonly protocol = 'hid';
  private readonly r: ResolvedLayout;

  constructor(options: ProtocolOptions = {}) {
    this.r = resolveLayout(options.hidLayout);
  }

  push(report: Uint8Array): HostCommand[] {
    const { realtimeCommand, snapshotCommand } = this.r.layout;
    if (equalBytes(report, Uint8Array.from(realtimeCommand))) return [{ type: 'realtime' }];
    if (snapshotCommand && equalBytes(report, Uint8Array.from(snapshotCommand)))
      return [{ type: 'snapshot' }];
    return [];
  }
}

/** HID boards have no identify exchange: the hello comes from what the OS says about the device. */
export function hidHello(
  device: { serialNumber?: string; release?: number; vendorId?: number; productId?: number },
  options: ProtocolOptions = {},
  t = 0,
): HelloEvent {
  const r = resolveLayout(options.hidLayout);
  const hex = (n: number | undefined) => (n ?? 0).toString(16).padStart(4, '0');
  const hello: HelloEvent = {
    t,
    type: 'hello',
    serial: device.serialNumber || `${hex(device.vendorId)}:${hex(device.productId)}`,
    protocol: 'hid',
    squares: r.layout.cells,
    senses: r.layout.senses ?? 'pieces',
  };
  if (device.release !== undefined)
    hello.firmware = `${device.release >> 8}.${(device.release & 0xff).toString().padStart(2, '0')}`;
  return hello;
}
