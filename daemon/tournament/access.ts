// How the rest of the daemon reads and changes the tournament: the store (in the journal's file)
// behind one interface, which the live round, the pairing program and publishing wrap.
import type { Event, PairingResult, Player, Read, Round } from '../../src/tournament/index.ts';

/** Where the tournament is read (the store in the journal's file). */
export interface TournamentSource {
  load(): Event | undefined;
  /** Present when a pairing program is configured (rounds can be paired from the console). */
  readonly pairRound?: unknown;
}

/** What the calls change; the tournament store has it. */
export interface TournamentAccess extends TournamentSource {
  save(event: Event): void;
  saveRound(round: Round): void;
  setResult(round: number, table: number, result: PairingResult | undefined): boolean;
  /** Replaces one player's record (by starting rank); false when no player has it. */
  savePlayer(player: Player): boolean;
  /** Resolves once every write so far is on the disk (the journal's WAL synced). */
  sync(): Promise<void>;
  /** Pairs `round` (of every group, or of `group`) with the configured pairing program (absent: none configured). */
  pairRound?(event: Event, round: number, group?: string): Promise<Read<Round>>;
}

/**
 * `access` with some of its calls replaced (the others called on it: a store's methods are its
 * class's, so they are bound, not copied).
 */
export function withCalls(access: TournamentAccess, calls: Partial<TournamentAccess>): TournamentAccess {
  return {
    load: () => access.load(),
    save: (event) => access.save(event),
    saveRound: (round) => access.saveRound(round),
    setResult: (round, table, result) => access.setResult(round, table, result),
    savePlayer: (player) => access.savePlayer(player),
    sync: () => access.sync(),
    ...(access.pairRound
      ? { pairRound: (event: Event, round: number, group?: string) => access.pairRound!(event, round, group) }
      : {}),
    ...calls,
  };
}
