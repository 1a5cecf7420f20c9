// The PDN corpus (fixtures/pdn): texts written for the tests, one construct of the PDN 3.0 reading
// grammar or of what draughts programs write per file. Each file says on its `% expect` lines how
// many games and moves it holds and which errors and warnings (forms read though not PDN 3.0) it
// has, in order, with their line and column.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  decodePdn,
  type PdnGame,
  PdnEncodingSniffer,
  PdnReader,
  parsePdn,
  pdnDecoder,
  writeFen,
  writePdnGame,
} from '../../../src/engine/index.ts';

const DIR = join(import.meta.dirname, 'fixtures/pdn');
const FILES = readdirSync(DIR)
  .filter((f) => f.endsWith('.pdn'))
  .sort();

interface Expected {
  games: number;
  moves: number;
  errors: Array<{ code: string; line: number; col: number }>;
  warnings: Array<{ code: string; line: number; col: number }>;
}

function expectedOf(text: string): Expected {
  const counts = /^% expect games=(\d+) moves=(\d+)$/m.exec(text);
  if (!counts) throw new Error('fixture without "% expect games=N moves=M"');
  const located = (kind: string) =>
    [...text.matchAll(new RegExp(`^% expect ${kind}=(\\S+) at=(\\d+):(\\d+)$`, 'gm'))].map((m) => ({
      code: m[1],
      line: Number(m[2]),
      col: Number(m[3]),
    }));
  return {
    games: Number(counts[1]),
    moves: Number(counts[2]),
    errors: located('error'),
    warnings: located('warning'),
  };
}

const bytesOf = (file: string) => new Uint8Array(readFileSync(join(DIR, file)));
const read = (file: string) => parsePdn(decodePdn(bytesOf(file)), { file, variations: 'keep' });
const game = (file: string, i = 0) => read(file).games[i];

/** The same file fed to the reader `size` bytes at a time. */
function readInChunks(file: string, size: number): PdnGame[] {
  const bytes = bytesOf(file);
  const sniffer = new PdnEncodingSniffer();
  for (let i = 0; i < bytes.length; i += size) sniffer.push(bytes.subarray(i, i + size));
  const decoder = pdnDecoder(sniffer.end());
  const reader = new PdnReader({ file, variations: 'keep' });
  const games: PdnGame[] = [];
  for (let i = 0; i < bytes.length; i += size) {
    games.push(...reader.push(decoder.decode(bytes.subarray(i, i + size), { stream: true })));
  }
  games.push(...reader.push(decoder.decode()), ...reader.end());
  return games;
}

const notations = (g: PdnGame) => g.moves.map((m) => m.notation);
// biome-ignore format: one game
const GAME_A = [
  '31-26', '16-21', '32-28', '18-23', '38-32', '20-24', '36-31', '21-27', '31x22', '17-21', '26x17', '12x21',
  '33-29', '24x33', '22-17', '11x22', '28x26', '7-12', '39x28', '12-18', '42-38', '2-7', '41-36', '15-20',
];

describe('PDN corpus: every file accepted or refused as its header says, with the locations', () => {
  for (const file of FILES) {
    it(file, () => {
      const expected = expectedOf(decodePdn(bytesOf(file)));
      const r = read(file);
      expect(r.games).toHaveLength(expected.games);
      expect(r.games.reduce((n, g) => n + g.moves.length, 0)).toBe(expected.moves);
      expect(r.errors.map(({ code, line, col }) => ({ code, line, col }))).toEqual(expected.errors);
      expect(r.warnings.map(({ code, line, col }) => ({ code, line, col }))).toEqual(expected.warnings);
      for (const e of [...r.errors, ...r.warnings]) expect(e.file).toBe(file);
    });
  }
});

describe('PDN corpus read in chunks of any size gives the same games and errors', () => {
  for (const file of FILES) {
    it(file, () => {
      const whole = read(file).games;
      for (const size of [1, 7, 4096]) {
        const chunked = readInChunks(file, size);
        expect(chunked.map(notations), `${size}`).toEqual(whole.map(notations));
        expect(chunked.flatMap((g) => g.errors)).toEqual(whole.flatMap((g) => g.errors));
        expect(chunked.map((g) => g.tags)).toEqual(whole.map((g) => g.tags));
      }
    });
  }
});

