// Watches a game's clock: notices fallen flags in the readings (the running side's time at zero, or
// the flag a clock reports), keeps damlink's own clock from the presses when the board has none, and
// turns the time an arbiter adds into clock settings. Pure: fed the board's events in order.
import { SIDES } from '../../firmware-protocol/side.ts';
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import {
  addTime,
  type ClockReading,
  type ClockState,
  otherSide,
  pressClock,
  readClock,
  setClock,
  startClock,
} from './clock.ts';
import { inLastPeriod, type TimeControl } from './time-control.ts';

/** Where the game stands when a clock event comes. */
export interface GameAtClock {
  turn: Side;
  /** The ply to be played next (1-based). */
  nextPly: number;
  /** Moves each side has made. */
  moves: { white: number; black: number };
}

interface FlagSeen {
  ply: number;
  t: number;
  /** The reading that shows it. */
  reading: ClockReading & { flag?: Side };
}

export type FlagFinding =
  /**
   * One side's time ran out: `side` is whose flag fell (its time at zero, or the flag its clock
   * shows), not necessarily the side to move.
   */
  | (FlagSeen & { rule: 'flag'; side: Side })
  /**
   * Both flags were down when first seen: no side, nobody can tell which fell first. `lastPeriod`:
   * both sides play in the last period, so the game is drawn.
   */
  | (FlagSeen & { rule: 'flags'; lastPeriod: boolean });

export type ClockOutput =
  /** A reading of damlink's own clock (the board has none). */
  | { type: 'reading'; t: number; reading: ClockReading }
  | { type: 'flag'; finding: FlagFinding }
  /** The clock must be set to this (an arbiter's added time, the G.4 increment on a clock without one). */
  | { type: 'set-clock'; t: number; reading: ClockReading };

/**
 * A reading this soon after a press that still shows the presser's clock running (and no flag of
 * its own) was sampled before the press: clocks report on their own beat, whole seconds, not in
 * step with the lever. It is not judged; the next reading says whether the press took.
 */
export const STALE_READING_MS = 1000;

export interface ClockWatchOptions {
  /** The time control: damlink keeps its own clock only with one; without, every period is the last. */
  control?: TimeControl;
}

export class ClockWatch {
  private readonly control: TimeControl | undefined;
  /** The board has a clock (it sent a reading, or said so): its clock is the clock. */
  private boardClock = false;
  /** The clock as last known: the board's last reading, or damlink's own. */
  private state: ClockState | undefined;
  private readonly fallen = new Set<Side>();
  /** Sides whose clock shows zero after a press in time (see findFlags). */
  private readonly inTime = new Set<Side>();
  /** The side that pressed since the last reading: its move was over before that reading. */
  private pressedSinceReading: Side | undefined;
  /** When that press came. */
  private pressedAt = 0;
  /** Added to the presser's time after each move (G.4), where the clock itself adds nothing. */
  private extraIncrementMs = 0;

  constructor(options: ClockWatchOptions = {}) {
    this.control = options.control;
  }

  /** Whether damlink keeps the clock itself (a time control, and no clock on the board so far). */
  get ownClock(): boolean {
    return !this.boardClock && this.control !== undefined;
  }

  /** A new game: no flag down, no clock known yet (the board keeps its clock, or its lack of one). */
  reset(): void {
    this.state = undefined;
    this.fallen.clear();
    this.inTime.clear();
    this.pressedSinceReading = undefined;
    this.extraIncrementMs = 0;
  }

  push(event: BoardEvent, game: GameAtClock): ClockOutput[] {
    const out: ClockOutput[] = [];
    if (event.type === 'hello') {
      if (event.capabilities?.includes('clock')) this.boardClock = true;
      return out;
    }
    if (event.type === 'clock') {
      this.boardClock = true;
      const reading = { white: event.white, black: event.black, running: event.running };
      const pressed = this.pressedSinceReading;
      const stale =
        pressed !== undefined &&
        event.running === pressed &&
        event.flag !== pressed &&
        event.t - this.pressedAt <= STALE_READING_MS;
      // Sampled before the press: the clock as it was then (its state is not set back by it),
      // nothing judged; the press stays pending for the reading after it.
      if (stale) return out;
      this.state = this.state ? setClock(this.state, reading, event.t) : this.fresh(reading, event.t);
      this.findFlags(
        { ...reading, ...(event.flag ? { flag: event.flag } : {}) },
        event.t,
        game,
        pressed,
        out,
      );
      // The G.4 increment on a clock that adds none: the presser's time, plus 5 s, set after the press.
      if (pressed && this.extraIncrementMs > 0 && event.running === otherSide(pressed)) {
        const set = { ...reading, [pressed]: reading[pressed] + this.extraIncrementMs };
        this.state = setClock(this.state, set, event.t);
        out.push({ type: 'set-clock', t: event.t, reading: set });
      }
      return out;
    }
    if (event.type === 'press') {
      if (this.ownClock) {
        const control = this.control!;
        // damlink's clock knows when the time ran out: a press after it is too late.
        if (this.state?.running === event.side && readClock(this.state, control, event.t)[event.side] <= 0)
          this.ownReading(event.t, game, out);
        this.pressedSinceReading = event.side;
        this.pressedAt = event.t;
        this.state = pressClock(this.state ?? startClock(control, event.t), control, event.side, event.t);
        this.ownReading(event.t, game, out);
      } else {
        this.pressedSinceReading = event.side;
        this.pressedAt = event.t;
      }
      return out;
    }
    // Time passing on damlink's own clock: the flag falls when the running side reaches zero.
    const running = this.state?.running;
    if (this.ownClock && running && !this.fallen.has(running)) {
      if (readClock(this.state!, this.control!, event.t)[running] <= 0) this.ownReading(event.t, game, out);
    }
    return out;
  }

