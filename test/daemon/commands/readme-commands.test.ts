// The README's commands as an organiser runs them: the clone's bin on the PATH, from another
// folder, with no npm or npx on the PATH and the network unreachable. Every `damlink …` line of
// the README runs this clone (never a package fetched by that name).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from './fixtures/run-cli.ts';

const README = readFileSync(join(ROOT, 'README.md'), 'utf8');
/** Every `damlink …` command line of the README's shell blocks. */
const COMMANDS = [...README.matchAll(/```sh\n([\s\S]*?)```/g)]
  .flatMap((m) => m[1].split('\n'))
  .map((line) => line.replace(/\s+#.*$/, '').trim())
  .filter((line) => line.startsWith('damlink '));

/** A PATH with the clone's bin and node alone: no npm, no npx. */
function isolated() {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-readme-'));
  const nodeOnly = join(dir, 'node-only');
  spawnSync('mkdir', [nodeOnly]);
  symlinkSync(process.execPath, join(nodeOnly, 'node'));
  const unreachable = 'http://127.0.0.1:9';
  const env = {
    PATH: `${join(ROOT, 'bin')}:${nodeOnly}`,
    HOME: dir,
    HTTP_PROXY: unreachable,
    HTTPS_PROXY: unreachable,
    npm_config_registry: unreachable,
  };
  const run = (line: string) =>
    spawnSync('/bin/sh', ['-c', line], { cwd: dir, env, encoding: 'utf8', timeout: 60_000 });
  return { dir, run };
}

describe("the README's commands, from another folder, offline", () => {
  it('the README says how to put damlink on the PATH, and lists commands to run', () => {
    expect(README).toContain('export PATH="$PWD/bin:$PATH"');
    expect(README).not.toMatch(/npx damlink (run|ports|export|doctor)/);
    expect(COMMANDS.length).toBeGreaterThanOrEqual(4);
  });

  it('each one is this clone’s damlink: its --help answers, and what runs without boards runs', () => {
    const { dir, run } = isolated();
    expect(run('command -v npm npx').stdout).toBe('');
    const version = run('damlink --version');
    expect({ code: version.status, out: version.stdout.trim() }).toEqual({ code: 0, out: '0.1.0' });
    for (const line of COMMANDS) {
      const sub = line.split(/\s+/)[1];
      const help = run(`damlink ${sub} --help`);
      expect({ line, code: help.status, usage: help.stdout.split('\n')[0] }).toEqual({
        line,
        code: 0,
        usage: expect.stringMatching(new RegExp(`^Usage: damlink ${sub}`)),
      });
    }
    // Without boards or a journal: they answer in words, not with a fetch or "not found".
    expect(run('damlink ports').status).toBe(0);
    const exported = run('damlink export --round 1');
    expect(exported.status).toBe(1);
    expect(exported.stderr).toMatch(/^damlink: /);
    writeFileSync(join(dir, 'game.pdn'), '[Event "x"]\n1. 32-28 19-23 *\n');
    expect(run('damlink pdn check game.pdn').stdout).toContain('game.pdn: 1 games, 2 moves ok');
  });
});
