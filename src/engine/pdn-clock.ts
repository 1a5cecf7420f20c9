// Clock comments: lidraughts' `[%clock w0:59:00 B0:58:00]` (capital = the clock that runs) and the
// lichess form `[%clk 0:59:00]` (the clock of the side that just moved).
import type { Color } from './types.ts';

export interface PdnClock {
  /** Milliseconds left. */
  white?: number;
  black?: number;
  /** Whose clock runs, when the comment says so (`%clock`). */
  running?: Color | null;
}

const TIME = String.raw`(\d+):(\d{1,2}):(\d{1,2}(?:\.\d+)?)|(\d+):(\d{1,2}(?:\.\d+)?)`;
const CLOCK = new RegExp(String.raw`\[%clock\s+([wW])(?:${TIME})\s+([bB])(?:${TIME})\s*\]`);
const CLK = new RegExp(String.raw`\[%clk\s+(?:${TIME})\s*\]`);

function ms(parts: ReadonlyArray<string | undefined>): number {
  const [h, m, s, m2, s2] = parts;
  const seconds =
    h !== undefined ? Number(h) * 3600 + Number(m) * 60 + Number(s) : Number(m2) * 60 + Number(s2);
  return Math.round(seconds * 1000);
}

/** The clock a comment carries, if any; `mover` is the side that made the move it follows. */
export function parseClockComment(comment: string, mover: Color): PdnClock | undefined {
  const c = CLOCK.exec(comment);
  if (c) {
    const running: Color | null = c[1] === 'W' ? 'white' : c[7] === 'B' ? 'black' : null;
    return { white: ms(c.slice(2, 7)), black: ms(c.slice(8, 13)), running };
  }
  const k = CLK.exec(comment);
  if (k) return { [mover]: ms(k.slice(1, 6)) };
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
export function clockCommand(clock: { white: number; black: number; running: Color | null }): string {
  const w = clock.running === 'white' ? 'W' : 'w';
  const b = clock.running === 'black' ? 'B' : 'b';
  return `[%clock ${w}${formatClockTime(clock.white)} ${b}${formatClockTime(clock.black)}]`;
}
