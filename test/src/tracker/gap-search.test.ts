// The gap search (src/tracker/gap/search.ts): from the last known position and the board after lost
// events, the lines of play that lead there — exactly the one played when it is the only one, every
// transposition when there are several, none for a board no line reaches.
import { describe, expect, it } from 'vitest';
import { Position, parseFen, resolveMove, writeFen } from '../../../src/engine/index.ts';
import { sensedText } from '../../../src/tracker/sensed-codes.ts';
import { manMoves } from '../../../src/tracker/gap/bound.ts';
import { gapDecisionLine, lineNotation } from '../../../src/tracker/gap/answer.ts';
import { GAP_NODES, searchGap } from '../../../src/tracker/gap/search.ts';
import type { Alert } from '../../../src/tracker/types.ts';
import { gapOf, lineKey, sensedBoard } from './fixtures/gap-lines.ts';
import { fen, playText } from './fixtures/hands.ts';

const played = (pos: Position, ...line: string[]): Position => line.reduce(playText, pos);

/**
 * Gaps whose line is the only one of its length, and no shorter one reaches the board (by the
 * enumeration of fixtures/gap-reference.ts, cached in fixtures/gap-truth.json): N lost plies, game
 * seeds (both variants and occupancy-only boards among them). At 12 plies the one of the bench's 20
 * unique gaps the default budget proves.
 */
const UNIQUE: Record<number, number[]> = {
  1: [1, 2, 3, 4, 5, 6, 7, 8],
  2: [1, 2, 3, 4, 5, 6, 7, 8],
  4: [1, 4, 5, 7, 8, 10, 11, 12],
  8: [4, 8, 10, 12, 15, 17, 30],
  12: [80],
};

describe('gap search: a line with no other of its length is found exactly', () => {
  for (const [plies, seeds] of Object.entries(UNIQUE)) {
    it(`${plies} lost plies (games ${seeds.join(', ')})`, () => {
      for (const seed of seeds) {
        const gap = gapOf(seed, Number(plies))!;
        const r = searchGap(gap.from, sensedBoard(gap.to, gap.occupancyOnly));
        expect(r.kind, `seed ${seed}`).toBe('found');
        if (r.kind !== 'found') continue;
        expect({ seed, total: r.total, complete: r.complete }).toEqual({ seed, total: 1, complete: true });
        expect(lineKey(r.lines[0].line)).toBe(lineKey(gap.line));
        expect(r.lines[0].end.equals(gap.to)).toBe(true);
        expect(r.nodes).toBeLessThanOrEqual(GAP_NODES);
      }
    });
  }
});

describe('gap search bound: the least moves of one man (quiet steps forward, jumps of two rows either way)', () => {
  it('rows and columns must fit the steps and jumps, and every jump is made', () => {
    // Two rows straight ahead: two quiet steps (one left, one right), never one jump.
    expect(manMoves(2, 0, 0)).toBe(2);
    expect(manMoves(2, 2, 1)).toBe(1);
    // Exactly one jump and two rows straight ahead: back-jump and four steps, or more.
    expect(manMoves(2, 0, 1)).toBe(5);
    // One row back: a jump back and a step forward; two rows back, same column: two jumps at least.
    expect(manMoves(-1, 1, 1)).toBe(2);
    expect(manMoves(-2, 0, 1)).toBe(Number.POSITIVE_INFINITY);
    expect(manMoves(-2, 0, 2)).toBe(3);
    // Sideways only by stepping forward: no quiet move along a row.
    expect(manMoves(0, 2, 0)).toBe(Number.POSITIVE_INFINITY);
    expect(manMoves(0, 4, 2)).toBe(1);
  });
});

describe('gap search: transposed plies give every line', () => {
  it('two black moves around a white one, in either order: both lines, the same end', () => {
    const start = played(Position.initial(), '32-28');
    const to = played(start, '18-22', '37-32', '20-24');
    const r = searchGap(start, sensedBoard(to, false));
    expect(r.kind).toBe('found');
    if (r.kind !== 'found') return;
    expect(r.complete).toBe(true);
    expect(r.lines.map((l) => lineNotation(start, l.line)).sort()).toEqual([
      ['18-22', '37-32', '20-24'],
      ['20-24', '37-32', '18-22'],
    ]);
    for (const l of r.lines) expect(l.end.equals(to)).toBe(true);
  });
});

