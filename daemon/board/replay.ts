// Games rebuilt from the journal: a past round or one board (exports, past rounds served).
import { RESYNC_NODES } from '../../src/tracker/gap/lost-lines.ts';
import type { LoadedConfig } from '../config/index.ts';
import type { Journal } from '../journal/index.ts';
import {
  type BoardGame,
  newBoardGame,
  type ReplaySettings,
  type TrackerFactory,
} from '../../src/game/board-game.ts';

/** The round's rules as the configuration gives them, the same for live games and replays. */
export function replaySettings(
  config: Pick<LoadedConfig, 'variant' | 'drawRule' | 'autoResult'> & {
    quickplayFinish?: boolean;
    gapSearch?: { positions?: number };
  },
  createTracker: TrackerFactory,
): ReplaySettings {
  const positions = config.gapSearch?.positions;
  return {
    variant: config.variant,
    createTracker,
    drawProfile: { profile: config.drawRule.profile, advantageDraw: config.drawRule.advantage },
    autoResult: config.autoResult,
    ...(config.quickplayFinish ? { quickplayFinish: true } : {}),
    // In the daemon's granted steps (daemon/ingest/searches.ts).
    ...(positions !== undefined ? { tracker: { gapBudget: { step: RESYNC_NODES, total: positions } } } : {}),
  };
}

/** `settings` with the rules round `round` was played with, as the daemon journaled them. */
export function playedWith(journal: Journal, round: number, settings: ReplaySettings): ReplaySettings {
  const played = journal.roundSettings(round);
  if (!played) return settings;
  // The search budget too: a round stored without one was played with the default.
  const { tracker: _, ...rules } = settings;
  return { ...rules, ...played };
}

/** Rebuilds a board's game from its journal (nothing is served or written). */
export function replayBoard(
  journal: Journal,
  round: number,
  board: number,
  settings: ReplaySettings,
): BoardGame {
  return replayRound(journal, round, settings, [board])[0];
}

/**
 * Every board of a round that has journal entries (or the boards asked for), in board order, in one
 * pass over the journal.
 */
export function replayRound(
  journal: Journal,
  round: number,
  settings: ReplaySettings,
  boards: readonly number[] = journal.boards(round),
): BoardGame[] {
  const games = new Map(
    [...boards].sort((a, b) => a - b).map((board) => [board, newBoardGame(settings, round, board)]),
  );
  // Nothing is searched on a replay's account (Tracker.deferSearches): serving a past round or
  // exporting one costs the inputs' replay, not the searches'.
  for (const game of games.values()) game.tracker.deferSearches?.(true);
  const only = boards.length === 1 ? boards[0] : undefined;
  journal.forEachRoundInput(round, (board, input, t) => games.get(board)?.apply(input, t), {
    board: only,
  });
  return [...games.values()];
}
