// `damlink capture` against a simulated DGT board behind a socat PTY: the file holds the board's
// bytes and the commands sent, and `damlink decode` reads it back into the board's hello and picture.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { startSimulation } from '../../../simulator/index.ts';
import { cleanUp, onCleanup } from '../../integration/fixtures/helpers.ts';
import { BIN, ROOT, spawnDamlink } from './fixtures/run-cli.ts';

afterEach(cleanUp);

describe('damlink capture', () => {
  it('keeps what a DGT board said and what was sent to it; decode reads it', async () => {
    const sim = await startSimulation({ boards: 1, protocol: 'dgt', transport: 'pty', idle: true });
    onCleanup(() => sim.stop());
    const out = join(mkdtempSync(join(tmpdir(), 'damlink-capture-')), 'board.jsonl');
    const run = spawnDamlink([
      'capture',
      '--board',
      `serial:${sim.boards[0].address}`,
      '--protocol',
      'dgt',
      '--seconds',
      '2',
      '--out',
      out,
    ]);
    const code = await run.exited;
    const stderr = run.stderr();
    expect(code, stderr).toBe(0);
    expect(stderr).toMatch(/damlink: \d+ bytes in \d+ reads from the board, \d+ commands sent/);
    const lines = readFileSync(out, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const sent = lines.filter((l) => l.dir === 'out').map((l) => l.hex);
    // reset, update mode (changes + clock when it changes), identify (version, serial), dump, the
    // board's record (EE_MOVES), then pings
    expect(sent.slice(0, 5)).toEqual(['40', '4b', '4d 45', '50', '49']);
    expect(sent.slice(5)).toContain('45');
    expect(lines.every((l) => typeof l.t === 'number' && /^([0-9a-f]{2}( |$))+/.test(l.hex))).toBe(true);
    const decoded = spawnSync(process.execPath, [BIN, 'decode', '--protocol', 'dgt', out], {
      cwd: ROOT,
      encoding: 'utf8',
    });
    const events = decoded.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(events).toContainEqual(expect.objectContaining({ type: 'hello', serial: '00001' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'snapshot', board: '.'.repeat(50) }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'message', message: 'version' }));
    // The simulated board's record: its power-up-free log holds nothing of an idle board yet.
    expect(events).toContainEqual(expect.objectContaining({ type: 'message', message: 'ee-moves' }));
    expect(events).toContainEqual(expect.objectContaining({ type: 'history-log', changes: [] }));
  }, 30_000);

  it('a device that is not there: exit 1, one line', () => {
    const r = spawnSync(
      process.execPath,
      [BIN, 'capture', '--board', '/dev/damlink-none', '--out', join(tmpdir(), 'x.jsonl')],
      {
        cwd: ROOT,
        encoding: 'utf8',
      },
    );
    expect(r.status).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^damlink: cannot open \/dev\/damlink-none: /),
    ]);
  });
});
