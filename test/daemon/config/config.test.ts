import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig, parseSource } from '../../../daemon/config/index.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-config-'));
const file = (name: string, text: string): string => {
  const path = join(dir, name);
  writeFileSync(path, text);
  return path;
};
/** The errors loading `text` as the file `name` gives (none where it loads), and its path. */
const refusal = (name: string, text: string): { path: string; errors: string[] } => {
  const path = file(name, text);
  const r = loadConfig({ file: path });
  return { path, errors: r.ok ? [] : r.error };
};

describe('board sources', () => {
  it('reads serial paths with and without the scheme', () => {
    expect(parseSource('/dev/ttyUSB0')).toMatchObject({
      ok: true,
      value: { kind: 'serial', path: '/dev/ttyUSB0' },
    });
    expect(parseSource('serial:/dev/serial/by-id/usb-DGT-if00')).toMatchObject({
      ok: true,
      value: { kind: 'serial', path: '/dev/serial/by-id/usb-DGT-if00' },
    });
  });
  it('reads hid ids in hex with an optional serial', () => {
    expect(parseSource('hid:2d80:8002:AB12')).toMatchObject({
      ok: true,
      value: { kind: 'hid', vendorId: 0x2d80, productId: 0x8002, serialNumber: 'AB12' },
    });
    expect(parseSource('hid:0403')).toMatchObject({ ok: false });
  });
  it('reads tcp host and port', () => {
    expect(parseSource('tcp://127.0.0.1:7001')).toMatchObject({
      ok: true,
      value: { host: '127.0.0.1', port: 7001 },
    });
    expect(parseSource('tcp://[::1]:7001')).toMatchObject({ ok: true, value: { host: '::1', port: 7001 } });
    expect(parseSource('tcp://host:99999')).toMatchObject({ ok: false });
  });
});

describe('config file', () => {
  it('names the offending key for an unknown scheme', () => {
    const { path, errors } = refusal(
      'bad.yaml',
      'boards:\n  - source: tcp://a:1\n  - source: tcp://a:2\n  - source: tcp://a:3\n  - source: usb:1\n',
    );
    expect(errors).toContain(
      `${path}:5 boards[3].source: unknown scheme "usb"; expected serial:, hid:, tcp:`,
    );
  });

  it('applies defaults and numbers boards in order', () => {
    const r = loadConfig({
      file: file('ok.yaml', 'event: Open\nboards:\n  - source: /dev/ttyUSB0\n    white: Ann\n'),
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      event: 'Open',
      host: '127.0.0.1',
      port: 8080,
      dataDir: './data',
      round: 1,
    });
    expect(r.value.drawRule).toEqual({ profile: 'fmjd', advantage: false });
    expect(r.value.setups).toMatchObject([{ board: 1, white: 'Ann', source: { kind: 'serial' } }]);
  });

  it('reads JSON and rejects unknown keys and bad values with their paths', () => {
    const { path, errors } = refusal(
      'bad.json',
      JSON.stringify({ port: 'x', colour: 1, drawRule: { profile: 'x' } }),
    );
    expect(errors.some((m) => m.startsWith(`${path}:1 port:`))).toBe(true);
    expect(errors.some((m) => m.startsWith(`${path}:1 drawRule.profile:`))).toBe(true);
    expect(errors.some((m) => m.includes('colour'))).toBe(true);
  });

  it('reports duplicate board numbers and unreadable files', () => {
    const dup = loadConfig({ flags: { boards: ['tcp://a:1'] }, env: { DAMLINK_BOARDS__0__BOARD: '1' } });
    expect(dup.ok).toBe(true);
    const { path, errors } = refusal(
      'dup.yaml',
      'boards:\n  - { source: tcp://a:1, board: 2 }\n  - { source: tcp://a:2 }\n',
    );
    // boards[1] has no `board:` key: the message points at its entry.
    expect(errors).toEqual([`${path}:3 boards[1].board: board 2 is already boards[0]`]);
    expect(loadConfig({ file: join(dir, 'missing.yaml') })).toMatchObject({ ok: false });
  });
});