describe('PDN constructs, read as they mean', () => {
  it('move numbers glued and spaced, spaced separators, a move across lines: the same game', () => {
    expect(notations(game('move-numbers-and-spaces.pdn'))).toEqual(GAME_A);
    expect(notations(game('lidraughts-export.pdn'))).toEqual(GAME_A);
    expect(notations(game('crlf.pdn'))).toEqual(GAME_A);
  });

  it('separators x X : × – ‑ —, a capture written with "-", zero-padded squares, the PDN 3.0 path', () => {
    const [a, b] = read('separators.pdn').games;
    expect(notations(a)).toEqual(GAME_A);
    expect(a.moves[13].text).toBe('24-33');
    expect(a.moves[16].text).toBe('28x17x26');
    expect(b.moves.every((m) => m.text.includes(':') || m.text.includes('-'))).toBe(true);
    expect(b.moves).toHaveLength(24);
  });

  it('move strengths glued, spaced and bracketed, and NAGs, attach to their move', () => {
    const g = game('strengths.pdn');
    // biome-ignore format: one row
    expect(g.moves.slice(0, 15).map((m) => m.nags)).toEqual([
      [1], [2], [3], [4], [5], [6], [1], [2], [1], [2, 18], [1], [2], [3], [7], [22],
    ]);
    expect(g.moves[15].nags).toEqual([255]);
    expect(g.moves[16].nags).toEqual([3]);
    expect(g.moves[17].nags).toEqual([0]); // `!!?` is a strength without a NAG of its own
  });

  it('variations nested three deep are kept, each from where its move starts', () => {
    const g = game('variations.pdn');
    expect(notations(g)).toEqual(GAME_A);
    const second = g.moves[2].variations[0];
    expect(second.map((m) => m.notation)).toEqual(['33-28', '18-23']);
    expect(second[0].comment).toBe('the quiet line');
    expect(second[1].variations[0].map((m) => m.notation)).toEqual(['21-27', '32x21']);
    const deep = g.moves[7].variations[0][0].variations[0][0];
    expect(deep.nags).toEqual([4]);
    expect(deep.variations[0][0].notation).toBe('13-18');
    expect(g.moves[11].variations[0].map((m) => m.notation)).toEqual(['12x21', '33-29']);
    expect(g.moves[11].comment).toBe('a comment');
    expect(parsePdn(decodePdn(bytesOf('variations.pdn'))).games[0].moves[2].variations).toEqual([]);
  });

  it('every result form: draughts, chess, ½-½, 0.5-0.5, the double forfeit, and the Result tag alone', () => {
    const games = read('results.pdn').games;
    // biome-ignore format: one row
    expect(games.map((g) => g.resultText)).toEqual([
      '2-0', '0-2', '1-1', '0-0', '1-0', '0-1', '1/2-1/2', '½-½', '0.5-0.5', '*', undefined,
    ]);
    // biome-ignore format: one row
    expect(games.map((g) => g.result)).toEqual([
      '2-0', '0-2', '1-1', '*', '2-0', '0-2', '1-1', '1-1', '1-1', '*', '0-2',
    ]);
  });

  it('"?" values: tags kept as written, unknown game type, FEN and result read as absent', () => {
    const [a, b, c] = read('unknown-values.pdn').games;
    expect(a.tags.Date).toBe('????.??.??');
    expect(a.variant).toBe('international');
    expect(a.result).toBe('*');
    expect(notations(a)).toEqual(GAME_A.slice(0, 12));
    expect(b.start.turn).toBe('black'); // `?` to move, and `1...`
    expect(c.start.turn).toBe('white'); // `?` to move, and a move only White has
    expect(notations(c)).toEqual(['28-23', '19x28']);
  });

  it('setups: SetUp/FEN with ranges, kings and counters, a /FEN/ setup, an 8×8 FEN', () => {
    const [a, b, c, d] = read('setups.pdn').games;
    expect(writeFen(a.start)).toBe('B:W28,49:BK23');
    expect(writeFen(b.start)).toBe('W:W31,32,33,K46:BK5,10,12,13');
    expect(writeFen(c.start)).toBe('W:W28,37:B19');
    expect(d.variant).toBe('brazilian');
    expect(notations(d)).toEqual(['22-18', '9-13', '18-14', '10x17']);
  });

  it('algebraic squares on 8×8, with separators or glued', () => {
    for (const g of read('brazilian-algebraic.pdn').games) {
      expect(notations(g)).toEqual(['22-18', '9-13', '18-14', '10x17']);
    }
  });

  it('comments: braces over lines, ";" lines, escape lines, clocks, before the first move', () => {
    const [a, b] = read('comments.pdn').games;
    expect(a.comment).toBe('Before the first move');
    expect(a.moves[0].clock).toEqual({ white: 5_400_000, black: 5_400_000, running: 'black' });
    expect(a.moves[1].comment).toBe('a line comment 2. 32-28 is not a move here');
    expect(a.moves[3].comment).toBe('spans\ntwo lines');
    expect(a.moves).toHaveLength(12);
    expect(b.tags.Event).toBe('Second');
    expect(b.comment).toBeUndefined();
    expect(b.moves[0].clock).toEqual({ white: 3_598_000 });
  });

  it('encodings: UTF-8 with a BOM, Windows-1252/Latin-1, UTF-8 with CRLF', () => {
    const bom = game('utf8-bom.pdn');
    expect(Object.keys(bom.tags)[0]).toBe('Event');
    expect(bom.tags.White).toBe('Анна Петрова');
    expect(bom.tags.Black).toBe('Hélène');
    const latin = game('latin1.pdn');
    expect(latin.tags.White).toBe('Hébert');
    expect(latin.tags.Black).toBe('Müller');
    expect(latin.tags.Site).toBe('’s-Hertogenbosch');
    const crlf = game('crlf.pdn');
    expect(crlf.tags.White).toBe('Łukasz');
    expect(crlf.moves[1]).toMatchObject({ line: 6, col: 10 });
  });

  it('an ambiguous move reports its candidates', () => {
    const e = read('illegal-and-ambiguous.pdn').errors[1];
    expect(e.code).toBe('ambiguous-move');
    expect(e.candidates?.sort()).toEqual(['21x3x20x33x42', '21x8x24x33x42']);
  });

  it('a game without a terminator ends at the next tags, which start the next game', () => {
    const [a, b] = read('no-terminator.pdn').games;
    expect(notations(a)).toEqual(['32-28', '19-23']);
    expect(b.tags.Event).toBe('Next');
    expect(b.errors).toEqual([]);
  });
});

describe('PDN round trip: every game of the corpus read → written → read is the same game', () => {
  for (const file of FILES) {
    it(file, () => {
      for (const g of read(file).games.filter((x) => x.errors.length === 0)) {
        const text = writePdnGame({
          tags: g.tags,
          variant: g.variant,
          startFen: writeFen(g.start),
          moves: g.moves.map((m) => ({ text: m.notation, comment: m.comment, nags: m.nags })),
          result: g.result,
        });
        const back = parsePdn(text);
        expect(back.errors).toEqual([]);
        expect(back.games).toHaveLength(1);
        const b = back.games[0];
        expect(b.variant).toBe(g.variant);
        expect(b.start.equals(g.start)).toBe(true);
        expect(b.result).toBe(g.result);
        const strip = (x: PdnGame) =>
          x.moves.map((m) => ({ notation: m.notation, comment: m.comment, nags: m.nags, clock: m.clock }));
        expect(strip(b)).toEqual(strip(g));
        for (const [k, v] of Object.entries(g.tags)) {
          if (!['Result', 'GameType', 'FEN', 'SetUp'].includes(k)) expect(b.tags[k], k).toBe(v);
        }
      }
    });
  }
});
