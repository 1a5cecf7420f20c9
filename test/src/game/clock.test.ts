// damlink's own clock (from the presses) and the flag watch: flag, flags, a press in time is no
// flag, the clock's own flag, the arbiter's added time and the G.4 increment set on a board clock.
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { addTime, pressClock, readClock, startClock } from '../../../src/clock/clock.ts';
import { parseTimeControl, type TimeControl } from '../../../src/clock/time-control.ts';
import { ClockWatch, type GameAtClock } from '../../../src/clock/watch.ts';
import { clockReading } from './fixtures/helpers.ts';

const tc = (text: string): TimeControl => {
  const r = parseTimeControl(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const game: GameAtClock = { turn: 'white', nextPly: 3, moves: { white: 1, black: 1 } };
const clock = clockReading;
const press = (t: number, side: 'white' | 'black'): BoardEvent => ({ t, type: 'press', side });

describe("damlink's own clock", () => {
  it('Fischer: the mover gets the increment at the press; the first press starts the clock', () => {
    const c = tc('60+2');
    let s = pressClock(startClock(c, 0), c, 'black', 0);
    expect(readClock(s, c, 10_000)).toEqual({ white: 50_000, black: 60_000, running: 'white' });
    s = pressClock(s, c, 'white', 10_000);
    expect(readClock(s, c, 10_000)).toEqual({ white: 52_000, black: 60_000, running: 'black' });
    // A press by the side whose clock is stopped does nothing.
    expect(pressClock(s, c, 'white', 11_000)).toBe(s);
  });

  it('a simple delay waits before counting down; Bronstein gives back what was used, up to its delay', () => {
    const d = tc('60d5');
    const s = pressClock(startClock(d, 0), d, 'black', 0);
    expect(readClock(s, d, 4_000).white).toBe(60_000);
    expect(readClock(s, d, 8_000).white).toBe(57_000);
    const b = tc('60b5');
    const s2 = pressClock(pressClock(startClock(b, 0), b, 'black', 0), b, 'white', 3_000);
    expect(s2.white).toBe(60_000);
    const s3 = pressClock(pressClock(s2, b, 'black', 3_000), b, 'white', 13_000);
    expect(s3.white).toBe(55_000);
  });

  it('moves in time: the next period comes with the last move of the period', () => {
    const c = tc('2/60:30');
    let s = pressClock(startClock(c, 0), c, 'black', 0);
    s = pressClock(s, c, 'white', 10_000);
    s = pressClock(s, c, 'black', 10_000);
    s = pressClock(s, c, 'white', 20_000);
    expect(s.white).toBe(40_000 + 30_000);
    expect(s.moves.white).toBe(2);
  });

  it("the arbiter's two minutes go to one side", () => {
    const c = tc('60');
    expect(addTime(startClock(c, 0), 'black', 120_000).black).toBe(180_000);
  });
});

describe('ClockWatch: flags', () => {
  it('flag: the running side at zero', () => {
    const w = new ClockWatch();
    expect(w.push(clock(0, 1000, 5000, 'white'), game)).toEqual([]);
    const out = w.push(clock(1000, 0, 5000, 'white'), game);
    expect(out).toMatchObject([{ type: 'flag', finding: { rule: 'flag', side: 'white', ply: 3 } }]);
    // Seen once.
    expect(w.push(clock(2000, 0, 5000, 'white'), game)).toEqual([]);
  });

  it("the clock's own flag (DGT flag bit) counts even when the time shows a second left", () => {
    const w = new ClockWatch();
    expect(w.push(clock(0, 1000, 5000, 'white', 'white'), game)).toMatchObject([
      { type: 'flag', finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it("flag: the side whose flag the clock shows, not the side to move (a DGT flag bit on Black's side)", () => {
    const w = new ClockWatch();
    // White to move, White's clock runs, and Black's flag shows fallen.
    expect(w.push(clock(0, 30_000, 2000, 'white', 'black'), game)).toMatchObject([
      { type: 'flag', finding: { rule: 'flag', side: 'black', ply: 2 } },
    ]);
  });

  it('a press that came first is no flag, and the zero it leaves stays excused', () => {
    const w = new ClockWatch();
    w.push(press(900, 'white'), game);
    expect(w.push(clock(1000, 0, 5000, 'black'), { ...game, turn: 'black' })).toEqual([]);
    expect(w.push(clock(2000, 0, 4000, 'black'), { ...game, turn: 'black' })).toEqual([]);
    // Once White's clock runs again at zero, the time is out.
    w.push(press(2500, 'black'), { ...game, turn: 'black' });
    expect(w.push(clock(2500, 0, 3500, 'white'), game)).toMatchObject([
      { finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it('a press that did not take (the clock still runs for the presser) does not excuse its flag', () => {
    const w = new ClockWatch();
    w.push(press(900, 'white'), game);
    expect(w.push(clock(1000, 0, 5000, 'white', 'white'), game)).toMatchObject([
      { finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it.each(['white', 'black'] as const)(
    'flag: a reading sampled before the press, arriving after it, is no flag (%s presses at 0.1 s left)',
    (mover) => {
      const other = mover === 'white' ? 'black' : 'white';
      const at = { ...game, turn: mover };
      const reading = (t: number, moverMs: number, otherMs: number, running: 'white' | 'black') =>
        mover === 'white' ? clock(t, moverMs, otherMs, running) : clock(t, otherMs, moverMs, running);
      const w = new ClockWatch();
      expect(w.push(reading(9_000, 1_000, 60_000, mover), at)).toEqual([]);
      w.push(press(9_900, mover), at);
      // 30 ms after the press: whole seconds, his clock still running — sampled before the lever.
      expect(w.push(reading(9_930, 0, 60_000, mover), at)).toEqual([]);
      // The reading after the press: his time 0, the opponent's running. The press came first.
      expect(w.push(reading(10_400, 0, 59_500, other), { ...at, turn: other })).toEqual([]);
      expect(w.push(reading(11_400, 0, 58_500, other), { ...at, turn: other })).toEqual([]);
    },
  );

  it('flag: a press that did not take is still a flag once a reading a second later shows the presser running', () => {
    const w = new ClockWatch();
    w.push(clock(9_000, 1_000, 60_000, 'white'), game);
    w.push(press(9_900, 'white'), game);
    expect(w.push(clock(9_930, 0, 60_000, 'white'), game)).toEqual([]);
    expect(w.push(clock(10_950, 0, 60_000, 'white'), game)).toMatchObject([
      { finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it('flags: both down when first seen — a draw in the last period, play on before it', () => {
    const last = new ClockWatch({ control: tc('40/5400:1800') });
    const late = { turn: 'white' as const, nextPly: 101, moves: { white: 50, black: 50 } };
    expect(last.push(clock(0, 0, 0, null), late)).toMatchObject([
      { finding: { rule: 'flags', lastPeriod: true } },
    ]);
    const early = new ClockWatch({ control: tc('40/5400:1800') });
    expect(early.push(clock(0, 0, 0, null), game)).toMatchObject([
      { finding: { rule: 'flags', lastPeriod: false } },
    ]);
    // Without a time control every period counts as the last.
    const [both] = new ClockWatch().push(clock(0, 0, 0, null), game);
    expect(both).toMatchObject({ finding: { lastPeriod: true } });
    // Both fell and nobody can tell which first: the finding names no side, not the side to move.
    expect(both.type === 'flag' && 'side' in both.finding).toBe(false);
  });

  it('a second flag after the first is no news: it is known which fell first', () => {
    const w = new ClockWatch();
    w.push(clock(0, 0, 5000, 'white'), game);
    expect(w.push(clock(9000, 0, 0, 'black'), game)).toEqual([]);
  });
});

describe('ClockWatch: own clock and clock settings', () => {
  it('keeps the clock from the presses when the board has none, and lets the flag fall on a tick', () => {
    const w = new ClockWatch({ control: tc('60') });
    expect(w.push(press(0, 'black'), game)).toEqual([
      { type: 'reading', t: 0, reading: { white: 60_000, black: 60_000, running: 'white' } },
    ]);
    expect(w.push({ t: 59_000, type: 'tick' }, game)).toEqual([]);
    expect(w.push({ t: 60_100, type: 'tick' }, game)).toMatchObject([
      { type: 'reading', reading: { white: 0, running: 'white' } },
      { type: 'flag', finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it("a press after damlink's clock ran out is too late: the flag falls at the press", () => {
    const w = new ClockWatch({ control: tc('60') });
    w.push(press(0, 'black'), game);
    const out = w.push(press(61_000, 'white'), game);
    expect(out.filter((o) => o.type === 'flag')).toMatchObject([
      { finding: { rule: 'flag', side: 'white' } },
    ]);
  });

  it('a board that announces a clock (or sends a reading) gets no clock of damlink', () => {
    const w = new ClockWatch({ control: tc('60') });
    w.push(
      {
        t: 0,
        type: 'hello',
        serial: 'x',
        protocol: 'line',
        squares: 50,
        senses: 'pieces',
        capabilities: ['clock'],
      },
      game,
    );
    expect(w.push(press(0, 'black'), game)).toEqual([]);
    expect(w.ownClock).toBe(false);
  });

  it('G.4 on a clock without increment: after each press the presser gets 5 s by a clock setting', () => {
    const w = new ClockWatch();
    w.push(clock(0, 100_000, 100_000, 'white'), game);
    w.addIncrement(5000);
    w.push(press(1000, 'white'), game);
    expect(w.push(clock(1000, 99_000, 100_000, 'black'), game)).toEqual([
      { type: 'set-clock', t: 1000, reading: { white: 104_000, black: 100_000, running: 'black' } },
    ]);
  });

  it("the arbiter's added time becomes a clock setting for a board clock, a reading for damlink's", () => {
    const board = new ClockWatch();
    board.push(clock(0, 100_000, 90_000, 'white'), game);
    expect(board.addTime('black', 120_000, 10_000)).toEqual([
      { type: 'set-clock', t: 10_000, reading: { white: 90_000, black: 210_000, running: 'white' } },
    ]);
    const own = new ClockWatch({ control: tc('60') });
    own.push(press(0, 'black'), game);
    expect(own.addTime('black', 120_000, 10_000)).toEqual([
      { type: 'reading', t: 10_000, reading: { white: 50_000, black: 180_000, running: 'white' } },
    ]);
  });
});
