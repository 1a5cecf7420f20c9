// Time controls as a pure value, read from and written to the PDN `TimeControl` tag form PDN 3.0
// takes over from PGN: periods separated by `:`, each `[MOVES/]SECONDS[BONUS]` — `5400+30` (Fischer
// increment), `40/5400:1800+30` (40 moves in 90 minutes, then 30 minutes with 30 s a move). PGN has
// no delay; damlink writes one the way its increment is written: `d5` a simple delay, `b5` Bronstein.
import { err, ok, type ParseError, type Result } from '../result.ts';

/** What a period gives on top of its time, per move (seconds). */
export type TimeBonus =
  /** Fischer: added after each move. */
  | { kind: 'increment'; seconds: number }
  /** Simple (US) delay: the clock waits this long each move before it counts down. */
  | { kind: 'delay'; seconds: number }
  /** Bronstein: what the move used is given back, up to this much. */
  | { kind: 'bronstein'; seconds: number };

export interface TimePeriod {
  /** Moves to make in this period; absent: the rest of the game (sudden death). */
  moves?: number;
  /** Time the period adds to the clock (seconds). */
  seconds: number;
  bonus?: TimeBonus;
}

/** The periods in order; a last period with `moves` repeats (PGN `40/7200`). */
export interface TimeControl {
  periods: readonly TimePeriod[];
}

const BONUS_MARK = { increment: '+', delay: 'd', bronstein: 'b' } as const;
const BONUS_OF: Record<string, TimeBonus['kind']> = { '+': 'increment', d: 'delay', b: 'bronstein' };
const PERIOD = /^(?:(\d+)\/)?(\d+)(?:([+db])(\d+))?$/;

/** A `TimeControl` tag value (or the config's `timeControl`) as periods, or where it is wrong. */
export function parseTimeControl(text: string): Result<TimeControl> {
  const fields = text.split(':');
  const periods: TimePeriod[] = [];
  let col = 1;
  for (const [i, field] of fields.entries()) {
    const at = (message: string): { ok: false; error: ParseError } =>
      err({ code: 'bad-time-control', message: `${message} (in "${text}")`, col });
    const m = PERIOD.exec(field);
    if (!m)
      return at(
        field === ''
          ? 'empty period'
          : `period "${field}" is not [MOVES/]SECONDS[+INCREMENT|dDELAY|bDELAY], times in seconds`,
      );
    const [, moves, seconds, mark, bonus] = m;
    if (moves !== undefined && Number(moves) === 0) return at('a period of 0 moves');
    if (Number(seconds) === 0 && mark === undefined) return at(`period "${field}" gives no time`);
    if (moves === undefined && i < fields.length - 1)
      return at(`period "${field}" lasts the rest of the game, yet periods follow it`);
    periods.push({
      ...(moves !== undefined ? { moves: Number(moves) } : {}),
      seconds: Number(seconds),
      ...(mark !== undefined ? { bonus: { kind: BONUS_OF[mark], seconds: Number(bonus) } } : {}),
    });
    col += field.length + 1;
  }
  return ok({ periods });
}

/** The tag form `parseTimeControl` reads. */
export function writeTimeControl(control: TimeControl): string {
  return control.periods
    .map((p) => {
      const moves = p.moves !== undefined ? `${p.moves}/` : '';
      const bonus = p.bonus ? `${BONUS_MARK[p.bonus.kind]}${p.bonus.seconds}` : '';
      return `${moves}${p.seconds}${bonus}`;
    })
    .join(':');
}

/** The period a side plays in once it has made `moves` moves (index into `periods`). */
export function periodIndex(control: TimeControl, moves: number): number {
  let done = 0;
  const last = control.periods.length - 1;
  for (const [i, p] of control.periods.entries()) {
    if (i === last || p.moves === undefined) return i;
    done += p.moves;
    if (moves < done) return i;
  }
  return last;
}

/**
 * Whether a side with `moves` moves made plays in the last period: the one without a move count,
 * after which no time comes. A repeating last period (`40/7200`) always brings more time.
 */
export function inLastPeriod(control: TimeControl, moves: number): boolean {
  const i = periodIndex(control, moves);
  return i === control.periods.length - 1 && control.periods[i].moves === undefined;
}

/** The time each side has for the first `moves` moves (seconds), bonuses included. */
export function secondsFor(control: TimeControl, moves: number): number {
  let total = 0;
  for (let move = 0; move < moves; move++) {
    const p = control.periods[periodIndex(control, move)];
    if (move === 0 || periodStartsAt(control, move)) total += p.seconds;
    if (p.bonus) total += p.bonus.seconds;
  }
  return total;
}

/** Whether the `moves`-th move (0-based) is the first of a period after the first. */
export function periodStartsAt(control: TimeControl, moves: number): boolean {
  if (moves === 0) return false;
  const last = control.periods.length - 1;
  const repeat = control.periods[last];
  let done = 0;
  for (const p of control.periods) {
    if (p.moves === undefined) return false;
    done += p.moves;
    if (moves === done) return true;
    if (moves < done) return false;
  }
  // A repeating last period starts again every `repeat.moves` moves.
  return repeat.moves !== undefined && (moves - done) % repeat.moves === 0;
}

/** FIDE blitz: 60 moves take 10 minutes or less. */
export const BLITZ_SECONDS_FOR_60_MOVES = 600;

export type QuickplayFinish = { applies: true } | { applies: false; reason: string };

/**
 * Whether Appendix G (the quickplay finish) applies to games with this control: it must be
 * announced beforehand (G.2), the game must end in a finite time with no increment or delay to it
 * (the last period is sudden death without bonus), and it is not for blitz (G.3).
 */
export function quickplayFinish(control: TimeControl, announced: boolean): QuickplayFinish {
  if (!announced) return { applies: false, reason: 'G.2: not announced before the event' };
  const last = control.periods.at(-1);
  if (!last || last.moves !== undefined)
    return { applies: false, reason: 'G.1: the time control has no quickplay finish (a repeating period)' };
  if (last.bonus)
    return {
      applies: false,
      reason: `G.3: the last period has ${last.bonus.kind === 'increment' ? 'an increment' : 'a delay'}`,
    };
  if (secondsFor(control, 60) <= BLITZ_SECONDS_FOR_60_MOVES)
    return { applies: false, reason: 'G.3: not for blitz' };
  return { applies: true };
}
