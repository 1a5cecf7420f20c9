// `damlink replay`: an event file → PDN of the reconstructed game and the alerts.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { replayEvents } from '../../../daemon/commands/replay.ts';
import { fen, Position, Script, scanningHello, sequence } from './fixtures/hands.ts';

const jsonl = (s: Script) => s.events.map((e) => JSON.stringify(e)).join('\n');

describe('damlink replay', () => {
  it('reconstructs the moves, reports 5.4.6 with its ply, and skips bad lines with their number', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28).wait(400).press('white').wait(1500);
    s.carry(19, 23).wait(400).press('black').wait(1500);
    s.carry(31, 27).wait(400).press('white').wait(1000);
    const r = replayEvents(`${jsonl(s)}\n{"t": 1, "type": "lift"}\nnot json\n`, { variant: 'international' });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.games.map((g) => g.moves)).toEqual([['32-28', '19-23', '31-27']]);
    expect(r.value.alerts.map((a) => [a.rule, a.ply, a.side])).toEqual([['5.4.6', 3, 'white']]);
    expect(r.value.errors.map((e) => [e.code, e.line])).toEqual([
      ['bad-event', s.events.length + 1],
      ['bad-json', s.events.length + 2],
    ]);
  });

  it('the CLI prints PDN then one JSON line per alert', () => {
    const start = fen('W:W28:B5');
    const s = new Script(start).carry(28, 32).wait(400).press('white').wait(1000).tick();
    const dir = mkdtempSync(join(tmpdir(), 'damlink-replay-'));
    const file = join(dir, 'events.jsonl');
    writeFileSync(file, jsonl(s));
    const out = execFileSync(
      process.execPath,
      ['--import', 'tsx', 'daemon/cli.ts', 'replay', '--events', file, '--fen', 'W:W28:B5'],
      { encoding: 'utf8' },
    );
    expect(out).toContain('[FEN "W:W28:B5"]');
    expect(out).toMatch(/1\. 28-32 \*/);
    const last = JSON.parse(out.trim().split('\n').at(-1)!);
    expect(last).toMatchObject({ rule: '5.4.2', ply: 1, side: 'white' });
    expect(typeof last.message).toBe('string');
    expect(last.params).toMatchObject({ side: 'white' });
  });

  it('a takeback removes the move from the PDN', () => {
    const start = Position.initial();
    const s = new Script(start).carry(32, 28).wait(400).press('white').wait(1500);
    s.carry(19, 23).wait(400).press('black').wait(1500);
    s.carry(23, 19).wait(1500).tick();
    s.play(sequence(start.withTurn('black'), '17-21'), 'black');
    const r = replayEvents(jsonl(s), { variant: 'international' });
    expect(r.ok && r.value.games[0].moves).toEqual(['32-28', '17-21']);
    expect(r.ok && r.value.alerts.map((a) => a.rule)).toEqual(['5.4.4']);
  });

  it('a recorded stream of a board that reports by scans is read as the board saw it (4.11 over scans)', () => {
    // 49x40 takes 43, 33, 34; reported a scan's worth apart in square order 33, 34, 43, 100 ms apart.
    const start = fen('W:W49:B6,10,13,18,33,34,36,37,43');
    const s = new Script(start);
    const piece = s.lift(49);
    s.wait(400).put(40, piece).wait(500);
    for (const [i, sq] of [33, 34, 43].entries()) s.wait(i === 0 ? 0 : 100).remove(sq);
    s.wait(600).press('white').wait(1500).tick();
    const opts = { variant: 'international' as const, startFen: 'W:W49:B6,10,13,18,33,34,36,37,43' };
    const rules = (text: string, more = {}) => {
      const r = replayEvents(text, { ...opts, ...more });
      if (!r.ok) throw new Error(r.error.message);
      expect(r.value.games[0].moves).toEqual(['49x40']);
      return r.value.alerts.map((a) => a.rule);
    };
    // As changes come: 100 ms apart is an order, and not a legal one.
    expect(rules(jsonl(s))).toEqual(['4.11']);
    expect(rules(`${JSON.stringify(scanningHello())}\n${jsonl(s)}`)).toEqual([]);
    expect(rules(jsonl(s), { scanMs: 300 })).toEqual([]);
  });
});
