// `damlink standings` through the command line's own parser and exit codes, in this process.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { newProgram, runProgram } from '../../daemon/commands/program.ts';
import { registerStandings } from '../../daemon/commands/standings.ts';

import { FIXTURES } from './fixtures/helpers.ts';

async function standingsCli(args: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  vi.spyOn(console, 'log').mockImplementation((s: unknown) => void out.push(String(s)));
  vi.spyOn(console, 'error').mockImplementation((s: unknown) => void err.push(String(s)));
  vi.spyOn(process.stderr, 'write').mockImplementation((s: string | Uint8Array) => err.push(String(s)) > 0);
  const program = newProgram();
  registerStandings(program);
  const code = await runProgram(program, ['standings', ...args]);
  vi.restoreAllMocks();
  return { code, stdout: out.join('\n'), stderr: err.join('') };
}

afterEach(() => vi.restoreAllMocks());

describe('damlink standings', () => {
  it('--json: the ranked array, exactly these keys, draughts points', async () => {
    const r = await standingsCli(['--trf', join(FIXTURES, 'swiss-2026.trf'), '--json']);
    expect(r.code).toBe(0);
    const rows = JSON.parse(r.stdout);
    expect(rows[0]).toEqual({
      rank: 1,
      start: 1,
      name: 'Boomstra, Roel',
      points: 12,
      tiebreaks: {
        solkoff: 55,
        'solkoff-truncated': 53,
        median: 41,
        'sonneborn-berger': 45.5,
        wins: 4,
        'plus-minus': 0,
      },
    });
    expect(rows.map((x: { start: number }) => x.start)).toEqual([1, 8, 2, 5, 3, 7, 6, 9, 4]);
  });

  it("lidraughts' chess-scale points are doubled; --scale draughts keeps them", async () => {
    const file = join(FIXTURES, 'lidraughts.trf');
    const doubled = JSON.parse((await standingsCli(['--trf', file, '--json'])).stdout);
    expect(doubled.map((x: { points: number }) => x.points)).toEqual([5, 4, 4, 2, 2]);
    const kept = await standingsCli(['--trf', file, '--json', '--scale', 'draughts']);
    expect(JSON.parse(kept.stdout)[0].points).toBe(5);
  });

  it('--tiebreaks sets the order', async () => {
    const r = await standingsCli([
      '--trf',
      join(FIXTURES, 'swiss-2026.trf'),
      '--json',
      '--tiebreaks',
      'plus-minus,mutual',
    ]);
    expect(JSON.parse(r.stdout).map((x: { start: number }) => x.start)).toEqual([1, 2, 8, 3, 5, 7, 6, 9, 4]);
  });

  it('--csv: a header line and a line a player', async () => {
    const out: string[] = [];
    const write = process.stdout.write.bind(process.stdout);
    process.stdout.write = ((s: string) => out.push(s) > 0) as typeof process.stdout.write;
    try {
      const r = await standingsCli(['--trf', join(FIXTURES, 'swiss-2026.trf'), '--csv']);
      expect(r.code).toBe(0);
    } finally {
      process.stdout.write = write;
    }
    const lines = out.join('').trimEnd().split('\n');
    expect(lines).toHaveLength(10);
    expect(lines[2]).toBe('2,8,"Janssen, Tom",,10,56,54,44,39.5,3,-1');
  });

  it('a table for people without --json', async () => {
    const r = await standingsCli(['--trf', join(FIXTURES, 'berger6-trf16.trf')]);
    expect(r.code).toBe(0);
    const lines = r.stdout.split('\n');
    expect(lines[0]).toMatch(/^Rank Start Name/);
    expect(lines[1]).toMatch(/^ {3}1 {5}1 Sijbrands, Ton +9 /);
  });

  it('exit 2 on bad usage, 1 on a bad file, one damlink: line each', async () => {
    expect((await standingsCli([])).code).toBe(2);
    const scale = await standingsCli(['--trf', 'x.trf', '--scale', 'metric']);
    expect(scale.code).toBe(2);
    expect((await standingsCli(['--trf', 'x.trf', '--tiebreaks', 'buchholz'])).stderr).toContain(
      'unknown tie-break buchholz',
    );
    const missing = await standingsCli(['--trf', join(FIXTURES, 'nothing.trf')]);
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^damlink: cannot read /);
  });

  it('a bad TRF: exit 1, the problem with its line and column', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'standings-'));
    const file = join(dir, 'bad.trf');
    writeFileSync(
      file,
      '012 X\n001    1      A, B                              1500                             1.0          2 w Q\n',
    );
    const r = await standingsCli(['--trf', file]);
    rmSync(dir, { recursive: true });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`damlink: ${file}:2:99: result "Q"`);
  });
});
