// Board description files (--field-map), FEN snapshots, orientation on 8×8.
import { describe, expect, it } from 'vitest';
import {
  createBoardEncoder,
  createDecoder,
  fullScanFieldMap,
  parseBoardConfig,
  rotateBoard,
  startPosition,
  toSquareString,
} from '../../firmware-protocol/index.ts';

describe('board description (field map file)', () => {
  it('accepts a complete description', () => {
    const r = parseBoardConfig(
      JSON.stringify({
        fields50: Array.from({ length: 50 }, (_, i) => 50 - i),
        pieces: { w: 1, b: 4, W: 10, B: 7 },
        orientation: 'normal',
        clockWhite: 'right',
        scan: '100',
      }),
    );
    expect(r.ok && r.value).toMatchObject({
      pieceCodes: { W: 10, B: 7 },
      orientation: 'normal',
      clockWhite: 'right',
      scan: '100',
    });
  });
  it.each([
    ['not json', '{', 'not JSON'],
    [
      'a square twice',
      JSON.stringify({ fields50: [1, 1, ...Array.from({ length: 48 }, (_, i) => i + 3)] }),
      'appears twice',
    ],
    ['too short', JSON.stringify({ fields50: [1, 2, 3] }), 'has 3 entries'],
    ['a zero piece code', JSON.stringify({ pieces: { w: 0, b: 4, W: 7, B: 10 } }), 'pieces'],
    ['bad orientation', JSON.stringify({ orientation: 'sideways' }), 'orientation'],
    ['bad hid layout', JSON.stringify({ hidLayout: { cells: 51 } }), 'hidLayout'],
  ])('refuses %s with a message', (_name, text, fragment) => {
    const r = parseBoardConfig(text);
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.message).toContain(fragment);
  });
  it('swapped piece codes (the 2011 firmware change) decode through the configured codes', () => {
    const dec = createDecoder('dgt', { pieceCodes: { w: 1, b: 4, W: 10, B: 7 } });
    expect(dec.push(Uint8Array.of(0x8e, 0, 5, 0, 7), 0)).toEqual([
      { t: 0, type: 'put', square: 1, piece: 'B' },
    ]);
  });
});

describe('board strings', () => {
  it('FEN snapshots are expanded for the board-side encoders', () => {
    expect(toSquareString('W:W31-50:B1-20', 50)).toBe(startPosition(10));
    expect(toSquareString('B:WK3,28:B12', 50)).toBe(`..W........b${'.'.repeat(15)}w${'.'.repeat(22)}`);
    expect(toSquareString('W:W51:B1', 50)).toBeUndefined();
    const enc = createBoardEncoder('hid');
    const dec = createDecoder('hid');
    expect(dec.push(enc.encode({ t: 0, type: 'snapshot', board: 'W:W31-50:B1-20' }), 0)).toEqual([
      { t: 0, type: 'snapshot', board: startPosition(10) },
    ]);
  });
  it('the default 100-field map numbers dark squares like FMJD (square 1 second on the top row)', () => {
    const map = fullScanFieldMap(10);
    expect(map.slice(0, 4)).toEqual([0, 1, 0, 2]);
    expect(map.slice(10, 12)).toEqual([6, 0]);
    expect(map[90]).toBe(46);
  });
  it('8×8: a board turned 180° is detected (White on 1–12) and later updates rotated', () => {
    const dec = createDecoder('dgt', { size: 8 });
    const enc = createBoardEncoder('dgt', { size: 8, orientation: 'rotated' });
    expect(dec.push(enc.encode({ t: 0, type: 'snapshot', board: startPosition(8) }), 0)).toEqual([
      { t: 0, type: 'snapshot', board: startPosition(8) },
    ]);
    expect(dec.push(enc.encode({ t: 1, type: 'lift', square: 22 }), 1)).toEqual([
      { t: 1, type: 'lift', square: 22 },
    ]);
    expect(rotateBoard(startPosition(8)).startsWith('w'.repeat(12))).toBe(true);
  });
  it('a later start position in the other orientation turns the board back', () => {
    const dec = createDecoder('hid');
    const turned = createBoardEncoder('hid', { orientation: 'rotated' });
    const upright = createBoardEncoder('hid');
    dec.push(turned.encode({ t: 0, type: 'snapshot', board: startPosition(10) }), 0);
    expect(dec.push(turned.encode({ t: 1, type: 'lift', square: 32 }), 1)).toEqual([
      { t: 1, type: 'lift', square: 32 },
    ]);
    expect(dec.push(upright.encode({ t: 2, type: 'snapshot', board: startPosition(10) }), 2)).toEqual([
      { t: 2, type: 'snapshot', board: startPosition(10) },
    ]);
    expect(dec.push(upright.encode({ t: 3, type: 'lift', square: 32 }), 3)).toEqual([
      { t: 3, type: 'lift', square: 32 },
    ]);
  });
});
