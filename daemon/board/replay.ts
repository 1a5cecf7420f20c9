// Games rebuilt from the journal: a past round or one board (exports, past rounds served), and the
// current round's live boards on start.
import type { GameEvent } from '../../src/game/types.ts';
import { RESYNC_NODES } from '../../src/tracker/gap/lost-lines.ts';
import type { LoadedConfig } from '../config/index.ts';
import type { Journal } from '../journal/index.ts';
import { type BoardGame, newBoardGame, type ReplaySettings, type TrackerFactory } from './board-game.ts';
import type { LiveBoard } from './live-board.ts';
import { resumeAfter } from './resume.ts';

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
  journal.forEachRoundInput(round, (board, input, t) => games.get(board)?.apply(input, t), undefined, only);
  return [...games.values()];
}

/**
 * The current round's journal replayed into its live boards (start-up). `unstored` gets the outputs
 * a crash kept from reaching the derived table (they are stored after their inputs). Every board
 * that has entries starts away: the daemon was down since its last one, and that is no board time.
 * Returns the time of the round's last entry.
 */
export function rebuildLive(
  journal: Journal,
  round: number,
  boards: ReadonlyMap<number, LiveBoard>,
  unstored: (event: GameEvent) => void,
): number {
  const stored = journal.derivedVersions(round);
  let last = 0;
  // A search the journal did not see end is worked once its board is live, in the steps granted
  // then: a restart serves at once, whatever searches its journal holds.
  for (const live of boards.values()) live.game.tracker.deferSearches?.(true);
  journal.forEachRoundInput(round, (board, input, t) => {
    if (t > last) last = t;
    const live = boards.get(board);
    if (!live) return;
    for (const event of live.game.apply(input, t))
      if (event.version > (stored.get(board) ?? 0)) unstored(event);
    live.time.last = t;
    if (input.kind === 'event') live.resume = resumeAfter(live.resume, input.event, undefined);
  });
  for (const live of boards.values()) {
    live.game.tracker.deferSearches?.(false);
    live.time.gap = live.time.last > 0;
    live.state = live.game.record.snapshot().state;
  }
  return last;
}
