// What the commands print for scripts: `--json` shapes (docs/cli.md), a quiet stop when the reader
// of stdout goes away (EPIPE), and a progress bar only on a terminal.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progress } from '../../../daemon/commands/progress.ts';
import { Journal } from '../../../daemon/journal/journal.ts';
import { BIN, damlink, ROOT } from './fixtures/run-cli.ts';
import { Position, Script } from '../../src/tracker/fixtures/hands.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-output-'));
const jsonLines = (text: string) =>
  text
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));

/** A round of 6000 sensor events on two boards: the events file is far bigger than a pipe's buffer. */
function journalWithEvents(): string {
  const dataDir = mkdtempSync(join(tmpdir(), 'damlink-output-data-'));
  const journal = Journal.open(join(dataDir, 'journal.sqlite'));
  const reqs = Array.from({ length: 6000 }, (_, i) => {
    const event =
      i % 2
        ? { t: i, type: 'put' as const, square: 1 + (i % 50) }
        : { t: i, type: 'lift' as const, square: 1 + (i % 50) };
    return {
      round: 1,
      board: 1 + (i % 2),
      t: i,
      input: { kind: 'event' as const, event },
      raw: new Uint8Array([1]),
    };
  });
  journal.appendMany(reqs);
  journal.close();
  return dataDir;
}

describe('command-line output', { timeout: 60_000 }, () => {
  it('export --events | head -1: one line out, nothing on stderr, exit 0 (EPIPE is a quiet stop)', () => {
    const dataDir = journalWithEvents();
    const r = spawnSync(
      'bash',
      [
        '-c',
        `set -o pipefail; "${process.execPath}" "${BIN}" export --round 1 --events --data-dir "${dataDir}" | head -1`,
      ],
      { cwd: ROOT, encoding: 'utf8' },
    );
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.stdout)).toMatchObject({ board: 1, t: 0, type: 'lift', square: 1 });
  });

  it('export --json: the round as one JSON document of game snapshots', () => {
    const r = damlink(['export', '--round', '1', '--json', '--data-dir', journalWithEvents()]);
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.round).toBe(1);
    expect(doc.games.map((g: { info: { board: number } }) => g.info.board)).toEqual([1, 2]);
    expect(doc.games[0]).toHaveProperty('startFen');
  });

  it("export --round: each board's game is the round's (its table's), not the one played on it after", () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'damlink-output-table-'));
    const start = Position.initial();
    const s = new Script(start);
    for (const [from, to, side] of [
      [32, 28, 'white'],
      [19, 23, 'black'],
      [28, 19, 'white'],
      [14, 23, 'black'],
    ] as const) {
      s.carry(from, to).wait(300);
      if (from === 28) s.remove(23).wait(300);
      if (from === 14) s.remove(19).wait(300);
      s.press(side).wait(1500);
    }
    // The pieces set up again, and another game started on the board.
    s.snapshot(start.toBoardString()).wait(1500).tick().wait(1000);
    s.carry(33, 29).wait(300).press('white').wait(1500).tick();
    const journal = Journal.open(join(dataDir, 'journal.sqlite'));
    journal.appendMany(
      s.events.map((event) => ({
        round: 1,
        board: 1,
        t: event.t,
        input: { kind: 'event' as const, event },
        raw: new Uint8Array([1]),
      })),
    );
    journal.close();
    const r = damlink(['export', '--round', '1', '--data-dir', dataDir]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toContain('1. 32-28 19-23 2. 28x19 14x23');
    expect(r.stdout).not.toContain('33-29');
  });

  it('perft --json: one document with the count and the divide', () => {
    const r = damlink(['perft', '--depth', '2', '--divide', '--json']);
    const doc = JSON.parse(r.stdout);
    expect(doc).toMatchObject({ variant: 'international', depth: 2, nodes: 81 });
    expect(doc.divide).toHaveLength(9);
    expect(doc.divide).toContainEqual({ move: '32-28', nodes: 9 });
  });

  it('replay --json: a game line, then an alert line each', () => {
    const events = join(dir, 'events.jsonl');
    const lines = [
      { t: 0, type: 'lift', square: 28 },
      { t: 300, type: 'put', square: 32 },
      { t: 700, type: 'press', side: 'white' },
      { t: 2000, type: 'tick' },
    ];
    writeFileSync(events, lines.map((l) => JSON.stringify(l)).join('\n'));
    const r = damlink(['replay', '--events', events, '--fen', 'W:W28:B5', '--json']);
    expect(r.code, r.stderr).toBe(0);
    const [game, ...alerts] = jsonLines(r.stdout);
    expect(game).toMatchObject({ type: 'game', startFen: 'W:W28:B5', moves: ['28-32'], result: '*' });
    expect(game.pdn).toContain('[FEN "W:W28:B5"]');
    expect(alerts[0]).toMatchObject({ type: 'alert', rule: '5.4.2', ply: 1, side: 'white' });
  });

  it('simulate --transport none --json: a line per game, then a done line', () => {
    const out = join(dir, 'sim');
    const r = damlink([
      'simulate',
      '--transport',
      'none',
      '--events-out',
      out,
      '--boards',
      '2',
      '--max-plies',
      '6',
      '--json',
    ]);
    expect(r.code, r.stderr).toBe(0);
    const lines = jsonLines(r.stdout);
    expect(lines.map((l) => l.type)).toEqual(['game', 'game', 'done']);
    expect(lines[0]).toMatchObject({ board: 'board-1', plies: 6 });
    expect(lines[2]).toMatchObject({ games: 2, dir: out });
    expect(r.stderr).toBe('');
  });

  it('progress: a bar on a terminal, nothing on a pipe', () => {
    const written: string[] = [];
    const sink = (isTTY: boolean) =>
      Object.assign(
        new Writable({
          write(chunk, _enc, done) {
            written.push(String(chunk));
            done();
          },
        }),
        { isTTY, columns: 80, cursorTo: () => true, clearLine: () => true, moveCursor: () => true },
      );
    const quiet = progress('check', 3, sink(false));
    quiet.tick(3);
    quiet.stop();
    expect(written).toEqual([]);
    const bar = progress('check', 3, sink(true));
    bar.tick(3);
    bar.stop();
    expect(written.join('')).toContain('check [');
  });
});
