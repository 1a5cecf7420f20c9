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
  /** Its game: a start that restores the board's image (daemon/images.ts) puts the restored one here. */
  game: BoardGame;
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

/** Restores boards from their images before a start's replay (daemon/images.ts). */
export interface BoardRestorer {
  /** Restores what it can into `boards`; by board, the entry each restored board holds the state after. */
  restore(boards: ReadonlyMap<number, LiveBoard>): Map<number, number>;
}

export function liveBoard(setup: BoardSetup, game: BoardGame): LiveBoard {
  return { setup, game, time: new BoardTime(), lastEvent: 0, lastTick: 0 };
}

/**
 * The current round's journal replayed into its live boards (start-up): after each board's image
 * (`images`), else from the round's start. `unstored` gets the outputs a crash kept from reaching the
 * derived table (they are stored after their inputs). Every board that has entries starts away: the
 * daemon was down since its last one, and that is no board time. Returns the time of the round's last
 * entry.
 */
export function rebuildLive(
  journal: Journal,
  round: number,
  boards: ReadonlyMap<number, LiveBoard>,
  unstored: (event: GameEvent) => void,
  images?: BoardRestorer,
): number {
  const through = images?.restore(boards) ?? new Map<number, number>();
  // Every board imaged: the entries after the oldest image; else the whole round, its pages read by
  // a thread while this reads what is stored.
  const after = [...boards.keys()].every((b) => through.has(b))
    ? Math.min(...[...boards.keys()].map((b) => through.get(b)!))
    : 0;
  const ahead = after === 0 ? journal.readAhead(round) : undefined;
  const stored = journal.derivedVersions(round);
  let last = 0;
  for (const live of boards.values())
    if (through.has(live.setup.board)) last = Math.max(last, live.time.last);
  // A search the journal did not see end is worked once its board is live, in the steps granted
  // then: a restart serves at once, whatever searches its journal holds.
  for (const live of boards.values()) live.game.tracker.deferSearches?.(true);
  journal.forEachRoundInput(
    round,
    (board, input, t, id) => {
      if (t > last) last = t;
      const live = boards.get(board);
      if (!live || id <= (through.get(board) ?? 0)) return;
      for (const event of live.game.apply(input, t))
        if (event.version > (stored.get(board) ?? 0)) unstored(event);
      live.time.last = t;
      if (input.kind === 'event') live.resume = resumeAfter(live.resume, input.event, undefined);
    },
    { ahead, after },
  );
  for (const live of boards.values()) {
    live.game.tracker.deferSearches?.(false);
    live.time.gap = live.time.last > 0;
  }
  return last;
}
