// One exit-code policy for every command (0 ok, 1 the work failed, 2 bad usage or configuration),
// and every error as exactly one `damlink: …` line on stderr: no stack trace, no help dump.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damlink } from './fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-exit-'));
const illegal = join(dir, 'illegal.pdn');
writeFileSync(illegal, '[Event "c"]\n1. 32-28 19-23\n2. 28-22 *\n');
const badConfig = join(dir, 'bad.yaml');
writeFileSync(badConfig, 'boards:\n  - source: usb:1\n');
const emptyData = mkdtempSync(join(tmpdir(), 'damlink-exit-data-'));

const usage = (line: string) => `damlink: ${line} (see --help)`;

/** command line → exit code and the whole of stderr (a string is one line; a RegExp matches it). */
const TABLE: [args: string[], code: number, stderr: string | RegExp][] = [
  [
    ['run', '--log-level', 'verbose'],
    2,
    usage(
      "option '--log-level <level>' argument 'verbose' is invalid. Allowed choices are trace, debug, info, warn, error, fatal.",
    ),
  ],
  [
    ['run', '--port', '70000'],
    2,
    usage(
      `option '-p, --port <n>' argument '70000' is invalid. --port must be a whole number from 0 to 65535, got "70000"`,
    ),
  ],
  [
    ['run', '--data-dir', emptyData],
    2,
    'damlink: no boards: give --board SOURCE (repeatable), a config file with boards:, or --demo',
  ],
  [
    ['run', '--config', badConfig],
    2,
    `damlink: ${badConfig}:2 boards[0].source: unknown scheme "usb"; expected serial:, hid:, tcp:`,
  ],
  [['nosuch'], 2, usage("unknown command 'nosuch'")],
  [['perft'], 2, usage("required option '--depth <n>' not specified")],
  [
    ['perft', '--depth', 'x'],
    2,
    usage(
      `option '--depth <n>' argument 'x' is invalid. --depth must be a whole number from 0 to 40, got "x"`,
    ),
  ],
  [['perft', '--depth', '1', '--frobnicate'], 2, usage("unknown option '--frobnicate'")],
  [['perft', '--depth', '1', '--fen', 'W:W51'], 2, /^damlink: --fen .*square 51.*\n$/],
  [
    ['moves', '--variant', 'russian'],
    2,
    usage(
      "option '--variant <name>' argument 'russian' is invalid. Allowed choices are international, brazilian.",
    ),
  ],
  [
    ['decode', '--protocol', 'morse', illegal],
    2,
    usage("option '--protocol <name>' argument 'morse' is invalid. Allowed choices are line, dgt, hid."),
  ],
  [['replay', '--events', join(dir, 'none.jsonl')], 2, /^damlink: cannot read .*none\.jsonl: ENOENT.*\n$/],
  [
    ['simulate', '--boards', '0'],
    2,
    usage(`option '--boards <n>' argument '0' is invalid. --boards must be a whole number ≥ 1, got "0"`),
  ],
  [
    ['simulate', '--inject-probability', '2'],
    2,
    usage(
      `option '--inject-probability <p>' argument '2' is invalid. --inject-probability must be above 0 and at most 1, got "2"`,
    ),
  ],
  [
    ['simulate', '--transport', 'none'],
    2,
    'damlink: --transport none writes ground truth only; give --events-out DIR',
  ],
  [
    ['config', 'check', badConfig],
    2,
    `damlink: ${badConfig}:2 boards[0].source: unknown scheme "usb"; expected serial:, hid:, tcp:`,
  ],
  [['pdn', 'check', illegal], 1, 'damlink: 1 of 1 file with errors'],
  [
    ['export', '--round', '1', '--data-dir', emptyData],
    1,
    /^damlink: cannot open the journal .*journal\.sqlite: .*\n$/,
  ],
];

describe('exit codes and error lines', { timeout: 120_000 }, () => {
  it.each(TABLE)('damlink %j → exit %i', (args, code, stderr) => {
    const r = damlink(args);
    expect(r.code, r.stderr).toBe(code);
    if (typeof stderr === 'string') expect(r.stderr).toBe(`${stderr}\n`);
    else expect(r.stderr).toMatch(stderr);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });

  it('--help and --version exit 0', () => {
    expect(damlink(['--version'])).toMatchObject({ code: 0, stdout: '0.1.0\n', stderr: '' });
    const help = damlink(['perft', '--help']);
    expect(help.code).toBe(0);
    expect(help.stdout).toContain('--depth <n>');
  });
});
