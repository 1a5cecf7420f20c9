// The tournament while the daemon runs: the round switch that starts a round's pairings on the
// boards, and the boards' results written to the pairings of their tables.
import type { GameResult } from '../../src/game/types.ts';
import { type PairingResult, roundOf, tablesOf } from '../../src/tournament/index.ts';
import type { LoadedConfig } from '../config/index.ts';
import type { Hub } from '../hub.ts';
import { type RoundHub, RoundSwitch } from './round-switch.ts';
import { roundConfig } from './start.ts';
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
 * A board's result becomes its table's result. A result entered for the pairing that says more
 * (a draw's advantage) stays while the board's score agrees with it; a board without a result
 * never clears the table's.
 */
export function followResults(hub: Hub, store: TournamentStore): () => void {
  return hub.subscribe((e) => {
    if (e.kind !== 'result') return;
    const event = store.load();
    if (!event) return;
    const round = hub.round();
    const game = tablesOf(event, round).get(e.board);
    if (!game) return;
    const now = game.pairing.result;
    // A board without a result (a proposal, one withdrawn, one cleared) leaves the table's alone.
    if (e.result === '*') return;
    if (
      now?.kind === 'game' &&
      now.score === e.result &&
      (e.advantage === undefined || now.advantage === e.advantage)
    )
      return;
    const score = SCORES[e.result];
    store.setResult(
      round,
      e.board,
      e.advantage && score.kind === 'game' ? { ...score, advantage: e.advantage } : score,
    );
  });
}
