// Time controls in the PDN TimeControl form (seconds), the periods, and whether Appendix G applies
// (G.2 announced, G.3 not for blitz, no increment).
import { describe, expect, it } from 'vitest';
import {
  inLastPeriod,
  parseTimeControl,
  periodIndex,
  quickplayFinish,
  secondsFor,
  type TimeControl,
  writeTimeControl,
} from '../../../src/clock/time-control.ts';

const parsed = (text: string): TimeControl => {
  const r = parseTimeControl(text);
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};

describe('parseTimeControl / writeTimeControl', () => {
  it('reads base + Fischer increment (5400+30)', () => {
    expect(parsed('5400+30')).toEqual({
      periods: [{ seconds: 5400, bonus: { kind: 'increment', seconds: 30 } }],
    });
  });

  it('reads moves in time with periods (40/5400:1800+30)', () => {
    expect(parsed('40/5400:1800+30')).toEqual({
      periods: [
        { moves: 40, seconds: 5400 },
        { seconds: 1800, bonus: { kind: 'increment', seconds: 30 } },
      ],
    });
  });

  it('reads a simple delay (d) and a Bronstein delay (b)', () => {
    expect(parsed('3600d5').periods[0].bonus).toEqual({ kind: 'delay', seconds: 5 });
    expect(parsed('3600b10').periods[0].bonus).toEqual({ kind: 'bronstein', seconds: 10 });
  });

  it('writes back exactly what it read', () => {
    for (const text of [
      '5400+30',
      '40/5400:1800+30',
      '3600',
      '40/7200',
      '40/7200:20/3600:1800',
      '3600d5',
      '900b10',
    ])
      expect(writeTimeControl(parsed(text))).toBe(text);
  });

  it('refuses minutes-style and broken values with a code and the column of the bad period', () => {
    const bad = (text: string) => {
      const r = parseTimeControl(text);
      expect(r.ok, text).toBe(false);
      return r.ok ? undefined : r.error;
    };
    expect(bad('90:30')?.message).toMatch(/rest of the game/);
    expect(bad('40/5400:x')).toMatchObject({ code: 'bad-time-control', col: 9 });
    expect(bad('')).toMatchObject({ code: 'bad-time-control', col: 1 });
    expect(bad('5400:1800')).toMatchObject({ code: 'bad-time-control', col: 1 });
    expect(bad('0/5400')?.message).toMatch(/0 moves/);
    expect(bad('0')?.message).toMatch(/no time/);
    expect(bad('90 min')?.message).toMatch(/SECONDS/);
  });
});

describe('periods', () => {
  const tc = parsed('40/5400:1800+30');

  it('a side is in the first period for its first 40 moves, then in the last', () => {
    expect(periodIndex(tc, 0)).toBe(0);
    expect(periodIndex(tc, 39)).toBe(0);
    expect(periodIndex(tc, 40)).toBe(1);
    expect(inLastPeriod(tc, 39)).toBe(false);
    expect(inLastPeriod(tc, 40)).toBe(true);
  });

  it('a repeating period (40/7200) is never the last', () => {
    expect(inLastPeriod(parsed('40/7200'), 500)).toBe(false);
  });

  it('counts the time for the first moves, bonuses included', () => {
    expect(secondsFor(parsed('600'), 60)).toBe(600);
    expect(secondsFor(parsed('180+2'), 60)).toBe(300);
    expect(secondsFor(tc, 41)).toBe(5400 + 1800 + 30);
  });
});

describe('quickplay finish (Appendix G)', () => {
  it('applies to a sudden-death finish announced beforehand (G.2)', () => {
    expect(quickplayFinish(parsed('3600'), true)).toEqual({ applies: true });
    expect(quickplayFinish(parsed('40/5400:1800'), true)).toEqual({ applies: true });
    expect(quickplayFinish(parsed('3600'), false)).toMatchObject({
      applies: false,
      reason: expect.stringMatching(/^G\.2/),
    });
  });

  it('G.3: not for blitz, not with an increment or a delay', () => {
    expect(quickplayFinish(parsed('300'), true)).toMatchObject({
      applies: false,
      reason: 'G.3: not for blitz',
    });
    expect(quickplayFinish(parsed('600'), true)).toMatchObject({
      applies: false,
      reason: 'G.3: not for blitz',
    });
    expect(quickplayFinish(parsed('5400+30'), true)).toMatchObject({
      applies: false,
      reason: expect.stringMatching(/increment/),
    });
    expect(quickplayFinish(parsed('3600d5'), true)).toMatchObject({
      applies: false,
      reason: expect.stringMatching(/delay/),
    });
  });

  it('no quickplay finish when the last period repeats', () => {
    expect(quickplayFinish(parsed('40/7200'), true).applies).toBe(false);
  });
});
