// `damlink calibrate` as a user runs it: bad usage is exit 2, a board that cannot be calibrated is
// exit 1 with one line on stderr, and no profile file either way.
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damlink } from './fixtures/run-cli.ts';

describe('damlink calibrate', () => {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-calibrate-cli-'));

  it('without --board: usage, exit 2', () => {
    const r = damlink(['calibrate']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/^damlink: .*--board/);
  });

  it('a board source it cannot read: usage, exit 2', () => {
    const r = damlink(['calibrate', '--board', 'usb:1', '--out', join(dir, 'x.json')]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^damlink: --board: unknown scheme "usb"/),
    ]);
  });

  it('a missing device: exit 1, one line, no profile written', () => {
    const out = join(dir, 'missing.json');
    const r = damlink([
      'calibrate',
      '--board',
      '/dev/damlink-no-such-board',
      '--protocol',
      'dgt',
      '--out',
      out,
    ]);
    expect(r.code).toBe(1);
    expect(r.stderr.trim().split('\n')).toEqual([
      expect.stringMatching(/^damlink: calibration failed: cannot open the board: .*; no profile written$/),
    ]);
    expect(existsSync(out)).toBe(false);
  });
});
