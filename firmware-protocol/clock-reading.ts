// What a clock shows, wherever it comes from (a board's clock, damlink's own, the record's):
// remaining ms per side, and whose time runs. Declared once.
import type { Side } from './side.ts';

export interface ClockReading {
  /** Remaining time in ms. */
  white: number;
  black: number;
  running: Side | null;
}
