import { describe, expect, it } from 'vitest';
import { readyToPair } from '../../daemon/tournament/pairing-program.ts';
import {
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  groupEvent,
  readTrf,
  readTrfDocument,
  type TrfPlayerLine,
  writeTrf,
  writeTrfDocument,
} from '../../src/tournament/index.ts';
import { fixture } from './fixtures/helpers.ts';

const FILES = ['swiss-2026.trf', 'berger6-trf16.trf', 'lidraughts.trf'];

describe('TRF files read and written back', () => {
  for (const f of FILES)
    it(`${f}: the same bytes`, () => {
      const text = fixture(f);
      const doc = readTrfDocument(text, f);
      expect(doc.ok).toBe(true);
      if (doc.ok) expect(writeTrfDocument(doc.value)).toBe(text);
    });

  it('a name longer than its 33 columns is cut, and the columns after it stay where TRF puts them', () => {
    const doc = readTrfDocument(fixture('swiss-2026.trf'), 'swiss-2026.trf');
    expect(doc.ok).toBe(true);
    if (!doc.ok) return;
    const first = doc.value.lines.find((l): l is TrfPlayerLine => l.kind === 'player')!;
    const long = { ...first, name: 'Van den Berg-Oosterhuis, Johannes Wilhelmus' };
    const again = readTrfDocument(writeTrfDocument({ ...doc.value, lines: [long] }), 'long.trf');
    expect(again.ok).toBe(true);
    if (!again.ok) return;
    const read = again.value.lines[0] as TrfPlayerLine;
    expect(read.name.trimEnd()).toBe(long.name.slice(0, 33).trimEnd());
    expect({ rating: read.rating, federation: read.federation, id: read.id, cells: read.cells }).toEqual({
      rating: first.rating,
      federation: first.federation,
      id: first.id,
      cells: first.cells,
    });
  });

  it('TRF-2026: the event written again gives the file (162, 142, 152, ### advantages, ranks)', () => {
    const text = fixture('swiss-2026.trf');
    const r = readTrf(text);
    expect(r.ok).toBe(true);
    if (r.ok) expect(writeTrf(r.value.event)).toBe(text);
  });

  it('TRF16 (CRLF, XXR, XXC): players, titles, rounds, chess points doubled', () => {
    const r = readTrf(fixture('berger6-trf16.trf'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const { event, scale } = r.value;
    expect(scale).toBe('chess');
    expect(event.points).toMatchObject({ win: 2, draw: 1, loss: 0 });
    expect(event).toMatchObject({
      name: 'Toernooi der Meesters',
      city: 'Amsterdam',
      plannedRounds: 5,
      firstColour: 'white',
    });
    expect(event.players[0]).toEqual({
      start: 1,
      name: 'Sijbrands, Ton',
      sex: 'm',
      title: 'GMI',
      rating: 2360,
      federation: 'NED',
      fmjdId: '3000012',
      birth: '1949/05/21',
    });
    expect(event.rounds).toHaveLength(5);
    // Round 2 of the 6-player Berger table: 6-4, 5-3, 1-2.
    expect(event.rounds[1].pairings.map((p) => [p.white, p.black, p.result])).toEqual(
      expect.arrayContaining([
        [6, 4, { kind: 'game', score: '0-2' }],
        [5, 3, { kind: 'game', score: '2-0' }],
        [1, 2, { kind: 'game', score: '1-1' }],
      ]),
    );
  });

  it("lidraughts' export: chess scale doubled, byes without opponent, half-point bye, absence", () => {
    const r = readTrf(fixture('lidraughts.trf'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.scale).toBe('chess');
    const round3 = r.value.event.rounds[2];
    expect(round3.byes).toEqual([
      { player: 2, kind: 'half' },
      { player: 3, kind: 'pairing' },
      { player: 5, kind: 'absent' },
    ]);
    expect(round3.pairings).toEqual([
      { table: 1, white: 1, black: 4, result: { kind: 'game', score: '2-0' } },
    ]);
  });

  it('--scale overrides what the file says', () => {
    const draughts = readTrf(fixture('lidraughts.trf'), { scale: 'draughts' });
    expect(draughts.ok && draughts.value.event.points).toMatchObject({ win: 2, draw: 1 });
    const chess = readTrf(fixture('swiss-2026.trf'), { scale: 'chess' });
    expect(chess.ok && chess.value.event.points).toMatchObject({ win: 4, draw: 2, pairingBye: 4 });
  });

  it('a file on the draughts scale without a point line is not doubled', () => {
    const text = fixture('swiss-2026.trf').replace(/^162 .*\n/m, '');
    const r = readTrf(text);
    expect(r.ok && r.value.scale).toBe('draughts');
  });

  it('BBW/BBD lines give the point system', () => {
    const text = fixture('berger6-trf16.trf').replace('XXR 5\r\n', 'XXR 5\r\nBBW  3.0\r\nBBD  1.0\r\n');
    const r = readTrf(text);
    expect(r.ok && [r.value.scale, r.value.event.points]).toEqual([
      'draughts',
      { win: 3, draw: 1, loss: 0, forfeitLoss: 0, pairingBye: 3 },
    ]);
  });
});

describe('TRF problems are located', () => {
  const swiss = fixture('swiss-2026.trf');
  const lines = swiss.split('\n');
  const lineOf = (start: number) => lines.findIndex((l) => l.startsWith(`001 ${String(start).padStart(4)}`));

  it('a bad result code: line and column', () => {
    const i = lineOf(3);
    const bad = [...lines];
    bad[i] = `${bad[i].slice(0, 98)}X${bad[i].slice(99)}`;
    const r = readTrf(bad.join('\n'), { file: 's.trf' });
    expect(r).toMatchObject({
      ok: false,
      error: [{ file: 's.trf', line: i + 1, col: 99, code: 'trf-bad-round' }],
    });
  });

  it('text outside the columns', () => {
    const i = lineOf(1);
    const bad = [...lines];
    bad[i] = `${bad[i].slice(0, 47)}X${bad[i].slice(48)}`;
    expect(readTrfDocument(bad.join('\n'))).toMatchObject({
      ok: false,
      error: [{ line: i + 1, col: 48, code: 'trf-misaligned' }],
    });
  });

  it('opponents that disagree', () => {
    // Player 2 meets 9 in round 1; make 9 meet 5 instead.
    const i = lineOf(9);
    const bad = [...lines];
    bad[i] = `${bad[i].slice(0, 91)}   5${bad[i].slice(95)}`;
    const r = readTrf(bad.join('\n'));
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.map((e) => e.code)).toContain('trf-pairing');
  });

  it('a bad 162 line names its column', () => {
    const r = readTrf(swiss.replace('162  W 2.0    D 1.0', '162  W 2.0    Q 1.0'));
    expect(r).toMatchObject({ ok: false, error: [{ line: 11, col: 15, code: 'trf-bad-header' }] });
  });

  it('an advantage note on a game that was no draw', () => {
    const r = readTrf(swiss.replace('### advantage round 1: 3 1+ 8 1-', '### advantage round 1: 2 1+ 9 1-'));
    expect(r).toMatchObject({ ok: false, error: [{ line: 12, code: 'trf-advantage' }] });
  });

  it('the player lines keep their text fields', () => {
    const doc = readTrfDocument(swiss);
    const p = doc.ok ? (doc.value.lines.find((l) => l.kind === 'player') as TrfPlayerLine) : undefined;
    expect(p).toMatchObject({
      start: 1,
      name: 'Boomstra, Roel',
      rating: '1402',
      id: '16241',
      points: '12.0',
      rank: '1',
    });
  });
});

describe('TRF 152: the first colour drawn and used', () => {
  const players = [1, 2, 3, 4, 5, 6, 7, 8].map((start) => ({
    start,
    name: `Player${start}, A`,
    group: start <= 4 ? 'A' : 'B',
  }));
  const base: Event = {
    name: 'Club',
    groups: ['A', 'B'],
    players,
    rounds: [],
    points: DRAUGHTS_POINTS,
    tiebreaks: DEFAULT_TIEBREAKS,
    advantageDraws: false,
    plannedRounds: 5,
    firstColour: 'black',
  };
  // Round 1 imported from a CSV: the top seeds (1 in A, 5 in B) had White, whatever was drawn.
  const imported: Event = {
    ...base,
    rounds: [
      {
        number: 1,
        pairings: [
          { table: 1, white: 1, black: 3 },
          { table: 2, white: 4, black: 2 },
          { table: 3, white: 5, black: 7 },
          { table: 4, white: 8, black: 6 },
        ],
        byes: [],
      },
    ],
  };
  const line152 = (event: Event) =>
    writeTrf(event)
      .split('\n')
      .find((l) => l.startsWith('152'));

  it("before round 1 is paired: the event's", () => {
    expect(line152(base)).toBe('152 B');
    expect(line152({ ...base, firstColour: undefined })).toBeUndefined();
  });

  it('once round 1 is paired: the colour its top seed had, for the event and for each group', () => {
    expect(line152(imported)).toBe('152 W');
    expect(line152({ ...imported, firstColour: undefined })).toBe('152 W');
    expect(line152(groupEvent(imported, 'B').event)).toBe('152 W');
    // A top seed absent in round 1: the best-ranked player seated.
    const absent = {
      ...imported,
      rounds: [{ ...imported.rounds[0], pairings: imported.rounds[0].pairings.slice(1) }],
    };
    expect(line152(absent)).toBe('152 B');
    expect(readyToPair(imported, {}).firstColour).toBe('white');
  });
});
