// `damlink simulate --transport none --events-out DIR`: ground-truth files for 100 seeded games.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import { parsePdn } from '../../src/engine/index.ts';
import { boardAfter } from './helpers.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-sim-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const damlink = (...args: string[]) =>
  spawnSync(process.execPath, ['bin/damlink.js', 'simulate', ...args], {
    encoding: 'utf8',
    cwd: join(import.meta.dirname, '../..'),
  });

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

  it('rejects an unknown irregularity', () => {
    const out = damlink('--transport', 'none', '--events-out', dir, '--inject', '9.9');
    expect(out.status).toBe(2);
    expect(out.stderr).toMatch(/unknown irregularity "9.9"/);
  });
});
