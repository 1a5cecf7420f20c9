// `damlink doctor` as a user runs it: a DGT board behind a socat PTY answers identify, a dump and its
// clock; a missing device and a data directory that cannot be written each fail with advice (exit 1).
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { Finding } from '../../../daemon/doctor/checks.ts';
import { startSimulation } from '../../../simulator/index.ts';
import { cleanUp, onCleanup } from '../../integration/fixtures/helpers.ts';
import { spawnDamlink } from './fixtures/run-cli.ts';

afterEach(cleanUp);

async function doctor(args: string[]): Promise<{ code: number | null; findings: Finding[]; stderr: string }> {
  const run = spawnDamlink(['doctor', '--json', '--port', '0', '--answer-ms', '1500', ...args]);
  const code = await run.exited;
  const stdout = run.stdout();
  const stderr = run.stderr();
  return {
    code,
    findings: stdout
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr,
  };
}

const dir = () => mkdtempSync(join(tmpdir(), 'damlink-doctor-'));

describe('damlink doctor', () => {
  it('a DGT board on a PTY: identify, a dump and the clock answered; exit 0', async () => {
    const sim = await startSimulation({ boards: 1, protocol: 'dgt', transport: 'pty', seed: 3 });
    onCleanup(() => sim.stop());
    const data = dir();
    const config = join(data, 'damlink.yaml');
    writeFileSync(config, `protocol:\n  name: dgt\nboards:\n  - source: serial:${sim.boards[0].address}\n`);
    const r = await doctor(['--config', config, '--data-dir', data]);
    expect(r.code, r.stderr).toBe(0);
    const board = r.findings.filter((f) => f.check.startsWith('board 1'));
    expect(board).toEqual([
      expect.objectContaining({
        status: 'ok',
        detail: expect.stringMatching(/serial 00001, firmware 1\.00/),
      }),
      expect.objectContaining({ status: 'ok', detail: 'sent a dump: 40 pieces on the board' }),
      expect.objectContaining({ status: 'ok', detail: 'a clock is connected' }),
    ]);
    expect(r.findings).toContainEqual(expect.objectContaining({ check: 'data directory', status: 'ok' }));
    expect(r.findings.every((f) => f.status === 'ok' || f.advice)).toBe(true);
  }, 30_000);

  it('a missing device: fail with advice, exit 1 and one line on stderr', async () => {
    const r = await doctor(['--board', '/dev/damlink-no-such-board', '--data-dir', dir()]);
    expect(r.code).toBe(1);
    expect(r.findings).toContainEqual({
      check: 'serial /dev/damlink-no-such-board',
      status: 'fail',
      detail: 'no such device',
      advice: expect.stringMatching(/plug the board in/),
    });
    expect(r.stderr.trim().split('\n')).toEqual(['damlink: 1 problem to fix before the round']);
  }, 30_000);

  it('a data directory that cannot be written: fail with advice', async () => {
    // Root writes anywhere a mode allows nothing: a read-only file system stops it too.
    let readOnly = '/sys/damlink-doctor';
    if (process.getuid?.() !== 0) {
      readOnly = dir();
      chmodSync(readOnly, 0o555);
    }
    const r = await doctor(['--data-dir', readOnly]);
    expect(r.code).toBe(1);
    expect(r.findings[0]).toMatchObject({
      check: 'data directory',
      status: 'fail',
      detail: expect.stringContaining(`cannot write in ${readOnly}`),
      advice: expect.stringMatching(/--data-dir/),
    });
  }, 30_000);
});
