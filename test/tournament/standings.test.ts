import { describe, expect, it } from 'vitest';
import {
  bergerRounds,
  DEFAULT_TIEBREAKS,
  DRAUGHTS_POINTS,
  type Event,
  standings,
  standingsCsv,
} from '../../src/tournament/index.ts';

import { fixtureEvent } from './fixtures/helpers.ts';

const swiss = (): Event => fixtureEvent('swiss-2026.trf');

// Worked by hand from the fixture: 9 players, 7 rounds, a pairing bye every round, a half-point
// bye (4, round 7), forfeits (8 over 4, 8 over 7), both absent (6–7), four draws with advantage.
// Unplayed rounds count the player's own points as the opponent's.
// [start, points, solkoff, truncated, median, sonneborn-berger, wins, plus-minus]
const HAND_WORKED: [number, number, number, number, number, number, number, number][] = [
  [1, 12, 55, 53, 41, 45.5, 4, 0],
  [8, 10, 56, 54, 44, 39.5, 3, -1],
  [2, 10, 50, 48, 36, 30.5, 3, 1],
  [5, 9, 56, 54, 42, 35.5, 3, -1],
  [3, 9, 54, 52, 40, 27.5, 2, 1],
  [7, 7, 46, 44, 32, 19, 2, 0],
  [6, 6, 55, 53, 41, 17.5, 1, 0],
  [9, 2, 53, 51, 41, 4.5, 0, 1],
  [4, 2, 44, 42, 30, 2, 0, -1],
];

describe('standings of a 7-round Swiss with byes, forfeits and plus/minus draws', () => {
  it('points and every tie-break as worked by hand, ranked by the default order', () => {
    const rows = standings(swiss());
    expect(rows.map((r) => [r.start, r.points, ...Object.values(r.tiebreaks)])).toEqual(HAND_WORKED);
    expect(rows.map((r) => r.rank)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9]);
  });

  it('the KNDB order: points, balance of plus/minus draws, mutual result, Solkoff', () => {
    const rows = standings(swiss(), { tiebreaks: ['plus-minus', 'mutual', 'solkoff'] });
    expect(rows.map((r) => r.start)).toEqual([1, 2, 8, 3, 5, 7, 6, 9, 4]);
  });

  it('players no tie-break separates share a rank', () => {
    const rows = standings(swiss(), { tiebreaks: ['wins'] });
    expect(rows.map((r) => [r.rank, r.start])).toEqual([
      [1, 1],
      [2, 2],
      [2, 8],
      [4, 5],
      [5, 3],
      [6, 7],
      [7, 6],
      [8, 4],
      [8, 9],
    ]);
  });

  it('points are configurable (3/1/0)', () => {
    const event = { ...swiss(), points: { win: 3, draw: 1, loss: 0, forfeitLoss: 0, pairingBye: 3 } };
    const rows = standings(event, { tiebreaks: [] });
    expect(rows.find((r) => r.start === 1)?.points).toBe(3 + 1 + 3 + 3 + 1 + 3 + 3);
    expect(rows.find((r) => r.start === 4)?.points).toBe(0 + 0 + 1 + 0 + 0 + 0 + 1);
  });

  it('CSV standings: a header and one line a player, names quoted', () => {
    const csv = standingsCsv(standings(swiss()));
    const lines = csv.trimEnd().split('\n');
    expect(lines[0]).toBe(
      'rank,start,name,group,points,solkoff,solkoff-truncated,median,sonneborn-berger,wins,plus-minus',
    );
    expect(lines[1]).toBe('1,1,"Boomstra, Roel",,12,55,53,41,45.5,4,0');
    expect(lines).toHaveLength(10);
  });
});

describe('mutual result', () => {
  // A 4-player round robin: 1 beats 2, the rest drawn; 1 and 2 finish level with 2 beating 3 and 4.
  const event = (): Event => {
    const rounds = bergerRounds(4).map((r) => ({
      ...r,
      pairings: r.pairings.map((p) => {
        const pair = [p.white, p.black].sort().join('-');
        const winner = { '1-2': 1, '2-3': 2, '2-4': 2, '1-3': 3 }[pair];
        const score = winner === undefined ? '1-1' : winner === p.white ? '2-0' : '0-2';
        return { ...p, result: { kind: 'game' as const, score: score as '2-0' | '1-1' | '0-2' } };
      }),
    }));
    const players = [1, 2, 3, 4].map((start) => ({ start, name: `P${start}` }));
    return {
      name: '',
      groups: [],
      players,
      rounds,
      points: DRAUGHTS_POINTS,
      tiebreaks: DEFAULT_TIEBREAKS,
      advantageDraws: false,
    };
  };

  it('orders two tied players by their game', () => {
    const rows = standings(event(), { tiebreaks: ['mutual'] });
    // 1: W(2) L(3) D(4) = 3; 2: L(1) W(3) W(4) = 4; 3: W(1) L(2) D(4) = 3; 4: 2.
    expect(rows.map((r) => [r.start, r.points])).toEqual([
      [2, 4],
      [3, 3],
      [1, 3],
      [4, 2],
    ]);
  });

  it('does not separate a tied class when not every pair of it met', () => {
    // 1 beat 2, 2 beat 3, 3 had the byes: all on 2 points, 1 and 3 never met.
    const base = event();
    const tied: Event = {
      ...base,
      players: base.players.slice(0, 3),
      rounds: [
        {
          number: 1,
          pairings: [{ table: 1, white: 1, black: 2, result: { kind: 'game', score: '2-0' } }],
          byes: [{ player: 3, kind: 'pairing' }],
        },
        {
          number: 2,
          pairings: [{ table: 1, white: 2, black: 3, result: { kind: 'game', score: '2-0' } }],
          byes: [{ player: 1, kind: 'zero' }],
        },
      ],
    };
    const rows = standings(tied, { tiebreaks: ['mutual'] });
    expect(rows.map((r) => [r.rank, r.start, r.points])).toEqual([
      [1, 1, 2],
      [1, 2, 2],
      [1, 3, 2],
    ]);
  });
});

describe('groups', () => {
  it('each group ranks its own players, with points from every game', () => {
    const e = swiss();
    const grouped = {
      ...e,
      groups: ['A', 'B'],
      players: e.players.map((p) => ({ ...p, group: p.start <= 4 ? 'A' : 'B' })),
    };
    const a = standings(grouped, { group: 'A' });
    expect(a.map((r) => [r.rank, r.start, r.points])).toEqual([
      [1, 1, 12],
      [2, 2, 10],
      [3, 3, 9],
      [4, 4, 2],
    ]);
    expect(standings(grouped, { group: 'B' }).map((r) => r.start)).toEqual([8, 5, 7, 6, 9]);
  });
});
