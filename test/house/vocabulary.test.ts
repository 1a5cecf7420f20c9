// One vocabulary (CONTRIBUTING.md): a game's result is declared once, in src/engine/result.ts, the
// two sides once, in firmware-protocol/side.ts, the variants in src/engine/variant.ts and a board
// connection's states in src/game/types.ts, a clock reading and the FEN reader in firmware-protocol/;
// every other module takes its type from there. A union
// or list of them written anywhere else in the tree's TypeScript fails here (the pages, in
// JavaScript, order sides for display).
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const HOME = 'src/engine/result.ts';
const score = `['"](?:2-0|1-1|0-2)['"]`;
/** `'2-0' | '1-1'` (a type union), or `['2-0', '1-1', '0-2'` (a list, a zod enum). */
const DECLARED = new RegExp(`${score}\\s*\\|\\s*${score}|\\[\\s*${score}\\s*,\\s*${score}\\s*,\\s*${score}`);

const SIDES_HOME = 'firmware-protocol/side.ts';
const side = `['"](?:white|black)['"]`;
/** `'white' | 'black'`, or `['white', 'black']`. */
const SIDES_DECLARED = new RegExp(`${side}\\s*\\|\\s*${side}|\\[\\s*${side}\\s*,\\s*${side}\\s*\\]`);

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

  it(`the sides are declared in ${SIDES_HOME} alone`, () => {
    const typescript = code.filter((f) => f.endsWith('.ts'));
    const elsewhere = typescript.filter(
      (f) => f !== SIDES_HOME && SIDES_DECLARED.test(readFileSync(f, 'utf8')),
    );
    expect(elsewhere).toEqual([]);
    expect(SIDES_DECLARED.test(readFileSync(SIDES_HOME, 'utf8'))).toBe(true);
  });

  it('a clock reading (white, black, running) is declared in firmware-protocol/clock-reading.ts alone', () => {
    const home = 'firmware-protocol/clock-reading.ts';
    const reading =
      /\bwhite: number;\s*(?:\/\*\*[^*]*\*\/\s*)?black: number;\s*(?:\/\*\*[^*]*\*\/\s*)?running\??: /;
    const typescript = code.filter((f) => f.endsWith('.ts'));
    expect(typescript.filter((f) => f !== home && reading.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(reading.test(readFileSync(home, 'utf8'))).toBe(true);
  });

  it("a FEN's text is read in firmware-protocol/fen-board.js alone", () => {
    const home = 'firmware-protocol/fen-board.js';
    // A FEN reader's telltales: the trailing dot dropped, lidraughts' counters, a list item's grammar.
    const reader = /replace\(\/\\\.\$\/|\[HF\]\\d|K\?\)\(\\d/;
    expect(code.filter((f) => f !== home && reader.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(reader.test(readFileSync(home, 'utf8'))).toBe(true);
  });

  // The whole list: a subset (the states in which a board is watched) is a fact of its own.
  it.each([
    ['variants', 'src/engine/variant.ts', ['international', 'brazilian']],
    ['connection states', 'src/game/types.ts', ['connecting', 'active', 'silent', 'lost']],
  ] as const)('the %s are declared in %s alone', (_, home, words) => {
    const word = `['"](?:${words.join('|')})['"]`;
    const run = Array.from(words, () => word).join('\\s*[|,]\\s*');
    const declared = new RegExp(run);
    const typescript = code.filter((f) => f.endsWith('.ts'));
    expect(typescript.filter((f) => f !== home && declared.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(declared.test(readFileSync(home, 'utf8'))).toBe(true);
  });

  it("the protocols' names are their descriptors' keys (firmware-protocol/protocols.ts), listed nowhere else", () => {
    const name = `['"](?:line|dgt|hid)['"]`;
    const listed = new RegExp(`${name}\\s*[|,]\\s*${name}\\s*[|,]\\s*${name}`);
    const typescript = code.filter((f) => f.endsWith('.ts'));
    expect(typescript.filter((f) => listed.test(readFileSync(f, 'utf8')))).toEqual([]);
    expect(readFileSync('firmware-protocol/protocols.ts', 'utf8')).toMatch(
      /DESCRIPTORS = \{ line: LINE, dgt: DGT, hid: HID \}/,
    );
  });

  it("a board's connection state is kept by its game's record alone", () => {
    // A field of the state's type: a second keeper, which drifts from the record (a live board's
    // copy once dropped a board that went silent and came back within one batch).
    const field = /^\s*(?:(?:private|readonly|public)\s+)*\w+\??: ConnectionState;/m;
    const typescript = code.filter((f) => f.endsWith('.ts'));
    const keepers = typescript.filter((f) => field.test(readFileSync(f, 'utf8')));
    // types.ts declares the shape the record gives out; record.ts keeps it.
    expect(keepers).toEqual(['src/game/record.ts', 'src/game/types.ts']);
  });
});
