// The arbiter's review of a round's pairings: colours swapped, two players' seats exchanged (the
// pairing's bye too); a round with results is not edited.
import { describe, expect, it } from 'vitest';
import { editRound, type Round } from '../../src/tournament/index.ts';

const round: Round = {
  number: 3,
  pairings: [
    { table: 1, white: 1, black: 2 },
    { table: 2, white: 3, black: 4 },
  ],
  byes: [
    { player: 5, kind: 'pairing' },
    { player: 6, kind: 'half' },
  ],
};

describe('editRound', () => {
  it('swaps a table’s colours', () => {
    expect(editRound(round, { kind: 'swap-colours', table: 2 })).toMatchObject({
      ok: true,
      value: { pairings: [round.pairings[0], { table: 2, white: 4, black: 3 }] },
    });
  });

  it('exchanges two seats, a bye included; not a requested bye, not a player without a seat', () => {
    expect(editRound(round, { kind: 'exchange', a: 2, b: 3 })).toMatchObject({
      ok: true,
      value: {
        pairings: [
          { table: 1, white: 1, black: 3 },
          { table: 2, white: 2, black: 4 },
        ],
      },
    });
    expect(editRound(round, { kind: 'exchange', a: 5, b: 4 })).toMatchObject({
      ok: true,
      value: {
        pairings: [round.pairings[0], { table: 2, white: 3, black: 5 }],
        byes: [
          { player: 4, kind: 'pairing' },
          { player: 6, kind: 'half' },
        ],
      },
    });
    expect(editRound(round, { kind: 'exchange', a: 6, b: 1 })).toMatchObject({
      ok: false,
      error: [{ message: 'player 6 has no seat in round 3' }],
    });
    expect(editRound(round, { kind: 'swap-colours', table: 9 }).ok).toBe(false);
  });

  it('a round with results stays as it is', () => {
    const played = {
      ...round,
      pairings: [{ ...round.pairings[0], result: { kind: 'game', score: '2-0' } as const }],
    };
    expect(editRound(played, { kind: 'swap-colours', table: 1 })).toMatchObject({
      ok: false,
      error: [{ message: 'round 3 has results already' }],
    });
  });
});
