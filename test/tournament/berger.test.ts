import { describe, expect, it } from 'vitest';
import { bergerPairs, bergerRounds } from '../../src/tournament/index.ts';

// The published Berger tables (white first), one line per round.
const PUBLISHED: Record<number, string> = {
  6: `1-6 2-5 3-4
6-4 5-3 1-2
2-6 3-1 4-5
6-5 1-4 2-3
3-6 4-2 5-1`,
  8: `1-8 2-7 3-6 4-5
8-5 6-4 7-3 1-2
2-8 3-1 4-7 5-6
8-6 7-5 1-4 2-3
3-8 4-2 5-1 6-7
8-7 1-6 2-5 3-4
4-8 5-3 6-2 7-1`,
  10: `1-10 2-9 3-8 4-7 5-6
10-6 7-5 8-4 9-3 1-2
2-10 3-1 4-9 5-8 6-7
10-7 8-6 9-5 1-4 2-3
3-10 4-2 5-1 6-9 7-8
10-8 9-7 1-6 2-5 3-4
4-10 5-3 6-2 7-1 8-9
10-9 1-8 2-7 3-6 4-5
5-10 6-4 7-3 8-2 9-1`,
  12: `1-12 2-11 3-10 4-9 5-8 6-7
12-7 8-6 9-5 10-4 11-3 1-2
2-12 3-1 4-11 5-10 6-9 7-8
12-8 9-7 10-6 11-5 1-4 2-3
3-12 4-2 5-1 6-11 7-10 8-9
12-9 10-8 11-7 1-6 2-5 3-4
4-12 5-3 6-2 7-1 8-11 9-10
12-10 11-9 1-8 2-7 3-6 4-5
5-12 6-4 7-3 8-2 9-1 10-11
12-11 1-10 2-9 3-8 4-7 5-6
6-12 7-5 8-4 9-3 10-2 11-1`,
};

const table = (size: number): string[][] => PUBLISHED[size].split('\n').map((l) => l.split(' '));

describe('Berger round robins', () => {
  for (const n of [6, 8, 10, 12])
    it(`${n} players: every round as the published table`, () => {
      const expected = table(n);
      expect(expected).toHaveLength(n - 1);
      for (let r = 1; r < n; r++)
        expect(bergerPairs(n, r).map(([w, b]) => `${w}-${b}`)).toEqual(expected[r - 1]);
      const rounds = bergerRounds(n);
      expect(rounds.map((r) => r.pairings.map((p) => `${p.white}-${p.black}`))).toEqual(expected);
      expect(rounds.every((r) => r.byes.length === 0 && r.pairings.every((p, i) => p.table === i + 1))).toBe(
        true,
      );
    });

  for (const n of [7, 9, 11])
    it(`${n} players: the table of ${n + 1}, whoever meets ${n + 1} rests`, () => {
      const expected = table(n + 1);
      const rounds = bergerRounds(n);
      expect(rounds).toHaveLength(n);
      for (const [i, round] of rounds.entries()) {
        const pairs = expected[i].map((p) => p.split('-').map(Number));
        const rest = pairs.find((p) => p.includes(n + 1))!.find((x) => x !== n + 1);
        expect(round.byes).toEqual([{ player: rest, kind: 'zero' }]);
        const games = pairs.filter((p) => !p.includes(n + 1)).map(([w, b]) => `${w}-${b}`);
        expect(round.pairings.map((p) => `${p.white}-${p.black}`)).toEqual(games);
      }
    });

  it('every pair meets once in 6–12 players', () => {
    for (let n = 6; n <= 12; n++) {
      const met = new Set(
        bergerRounds(n).flatMap((r) =>
          r.pairings.map((p) => [p.white, p.black].sort((a, b) => a - b).join('-')),
        ),
      );
      expect(met.size).toBe((n * (n - 1)) / 2);
    }
  });
});
