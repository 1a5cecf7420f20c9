// engine-vectors.md: complete legal-move lists, each named after its FMJD article.
import { describe, expect, it } from 'vitest';
import { legalMoves, moveNotation, parseFen, type Position } from '../../../src/engine/index.ts';

function position(fen: string): Position {
  const r = parseFen(fen);
  if (!r.ok) throw new Error(`bad test FEN ${fen}: ${r.error.message}`);
  return r.value;
}

/** Sorted PDN texts of the legal moves, and the number of pieces each captures. */
function moves(fen: string): Array<[string, number]> {
  const pos = position(fen);
  return legalMoves(pos)
    .map((m): [string, number] => [moveNotation(pos, m), m.captured.length])
    .sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
}

const quiet = (...texts: string[]) =>
  texts.map((t): [string, number] => [t, 0]).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
const takes = (n: number, ...texts: string[]) =>
  texts.map((t): [string, number] => [t, n]).sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));

describe('3.4 men move forward', () => {
  it('W:W28 → 28-22, 28-23', () => expect(moves('W:W28')).toEqual(quiet('28-22', '28-23')));
  it('B:B13 → 13-18, 13-19', () => expect(moves('B:B13')).toEqual(quiet('13-18', '13-19')));
});

describe('3.5 a man reaching the far row', () => {
  it('W:W8 → 8-2, 8-3, both crowning', () => {
    expect(moves('W:W8')).toEqual(quiet('8-2', '8-3'));
    expect(legalMoves(position('W:W8')).every((m) => m.promotes)).toBe(true);
  });
});

describe('3.9 flying king', () => {
  it('W:WK28 → 17 moves along four diagonals', () => {
    expect(moves('W:WK28')).toEqual(
      quiet(
        ...['22', '17', '11', '6', '23', '19', '14', '10', '5'].map((s) => `28-${s}`),
        ...['32', '37', '41', '46', '33', '39', '44', '50'].map((s) => `28-${s}`),
      ),
    );
  });
  it('B:BK1 → 1-6, 1-7/12/18/23/29/34/40/45', () => {
    expect(moves('B:BK1')).toEqual(
      quiet(...['6', '7', '12', '18', '23', '29', '34', '40', '45'].map((s) => `1-${s}`)),
    );
  });
});

describe('4.2 capture is compulsory', () => {
  it('W:W28,32:B23 → only 28x19', () => expect(moves('W:W28,32:B23')).toEqual(takes(1, '28x19')));
  it('W:W35:B30,K40 → men capture backwards: 35x24, 35x44', () =>
    expect(moves('W:W35:B30,K40')).toEqual(takes(1, '35x24', '35x44')));
});

describe('4.3 a king lands on any free square beyond', () => {
  it('W:WK46:B23 → 46x19, 46x14, 46x10, 46x5', () =>
    expect(moves('W:WK46:B23')).toEqual(takes(1, '46x19', '46x14', '46x10', '46x5')));
});

describe('4.5 a man captures several pieces', () => {
  it('W:W15:B8,19,20 → 15x2 (3 pieces)', () => expect(moves('W:W15:B8,19,20')).toEqual(takes(3, '15x2')));
  it('W:W47:B13,14,22,24,31,34,K41,44 → 47x49 (8 pieces)', () =>
    expect(moves('W:W47:B13,14,22,24,31,34,K41,44')).toEqual(takes(8, '47x49')));
});

describe('4.6 a king continues capturing', () => {
  it('W:WK47:B9,12,33 → 47x17, 47x21, 47x26', () =>
    expect(moves('W:WK47:B9,12,33')).toEqual(takes(3, '47x17', '47x21', '47x26')));
  it('W:WK1:B7,9,17,19,20,30,31,33,43,44 → 1x15 (10 pieces)', () =>
    expect(moves('W:WK1:B7,9,17,19,20,30,31,33,43,44')).toEqual(takes(10, '1x15')));
});

describe('4.8 captured pieces block until the capture ends', () => {
  it('W:WK41,49:B9,10,12,19,38 → 41x43 (4 pieces)', () =>
    expect(moves('W:WK41,49:B9,10,12,19,38')).toEqual(takes(4, '41x43')));
  it('B:W27,28,38,39,42:BK25 → 25x33 (4 pieces)', () =>
    expect(moves('B:W27,28,38,39,42:BK25')).toEqual(takes(4, '25x33')));
});

describe('4.13 the maximum number of pieces must be captured', () => {
  it('W:W48:B24,K31,34,K42,43 → 48x19 (3 pieces)', () =>
    expect(moves('W:W48:B24,K31,34,K42,43')).toEqual(takes(3, '48x19')));
  it('W:WK48:B7,8,31,34,K42,44 → 48x50 (4 pieces)', () =>
    expect(moves('W:WK48:B7,8,31,34,K42,44')).toEqual(takes(4, '48x50')));
});

describe('4.14 no priority for kings or for capturing kings', () => {
  it('W:W26:B12,K21,31,32 → 26x8, 26x28', () =>
    expect(moves('W:W26:B12,K21,31,32')).toEqual(takes(2, '26x8', '26x28')));
});

describe('4.15 a man passing the far row during a capture stays a man', () => {
  it('W:W15:B9,10 → 15x13 via 4, not crowned', () => {
    expect(moves('W:W15:B9,10')).toEqual(takes(2, '15x13'));
    const [m] = legalMoves(position('W:W15:B9,10'));
    expect(m.path).toEqual([15, 4, 13]);
    expect(m.promotes).toBe(false);
  });
});
