// Round robins by the Berger tables (the ones FIDE and FMJD publish): for n players (n + 1 with a
// bye when n is odd) round r pairs a and b with a + b ≡ r + 1 (mod n − 1); the last player meets the
// one with 2a ≡ r + 1, on table 1, black in odd rounds and white in even ones. Tables go on from
// table 1's other player: white counts up, black down, around 1 … n − 1.
import type { Bye, Round } from './types.ts';

/** Starting rank `x` wrapped into 1 … m. */
const wrap = (x: number, m: number): number => ((((x - 1) % m) + m) % m) + 1;

/** The pairs (white, black) of round `r` of a round robin of `n` players, in table order. */
export function bergerPairs(n: number, r: number): [number, number][] {
  const size = n % 2 === 0 ? n : n + 1;
  const m = size - 1;
  // The player the last one meets: 2a ≡ r + 1 (mod m); m is odd, so a = (r + 1)(m + 1)/2.
  const a = wrap(((r + 1) * (m + 1)) / 2, m);
  const pairs: [number, number][] = [r % 2 === 1 ? [a, size] : [size, a]];
  for (let k = 1; k < size / 2; k++) pairs.push([wrap(a + k, m), wrap(a - k, m)]);
  return pairs;
}

/**
 * The rounds of a single round robin of `n` players (2 or more). With an odd n the player paired
 * with the missing one rests: a zero-point bye, as round robins count it.
 */
export function bergerRounds(n: number): Round[] {
  const size = n % 2 === 0 ? n : n + 1;
  return Array.from({ length: size - 1 }, (_, i) => {
    const pairs = bergerPairs(n, i + 1);
    const byes: Bye[] = [];
    const pairings = [];
    for (const [white, black] of pairs) {
      if (white > n || black > n) byes.push({ player: white > n ? black : white, kind: 'zero' });
      else pairings.push({ table: pairings.length + 1, white, black });
    }
    return { number: i + 1, pairings, byes };
  });
}
