// BWTIME (0x8d, 10 bytes): clock times, or a clock ack dressed as clock times.
// Sides are the clock's left and right, never colours: turning the board does not swap them.
import { err, ok, type Result } from '../result.ts';
import { CLOCK, CLOCK_ACK } from './constants.ts';

export interface ClockSideTime {
  /** Remaining time, whole seconds. */
  seconds: number;
  /** High nibble of the hours byte: bit4 flag fallen, bit5 time per move, bit6 flag shown. */
  flags: number;
}

export type BwTime =
  | { kind: 'times'; right: ClockSideTime; left: ClockSideTime; status: number }
  /** A clock ack: ack0 (0x10 normal, 0x40 error), ack1 the command acked (bit7: auto-generated). */
  | { kind: 'ack'; ack: [number, number, number, number] }
  /** All zero: what some boards send right after a clock command. Carries nothing. */
  | { kind: 'empty' }
  /** Status bit5: no clock connected, the times mean nothing. */
  | { kind: 'no-clock' };

/** In ClockSideTime.flags: the side's flag has fallen. */
export const FLAG_FALLEN = 0x10;

export const STATUS = {
  RUNNING: 0x01,
  LEVER_RIGHT_HIGH: 0x02,
  BATTERY_LOW: 0x04,
  RIGHT_TURN: 0x08,
  LEFT_TURN: 0x10,
  NO_CLOCK: 0x20,
} as const;

const bcd = (b: number): number | undefined => {
  const hi = b >> 4;
  const lo = b & 0x0f;
  return hi > 9 || lo > 9 ? undefined : hi * 10 + lo;
};
const toBcd = (n: number): number => ((Math.floor(n / 10) % 10) << 4) | (n % 10);

/** The 7 data bytes b3..b9; an error (`bad-clock`) when the times are not valid BCD. */
export function parseBwTime(d: Uint8Array): Result<BwTime> {
  if ((d[0] & 0x0f) === 0x0a || (d[3] & 0x0f) === 0x0a) {
    return ok({
      kind: 'ack',
      ack: [
        (d[1] & 0x7f) | ((d[3] << 3) & 0x80),
        (d[2] & 0x7f) | ((d[3] << 2) & 0x80),
        (d[4] & 0x7f) | ((d[0] << 3) & 0x80),
        (d[5] & 0x7f) | ((d[0] << 2) & 0x80),
      ],
    });
  }
  if (d.every((b) => b === 0)) return ok({ kind: 'empty' });
  if (d[6] & STATUS.NO_CLOCK) return ok({ kind: 'no-clock' });
  const side = (h: number, m: number, s: number): ClockSideTime | undefined => {
    const mm = bcd(m);
    const ss = bcd(s);
    if ((h & 0x0f) > 9 || mm === undefined || ss === undefined || mm > 59 || ss > 59) return undefined;
    return { seconds: (h & 0x0f) * 3600 + mm * 60 + ss, flags: h & 0x70 };
  };
  const right = side(d[0], d[1], d[2]);
  const left = side(d[3], d[4], d[5]);
  if (!right || !left) return err({ code: 'bad-clock', message: 'BWTIME times are not valid BCD' });
  return ok({ kind: 'times', right, left, status: d[6] });
}

const sideBytes = (t: ClockSideTime): number[] => {
  const s = Math.max(0, Math.min(9 * 3600 + 59 * 60 + 59, Math.floor(t.seconds)));
  return [(Math.floor(s / 3600) & 0x0f) | (t.flags & 0x70), toBcd(Math.floor(s / 60) % 60), toBcd(s % 60)];
};

/** The 7 data bytes of a times message. */
export const bwTimeData = (right: ClockSideTime, left: ClockSideTime, status: number): number[] => [
  ...sideBytes(right),
  ...sideBytes(left),
  status & 0x7f,
];

/** The 7 data bytes of an ack message (inverse of the unpacking in `parseBwTime`). */
export const ackData = ([a0, a1, a2, a3]: readonly number[]): number[] => [
  0x0a | ((a2 & 0x80) >> 3) | ((a3 & 0x80) >> 2),
  a0 & 0x7f,
  a1 & 0x7f,
  0x0a | ((a0 & 0x80) >> 3) | ((a1 & 0x80) >> 2),
  a2 & 0x7f,
  a3 & 0x7f,
  0,
];

/** What a clock ack says. */
export type ClockAck =
  /** The clock did `command`. */
  | { meaning: 'ok'; command: number }
  /** The clock refused `command` (SETNRUN outside mode 23, for one). */
  | { meaning: 'error'; command: number }
  /** Unasked: the clock is ready. */
  | { meaning: 'ready' }
  /** Unasked: button `button` (1–5) was pressed. */
  | { meaning: 'button'; button: number }
  | { meaning: 'unknown'; ack: readonly number[] };

export function clockAckMeaning(ack: readonly [number, number, number, number]): ClockAck {
  const [a0, a1, , a3] = ack;
  if (a1 & 0x80) {
    if (a1 === CLOCK_ACK.READY) return { meaning: 'ready' };
    if (a1 === CLOCK_ACK.BUTTON && a3 >= 0x31 && a3 <= 0x35) return { meaning: 'button', button: a3 - 0x30 };
    return { meaning: 'unknown', ack };
  }
  if (a0 === CLOCK_ACK.OK) return { meaning: 'ok', command: a1 };
  if (a0 === CLOCK_ACK.ERROR) return { meaning: 'error', command: a1 };
  return { meaning: 'unknown', ack };
}

const CLOCK_COMMAND_NAMES = new Map<number, string>(
  Object.entries(CLOCK)
    .filter(([name]) => !name.endsWith('_MESSAGE'))
    .map(([name, code]) => [code, name]),
);

/** `SETNRUN (0x0a)`: a clock command by its header name. */
export const clockCommandName = (command: number): string =>
  `${CLOCK_COMMAND_NAMES.get(command) ?? 'command'} (0x${command.toString(16).padStart(2, '0')})`;
