// Each parser's error codes are a union declared `as const` (the type checker refuses a code that
// is not in it). Here: none is listed that no parser gives any more, and none twice.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { FEN_ERROR_CODES, MOVE_ERROR_CODES, PDN_ERROR_CODES } from '../../src/engine/index.ts';
import { PDN_SYNTAX_CODES } from '../../src/engine/pdn-game-text.ts';
import { TOURNAMENT_ERROR_CODES } from '../../src/tournament/index.ts';

const sources = execFileSync('git', ['ls-files', '-z', '--', 'src', 'daemon', 'firmware-protocol'], {
  encoding: 'utf8',
})
  .split('\0')
  // The core's plain-JavaScript modules (the FEN reader) are parsers too; the pages are not.
  .filter((f) => f.endsWith('.ts') || (f.endsWith('.js') && !f.startsWith('daemon/web/')))
  .map((f) => readFileSync(f, 'utf8'));

/** How many times `'code'` stands in the sources: its declaration is one. */
const uses = (code: string) => sources.reduce((n, s) => n + s.split(`'${code}'`).length - 1, 0);

describe.each([
  ['FEN', FEN_ERROR_CODES],
  ['move text', MOVE_ERROR_CODES],
  ['PDN syntax', PDN_SYNTAX_CODES],
  ['tournament readers', TOURNAMENT_ERROR_CODES],
] as const)('%s error codes', (_, codes) => {
  it('are each given by a parser, and listed once', () => {
    expect(new Set(codes).size).toBe(codes.length);
    expect(codes.filter((c) => uses(c) < 2)).toEqual([]);
  });
});

it('a PDN game can carry the codes of its syntax, its setup (FEN) and its moves', () => {
  for (const c of [...PDN_SYNTAX_CODES, ...FEN_ERROR_CODES, ...MOVE_ERROR_CODES])
    expect(PDN_ERROR_CODES).toContain(c);
  expect(new Set(PDN_ERROR_CODES).size).toBe(PDN_ERROR_CODES.length);
});
