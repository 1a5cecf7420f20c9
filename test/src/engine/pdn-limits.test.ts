// Bounded everything, for PDN and FEN: deep nesting, floods of tokens and huge texts give a located
// error, never a stack overflow or a RangeError, and the reader holds one game at a time.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  lexPdn,
  PdnLexer,
  type PdnToken,
  MAX_GAME_CHARS,
  MAX_GAME_TOKENS,
  MAX_TOKEN_CHARS,
  MAX_VARIATION_DEPTH,
  PdnReader,
  parseFen,
  parsePdn,
  Position,
  validatePosition,
} from '../../../src/engine/index.ts';

describe('PDN nesting', () => {
  it(`variations nested ${MAX_VARIATION_DEPTH} deep are read and kept`, () => {
    const n = MAX_VARIATION_DEPTH;
    const text = `1. 32-28 ${'(1. 33-28 '.repeat(n)}${')'.repeat(n)} 19-23 *`;
    const r = parsePdn(text, { variations: 'keep' });
    expect(r.errors).toEqual([]);
    let line = r.games[0].moves[0].variations;
    let depth = 0;
    while (line.length > 0) {
      depth++;
      line = line[0][0].variations;
    }
    expect(depth).toBe(n);
  });

  it('100 000 open variations are a located error, not a stack overflow', () => {
    const text = `[Event "deep"]\n1. 32-28 ${'(1. 33-28 '.repeat(100_000)}*\n[Event "next"]\n1. 32-28 *`;
    for (const variations of ['skip', 'keep'] as const) {
      const r = parsePdn(text, { file: 'deep.pdn', variations });
      expect(r.errors[0]).toMatchObject({
        code: 'too-deep',
        file: 'deep.pdn',
        line: 2,
        col: 10 + MAX_VARIATION_DEPTH * 10,
      });
      expect(r.games[0].moves.map((m) => m.notation)).toEqual(['32-28']);
      expect(r.games[1].tags.Event).toBe('next');
      expect(r.games[1].errors).toEqual([]);
    }
  });

  it('a flood of closing brackets is one located error', () => {
    const r = parsePdn(`1. 32-28 ${')'.repeat(200_000)} *`);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'unbalanced-variation', line: 1, col: 10 });
  });
});

describe('PDN floods', () => {
  it(`a game of more than ${MAX_GAME_TOKENS} tokens is a located error; the next game reads`, () => {
    const flood = '$1 '.repeat(MAX_GAME_TOKENS + 10);
    const r = parsePdn(`1. 32-28 ${flood}*\n[Event "next"]\n1. 32-28 *`);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'game-too-long', line: 1 });
    expect(r.errors[0].col).toBe(1 + '1. 32-28 '.length + 3 * (MAX_GAME_TOKENS - 2));
    expect(r.games[1].errors).toEqual([]);
  });

  it('a flood of tags in one header is a located error and is not kept', () => {
    const r = parsePdn(`${'[A "1"]\n'.repeat(MAX_GAME_TOKENS + 5)}1. 32-28 *`);
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'game-too-long', line: MAX_GAME_TOKENS + 1, col: 1 });
    expect(Object.keys(r.games[0].tags)).toEqual(['A']);
    expect(r.games[0].moves).toEqual([]); // the game stops at its first problem
  });

  it('comments adding up to more than the characters a game may hold are a located error, not kept', () => {
    const comment = `{${'c'.repeat(1 << 20)}}\n`;
    const count = MAX_GAME_CHARS / (1 << 20) + 2;
    const reader = new PdnReader();
    const games = [...reader.push('1. 32-28 ')];
    for (let i = 0; i < count; i++) games.push(...reader.push(comment));
    games.push(...reader.push('19-23 *'), ...reader.end());
    expect(games).toHaveLength(1);
    expect(games[0].errors[0]).toMatchObject({
      code: 'game-too-long',
      line: MAX_GAME_CHARS / (1 << 20) + 1,
      col: 1,
    });
    expect(games[0].moves[0].comment?.length).toBeLessThanOrEqual(MAX_GAME_CHARS + count);
  });

  it('a comment never closed and longer than the token bound is located, and reading goes on', () => {
    const reader = new PdnReader({ file: 'big.pdn' });
    const games = [...reader.push('[Event "a"]\n1. 32-28 {')];
    const chunk = 'a'.repeat(1 << 16);
    for (let sent = 0; sent < 3 * MAX_TOKEN_CHARS; sent += chunk.length) games.push(...reader.push(chunk));
    games.push(...reader.push(' *\n[Event "b"]\n1. 32-28 19-23 *\n'), ...reader.end());
    expect(games[0].errors[0]).toMatchObject({ code: 'unexpected-token', file: 'big.pdn', line: 2, col: 10 });
    expect(games.at(-1)?.tags.Event).toBe('b');
    expect(games.at(-1)?.moves).toHaveLength(2);
  });

  it('a word without spaces longer than the token bound does not wait for its end', () => {
    const reader = new PdnReader();
    reader.push('1. 32-28 ');
    const chunk = 'z'.repeat(1 << 16);
    for (let sent = 0; sent < 2 * MAX_TOKEN_CHARS; sent += chunk.length) reader.push(chunk);
    const games = [...reader.push(' *'), ...reader.end()];
    expect(games[0].errors[0]).toMatchObject({ code: 'unexpected-token', line: 1, col: 10 });
  });
});

