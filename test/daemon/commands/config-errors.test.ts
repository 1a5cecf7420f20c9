// Config errors say where the value came from (file line, env var, flag), unknown keys get a
// "did you mean"; `config check` validates without starting; the JSON schema is the one committed.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../../daemon/config/index.ts';
import { configJsonSchema } from '../../../daemon/config/json-schema.ts';
import { closest } from '../../../daemon/config/suggest.ts';
import { damlink, ROOT } from './fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-config-errors-'));
const write = (name: string, text: string) => {
  const file = join(dir, name);
  writeFileSync(file, text);
  return file;
};
const errorsOf = (r: ReturnType<typeof loadConfig>) => (r.ok ? [] : r.error);

const FILE = [
  'event: Open', //  1
  'round: 3', //     2
  'prot: 9000', //   3
  'boards:', //      4
  '  - source: serial:/dev/ttyUSB0', // 5
  '  - source: tcp://10.0.0.2:4001', // 6
  '  - source: hid:2d80:8002', //       7
  '  - white: Anna', //                 8
  '    source: usb:3', //               9
  'log:', //                            10
  '  levle: debug', //                  11
].join('\n');

describe('config error locations', () => {
  it('names the file line of each bad value and unknown key', () => {
    const file = write('damlink.yaml', FILE);
    expect(errorsOf(loadConfig({ file })).sort()).toEqual(
      [
        `${file}:3 prot: unknown key "prot" (did you mean "port"?)`,
        `${file}:9 boards[3].source: unknown scheme "usb"; expected serial:, hid:, tcp:`,
        `${file}:11 log.levle: unknown key "levle" (did you mean "level"?)`,
      ].sort(),
    );
  });

  it('a missing required key points at its entry', () => {
    const file = write('missing.yaml', 'boards:\n  - source: /dev/ttyUSB0\n  - white: Anna\n');
    expect(errorsOf(loadConfig({ file }))).toEqual([
      `${file}:3 boards[1].source: Invalid input: expected string, received undefined`,
    ]);
  });

  it('names the environment variable that set a value', () => {
    expect(errorsOf(loadConfig({ env: { DAMLINK_PORT: '99999' } }))).toEqual([
      'DAMLINK_PORT: Too big: expected number to be <=65535',
    ]);
    expect(errorsOf(loadConfig({ env: { DAMLINK_BOARDS__0__SOURCE: 'usb:1' } }))).toEqual([
      'DAMLINK_BOARDS__0__SOURCE: unknown scheme "usb"; expected serial:, hid:, tcp:',
    ]);
    expect(errorsOf(loadConfig({ env: { DAMLINK_DATADIR: '/srv' } }))).toEqual([
      'DAMLINK_DATADIR: unknown key "datadir" (did you mean "dataDir"?)',
    ]);
  });

  it('an env override wins over the file, and so is named instead of the file', () => {
    const file = write('port.yaml', 'port: 8080\n');
    expect(errorsOf(loadConfig({ file, env: { DAMLINK_PORT: '"x"' } }))).toEqual([
      'DAMLINK_PORT: Invalid input: expected number, received string',
    ]);
  });

  it('names the flag that set a value', () => {
    expect(errorsOf(loadConfig({ flags: { boards: ['/dev/ttyUSB0', 'usb:1'] } }))).toEqual([
      '--board boards[1].source: unknown scheme "usb"; expected serial:, hid:, tcp:',
    ]);
  });

  it('locates YAML syntax errors and JSON files too', () => {
    const broken = write('broken.yaml', 'round: 3\nboards: [\n');
    expect(errorsOf(loadConfig({ file: broken }))[0]).toMatch(new RegExp(`^${broken}:\\d+:\\d+ `));
    const json = write('damlink.json', '{\n  "round": 2,\n  "boards": [{ "source": "usb:1" }]\n}\n');
    expect(errorsOf(loadConfig({ file: json }))).toEqual([
      `${json}:3 boards[0].source: unknown scheme "usb"; expected serial:, hid:, tcp:`,
    ]);
  });

  it('an environment variable that names no config key is an error before anything is applied', () => {
    const env = (name: string, value = '1') => errorsOf(loadConfig({ env: { [name]: value } }));
    expect(env('DAMLINK_PROT', '9000')).toEqual(['DAMLINK_PROT: unknown key "prot" (did you mean "port"?)']);
    // Nothing reaches past the config: no prototype is touched, and the error names the variable.
    expect(env('DAMLINK_CONSTRUCTOR__PROTOTYPE__POLLUTED')).toEqual([
      'DAMLINK_CONSTRUCTOR__PROTOTYPE__POLLUTED: unknown key "constructor"',
    ]);
    expect(env('DAMLINK_BOARDS__0__PROTOCOL____PROTO____POLLUTED')).toHaveLength(1);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    // A list index far past any hall is refused at once (not a list of a million boards).
    expect(env('DAMLINK_BOARDS__1000000__SOURCE', 'tcp://x:1')).toEqual([
      'DAMLINK_BOARDS__1000000__SOURCE: "boards.1000000": a list index is 0–999',
    ]);
    expect(env('DAMLINK_PORT__X')).toEqual(['DAMLINK_PORT__X: "port" is a value, not a section']);
    // Keys that exist still work, a board's own protocol options included.
    const r = loadConfig({
      env: { DAMLINK_BOARDS__0__SOURCE: 'tcp://10.0.0.2:4001', DAMLINK_LIMITS__CONNECTIONS: '50' },
    });
    expect(r.ok && [r.value.boards[0].source, r.value.limits.connections]).toEqual([
      'tcp://10.0.0.2:4001',
      50,
    ]);
  });

  it('a YAML file whose aliases would expand without bound is a configuration error (exit 2)', () => {
    const rows = ['a: &a [x, x, x, x, x, x, x, x, x]'];
    for (const [n, prev] of [
      ['b', 'a'],
      ['c', 'b'],
      ['d', 'c'],
      ['e', 'd'],
      ['f', 'e'],
      ['g', 'f'],
      ['h', 'g'],
    ])
      rows.push(`${n}: &${n} [${Array(9).fill(`*${prev}`).join(', ')}]`);
    const file = write('laughs.yaml', rows.join('\n'));
    const r = damlink(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain(`${file}: Excessive alias count`);
  });

  it('suggests the closest key only when it is near', () => {
    expect(closest('levle', ['level', 'name'])).toBe('level');
    expect(closest('tokenz', ['tokens', 'host'])).toBe('tokens');
    expect(closest('frobnicate', ['port', 'host'])).toBeUndefined();
  });
});

describe('damlink config', { timeout: 60_000 }, () => {
  it('check: exit 0 and a one-line summary for a good file', () => {
    const r = damlink(['config', 'check', join(ROOT, 'docs/ops/damlink.example.yaml')]);
    expect(r.code, r.stderr).toBe(0);
    expect(r.stderr).toBe('');
    expect(r.stdout).toMatch(
      /^.*damlink\.example\.yaml: ok, round 3, international, 3 boards, serving 127\.0\.0\.1:8080\n$/,
    );
  });

  it('check: exit 2 with the located errors, one line each', () => {
    const file = write('check.yaml', FILE);
    const r = damlink(['config', 'check', file]);
    expect(r.code).toBe(2);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trim().split('\n');
    expect(lines).toHaveLength(3);
    expect(lines).toContain(`damlink: ${file}:3 prot: unknown key "prot" (did you mean "port"?)`);
  });

  it('check reads DAMLINK_CONFIG and the environment overrides', () => {
    const file = write('env.yaml', 'round: 2\n');
    const r = damlink(['config', 'check'], { DAMLINK_CONFIG: file, DAMLINK_PORT: '70000' });
    expect(r.code).toBe(2);
    expect(r.stderr).toBe('damlink: DAMLINK_PORT: Too big: expected number to be <=65535\n');
  });

  it('schema prints the JSON schema, equal to the committed docs/ops/damlink.schema.json', () => {
    const committed = JSON.parse(readFileSync(join(ROOT, 'docs/ops/damlink.schema.json'), 'utf8'));
    expect(configJsonSchema()).toEqual(committed);
    const r = damlink(['config', 'schema']);
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual(committed);
    expect(committed.properties.boards.items.properties).toHaveProperty('source');
  });

  it('the example config points editors at the schema', () => {
    const example = readFileSync(join(ROOT, 'docs/ops/damlink.example.yaml'), 'utf8');
    expect(example.split('\n')[0]).toBe('# yaml-language-server: $schema=./damlink.schema.json');
  });
});
