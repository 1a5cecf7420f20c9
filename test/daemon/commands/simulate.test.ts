// `damlink simulate --transport none --events-out DIR`: ground-truth files for 100 seeded games.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { parsePdn } from '../../../src/engine/index.ts';
import { simulateGame } from '../../../simulator/game.ts';
import { boardAfter } from '../../simulator/fixtures/helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const damlink = (...args: string[]) =>
  spawnSync(
    process.execPath,
    ['--import', 'tsx', 'test/simulator/fixtures/simulate-cli.ts', 'simulate', ...args],
    {
      encoding: 'utf8',
      cwd: join(import.meta.dirname, '../../..'),
    },
  );

describe('damlink simulate --transport none', () => {
  it('writes events, PDN and injected irregularities for 100 seeded games with realistic noise', () => {
    const out = damlink(
      '--transport',
      'none',
      '--events-out',
      dir,
      '--boards',
      '100',
      '--seed',
      '9',
      '--noise',
      'realistic',
      '--inject',
      '5.4.6,takeback',
      '--inject-probability',
      '0.05',
    );
    expect(out.status, out.stderr).toBe(0);
    expect(out.stdout).toMatch(/wrote 100 games/);
    const files = readdirSync(dir);
    expect(files).toHaveLength(300);
    let injected = 0;
    for (let i = 1; i <= 100; i++) {
      const events: BoardEvent[] = readFileSync(join(dir, `board-${i}.jsonl`), 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(events[0]).toMatchObject({ type: 'snapshot', t: 0 });
      const pdn = parsePdn(readFileSync(join(dir, `board-${i}.pdn`), 'utf8'));
      const rules = JSON.parse(readFileSync(join(dir, `board-${i}.injected.json`), 'utf8')) as {
        rule: string;
      }[];
      injected += rules.length;
      expect(rules.every((r) => r.rule === '5.4.6' || r.rule === '5.4.4')).toBe(true);
      // An irregular move (5.4.6) makes the rest unreadable as a legal game; the others replay fully.
      if (!rules.some((r) => r.rule === '5.4.6')) {
        expect(pdn.errors).toEqual([]);
        expect(boardAfter(events)).toBe(pdn.games[0].end.toBoardString());
      }
      expect(events.filter((e) => e.type === 'press').length).toBeGreaterThanOrEqual(
        pdn.games[0].moves.length,
      );
    }
    expect(injected).toBeGreaterThan(10);
  });

  it("--pdn plays the file's games, one per board, and reports an illegal move with its location", () => {
    const games = [simulateGame({ seed: 1, maxPlies: 12 }), simulateGame({ seed: 2, maxPlies: 14 })];
    const pdnFile = join(dir, 'round.pdn');
    writeFileSync(pdnFile, games.map((g) => g.pdn).join('\n'));
    const out = join(dir, 'replayed');
    expect(damlink('--pdn', pdnFile, '--transport', 'none', '--events-out', out).status).toBe(0);
    games.forEach((g, i) => {
      const replayed = parsePdn(readFileSync(join(out, `board-${i + 1}.pdn`), 'utf8')).games[0];
      expect(replayed.moves.map((m) => m.notation)).toEqual(g.moves.map((m) => m.pdn));
      expect(replayed.result).toBe(g.result);
    });
    const bad = join(dir, 'bad.pdn');
    writeFileSync(bad, '[Event "x"]\n\n1. 32-28 19-23 2. 28-22 *\n');
    const r = damlink('--pdn', bad, '--transport', 'none', '--events-out', out);
    expect(r.status).toBe(2);
    expect(r.stderr).toMatch(/bad\.pdn:3:\d+: .*28-22/);
  });

  it('rejects an unknown irregularity', () => {
    const out = damlink('--transport', 'none', '--events-out', dir, '--inject', '9.9');
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/unknown irregularity "9.9"/);
  });
});
