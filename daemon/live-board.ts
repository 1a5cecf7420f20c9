// A board of the current round as the daemon runs it: its game and its time, with what the ticks
// and the connections keep about it; at a start, rebuilt from the journal.
import type { GameEvent } from '../src/game/types.ts';
import type { BoardSetup } from './config/index.ts';
import type { BoardConnection } from './transport/index.ts';
import type { BoardGame } from '../src/game/board-game.ts';
import type { Journal } from './journal/index.ts';
import { type ResumePoint, resumeAfter } from './transport/resume.ts';
import { BoardTime } from '../src/game/board-time.ts';

export interface LiveBoard {
  readonly setup: BoardSetup;
  readonly game: BoardGame;
  readonly time: BoardTime;
  /** Last board event other than a tick (ms). */
  lastEvent: number;
  lastTick: number;
  /** The connection currently feeding this board. */
  feeder?: BoardConnection;
  /** Being calibrated: its connection's bytes go to the calibration, and no time passes for its game. */
  calibrating?: boolean;
  /** A history board: the last of its changes stored (what it is asked after when it comes back). */
  resume?: ResumePoint;
  /** Its link cannot be opened: what failed and what to do (the console shows it on the board's row). */
  openProblem?: string;
}

export function liveBoard(setup: BoardSetup, game: BoardGame): LiveBoard {
  return { setup, game, time: new BoardTime(), lastEvent: 0, lastTick: 0 };
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
  // The thread reads the round's pages while this reads what is stored.
  const ahead = journal.readAhead(round);
  const stored = journal.derivedVersions(round);
  let last = 0;
  // A search the journal did not see end is worked once its board is live, in the steps granted
  // then: a restart serves at once, whatever searches its journal holds.
  for (const live of boards.values()) live.game.tracker.deferSearches?.(true);
  journal.forEachRoundInput(
    round,
    (board, input, t) => {
      if (t > last) last = t;
      const live = boards.get(board);
      if (!live) return;
      for (const event of live.game.apply(input, t))
        if (event.version > (stored.get(board) ?? 0)) unstored(event);
      live.time.last = t;
      if (input.kind === 'event') live.resume = resumeAfter(live.resume, input.event, undefined);
    },
    { ahead },
  );
  for (const live of boards.values()) {
    live.game.tracker.deferSearches?.(false);
    live.time.gap = live.time.last > 0;
  }
  return last;
}