  /** The arbiter adds `ms` to `side` at `t` (G.4, G.5 postponed or rejected). */
  addTime(side: Side, ms: number, t: number): ClockOutput[] {
    if (!this.state) return [];
    const now = this.readAt(t);
    this.state = addTime(setClock(this.state, now, t), side, ms);
    const reading = this.readAt(t);
    return [this.ownClock ? { type: 'reading', t, reading } : { type: 'set-clock', t, reading }];
  }

  /** From now on every move gets `ms` more (G.4: 5 s a move for both). */
  addIncrement(ms: number): void {
    this.extraIncrementMs += ms;
    if (this.state) this.state = { ...this.state, extraIncrementMs: this.extraIncrementMs };
  }

  /** The clock as it reads at `t`, when known. */
  readAt(t: number): ClockReading {
    const s = this.state!;
    if (this.control) return readClock(s, this.control, t);
    // A board clock read at `t` without knowing its control: the running side as counting down.
    const spent = s.running ? Math.max(0, t - s.since) : 0;
    return {
      white: s.white,
      black: s.black,
      running: s.running,
      ...(s.running ? { [s.running]: Math.max(0, s[s.running] - spent) } : {}),
    };
  }

  /** damlink's own clock runs for a side whose flag has not fallen: time passing can make it fall. */
  get flagDue(): boolean {
    const running = this.state?.running;
    return this.ownClock && running !== undefined && running !== null && !this.fallen.has(running);
  }

  private fresh(reading: ClockReading, t: number): ClockState {
    const base = startClock(this.control ?? { periods: [] }, t);
    return { ...setClock(base, reading, t), extraIncrementMs: this.extraIncrementMs };
  }

  private ownReading(t: number, game: GameAtClock, out: ClockOutput[]): void {
    const reading = readClock(this.state!, this.control!, t);
    out.push({ type: 'reading', t, reading });
    this.findFlags(reading, t, game, this.pressedSinceReading, out);
  }

  /**
   * The flags down in `reading` that were not before: the clock shows the flag, or the side's time is
   * at zero. A side that pressed since the last reading, and whose press took, made its move in time
   * whatever its clock shows (the press came first); its zero stays excused until its clock runs again.
   */
  private findFlags(
    reading: ClockReading & { flag?: Side },
    t: number,
    game: GameAtClock,
    pressed: Side | undefined,
    out: ClockOutput[],
  ): void {
    this.pressedSinceReading = undefined;
    const down: Side[] = [];
    for (const side of SIDES) {
      // The press took (the other side's clock runs): the move was made in time.
      if (pressed === side && reading.running !== side) {
        if (reading[side] <= 0) this.inTime.add(side);
        continue;
      }
      if (reading[side] > 0 || reading.running === side) this.inTime.delete(side);
      const zero = reading[side] <= 0 && !this.inTime.has(side);
      if (!this.fallen.has(side) && (reading.flag === side || zero)) down.push(side);
    }
    if (down.length === 0) return;
    const firstFall = this.fallen.size === 0;
    for (const side of down) this.fallen.add(side);
    // Once one flag was seen down, the other falling later is no news: it is known which fell first.
    if (!firstFall) return;
    const plyOf = (side: Side) => (side === game.turn ? game.nextPly : Math.max(1, game.nextPly - 1));
    if (down.length === 2) {
      const lastPeriod =
        !this.control ||
        (inLastPeriod(this.control, game.moves.white) && inLastPeriod(this.control, game.moves.black));
      out.push({
        type: 'flag',
        finding: { rule: 'flags', ply: game.nextPly, t, lastPeriod, reading },
      });
      return;
    }
    const side = down[0];
    out.push({ type: 'flag', finding: { rule: 'flag', side, ply: plyOf(side), t, reading } });
  }
}
