import { describe, expect, it } from 'vitest';
import { readPairingsCsv, readPlayersCsv } from '../../src/tournament/index.ts';

const PLAYERS = `Start;Name;FMJD;Rating;Federation;Club;Group
1;"Boomstra, Roel";16241;1402;NED;DC Hoofddorp;A
2;"Schwarzman, Alexander";15015;1378;RUS;;A
3;"de Vries, Anna";;1190;NED;"Club ""De Dam""";B
`;

describe('players CSV', () => {
  it('reads the columns by their names, in any order and case', () => {
    const r = readPlayersCsv(PLAYERS, 'players.csv');
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value).toEqual([
      {
        start: 1,
        name: 'Boomstra, Roel',
        fmjdId: '16241',
        rating: 1402,
        federation: 'NED',
        club: 'DC Hoofddorp',
        group: 'A',
      },
      {
        start: 2,
        name: 'Schwarzman, Alexander',
        fmjdId: '15015',
        rating: 1378,
        federation: 'RUS',
        group: 'A',
      },
      {
        start: 3,
        name: 'de Vries, Anna',
        rating: 1190,
        federation: 'NED',
        club: 'Club "De Dam"',
        group: 'B',
      },
    ]);
  });

  it('numbers players in file order without a start column', () => {
    const r = readPlayersCsv('name,rating\n"Kosse, Hein",1355\n"Peeters, Lies",\n');
    expect(r.ok && r.value.map((p) => [p.start, p.name, p.rating])).toEqual([
      [1, 'Kosse, Hein', 1355],
      [2, 'Peeters, Lies', undefined],
    ]);
  });

  it('reports every bad line by its number', () => {
    const text = 'start,name,rating\n1,"A, B",1500\n\n2,,1400\nx,"C, D",\n1,"E, F",12a\n4,"G, H",1300\n';
    const r = readPlayersCsv(text, 'p.csv');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.map((e) => [e.line, e.code])).toEqual([
      [4, 'player-without-name'],
      [5, 'bad-start'],
      [6, 'bad-rating'],
    ]);
    expect(r.error.every((e) => e.file === 'p.csv')).toBe(true);
  });

  it('a starting rank taken twice names the first line', () => {
    const r = readPlayersCsv('start,name\n1,"A, B"\n1,"C, D"\n');
    expect(!r.ok && r.error[0]).toMatchObject({
      line: 3,
      code: 'duplicate-start',
      message: expect.stringContaining('line 2'),
    });
  });

  it('a file without a name column, or with an open quote, is refused', () => {
    expect(readPlayersCsv('start,rating\n1,1500\n')).toMatchObject({
      ok: false,
      error: [{ code: 'no-name-column', line: 1 }],
    });
    expect(readPlayersCsv('name\n"A, B\n')).toMatchObject({
      ok: false,
      error: [{ code: 'csv-unclosed-quote', line: 2 }],
    });
  });
});

describe('pairings CSV', () => {
  const players = [
    { start: 1, name: 'Boomstra, Roel' },
    { start: 2, name: 'Schwarzman, Alexander' },
    { start: 3, name: 'de Vries, Anna' },
    { start: 4, name: 'Kosse, Hein' },
    { start: 5, name: 'Peeters, Lies' },
  ];

  it('reads players by starting rank or by name, a bye, results with advantage and forfeits', () => {
    const text =
      'board,white,black,result\n2,3,"boomstra,roel",1+-1-\n1,"schwarzman, alexander",4,+-\n3,5,bye,\n';
    const r = readPairingsCsv(text, players, 2, 'r2.csv');
    expect(r).toEqual({
      ok: true,
      value: {
        number: 2,
        pairings: [
          { table: 1, white: 2, black: 4, result: { kind: 'forfeit', winner: 'white' } },
          { table: 2, white: 3, black: 1, result: { kind: 'game', score: '1-1', advantage: 'white' } },
        ],
        byes: [{ player: 5, kind: 'pairing' }],
      },
    });
  });

  it('without a header the columns are board, white, black, result', () => {
    const r = readPairingsCsv('1,1,2\n2,3,4,2-0\n', players, 1);
    expect(r.ok && r.value.pairings).toEqual([
      { table: 1, white: 1, black: 2 },
      { table: 2, white: 3, black: 4, result: { kind: 'game', score: '2-0' } },
    ]);
  });

  it('reports every bad line by its number', () => {
    const text =
      'board,white,black,result\n1,1,2\n1,3,4\n2,9,4\n3,"Nobody, X",5\nx,3,5\n4,2,5\n5,3,4,3-0\n6,5,5\n';
    const r = readPairingsCsv(text, players, 1, 'r1.csv');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.map((e) => [e.line, e.code])).toEqual([
      [3, 'duplicate-table'],
      [4, 'unknown-player'],
      [5, 'unknown-player'],
      [6, 'bad-table'],
      [7, 'paired-twice'],
      [8, 'bad-result'],
      [9, 'same-player'],
    ]);
    expect(r.error[4].message).toContain('line 2');
  });
});
