// The tournament at the daemon's start: a `--tournament` file merged into the one the journal
// keeps, the round to play (the journal's current round; the config's `round:` only sets the
// first), and the boards' player names from that round's pairings (table n on board n).
import type { Side } from '../../firmware-protocol/side.ts';
import type { BoardSetup, LoadedConfig } from '../config/index.ts';
import type { Journal } from '../journal/index.ts';
import { type Event, mergeTournament, type SeatedGame, tablesOf } from '../../src/tournament/index.ts';
import { usageError } from '../failure.ts';
import { applyTournamentSettings } from './settings.ts';
import { TournamentStore } from './store.ts';

export interface TournamentStart {
  store: TournamentStore;
  event?: Event;
  /** The config with the round to play and the pairings' names on the boards. */
  config: LoadedConfig;
}

/** What a table's pairing names on its board; a name the config gives the board (`setup`) stays. */
export function seatOf(
  game: SeatedGame,
  setup?: Pick<BoardSetup, Side>,
): Pick<BoardSetup, Side | 'whiteFmjdId' | 'blackFmjdId'> {
  return {
    white: setup?.white ?? game.white.name,
    black: setup?.black ?? game.black.name,
    ...(game.white.fmjdId ? { whiteFmjdId: game.white.fmjdId } : {}),
    ...(game.black.fmjdId ? { blackFmjdId: game.black.fmjdId } : {}),
  };
}

/** The boards' names from the round's pairings; a name the config gives a board stays. */
export function seatBoards(setups: readonly BoardSetup[], event: Event, round: number): BoardSetup[] {
  const tables = tablesOf(event, round);
  return setups.map((s) => {
    const game = tables.get(s.board);
    return game ? { ...s, ...seatOf(game, s) } : s;
  });
}

/** The config of `round`: its number, the boards named from its pairings. */
export function roundConfig(config: LoadedConfig, event: Event | undefined, round: number): LoadedConfig {
  return { ...config, round, setups: event ? seatBoards(config.setups, event, round) : config.setups };
}

/**
 * The tournament the journal keeps, with the file given merged in and the config's `tournament:`
 * applied; a player in a group the config does not list is refused (a usage error, every player
 * at once).
 */
export function startTournament(journal: Journal, config: LoadedConfig, loaded?: Event): TournamentStart {
  const store = TournamentStore.open(journal.database, () => journal.sync());
  const merged = loaded ? mergeTournament(store.load(), loaded) : store.load();
  // A tournament its file does not name is the config's event (tournament.name first).
  const settings = { ...config.tournament, name: config.tournament.name ?? config.event };
  const applied = merged && applyTournamentSettings(merged, settings);
  if (applied && !applied.ok) throw usageError(...applied.error.map((e) => `tournament: ${e.message}`));
  const event = applied?.value;
  if (event && (loaded || JSON.stringify(event) !== JSON.stringify(merged))) store.save(event);
  const stored = store.currentRound();
  if (!event) return { store, config: stored === undefined ? config : { ...config, round: stored } };
  const round = stored ?? config.round;
  store.setCurrentRound(round);
  return { store, event, config: roundConfig(config, event, round) };
}
