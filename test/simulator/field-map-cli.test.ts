// `damlink simulate --field-map FILE` reads the board description decode reads (a bad one is a usage
// error), and `--follow-prompts FILE` answers calibration prompts instead of playing, then stops.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { damlink, ROOT } from '../daemon/commands/fixtures/run-cli.ts';

const dir = mkdtempSync(join(tmpdir(), 'damlink-sim-fieldmap-'));

/** `damlink simulate --protocol dgt` with a board description, answering the prompts of a file: its first JSON line. */
function followingPrompts(board: string, prompts: string, more: string[]) {
  const r = damlink([
    'simulate',
    '--protocol',
    'dgt',
    ...more,
    '--field-map',
    board,
    '--follow-prompts',
    prompts,
    '--json',
  ]);
  expect(r.code, r.stderr).toBe(0);
  return JSON.parse(r.stdout.trim().split('\n')[0]);
}

describe('damlink simulate --field-map / --follow-prompts', () => {
  it('a board description that is not one: exit 2, the file and the problem named', () => {
    const bad = join(dir, 'bad.json');
    writeFileSync(bad, '{"fields50": [1, 1]}');
    const r = damlink(['simulate', '--protocol', 'dgt', '--field-map', bad, '--follow-prompts', bad]);
    expect(r.code).toBe(2);
    expect(r.stderr.trim().split('\n')).toEqual([`damlink: ${bad}: fields50 has 2 entries, expected 50`]);
  });

  it('with a described board, reads the prompts of a file and stops when the calibration is over (exit 0)', () => {
    const board = join(dir, 'swapped.json');
    writeFileSync(board, JSON.stringify({ pieces: { w: 4, b: 1, W: 10, B: 7 } }));
    const prompts = join(dir, 'prompts.jsonl');
    const prompt = { action: 'setup', n: 1, of: 54, text: 'Set up the start position.' };
    writeFileSync(
      prompts,
      `${JSON.stringify({ type: 'prompt', prompt })}\nnot json\n{"type":"failed","code":"no-answer","message":"x"}\n`,
    );
    const first = followingPrompts(board, prompts, ['--base-port', '0', '--speed', '50']);
    expect(first).toMatchObject({ type: 'board', serial: '00001', protocol: 'dgt' });
  });

  it("docs/first-board.md's rehearsal: the example board description, a --pty-dir that does not exist yet", () => {
    const prompts = join(dir, 'rehearsal.jsonl');
    writeFileSync(prompts, '{"type":"failed","code":"no-answer","message":"the rehearsal is over"}\n');
    const ptyDir = join(dir, 'not-yet', 'sim');
    const first = followingPrompts(join(ROOT, 'docs/examples/scrambled-board.json'), prompts, [
      '--transport',
      'pty',
      '--pty-dir',
      ptyDir,
    ]);
    expect(first).toMatchObject({ type: 'board', address: join(ptyDir, 'board-1') });
    expect(existsSync(ptyDir)).toBe(true);
  });
});
