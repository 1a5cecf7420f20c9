// Boards ↔ pairings: a round's table n is played on board n (a board found by its serial number
// has its board number from the config). What a board's game needs to know of its pairing.
import type { Event, Pairing, Player, Round } from './types.ts';

export interface SeatedGame {
  table: number;
  white: Player;
  black: Player;
  pairing: Pairing;
}

export const roundOf = (event: Event, round: number): Round | undefined =>
  event.rounds.find((r) => r.number === round);

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
