// `damlink decode`: the tool a user runs on a capture from a misbehaving board.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { VECTOR_DIR } from '../../firmware-protocol/fixtures/vectors.ts';

const root = join(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'damlink-decode-'));

function decode(args: string[]) {
  const r = spawnSync(process.execPath, [join(root, 'bin/damlink.js'), 'decode', ...args], {
    encoding: 'utf8',
    cwd: root,
  });
  return {
    code: r.status,
    lines: r.stdout
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l)),
    stderr: r.stderr,
  };
}

describe('damlink decode', { timeout: 60_000 }, () => {
  it('prints a DGT capture as JSON lines, faults included, through a field map file', () => {
    const capture = join(dir, 'dgt.bin');
    // garbage, a field update (field 0), a message cut short by the next, a field update (field 49)
    writeFileSync(capture, Buffer.from([0x01, 0x8e, 0, 5, 0, 0, 0x94, 0, 0x35, 1, 0x8e, 0, 5, 49, 1]));
    const map = join(dir, 'map.json');
    writeFileSync(
      map,
      JSON.stringify({ fields50: Array.from({ length: 50 }, (_, i) => 50 - i), orientation: 'normal' }),
    );
    const r = decode(['--protocol', 'dgt', '--field-map', map, capture]);
    expect(r.code).toBe(0);
    expect(r.lines).toEqual([
      { t: 0, type: 'fault', code: 'garbage', message: expect.any(String), offset: 0, resync: true },
      { t: 0, type: 'lift', square: 50 },
      { t: 0, type: 'fault', code: 'truncated', message: expect.any(String), offset: 6, resync: true },
      { t: 0, type: 'put', square: 1, piece: 'w' },
    ]);
    expect(r.stderr).toContain('4 events, 2 faults');
  });

  it('reads timed .jsonl captures; HID captures are cut into reports', () => {
    const capture = join(dir, 'hid.jsonl');
    const report = (cells: number[]) => [
      1,
      ...Array.from({ length: 25 }, (_, i) => (cells[2 * i] ?? 0) | ((cells[2 * i + 1] ?? 0) << 4)),
    ];
    const a = Buffer.from(report([1])).toString('hex');
    const b = Buffer.from(report([0, 1])).toString('hex');
    writeFileSync(capture, `{"t": 10, "hex": "${a}"}\n{"t": 20, "hex": "${a}${b}"}\n`);
    const r = decode(['--protocol', 'hid', capture]);
    expect(r.lines).toEqual([
      { t: 10, type: 'snapshot', board: `w${'.'.repeat(49)}` },
      { t: 20, type: 'lift', square: 1 },
      { t: 20, type: 'put', square: 2, piece: 'w' },
    ]);
  });

  it('decodes a line-protocol vector capture', () => {
    const capture = join(dir, 'line.bin');
    writeFileSync(capture, 'hello 0 1.0 serial=A squares=50 senses=pieces*0000\n');
    const r = decode(['--protocol', 'line', capture]);
    expect(r.lines).toEqual([
      {
        t: 0,
        type: 'fault',
        code: 'checksum',
        message: expect.stringContaining('does not match'),
        offset: 1,
        resync: true,
      },
    ]);
    expect(VECTOR_DIR).toContain('vectors');
  });

  it('refuses an unknown protocol and a bad field map as usage errors (exit 2)', () => {
    expect(decode(['--protocol', 'morse', join(dir, 'line.bin')]).code).toBe(2);
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"fields50": [1]}');
    const r = decode(['--protocol', 'dgt', '--field-map', bad, join(dir, 'line.bin')]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('fields50');
  });

  it('shows every DGT message it understood, skipping the commands a capture kept ("dir": "out")', () => {
    const vector = JSON.parse(readFileSync(join(VECTOR_DIR, 'dgt-messages.json'), 'utf8'));
    const capture = join(dir, 'messages.jsonl');
    const out = (t: number, hex: string) => JSON.stringify({ t, dir: 'out', hex });
    writeFileSync(
      capture,
      `${[out(0, '4d 45'), ...vector.input.map((c: { t: number; hex: string }) => JSON.stringify(c)), out(99, '2b 0a 03 0a 00 00 00 00 00 00 04 00')].join('\n')}\n`,
    );
    const map = join(dir, 'normal.json');
    writeFileSync(map, JSON.stringify(vector.options));
    const r = decode(['--protocol', 'dgt', '--field-map', map, capture]);
    expect(r.code).toBe(0);
    const messages = r.lines.filter((l) => l.type === 'message');
    expect(messages).toEqual(vector.messages);
    expect(r.lines.filter((l) => l.type !== 'message')).toEqual(
      vector.expected.map((e: { type: string }) =>
        e.type === 'fault' ? { ...e, message: expect.any(String) } : e,
      ),
    );
    expect(messages.map((m) => m.message)).toEqual(
      expect.arrayContaining(['serial', 'version', 'trademark', 'battery', 'clock', 'clock-ack']),
    );
    expect(messages.filter((m) => m.message === 'clock-ack').map((m) => m.meaning)).toEqual([
      'ok',
      'error',
      'ok',
      'ready',
      'button',
    ]);
    expect(r.stderr).toContain(
      `${vector.expected.length} events, 2 faults, ${vector.messages.length} messages`,
    );
  });
});
