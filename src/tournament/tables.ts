// Boards ↔ pairings: a round's table n is played on board n (a board found by its serial number
// has its board number from the config). What a board's game needs to know of its pairing.
import type { Event, GameScore, Pairing, PairingResult, Player, Round, Side } from './types.ts';

export interface SeatedGame {
  table: number;
  white: Player;
  black: Player;
  pairing: Pairing;
}

export const roundOf = (event: Event, round: number): Round | undefined =>
  event.rounds.find((r) => r.number === round);

/**
 * The first colour (TRF `152`, bbpPairings' initial colour) as round 1 used it: the colour the
 * best-ranked player seated in round 1 had — whoever paired it (the program, a CSV, by hand); the
 * event's own before round 1 is paired.
 */
export function firstColourUsed(event: Event): Side | undefined {
  let top: { start: number; colour: Side } | undefined;
  for (const p of roundOf(event, 1)?.pairings ?? [])
    for (const [start, colour] of [
      [p.white, 'white'],
      [p.black, 'black'],
    ] as const)
      if (!top || start < top.start) top = { start, colour };
  return top?.colour ?? event.firstColour;
}

/** The round's games by table number. */
export function tablesOf(event: Event, round: number): Map<number, SeatedGame> {
  const players = new Map(event.players.map((p) => [p.start, p]));
  const tables = new Map<number, SeatedGame>();
  for (const pairing of roundOf(event, round)?.pairings ?? []) {
    const white = players.get(pairing.white);
    const black = players.get(pairing.black);
    if (white && black) tables.set(pairing.table, { table: pairing.table, white, black, pairing });
  }
  return tables;
}

/**
 * A table's result as a game's (PDN): a score as it is, a forfeit won as a win (`+-` is 2-0); none
 * for a double forfeit or a table without a result.
 */
export function gameResultOf(result: PairingResult | undefined): GameScore | undefined {
  if (!result) return undefined;
  if (result.kind === 'game') return result.score;
  return result.winner === 'none' ? undefined : result.winner === 'white' ? '2-0' : '0-2';
}

/** The results of a round's tables by table (board) number, as games' results. */
export function tableResults(event: Event, round: number): (table: number) => GameScore | undefined {
  const tables = tablesOf(event, round);
  return (table) => gameResultOf(tables.get(table)?.pairing.result);
}
