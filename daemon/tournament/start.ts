// The tournament at the daemon's start: a `--tournament` file merged into the one the journal
// keeps, the round to play (the journal's current round; the config's `round:` only sets the
// first), and the boards' player names from that round's pairings (table n on board n).
import type { BoardSetup, LoadedConfig } from '../config/index.ts';
import type { Journal } from '../journal/index.ts';
import { type Event, mergeTournament, tablesOf } from '../../src/tournament/index.ts';
import { TournamentStore } from './store.ts';

export interface TournamentStart {
  store: TournamentStore;
  event?: Event;
  /** The config with the round to play and the pairings' names on the boards. */
  config: LoadedConfig;
}

/** The boards' names from the round's pairings; a name the config gives a board stays. */
export function seatBoards(setups: readonly BoardSetup[], event: Event, round: number): BoardSetup[] {
  const tables = tablesOf(event, round);
  return setups.map((s) => {
    const game = tables.get(s.board);
    return game ? { ...s, white: s.white ?? game.white.name, black: s.black ?? game.black.name } : s;
  });
}

export function startTournament(journal: Journal, config: LoadedConfig, loaded?: Event): TournamentStart {
  const store = TournamentStore.open(journal.database);
  const event = loaded ? mergeTournament(store.load(), loaded) : store.load();
  if (!event) return { store, config };
  if (loaded) store.save(event);
  const round = store.currentRound() ?? config.round;
  store.setCurrentRound(round);
  return { store, event, config: { ...config, round, setups: seatBoards(config.setups, event, round) } };
}
