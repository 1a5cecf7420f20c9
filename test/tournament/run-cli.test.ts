// `damlink run --tournament` and `damlink standings` as a user runs them (a child process).
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damlink } from '../daemon/commands/fixtures/run-cli.ts';
import { FIXTURES } from './fixtures/helpers.ts';

describe('damlink as a user runs it', () => {
  it('run --tournament with a file that cannot be read: exit 2, one line, nothing started', () => {
    const r = damlink([
      'run',
      '--board',
      'tcp://127.0.0.1:9',
      '--tournament',
      join(FIXTURES, 'nothing.json'),
    ]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim()).toMatch(/^damlink: --tournament: cannot read .*nothing\.json/);
    expect(r.stderr.trim().split('\n')).toHaveLength(1);
  });

  it('standings --trf --json prints the ranked array', () => {
    const r = damlink(['standings', '--trf', join(FIXTURES, 'lidraughts.trf'), '--json']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout).map((x: { name: string; points: number }) => [x.name, x.points])).toEqual([
      ['roepstoep', 5],
      ['nikola_dama', 4],
      ['kingrow', 4],
      ['sjaak99', 2],
      ['damvrouw', 2],
    ]);
  });
});