describe('gap search: kings the board shows as men (docs/irregularities.md: a crown not put on)', () => {
  /** The board `pos` shows with every king's crown off. */
  const uncrowned = (pos: Position, occupancyOnly = false) =>
    sensedBoard(fen(writeFen(pos).replace(/K/g, ''), pos.variant), occupancyOnly);

  it('a king of the game before the gap, never crowned on the board, travels in it: its line is found', () => {
    const start = fen('W:W40,44,45,49,50:BK5,11,12,13');
    const line = ['44-39', '5-41', '39-34', '11-16', '40-35', '16-21'];
    const to = played(start, ...line);
    const seen = uncrowned(to);
    const r = searchGap(start, seen);
    expect(r.kind).toBe('found');
    if (r.kind !== 'found') return;
    // Its plies in other orders too (two men and a king, each side's moves apart).
    expect({ plies: r.lines[0].line.length, complete: r.complete }).toEqual({ plies: 6, complete: true });
    for (const l of r.lines) expect(l.end.equals(to)).toBe(true);
  });

  it('a board of occupancy only: a man crowned in the gap and moved on is found', () => {
    const start = fen('W:W6,48,49,50:B16,17');
    const line = ['6-1', '16-21', '1-23', '17-22', '49-43', '22-27'];
    const to = played(start, ...line);
    const r = searchGap(start, sensedBoard(to, true));
    expect(r.kind).toBe('found');
    if (r.kind !== 'found') return;
    expect(r.complete).toBe(true);
    expect(r.lines.map((l) => lineNotation(start, l.line))).toContainEqual(line);
  });
});

describe('gap search: boards no line reaches', () => {
  it('a piece more than the game: none, proven at once; a man behind where it stood: none within the budget', () => {
    const start = played(Position.initial(), '32-28', '19-23');
    const extra = sensedBoard(start, false);
    extra[24] = 2;
    const back = sensedBoard(played(start, '28x19', '14x23'), false);
    // A black man on 5 where the game had it on 10: men never move backward.
    back[10] = 0;
    back[5] = 2;
    expect(searchGap(start, extra)).toEqual({ kind: 'none', complete: true, nodes: 0 });
    const r = searchGap(start, back);
    expect(r.kind).toBe('none');
    expect(r.nodes).toBeLessThanOrEqual(GAP_NODES);
  });

  it('the node budget holds whatever the board: a hard one ends undecided within it', () => {
    const gap = gapOf(16, 20)!;
    const r = searchGap(gap.from, sensedBoard(gap.to, gap.occupancyOnly), { nodes: 500 });
    expect(r.nodes).toBeLessThanOrEqual(500);
    expect(r.complete).toBe(false);
  });
});

describe('gap decision: the arbiter names a candidate or writes the moves', () => {
  const start = played(Position.initial(), '32-28');
  const to = played(start, '18-22', '37-32', '20-24');
  const alert: Alert = {
    id: '2-gap-1',
    rule: 'gap',
    ply: 2,
    side: 'black',
    message: '',
    t: 0,
    events: [],
    before: writeFen(start),
    after: writeFen(to),
    candidates: [
      ['18-22', '37-32', '20-24'],
      ['20-24', '37-32', '18-22'],
    ],
    boardShown: sensedText(sensedBoard(to, false)),
  };
  const texts = (r: ReturnType<typeof gapDecisionLine>) =>
    r.ok ? lineNotation(start, r.value) : r.error.message;

  it('a candidate by its index; no such index is an error', () => {
    expect(
      texts(gapDecisionLine(alert, { alertId: alert.id, kind: 'line', line: 1 }, 'international')),
    ).toEqual(['20-24', '37-32', '18-22']);
    expect(gapDecisionLine(alert, { alertId: alert.id, kind: 'line', line: 2 }, 'international').ok).toBe(
      false,
    );
  });

  it('score-sheet moves (with move numbers) that reach the board; others are refused with the reason', () => {
    const good = gapDecisionLine(
      alert,
      { alertId: alert.id, kind: 'moves', pdn: '1... 18-22 2. 37-32 20-24' },
      'international',
    );
    expect(texts(good)).toEqual(['18-22', '37-32', '20-24']);
    const short = gapDecisionLine(
      alert,
      { alertId: alert.id, kind: 'moves', pdn: '18-22 37-32' },
      'international',
    );
    expect(texts(short)).toMatch(/do not lead to the position on the board/);
    const illegal = gapDecisionLine(
      alert,
      { alertId: alert.id, kind: 'moves', pdn: '18-22 32-27' },
      'international',
    );
    expect(texts(illegal)).toMatch(/^move 2 \(32-27\)/);
    const fen = parseFen(alert.before!, { variant: 'international' });
    expect(fen.ok && resolveMove(fen.value, '18-22').ok).toBe(true);
  });
});
