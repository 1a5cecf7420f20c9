// Every DGT message that is not a board event, described for people reading a capture
// (`damlink decode`): serial number, version, trademark, battery, clock readings and clock acks.
import { type ClockSideTime, clockAckMeaning, clockCommandName, parseBwTime, STATUS } from './clock.ts';
import { MSG } from './constants.ts';
import { DgtFramer } from './framer.ts';

export type DgtInfo =
  | { message: 'serial'; serial: string; long: boolean }
  | { message: 'version'; version: string }
  | { message: 'trademark'; text: string }
  /** The battery status bytes (their meaning is not public). */
  | { message: 'battery'; hex: string }
  | {
      message: 'clock';
      left: string;
      right: string;
      /** The side whose time runs, as seen from the clock's front. */
      running: 'left' | 'right' | null;
      /** The side whose lever stands high. */
      leverHigh: 'left' | 'right';
      batteryLow: boolean;
      flagFallen: ('left' | 'right')[];
    }
  | { message: 'clock'; connected: false }
  /** All zero: what some clocks send right after a command. */
  | { message: 'clock'; empty: true }
  | { message: 'clock-ack'; meaning: 'ok' | 'error'; command: string }
  | { message: 'clock-ack'; meaning: 'ready' }
  | { message: 'clock-ack'; meaning: 'button'; button: number }
  | { message: 'clock-ack'; meaning: 'unknown'; hex: string }
  | { message: 'ee-moves'; bytes: number }
  | { message: 'bus-address'; hex: string }
  | { message: 'unknown'; id: string; bytes: number };

export type DgtInfoAt = DgtInfo & { t: number; offset: number };

const hex = (data: Uint8Array | readonly number[]) =>
  [...data].map((b) => b.toString(16).padStart(2, '0')).join(' ');
const ascii = (data: Uint8Array) =>
  String.fromCharCode(...data)
    .replace(/[^\x20-\x7e]/g, '?')
    .trim();
const clockTime = ({ seconds }: ClockSideTime) =>
  `${Math.floor(seconds / 3600)}:${String(Math.floor(seconds / 60) % 60).padStart(2, '0')}:${String(seconds % 60).padStart(2, '0')}`;
/** High nibble of an hours byte, bit4: the flag has fallen. */
const FLAG_FALLEN = 0x10;

/** Board events come from the decoder; these are the other messages. Undefined for an event message. */
export function describeDgtMessage(id: number, data: Uint8Array): DgtInfo | undefined {
  switch (id) {
    case MSG.FIELD_UPDATE:
    case MSG.BOARD_DUMP:
    case MSG.BOARD_DUMP_50B:
    case MSG.BOARD_DUMP_50W:
      return undefined;
    case MSG.SERIALNR:
    case MSG.LONG_SERIALNR:
      return { message: 'serial', serial: ascii(data), long: id === MSG.LONG_SERIALNR };
    case MSG.VERSION:
      return { message: 'version', version: `${data[0]}.${String(data[1]).padStart(2, '0')}` };
    case MSG.TRADEMARK:
      return { message: 'trademark', text: ascii(data) };
    case MSG.BATTERY_STATUS:
      return { message: 'battery', hex: hex(data) };
    case MSG.EE_MOVES:
      return { message: 'ee-moves', bytes: data.length };
    case MSG.BUSADRES:
      return { message: 'bus-address', hex: hex(data) };
    case MSG.BWTIME:
      return describeBwTime(data);
    default:
      return { message: 'unknown', id: `0x${id.toString(16)}`, bytes: data.length };
  }
}

function describeBwTime(data: Uint8Array): DgtInfo | undefined {
  const parsed = parseBwTime(data);
  if (!parsed.ok) return undefined; // the decoder reports it as a bad-clock fault
  const bw = parsed.value;
  switch (bw.kind) {
    case 'empty':
      return { message: 'clock', empty: true };
    case 'no-clock':
      return { message: 'clock', connected: false };
    case 'ack': {
      const ack = clockAckMeaning(bw.ack);
      switch (ack.meaning) {
        case 'ok':
        case 'error':
          return { message: 'clock-ack', meaning: ack.meaning, command: clockCommandName(ack.command) };
        case 'ready':
          return { message: 'clock-ack', meaning: 'ready' };
        case 'button':
          return { message: 'clock-ack', meaning: 'button', button: ack.button };
        default:
          return { message: 'clock-ack', meaning: 'unknown', hex: hex(ack.ack) };
      }
    }
    case 'times': {
      const s = bw.status;
      const running =
        s & STATUS.RUNNING ? (s & STATUS.RIGHT_TURN ? 'right' : s & STATUS.LEFT_TURN ? 'left' : null) : null;
      const flagFallen = (['left', 'right'] as const).filter((side) => bw[side].flags & FLAG_FALLEN);
      return {
        message: 'clock',
        left: clockTime(bw.left),
        right: clockTime(bw.right),
        running,
        leverHigh: s & STATUS.LEVER_RIGHT_HIGH ? 'right' : 'left',
        batteryLow: (s & STATUS.BATTERY_LOW) !== 0,
        flagFallen: [...flagFallen],
      };
    }
  }
}

/** Bytes in, the non-event messages out (with the byte offset each began at). */
export class DgtMessageReader {
  private readonly framer = new DgtFramer();

  push(chunk: Uint8Array, t: number): DgtInfoAt[] {
    const out: DgtInfoAt[] = [];
    this.framer.push(
      chunk,
      t,
      ({ id, data, offset }) => {
        const info = describeDgtMessage(id, data);
        if (info) out.push({ t, offset, ...info });
      },
      () => {},
    );
    return out;
  }
}
