// The arbiter's review of a round's pairings before it starts: swap the colours of a table, or
// exchange two players' seats (a table's seat or the pairing's bye: giving the bye to another
// player is exchanging them with the one who had it). Pure; a round with results is not edited.
import { err, ok } from '../result.ts';
import type { Read, Round } from './types.ts';

export type PairingEdit =
  | { kind: 'swap-colours'; table: number }
  /** Players by starting rank. */
  | { kind: 'exchange'; a: number; b: number };

const refuse = (message: string): Read<Round> => err([{ code: 'pairing-edit', message }]);

export function editRound(round: Round, edit: PairingEdit): Read<Round> {
  if (round.pairings.some((p) => p.result)) return refuse(`round ${round.number} has results already`);
  if (edit.kind === 'swap-colours') {
    if (!round.pairings.some((p) => p.table === edit.table))
      return refuse(`no table ${edit.table} in round ${round.number}`);
    return ok({
      ...round,
      pairings: round.pairings.map((p) =>
        p.table === edit.table ? { ...p, white: p.black, black: p.white } : p,
      ),
    });
  }
  const { a, b } = edit;
  if (a === b) return refuse('exchange two different players');
  const seated = (s: number) =>
    round.pairings.some((p) => p.white === s || p.black === s) ||
    round.byes.some((x) => x.player === s && x.kind === 'pairing');
  for (const s of [a, b]) if (!seated(s)) return refuse(`player ${s} has no seat in round ${round.number}`);
  const other = (s: number) => (s === a ? b : s === b ? a : s);
  return ok({
    ...round,
    pairings: round.pairings.map((p) => ({ ...p, white: other(p.white), black: other(p.black) })),
    byes: round.byes.map((x) => (x.kind === 'pairing' ? { ...x, player: other(x.player) } : x)),
  });
}