describe('PDN files of any size', () => {
  it('the reader gives each game as soon as it ends and keeps none of them', () => {
    const game = '[Event "x"]\n1. 32-28 19-23 2. 28x19 14x23 *\n\n';
    const reader = new PdnReader();
    let total = 0;
    // Games pushed a chunk at a time: each push returns the games it completed.
    const chunk = game.repeat(500);
    for (let i = 0; i < 25; i++) {
      const games = reader.push(chunk);
      expect(games.length).toBeGreaterThanOrEqual(499);
      total += games.length;
    }
    total += reader.end().length;
    expect(total).toBe(12_500);
  });

  it('a text with no line break and no spaces lexes without a RangeError', () => {
    const tokens = lexPdn('{'.repeat(3_000_000));
    expect(tokens[0]).toMatchObject({ kind: 'unknown', line: 1, col: 1 });
  });
});

describe('FEN bounds and validity', () => {
  it('a huge FEN is refused at its first problem, quickly', () => {
    const r = parseFen(`W:W${'31,'.repeat(1_000_000)}31`);
    expect(!r.ok && r.error).toMatchObject({ kind: 'bad-fen', code: 'square-twice', col: 7 });
  });

  it('more than 20 pieces a side (12 on 8×8) is too-many-pieces', () => {
    expect(parseFen('W:W30-50:B1-20')).toMatchObject({
      ok: false,
      error: { kind: 'bad-fen', code: 'too-many-pieces' },
    });
    expect(parseFen('W:W31-50:B1-20').ok).toBe(true);
    const br = parseFen('W:W20-32:B1-12', { variant: 'brazilian' });
    expect(!br.ok && br.error.code).toBe('too-many-pieces');
    expect(parseFen('W:W21-32:B1-12', { variant: 'brazilian' }).ok).toBe(true);
  });

  it('every FEN error is of kind bad-fen: squares of another board, a man on its own crowning row, twice', () => {
    for (const [fen, code] of [
      ['W:W31:B33', 'square-out-of-range'],
      ['W:W2:B20', 'man-on-promotion-row'],
      ['W:W31:B31', 'square-twice'],
      ['?:W31:B1', 'bad-turn'],
    ] as const) {
      const r = parseFen(fen, { variant: 'brazilian' });
      expect(r.ok, fen).toBe(false);
      if (!r.ok) expect(r.error).toMatchObject({ kind: 'bad-fen', code });
    }
  });

  it('validatePosition checks a position built another way', () => {
    const crowded = Position.setup(
      'brazilian',
      'white',
      Array.from({ length: 13 }, (_, i) => [i + 13, 'w'] as const),
    );
    expect(validatePosition(crowded)).toMatchObject({
      ok: false,
      error: { kind: 'bad-fen', code: 'too-many-pieces' },
    });
    const crowned = Position.setup('international', 'white', [[47, 'b']]);
    expect(validatePosition(crowned)).toMatchObject({ ok: false, error: { code: 'man-on-promotion-row' } });
    expect(validatePosition(Position.initial()).ok).toBe(true);
  });
});

/** Pieces of PDN and of what breaks it, so that random texts hit every path of the lexer. */
const FRAGMENTS = [
  '[Event "x"]',
  '[',
  ']',
  '"',
  '\\',
  '{',
  '}',
  '(',
  ')',
  '(!)',
  ';',
  '%',
  '/',
  '/FEN "W:W31:B1"/',
  '1.',
  '12...',
  '...',
  '…',
  '32',
  '-',
  'x',
  ':',
  '×',
  '–',
  '28',
  '32-28',
  'c3',
  'd4',
  '*',
  '1-0',
  '0.5-0.5',
  '½-½',
  '2-0',
  '$',
  '$1',
  '$256',
  '!',
  '?!',
  '□',
  '+',
  'e4',
  '@',
  ' ',
  '  ',
  '\n',
  '\r\n',
  '\t',
  '\ufeff',
];

/** The tokens of `text` fed to the lexer in the given chunk sizes. */
function lexInChunks(text: string, sizes: readonly number[]): PdnToken[] {
  const lexer = new PdnLexer();
  const out: PdnToken[] = [];
  let at = 0;
  for (let k = 0; at < text.length; k++) {
    const size = sizes[k % sizes.length];
    lexer.push(text.slice(at, at + size));
    at += size;
    for (let t = lexer.next(); t; t = lexer.next()) out.push(t);
  }
  lexer.end();
  for (let t = lexer.next(); t; t = lexer.next()) out.push(t);
  return out;
}

describe('PDN lexer fed in chunks', () => {
  it('gives the same tokens, lines, columns, games and errors as the whole text, wherever the chunks are cut', () => {
    fc.assert(
      fc.property(
        fc.array(fc.constantFrom(...FRAGMENTS), { maxLength: 60 }),
        fc.array(fc.integer({ min: 1, max: 9 }), { minLength: 1, maxLength: 5 }),
        (parts, sizes) => {
          const text = parts.join('');
          expect(lexInChunks(text, sizes)).toEqual(lexPdn(text));
          const reader = new PdnReader();
          const games = [];
          for (let at = 0, k = 0; at < text.length; at += sizes[k++ % sizes.length]) {
            games.push(...reader.push(text.slice(at, at + sizes[k % sizes.length])));
          }
          games.push(...reader.end());
          const whole = parsePdn(text);
          expect(games.flatMap((g) => g.errors)).toEqual(whole.errors);
          expect(games.map((g) => g.moves.map((m) => m.notation))).toEqual(
            whole.games.map((g) => g.moves.map((m) => m.notation)),
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
