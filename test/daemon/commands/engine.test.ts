// The engine's CLI commands: perft, moves (docs/design.md JSON contract), pdn check — run in-process.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { registerMoves } from '../../../daemon/commands/moves.ts';
import { registerPdn } from '../../../daemon/commands/pdn.ts';
import { registerPerft } from '../../../daemon/commands/perft.ts';
import { newProgram, runProgram } from '../../../daemon/commands/program.ts';

/** Runs one command in-process (only the engine's commands are registered) and captures its output. */
async function damlink(...args: string[]) {
  const program = newProgram();
  registerPerft(program);
  registerMoves(program);
  registerPdn(program);
  const out: string[] = [];
  const err: string[] = [];
  const log = vi.spyOn(console, 'log').mockImplementation((...a: unknown[]) => void out.push(a.join(' ')));
  const error = vi
    .spyOn(console, 'error')
    .mockImplementation((...a: unknown[]) => void err.push(a.join(' ')));
  try {
    const code = await runProgram(program, args);
    const text = out.join('\n');
    return { code, out: text, err: err.join('\n'), lines: text.trim().split('\n') };
  } finally {
    log.mockRestore();
    error.mockRestore();
  }
}

describe('damlink perft', () => {
  it('prints the count as the last line; --divide lists the first moves first', async () => {
    expect((await damlink('perft', '--depth', '3')).lines.at(-1)).toBe('658');
    const d = await damlink('perft', '--fen', 'W:W31-50:B1-20', '--depth', '2', '--divide');
    expect(d.lines).toHaveLength(10);
    expect(d.lines).toContain('32-28 9');
    expect(d.lines.at(-1)).toBe('81');
    expect((await damlink('perft', '--variant', 'brazilian', '--depth', '3')).lines.at(-1)).toBe('302');
  });
  it('a bad FEN is a located error with exit code 2', async () => {
    const r = await damlink('perft', '--fen', 'W:W51', '--depth', '1');
    expect(r.code).toBe(2);
    expect(r.err).toContain('square 51');
  });
});

describe('damlink moves', () => {
  it('prints one JSON object per canonical move: from, to, captured in order, path, pdn', async () => {
    const r = await damlink('moves', '--fen', 'W:WK21:B10,12,13,14,18,23,29,32,38');
    const list = JSON.parse(r.out) as Array<{
      from: number;
      to: number;
      captured: number[];
      path: number[];
      pdn: string;
    }>;
    expect(list).toHaveLength(7);
    expect(list).toContainEqual({
      from: 21,
      to: 42,
      captured: [12, 14, 29, 38],
      path: [21, 3, 20, 33, 42],
      pdn: '21x3x20x33x42',
    });
    expect(list.find((m) => m.to === 37)?.pdn).toBe('21x37');
  });
});

describe('damlink pdn check', () => {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-pdn-'));
  const good = join(dir, 'good.pdn');
  const bad = join(dir, 'bad.pdn');
  writeFileSync(good, '[Event "a"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n[Event "b"]\n1. 33-28 *\n');
  writeFileSync(bad, '[Event "c"]\n1. 32-28 19-23\n2. 28-22 *\n');

  it('reports games and moves per file, exit 0 when all are legal', async () => {
    const r = await damlink('pdn', 'check', good);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([`${good}: 2 games, 5 moves ok`]);
  });
  it('prints located errors and exits 1', async () => {
    const r = await damlink('pdn', 'check', good, bad);
    expect(r.code).toBe(1);
    expect(r.out).toContain(`${bad}:3:4: 2. 28-22 is not a legal move here`);
  });
  it('--json gives one report per file', async () => {
    const r = await damlink('pdn', 'check', '--json', good, bad);
    const reports = JSON.parse(r.out);
    expect(reports.map((x: { games: number }) => x.games)).toEqual([2, 1]);
    expect(reports[1].errors[0]).toMatchObject({ code: 'illegal-move', line: 3, col: 4 });
  });
  it('--json adds per game the tags, the moves and the first problem, with an ambiguous move’s candidates', async () => {
    const amb = join(dir, 'amb.pdn');
    writeFileSync(
      amb,
      '[Event "a"]\n[FEN "W:WK21:B10,12,13,14,18,23,29,32,38"]\n1. 21x42 *\n\n[Event "b"]\n1. 32-28 *\n',
    );
    const [good1, amb1] = JSON.parse((await damlink('pdn', 'check', '--json', good, amb)).out);
    expect(good1.perGame.map((g: { tags: object }) => g.tags)).toEqual([{ Event: 'a' }, { Event: 'b' }]);
    expect(good1.perGame[0]).toMatchObject({
      line: 1,
      moves: ['32-28', '19-23', '28x19', '14x23'],
      problem: null,
    });
    expect(amb1.perGame[0].problem).toMatchObject({ code: 'ambiguous-move', line: 3, col: 4 });
    expect(amb1.perGame[0].problem.candidates.sort()).toEqual(['21x3x20x33x42', '21x8x24x33x42']);
    expect(amb1.perGame[1]).toMatchObject({ tags: { Event: 'b' }, moves: ['32-28'], problem: null });
    expect(amb1.errors).toHaveLength(1);
  });
  it('reads Latin-1 files and reports what the grammar refuses with its location', async () => {
    const latin = join(dir, 'latin.pdn');
    writeFileSync(
      latin,
      Buffer.from('[White "H\xe9bert"]\n1. 32-28 19-23\n[Event "b"]\n1. 32-28 *\n', 'latin1'),
    );
    const r = await damlink('pdn', 'check', '--json', latin);
    const [report] = JSON.parse(r.out);
    expect(r.code).toBe(1);
    expect(report.perGame[0].tags.White).toBe('Hébert');
    expect(report.errors[0]).toMatchObject({ code: 'missing-terminator', line: 2, col: 10 });
  });
  it('an unreadable file is reported and exits 1', async () => {
    const r = await damlink('pdn', 'check', join(dir, 'missing.pdn'));
    expect(r.code).toBe(1);
    expect(r.out).toContain('missing.pdn');
  });
});
