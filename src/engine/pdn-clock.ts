// Clock comments: lidraughts' `[%clock w0:59:00 B0:58:00]` (capital = the clock that runs) and the
// lichess form `[%clk 0:59:00]` (the clock of the side that just moved).
import type { ClockReading } from '../../firmware-protocol/clock-reading.ts';
import type { Side } from './types.ts';

export interface PdnClock {
  /** Milliseconds left. */
  white?: number;
  black?: number;
  /** Whose clock runs, when the comment says so (`%clock`). */
  running?: Side | null;
}

const TIME = String.raw`(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)|(\d+):(\d{1,2}(?:\.\d+)?)`;
const CLOCK = new RegExp(String.raw`\[%clock\s+([wW])(?:${TIME})\s+([bB])(?:${TIME})\s*\]`);
const CLK = new RegExp(String.raw`\[%clk\s+(?:${TIME})\s*\]`);

/** Milliseconds from the five groups of TIME, starting at `at` in a match. */
function ms(match: RegExpExecArray, at: number): number {
  const seconds =
    match[at] !== undefined
      ? Number(match[at]) * 3600 + Number(match[at + 1]) * 60 + Number(match[at + 2])
      : Number(match[at + 3]) * 60 + Number(match[at + 4]);
  return Math.round(seconds * 1000);
}

/** The clock a comment carries, if any; `mover` is the side that made the move it follows. */
export function parseClockComment(comment: string, mover: Side): PdnClock | undefined {
  const c = CLOCK.exec(comment);
  if (c) {
    const running: Side | null = c[1] === 'W' ? 'white' : c[7] === 'B' ? 'black' : null;
    return { white: ms(c, 2), black: ms(c, 8), running };
  }
  const k = CLK.exec(comment);
  if (k) return { [mover]: ms(k, 1) };
  return undefined;
}

/** `1:29:05` from milliseconds (whole seconds, rounded down; never negative). */
export function formatClockTime(msLeft: number): string {
  const s = Math.max(0, Math.floor(msLeft / 1000));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  return `${h}:${String(m).padStart(2, '0')}:${String(s % 60).padStart(2, '0')}`;
}

/** lidraughts' clock command `[%clock w0:59:00 B0:58:00]`. */
export function clockCommand(clock: ClockReading): string {
  const w = clock.running === 'white' ? 'W' : 'w';
  const b = clock.running === 'black' ? 'B' : 'b';
  return `[%clock ${w}${formatClockTime(clock.white)} ${b}${formatClockTime(clock.black)}]`;
}
