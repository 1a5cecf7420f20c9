// PDN read/write as lidraughts reads it (broadcast.md "PDN as lidraughts reads and writes it").
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  geometry,
  legalMoves,
  moveNotation,
  parseFen,
  parsePdn,
  play,
  Position,
  type Variant,
  writeFen,
  writePdn,
  writePdnGame,
} from '../../../src/engine/index.ts';
import { formatLocated } from '../../../src/result.ts';

const GAMES = `[Event "Test"]
[GameType "20"]
[Result "2-0"]

1. 32-28 19-23 {[%clock w0:59:00 B0:58:30]} 2. 28x19! 14x23 $2 3. 37-32 (3. 34-29 23x34 4. 40x29) 3... 17-21 {a comment} {[%clk 0:57:10]} 4. 31-27 2-0

[Event "Second"]
[Result "1/2-1/2"]
1. 33-28 19-23 2. 28x19 14x23 1/2-1/2
`;

describe('PDN read', () => {
  const parsed = parsePdn(GAMES, { file: 'round1.pdn' });

  it('reads a multi-game file in order, with tags', () => {
    expect(parsed.errors).toEqual([]);
    expect(parsed.games.map((g) => g.tags.Event)).toEqual(['Test', 'Second']);
    expect(parsed.games.map((g) => g.moves.length)).toEqual([7, 4]);
    expect(parsed.games[0].line).toBe(1);
    expect(parsed.games[1].line).toBe(7);
  });

  it('skips move numbers (1. and 3...), NAGs ($2 and !) attach to their move', () => {
    const g = parsed.games[0];
    expect(g.moves.map((m) => m.notation)).toEqual([
      '32-28',
      '19-23',
      '28x19',
      '14x23',
      '37-32',
      '17-21',
      '31-27',
    ]);
    expect(g.moves[2].nags).toEqual([1]);
    expect(g.moves[3].nags).toEqual([2]);
    expect(g.moves[6].number).toBe(4);
    expect(g.moves[5].color).toBe('black');
  });

  it('reads clock comments: %clock (capital = running clock) and %clk (the mover’s clock)', () => {
    const g = parsed.games[0];
    expect(g.moves[1].clock).toEqual({ white: 3_540_000, black: 3_510_000, running: 'black' });
    expect(g.moves[5].comment).toBe('a comment [%clk 0:57:10]');
    expect(g.moves[5].clock).toEqual({ black: 3_430_000 });
  });

  it('results: draughts style and chess style, tag used when movetext has none', () => {
    expect(parsed.games.map((g) => g.result)).toEqual(['2-0', '1-1']);
    const chess = parsePdn('1. 32-28 1-0\n\n1. 32-28 0-1\n\n1. 32-28 *\n\n[Result "0-2"]\n1. 32-28');
    expect(chess.games.map((g) => g.result)).toEqual(['2-0', '0-2', '*', '0-2']);
  });

  it('variations are skipped by default and kept on request, starting where their move starts', () => {
    expect(parsed.games[0].moves[4].variations).toEqual([]);
    const kept = parsePdn(GAMES, { variations: 'keep' }).games[0].moves[4];
    expect(kept.variations.map((v) => v.map((m) => m.notation))).toEqual([['34-29', '23x34', '40x29']]);
    expect(kept.variations[0][1].ply).toBe(6);
  });

  it('the end position is the replayed game', () => {
    expect(writeFen(parsed.games[1].end)).toBe(
      'W:W31,32,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,15,16,17,18,20,23',
    );
  });

  it('GameType 26 (Brazilian 8×8) and the long form 20,W,10,10,N2,0', () => {
    const br = parsePdn('[GameType "26"]\n1. 22-18 11-15 *');
    expect(br.errors).toEqual([]);
    expect(br.games[0].variant).toBe('brazilian');
    expect(br.games[0].moves.map((m) => m.notation)).toEqual(['22-18', '11-15']);
    const long = parsePdn('[GameType "20,W,10,10,N2,0"]\n1. 32-28 *');
    expect(long.games[0].variant).toBe('international');
    expect(long.errors).toEqual([]);
    const other = parsePdn('[GameType "21"]\n1. 32-28 *', { file: 'g.pdn' });
    expect(other.errors[0]).toMatchObject({ code: 'unsupported-game-type', file: 'g.pdn', line: 1, col: 12 });
  });

  it('FEN and SetUp: the game starts there; Black to move starts with 1...', () => {
    const r = parsePdn('[SetUp "1"]\n[FEN "B:W28,49:BK23"]\n1... 23x41 2. 49-43 *');
    expect(r.errors).toEqual([]);
    const g = r.games[0];
    expect(g.start.turn).toBe('black');
    expect(g.moves.map((m) => `${m.number}${m.color === 'white' ? '.' : '...'} ${m.notation}`)).toEqual([
      '1... 23x41',
      '2. 49-43',
    ]);
  });

  it('a bad FEN tag is located at its column', () => {
    const r = parsePdn('[FEN "W:W31,99"]\n1. 31-27 *', { file: 'f.pdn' });
    expect(r.errors[0]).toMatchObject({ code: 'square-out-of-range', line: 1, col: 13 });
    expect(r.games[0].moves).toEqual([]);
  });

  it('an illegal move is a located error and the game stops before it', () => {
    const r = parsePdn('[Event "x"]\n\n1. 32-28 19-23\n2. 28-22 *', { file: 'r.pdn' });
    expect(r.errors).toHaveLength(1);
    expect(r.errors[0]).toMatchObject({ code: 'illegal-move', file: 'r.pdn', line: 4, col: 4 });
    expect(formatLocated(r.errors[0])).toMatch(/^r\.pdn:4:4: 2\. 28-22 is not a legal move/);
    expect(r.games[0].moves).toHaveLength(2);
  });

  it('an ambiguous move is a located error', () => {
    const r = parsePdn('[FEN "W:WK21:B10,12,13,14,18,23,29,32,38"]\n1. 21x42 *', { file: 'a.pdn' });
    expect(r.errors[0]).toMatchObject({ code: 'ambiguous-move', line: 2, col: 4 });
    const ok = parsePdn('[FEN "W:WK21:B10,12,13,14,18,23,29,32,38"]\n1. 21x3x20x33x42 *');
    expect(ok.errors).toEqual([]);
  });

  it('garbage is a located error, and the games around it still read', () => {
    const r = parsePdn('1. 32-28 19-23 2. e4 *\n\n[Event "b"]\n1. 32-28 *', { file: 'g.pdn' });
    expect(r.errors[0]).toMatchObject({ code: 'unexpected-token', line: 1, col: 19 });
    expect(r.games).toHaveLength(2);
    expect(r.games[0].moves).toHaveLength(2);
    expect(r.games[1].moves).toHaveLength(1);
  });

  it('reads escapes, % lines, ; comments and an unclosed comment without throwing', () => {
    const r = parsePdn('[White "A \\"B\\" C"]\n% skipped line\n1. 32-28 ; rest of line\n19-23 {open');
    expect(r.games[0].tags.White).toBe('A "B" C');
    expect(r.games[0].moves.map((m) => m.text)).toEqual(['32-28', '19-23']);
    expect(r.errors[0].code).toBe('unexpected-token');
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (s) => {
        const r = parsePdn(s);
        expect(Array.isArray(r.games)).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

describe('PDN write', () => {
  it('writes tags in a stable order, the seven-tag defaults, GameType, then the others', () => {
    const text = writePdnGame({
      tags: { TimeControl: '5400+30', Black: 'B', White: 'A', Event: 'Open', Annotator: 'x' },
      moves: [{ text: '32-28' }, { text: '19-23', comment: '[%clock w0:59:00 B0:58:30]' }],
      result: '*',
    });
    expect(text).toBe(
      [
        '[Event "Open"]',
        '[Site "?"]',
        '[Date "????.??.??"]',
        '[Round "?"]',
        '[White "A"]',
        '[Black "B"]',
        '[Result "*"]',
        '[GameType "20"]',
        '[TimeControl "5400+30"]',
        '[Annotator "x"]',
        '',
        '1. 32-28 19-23 {[%clock w0:59:00 B0:58:30]} *',
        '',
      ].join('\n'),
    );
  });

  it('writes SetUp/FEN only when the start is not the initial position, and 1... for Black', () => {
    const initial = writePdnGame({ tags: {}, startFen: 'W:W31-50:B1-20', moves: [], result: '*' });
    expect(initial).not.toContain('FEN');
    const setup = writePdnGame({
      tags: {},
      startFen: 'B:W28,49:BK23',
      moves: [{ text: '23x41' }],
      result: '0-2',
    });
    expect(setup).toContain('[SetUp "1"]\n[FEN "B:W28,49:BK23"]');
    expect(setup).toContain('\n1... 23x41 0-2\n');
    const ranges = writePdnGame({ tags: {}, startFen: 'W:W31-33:B1-2', moves: [], result: '*' });
    expect(ranges).toContain('[FEN "W:W31,32,33:B1,2"]');
    const br = writePdnGame({ tags: {}, variant: 'brazilian', moves: [], result: '*' });
    expect(br).toContain('[GameType "26"]');
  });

  it('keeps lines under 80 characters and braces out of comments', () => {
    const moves = Array.from({ length: 30 }, () => ({ text: '32-28', comment: 'a {b} c' }));
    const text = writePdnGame({ tags: {}, moves, result: '*' });
    for (const line of text.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    expect(text).toContain('{a (b) c}');
  });
});

/** A random legal game with the texts damlink writes, and optional clock comments. */
const gameArb = (variant: Variant) =>
  fc
    .tuple(fc.array(fc.nat(), { maxLength: 100, size: 'max' }), fc.boolean(), fc.nat({ max: 20 }))
    .map(([choices, clocks, skip]) => {
      let pos = Position.initial(variant);
      // Sometimes start from a set-up position reached by a few moves, with either side to move.
      for (let k = 0; k < skip % 5; k++)
        pos = play(pos, legalMoves(pos)[choices[k] ?? 0] ?? legalMoves(pos)[0]);
      const start = pos;
      const moves: Array<{ text: string; comment?: string; key: string }> = [];
      for (const c of choices) {
        const legal = legalMoves(pos);
        if (legal.length === 0) break;
        const m = legal[c % legal.length];
        const clock = clocks ? `[%clock w0:${String(c % 60).padStart(2, '0')}:00 B1:00:00]` : undefined;
        moves.push({
          text: moveNotation(pos, m, legal),
          ...(clock ? { comment: clock } : {}),
          key: writeFen(pos),
        });
        pos = play(pos, m);
      }
      return { variant, start, moves, end: pos };
    });

describe('PDN write → read round trip of random legal games', () => {
  it('moves, comments, start and end positions survive, several games per file', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(gameArb('international'), gameArb('brazilian')), { minLength: 1, maxLength: 3 }),
        (games) => {
          const text = writePdn(
            games.map((g) => ({
              tags: { Event: 'prop' },
              variant: g.variant,
              startFen: writeFen(g.start),
              moves: g.moves,
              result: '*' as const,
            })),
          );
          const back = parsePdn(text);
          expect(back.errors).toEqual([]);
          expect(back.games).toHaveLength(games.length);
          back.games.forEach((b, i) => {
            const g = games[i];
            expect(b.variant).toBe(g.variant);
            expect(b.start.equals(g.start)).toBe(true);
            expect(b.moves.map((m) => m.notation)).toEqual(g.moves.map((m) => m.text));
            expect(b.moves.map((m) => m.comment)).toEqual(g.moves.map((m) => m.comment));
            expect(b.end.equals(g.end)).toBe(true);
            const fen = parseFen(writeFen(b.end), { variant: g.variant });
            expect(fen.ok && fen.value.equals(g.end)).toBe(true);
          });
        },
      ),
      { numRuns: 60 },
    );
  });
});

/** How a program or a hand may write a game: numbers, separators, spaces, strengths, line ends. */
const styleArb = fc.record({
  numbers: fc.constantFrom('glued', 'spaced', 'both-sides'),
  spacedSquares: fc.boolean(),
  quiet: fc.constantFrom('-', '–', '‑'),
  capture: fc.constantFrom('x', 'X', ':', '×', '-'),
  algebraic: fc.boolean(),
  gaps: fc.array(fc.constantFrom(' ', '\n', '\r\n', ' \t ', '\n\n'), { minLength: 1, maxLength: 4 }),
  marks: fc.array(fc.constantFrom('', '!', ' ?', '!!', ' ?!', '(!)', ' (?)', ' $14', '□'), {
    minLength: 1,
    maxLength: 9,
  }),
});
const MARK_NAGS: Record<string, number[]> = {
  '': [],
  '!': [1],
  ' ?': [2],
  '!!': [3],
  ' ?!': [6],
  '(!)': [1],
  ' (?)': [2],
  ' $14': [14],
  '□': [7],
};

describe('PDN as written in the wild: random legal games in random styles read as the same game', () => {
  it('move numbers, separators, spaces, line ends, strengths and algebraic squares', () => {
    fc.assert(
      fc.property(fc.oneof(gameArb('international'), gameArb('brazilian')), styleArb, (g, style) => {
        const geo = geometry(g.variant);
        const square = (s: string) =>
          style.algebraic && geo.width === 8
            ? `${String.fromCharCode(97 + geo.colOf[Number(s)])}${8 - geo.rowOf[Number(s)]}`
            : s;
        const blackFirst = g.start.turn === 'black';
        let text = `[Event "Wild \\"style\\" é"]\n[GameType "${geo.gameType}"]\n[FEN "${writeFen(g.start)}"]\n`;
        const expectedNags: number[][] = [];
        g.moves.forEach((m, i) => {
          const gap = style.gaps[i % style.gaps.length];
          const half = i + (blackFirst ? 1 : 0);
          const n = Math.floor(half / 2) + 1;
          const white = half % 2 === 0;
          if (white || i === 0 || style.numbers === 'both-sides') {
            const dots = white ? '.' : '...';
            text += style.numbers === 'glued' ? `${gap}${n}${dots}` : `${gap}${n}${dots} `;
          } else text += gap;
          const capture = m.text.includes('x');
          const parts = m.text.split(/[-x]/).map(square);
          // A capture may be written with "-" only as from-to (the PDN 3.0 path needs "x").
          const sep = capture
            ? style.capture === '-' && parts.length > 2
              ? 'x'
              : style.capture
            : style.quiet;
          text += parts.join(style.spacedSquares ? ` ${sep} ` : sep);
          const mark = style.marks[i % style.marks.length];
          text += mark;
          expectedNags.push(MARK_NAGS[mark]);
        });
        text += `${style.gaps[0]}*\n`;
        const back = parsePdn(text);
        expect(back.errors).toEqual([]);
        expect(back.games).toHaveLength(1);
        expect(back.games[0].tags.Event).toBe('Wild "style" é');
        expect(back.games[0].moves.map((m) => m.notation)).toEqual(g.moves.map((m) => m.text));
        expect(back.games[0].moves.map((m) => m.nags)).toEqual(expectedNags);
        expect(back.games[0].end.equals(g.end)).toBe(true);
      }),
      { numRuns: 150 },
    );
  });
});
