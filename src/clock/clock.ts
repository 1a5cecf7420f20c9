// A game clock kept by damlink from the presses, for boards without a clock of their own: the
// time control's periods, increments and delays, and the time an arbiter adds (Appendix G). Pure:
// the times of the presses are all it knows.
import type { ClockReading } from '../../firmware-protocol/clock-reading.ts';
import type { Side } from '../../firmware-protocol/events.ts';
import { periodIndex, periodStartsAt, type TimeControl } from './time-control.ts';

export type { ClockReading };

export interface ClockState extends ClockReading {
  /** When the running side's move began (ms). */
  since: number;
  /** Moves each side completed with its clock running (they decide the period). */
  moves: { white: number; black: number };
  /** Added after each move on top of the control's bonus: the increment of Appendix G.4 (ms). */
  extraIncrementMs: number;
}

export const otherSide = (side: Side): Side => (side === 'white' ? 'black' : 'white');

/** Both sides with the first period's time, nobody's clock running. */
export function startClock(control: TimeControl, t: number): ClockState {
  const ms = (control.periods[0]?.seconds ?? 0) * 1000;
  return {
    white: ms,
    black: ms,
    running: null,
    since: t,
    moves: { white: 0, black: 0 },
    extraIncrementMs: 0,
  };
}

/** What the running side's clock has counted of a move that began `spent` ms ago (a delay waits). */
function counted(control: TimeControl, moves: number, spent: number): number {
  const bonus = control.periods[periodIndex(control, moves)]?.bonus;
  return bonus?.kind === 'delay' ? Math.max(0, spent - bonus.seconds * 1000) : spent;
}

/** The clock as shown at `t`: the running side's time counting down, never below zero. */
export function readClock(state: ClockState, control: TimeControl, t: number): ClockReading {
  const { running } = state;
  if (!running) return { white: state.white, black: state.black, running };
  const left = Math.max(
    0,
    state[running] - counted(control, state.moves[running], Math.max(0, t - state.since)),
  );
  return { white: state.white, black: state.black, [running]: left, running } as ClockReading;
}

/**
 * `side` pressed at `t`: its move is over (with the bonus of its period, and the next period's time
 * when it has made that period's moves), the other side's time runs. A press while the other side's
 * time runs does nothing; the first press starts the clock.
 */
export function pressClock(state: ClockState, control: TimeControl, side: Side, t: number): ClockState {
  if (state.running !== null && state.running !== side) return state;
  const next: ClockState = { ...state, running: otherSide(side), since: t, moves: { ...state.moves } };
  if (state.running !== side) return next;
  const moves = state.moves[side];
  const spent = Math.max(0, t - state.since);
  const period = control.periods[periodIndex(control, moves)];
  const bonus = period?.bonus;
  let left = readClock(state, control, t)[side];
  if (left > 0) {
    if (bonus?.kind === 'increment') left += bonus.seconds * 1000;
    if (bonus?.kind === 'bronstein') left += Math.min(spent, bonus.seconds * 1000);
    left += state.extraIncrementMs;
    if (periodStartsAt(control, moves + 1))
      left += (control.periods[periodIndex(control, moves + 1)]?.seconds ?? 0) * 1000;
  }
  next[side] = left;
  next.moves[side] = moves + 1;
  return next;
}

/** `ms` more for `side` (the arbiter's two minutes); the running side keeps running. */
export function addTime(state: ClockState, side: Side, ms: number): ClockState {
  return { ...state, [side]: state[side] + ms };
}

/** A reading taken over from a clock (the board's own, or the arbiter's setting) at `t`. */
export function setClock(state: ClockState, reading: ClockReading, t: number): ClockState {
  return { ...state, white: reading.white, black: reading.black, running: reading.running, since: t };
}
