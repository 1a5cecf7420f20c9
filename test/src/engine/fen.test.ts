// engine-vectors.md "FEN": read ranges and side-only lists, write comma lists, located errors.
import { describe, expect, it } from 'vitest';
import { readFenBoard } from '../../../firmware-protocol/fen-board.js';
import { parseFen, Position, writeFen } from '../../../src/engine/index.ts';

describe('FEN read', () => {
  it('reads ranges: W:W31-50:B1-20 is the initial position', () => {
    const r = parseFen('W:W31-50:B1-20');
    expect(r.ok).toBe(true);
    if (r.ok) expect(r.value.equals(Position.initial())).toBe(true);
  });

  it('reads kings, mixed ranges and lists, and the side to move', () => {
    const r = parseFen('B:WK46,31-33:BK5,10,12-13');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.turn).toBe('black');
    expect(r.value.pieces('white')).toEqual([
      [31, 'w'],
      [32, 'w'],
      [33, 'w'],
      [46, 'W'],
    ]);
    expect(r.value.pieces('black')).toEqual([
      [5, 'B'],
      [10, 'b'],
      [12, 'b'],
      [13, 'b'],
    ]);
  });

  it('reads side-only lists (W:W28, B:BK1)', () => {
    const w = parseFen('W:W28');
    expect(w.ok && w.value.pieces()).toEqual([[28, 'w']]);
    const b = parseFen('B:BK1');
    expect(b.ok && b.value.pieces()).toEqual([[1, 'B']]);
    expect(b.ok && b.value.turn).toBe('black');
  });

  it('reads a trailing dot and lidraughts move counters (:H0:F1)', () => {
    const r = parseFen('W:W31-50:B1-20:H0:F1.');
    expect(r.ok && r.value.equals(Position.initial())).toBe(true);
  });

  it('reads spaces around the items of a list, as pasted FENs have them', () => {
    const r = parseFen('W:W 31, 32,33 :B1-20');
    expect(r.ok && writeFen(r.value)).toBe('W:W31,32,33:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20');
  });

  it('the reader gives a range as one item: what it may hold is checked before it is filled in', () => {
    const read = readFenBoard('W:W31-50:B1-20');
    expect(read.ok && read.value.items).toEqual([
      { first: 31, last: 50, piece: 'w', at: 3 },
      { first: 1, last: 20, piece: 'b', at: 10 },
    ]);
    // A long text of wide ranges: refused at the first square it cannot hold, none filled in beyond.
    const wide = parseFen(`W:W${'31-999,'.repeat(20_000)}31`);
    expect(!wide.ok && wide.error.code).toBe('square-out-of-range');
  });

  it('reads the 8×8 board with its own square range', () => {
    const r = parseFen('W:W21-32:B1-12', { variant: 'brazilian' });
    expect(r.ok && r.value.equals(Position.initial('brazilian'))).toBe(true);
    const bad = parseFen('W:W33', { variant: 'brazilian' });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.error.code).toBe('square-out-of-range');
  });
});

describe('FEN write', () => {
  it('writes comma lists, never ranges, kings with K', () => {
    expect(writeFen(Position.initial())).toBe(
      'W:W31,32,33,34,35,36,37,38,39,40,41,42,43,44,45,46,47,48,49,50:B1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20',
    );
    const r = parseFen('B:WK46,31-33:BK5,10');
    expect(r.ok && writeFen(r.value)).toBe('B:W31,32,33,K46:BK5,10');
  });

  it('writes side-only positions so that they read back', () => {
    const r = parseFen('W:W28');
    if (!r.ok) throw new Error(r.error.message);
    const back = parseFen(writeFen(r.value));
    expect(back.ok && back.value.equals(r.value)).toBe(true);
  });
});

describe('FEN errors are typed and located, never thrown', () => {
  const cases: Array<[string, string, number]> = [
    ['X:W31', 'bad-turn', 1],
    ['W:W51', 'square-out-of-range', 4],
    ['W:W0', 'square-out-of-range', 4],
    ['W:W31,31', 'square-twice', 7],
    ['W:W31:B31', 'square-twice', 8],
    ['W:W3', 'man-on-promotion-row', 4],
    ['W:B47', 'man-on-promotion-row', 4],
    ['W:W31:W32', 'duplicate-color', 7],
    ['W:W31,', 'bad-square', 7],
    ['W:Wx', 'bad-square', 4],
    ['W:W40-31', 'bad-range', 4],
    ['W:W31;B1', 'unexpected', 6],
    ['W;W31', 'expected-colon', 2],
    ['', 'bad-turn', 1],
  ];
  for (const [fen, code, col] of cases) {
    it(`${JSON.stringify(fen)} → ${code} at column ${col}`, () => {
      const r = parseFen(fen);
      expect(r.ok).toBe(false);
      if (!r.ok) {
        expect(r.error.code).toBe(code);
        expect(r.error.col).toBe(col);
        expect(r.error.message.length).toBeGreaterThan(0);
      }
    });
  }

  it('a white king may stand on 1–5 and a black king on 46–50', () => {
    expect(parseFen('W:WK3:BK47').ok).toBe(true);
  });
});
