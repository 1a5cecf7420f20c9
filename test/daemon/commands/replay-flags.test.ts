// `damlink replay [--time-control TC]` of event files where the clock runs out: a `flag` line for the
// side whose time ran out at its ply, `flags` when both are down; the PDN keeps `*` unless
// `--auto-result`; a press that came first is no flag; a board without a clock gets damlink's own.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { damlink } from './fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-replay-flags-'));
const file = (name: string, events: BoardEvent[]) => {
  const path = join(dir, name);
  writeFileSync(path, events.map((e) => JSON.stringify(e)).join('\n'));
  return path;
};
const clock = (t: number, white: number, black: number, running: 'white' | 'black' | null): BoardEvent => ({
  t,
  type: 'clock',
  white,
  black,
  running,
});
/** 1. 32-28 19-23, each pressed, the clock read after each press; White to move with 1.5 s. */
const opening = (): BoardEvent[] => [
  clock(0, 3000, 60_000, 'white'),
  { t: 1000, type: 'lift', square: 32 },
  { t: 1200, type: 'put', square: 28, piece: 'w' },
  { t: 1500, type: 'press', side: 'white' },
  clock(1510, 1500, 60_000, 'black'),
  { t: 3000, type: 'lift', square: 19 },
  { t: 3200, type: 'put', square: 23, piece: 'b' },
  { t: 3500, type: 'press', side: 'black' },
  clock(3510, 1500, 58_000, 'white'),
];
const lines = (stdout: string) =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l));
const result = (stdout: string) => /\[Result "([^"]+)"\]/.exec(stdout)?.[1];

describe('damlink replay: fallen flags', () => {
  const whiteOut = file('white-out.jsonl', [...opening(), clock(5010, 0, 58_000, 'white')]);

  it("White's clock runs out with White to move: a flag line for White at ply 3, the PDN keeps *", () => {
    const r = damlink(['replay', '--events', whiteOut]);
    expect(r.code).toBe(0);
    expect(lines(r.stdout)).toEqual([
      expect.objectContaining({
        rule: 'flag',
        side: 'white',
        ply: 3,
        message: expect.stringMatching(/White: flag fell/),
      }),
    ]);
    expect(result(r.stdout)).toBe('*');
  });

  it('--auto-result writes the loss', () => {
    const r = damlink(['replay', '--events', whiteOut, '--auto-result']);
    expect(result(r.stdout)).toBe('0-2');
    expect(r.stdout).toMatch(/19-23 0-2/);
  });

  it('both flags: "flags", a draw without --time-control (every period is the last); play on before the last period', () => {
    const both = file('both.jsonl', [...opening(), clock(5010, 0, 0, null)]);
    const r = damlink(['replay', '--events', both, '--auto-result']);
    expect(lines(r.stdout)).toEqual([
      expect.objectContaining({ rule: 'flags', ply: 3, message: expect.stringMatching(/^Both flags fell/) }),
    ]);
    // Both fell, no telling which first: no side (not the side to move).
    expect(lines(r.stdout)[0]).not.toHaveProperty('side');
    expect(result(r.stdout)).toBe('1-1');
    const early = damlink(['replay', '--events', both, '--auto-result', '--time-control', '40/5400:1800']);
    expect(lines(early.stdout)).toEqual([expect.objectContaining({ rule: 'flags' })]);
    expect(result(early.stdout)).toBe('*');
  });

  it('a move pressed before the clock showed zero is no flag', () => {
    const inTime = file('in-time.jsonl', [
      ...opening(),
      { t: 4900, type: 'lift', square: 28 },
      { t: 4950, type: 'put', square: 19, piece: 'w' },
      { t: 4960, type: 'lift', square: 23 },
      { t: 5000, type: 'press', side: 'white' },
      clock(5010, 0, 58_000, 'black'),
      clock(6010, 0, 57_000, 'black'),
    ]);
    const r = damlink(['replay', '--events', inTime]);
    expect(lines(r.stdout)).toEqual([]);
  });

  it("a board without a clock: damlink's clock from the presses (--time-control) lets the flag fall", () => {
    const noClock = file('no-clock.jsonl', [
      ...opening().filter((e) => e.type !== 'clock'),
      { t: 64_000, type: 'tick' },
    ]);
    expect(lines(damlink(['replay', '--events', noClock]).stdout)).toEqual([]);
    const r = damlink(['replay', '--events', noClock, '--time-control', '60']);
    expect(lines(r.stdout)).toEqual([expect.objectContaining({ rule: 'flag', side: 'white', ply: 3 })]);
  });

  it('a time control that is not the PDN form is a usage error with its column', () => {
    const r = damlink(['replay', '--events', whiteOut, '--time-control', '40/5400:90min']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/--time-control: period "90min" .* at column 9/);
  });
});
