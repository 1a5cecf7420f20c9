// A two-sided game clock with a Fischer increment: pure, driven by the times of the presses.
import type { ClockReading } from '../firmware-protocol/clock-reading.ts';
import type { Side } from '../firmware-protocol/events.ts';

export interface ClockState extends ClockReading {
  /** When the running side's time last started counting down. */
  since: number;
}

export interface ClockSettings {
  /** Starting time per side (ms). */
  baseMs: number;
  /** Added to a side's time when it presses (ms). */
  incrementMs: number;
}

export const DEFAULT_CLOCK: ClockSettings = { baseMs: 80 * 60_000, incrementMs: 60_000 };

export const startClock = (s: ClockSettings, t: number, running: Side = 'white'): ClockState => ({
  white: s.baseMs,
  black: s.baseMs,
  running,
  since: t,
});

/** The clock after `side` pressed its button at `t`: its time stops (plus increment), the other's runs. */
export function pressClock(c: ClockState, side: Side, t: number, s: ClockSettings): ClockState {
  // A button already down (the other side's clock runs) does nothing.
  if (c.running !== null && c.running !== side) return c;
  const spent = c.running === side ? Math.max(0, t - c.since) : 0;
  const left = Math.max(0, c[side] - spent) + s.incrementMs;
  const other: Side = side === 'white' ? 'black' : 'white';
  return { ...c, [side]: left, running: other, since: t };
}

/** Remaining times as shown at `t` (the running side's time counting down). */
export function readClock(c: ClockState, t: number): ClockReading {
  const spent = c.running ? Math.max(0, t - c.since) : 0;
  return {
    white: c.running === 'white' ? Math.max(0, c.white - spent) : c.white,
    black: c.running === 'black' ? Math.max(0, c.black - spent) : c.black,
    running: c.running,
  };
}
