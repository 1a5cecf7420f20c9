// One vocabulary (CONTRIBUTING.md): a game's result is declared once, in src/engine/result.ts, and
// every other module takes its type from there. A union or list of the three scores written anywhere
// else in the tree's code fails here.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HOME = 'src/engine/result.ts';
const score = `['"](?:2-0|1-1|0-2)['"]`;
/** `'2-0' | '1-1'` (a type union), or `['2-0', '1-1', '0-2'` (a list, a zod enum). */
const DECLARED = new RegExp(`${score}\\s*\\|\\s*${score}|\\[\\s*${score}\\s*,\\s*${score}\\s*,\\s*${score}`);

const code = execFileSync(
  'git',
  ['ls-files', '-z', '--', 'src', 'daemon', 'simulator', 'firmware-protocol', 'bench'],
  {
    encoding: 'utf8',
  },
)
  .split('\0')
  .filter((f) => /\.(ts|js)$/.test(f));

describe('one vocabulary', () => {
  it(`a game's result is declared in ${HOME} alone`, () => {
    expect(code.length).toBeGreaterThan(100);
    const elsewhere = code.filter((f) => f !== HOME && DECLARED.test(readFileSync(f, 'utf8')));
    expect(elsewhere).toEqual([]);
    expect(DECLARED.test(readFileSync(HOME, 'utf8'))).toBe(true);
  });
});
