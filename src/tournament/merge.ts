// Loading a tournament file again (a restart with the same `--tournament`) must not lose the
// results entered since: the file's event wins, but a result the file lacks is kept from the
// stored one when the same two players sit at the same table of the same round.
import type { Event, Pairing } from './types.ts';

const sameGame = (a: Pairing, b: Pairing): boolean =>
  a.table === b.table && a.white === b.white && a.black === b.black;

export function mergeTournament(stored: Event | undefined, loaded: Event): Event {
  if (!stored) return loaded;
  const rounds = loaded.rounds.map((round) => {
    const before = stored.rounds.find((r) => r.number === round.number);
    if (!before) return round;
    const pairings = round.pairings.map((p) => {
      if (p.result) return p;
      const kept = before.pairings.find((q) => sameGame(p, q))?.result;
      return kept ? { ...p, result: kept } : p;
    });
    return { ...round, pairings };
  });
  // Rounds made after the file was written (paired in the console) stay too.
  const later = stored.rounds.filter((r) => !loaded.rounds.some((l) => l.number === r.number));
  return { ...loaded, rounds: [...rounds, ...later].sort((a, b) => a.number - b.number) };
}
