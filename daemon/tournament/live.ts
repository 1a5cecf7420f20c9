// The tournament while the daemon runs: the round switch that starts a round's pairings on the
// boards, and the boards' results written to the pairings of their tables.
import type { GameResult } from '../../src/game/types.ts';
import { gameResultOf, type PairingResult, roundOf, tablesOf } from '../../src/tournament/index.ts';
import { type TournamentAccess, withCalls } from './access.ts';
import type { BoardSetup, LoadedConfig } from '../config/index.ts';
import type { Hub } from '../hub.ts';
import { type RoundHub, RoundSwitch } from './round-switch.ts';
import { roundConfig, seatOf } from './start.ts';
import type { TournamentStore } from './store.ts';

export interface LiveTournamentOptions {
  /** The config as loaded (its own board names win over the pairings'), and the round to play. */
  config: LoadedConfig;
  store: TournamentStore;
  /** A round's controller, not started. */
  controller(config: LoadedConfig): RoundHub;
}

export function liveTournament(options: LiveTournamentOptions): RoundSwitch {
  const { config, store } = options;
  const hub = new RoundSwitch({
    first: options.controller(roundConfig(config, store.load(), config.round)),
    create: (round) => options.controller(roundConfig(config, store.load(), round)),
    refuse: (round) => {
      const event = store.load();
      if (event && !roundOf(event, round)?.pairings.length) return `round ${round} has no pairings`;
      return undefined;
    },
    changed: (round) => store.setCurrentRound(round),
  });
  followResults(hub, store);
  return hub;
}

const SCORES: Record<Exclude<GameResult, '*'>, PairingResult> = {
  '2-0': { kind: 'game', score: '2-0' },
  '1-1': { kind: 'game', score: '1-1' },
  '0-2': { kind: 'game', score: '0-2' },
};

/**
 * A board's result becomes its table's result: the result of the table's game (the one kept aside
 * when the pieces were set up again after it, else the one on the board), not of a game played on
 * the board after it. A result entered for the pairing that says more (a draw's advantage, a
 * forfeit) stays while the board's score agrees with it; a board without a result never clears the
 * table's.
 */
export function followResults(hub: Hub, store: TournamentStore): () => void {
  return hub.subscribe((e) => {
    const written =
      e.kind === 'result' && !e.afterGame
        ? { result: e.result, advantage: e.advantage }
        : e.kind === 'table-game' && e.game
          ? { result: e.game.result, advantage: e.game.advantage }
          : undefined;
    // A board without a result (a proposal, one withdrawn, one cleared) leaves the table's alone.
    if (!written || written.result === '*') return;
    const event = store.load();
    if (!event) return;
    const round = hub.round();
    const game = tablesOf(event, round).get(e.board);
    if (!game) return;
    const now = game.pairing.result;
    if (
      gameResultOf(now) === written.result &&
      (written.advantage === undefined || (now?.kind === 'game' && now.advantage === written.advantage))
    )
      return;
    const score = SCORES[written.result];
    store.setResult(
      round,
      e.board,
      written.advantage && score.kind === 'game' ? { ...score, advantage: written.advantage } : score,
    );
  });
}

/**
 * The store, with what the tournament page changes for the round being played reaching its boards
 * at once: a table's result written to its board's game (journaled like the console's) — one
 * result per table, in the PDN, the standings and the TRF alike; a forfeit stays the table's alone
 * (no game was played), the broadcast shows it from the tournament (daemon/server/rounds.ts) —
 * and the players of the round's pairings (imported, paired, a player edited) named on their boards
 * (a name the config gives a board stays).
 */
export function tournamentReachesBoards(
  access: TournamentAccess,
  hub: Pick<Hub, 'round' | 'snapshot' | 'setResult' | 'setInfo'>,
  setups: readonly BoardSetup[] = [],
): TournamentAccess {
  const configured = new Map(setups.map((s) => [s.board, s]));
  const seat = () => {
    const event = access.load();
    if (!event) return;
    for (const game of tablesOf(event, hub.round()).values()) {
      const now = hub.snapshot(game.table)?.info;
      const names = seatOf(game, configured.get(game.table));
      if (!now || (now.white === names.white && now.black === names.black)) continue;
      // The names are the tournament's already; the board follows (a failing journal says so in /health).
      void hub.setInfo(game.table, names).catch(() => {});
    }
  };
  return withCalls(access, {
    save: (event) => {
      access.save(event);
      seat();
    },
    saveRound: (round) => {
      access.saveRound(round);
      if (round.number === hub.round()) seat();
    },
    savePlayer: (player) => {
      const saved = access.savePlayer(player);
      if (saved) seat();
      return saved;
    },
    setResult(round: number, table: number, result: PairingResult | undefined): boolean {
      if (!access.setResult(round, table, result)) return false;
      if (round === hub.round() && hub.snapshot(table) && result?.kind !== 'forfeit') {
        const score = result?.score ?? '*';
        // The table has it already; the board's game follows (a failing journal says so in /health).
        void hub.setResult(table, score, result?.advantage).catch(() => {});
      }
      return true;
    },
  });
}

/** `access` telling `changed` after every write that took: what follows the tournament (publishing) looks again. */
export function announcingChanges(access: TournamentAccess, changed: () => void): TournamentAccess {
  const after = <T>(value: T): T => {
    if (value !== false) changed();
    return value;
  };
  return withCalls(access, {
    save: (event) => after(access.save(event)),
    saveRound: (round) => after(access.saveRound(round)),
    setResult: (round, table, result) => after(access.setResult(round, table, result)),
    savePlayer: (player) => after(access.savePlayer(player)),
  });
}