describe('overrides', () => {
  it('env overrides every key, flags override env', () => {
    const path = file('base.yaml', 'port: 8000\nhost: 0.0.0.0\nboards:\n  - source: tcp://a:1\n');
    const env = {
      DAMLINK_PORT: '9000',
      DAMLINK_DATA_DIR: '/var/lib/damlink',
      DAMLINK_TOKENS__ARBITER: '01234567890123456789',
      DAMLINK_BOARDS__0__WHITE: 'Bea',
      DAMLINK_DRAW_RULE__PROFILE: 'fmjd-64',
      DAMLINK_AUTO_RESULT: 'true',
    };
    const r = loadConfig({ file: path, env, flags: { host: '127.0.0.2' } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toMatchObject({
      port: 9000,
      host: '127.0.0.2',
      dataDir: '/var/lib/damlink',
      autoResult: true,
    });
    expect(r.value.tokens.arbiter).toBe('01234567890123456789');
    expect(r.value.drawRule.profile).toBe('fmjd-64');
    expect(r.value.setups[0]).toMatchObject({ white: 'Bea', source: { kind: 'tcp', port: 1 } });
  });

  it('flags alone are enough; --board replaces the file list', () => {
    const r = loadConfig({ flags: { boards: ['tcp://127.0.0.1:7001', 'serial:/dev/ttyUSB1'], round: 3 } });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.round).toBe(3);
    expect(r.value.setups.map((s) => [s.board, s.source.kind])).toEqual([
      [1, 'tcp'],
      [2, 'serial'],
    ]);
  });

  it('merges per-board protocol options over the global ones', () => {
    const path = file(
      'proto.yaml',
      'protocol: { name: dgt, pieceCodes: { w: 1, b: 4, W: 7, B: 10 } }\nboards:\n  - source: /dev/ttyUSB0\n    protocol: { name: dgt, orientation: rotated }\n',
    );
    const r = loadConfig({ file: path });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.setups[0].protocol.name).toBe('dgt');
    expect(r.value.setups[0].options).toMatchObject({
      orientation: 'rotated',
      pieceCodes: { w: 1, b: 4, W: 7, B: 10 },
    });
  });

  it('reports bad board descriptions through the protocol checker', () => {
    const { path, errors } = refusal(
      'badproto.yaml',
      'boards:\n  - source: /dev/ttyUSB0\n    protocol: { name: dgt, orientation: sideways }\n',
    );
    expect(errors).toEqual([`${path}:3 boards[0].protocol: orientation must be auto, normal or rotated`]);
    const name = loadConfig({ flags: { boards: ['/dev/x'] }, env: { DAMLINK_PROTOCOL__NAME: 'usb' } });
    expect(name.ok).toBe(false);
    if (!name.ok) expect(name.error[0]).toMatch(/^DAMLINK_PROTOCOL__NAME: /);
  });

  it('accepts the documented example config (docs/ops)', () => {
    const r = loadConfig({ file: join(import.meta.dirname, '../../../docs/ops/damlink.example.yaml') });
    expect(r.ok).toBe(true);
    if (r.ok)
      expect(r.value.setups.map((s) => [s.board, s.source.kind])).toEqual([
        [1, 'serial'],
        [2, 'tcp'],
        [7, 'hid'],
      ]);
  });
});

describe('the tournament: block from the command line', () => {
  it('--tournament, --pairing-program, --tournament-name, --rounds, --groups and --first-colour set its keys', () => {
    const r = loadConfig({
      flags: {
        boards: ['tcp://127.0.0.1:7001'],
        tournament: 'players.csv',
        pairingProgram: 'bbpPairings.exe',
        tournamentName: 'Club',
        rounds: 9,
        groups: ['Seniors', 'Juniors'],
        firstColour: 'black',
      },
    });
    expect(r.ok && r.value.tournament).toEqual({
      file: 'players.csv',
      pairingProgram: 'bbpPairings.exe',
      name: 'Club',
      rounds: 9,
      groups: ['Seniors', 'Juniors'],
      firstColour: 'black',
      groupsTogether: false,
      clubsApart: false,
      keepApart: [],
      publicPersonalData: false,
    });
    const bad = loadConfig({ flags: { boards: ['tcp://127.0.0.1:7001'], firstColour: 'green' } });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error[0]).toMatch(/^--first-colour/);
  });
});
