// One board's game as the journal drives it: each journal input goes through the tracker and the
// game record in one fixed way, live or replayed — so a replay rebuilds exactly the served game,
// versions included.
import { GameRecord } from '../../src/game/index.ts';
import type { DrawRules } from '../../src/engine/index.ts';
import type { GameEvent, GameInfo } from '../../src/game/types.ts';
import type { Tracker, TrackerOptions } from '../../src/tracker/types.ts';
import type { Journal } from './journal.ts';
import type { JournalInput } from './types.ts';

export type TrackerFactory = (options: TrackerOptions) => Tracker;

export interface BoardGameOptions {
  info: GameInfo;
  createTracker: TrackerFactory;
  tracker?: Omit<TrackerOptions, 'variant'>;
  /** Draw rules: a profile name or the engine's DrawRules (with the 6.5 advantage option). */
  drawProfile?: string | DrawRules;
  autoResult?: boolean;
}

export class BoardGame {
  readonly tracker: Tracker;
  readonly record: GameRecord;
  /** Journal entries applied so far. */
  applied = 0;

  constructor(readonly options: BoardGameOptions) {
    this.tracker = options.createTracker({ variant: options.info.variant, ...options.tracker });
    this.record = new GameRecord({
      info: options.info,
      drawProfile: options.drawProfile,
      autoResult: options.autoResult,
    });
  }

  apply(input: JournalInput, t: number): GameEvent[] {
    this.applied++;
    const { record, tracker } = this;
    switch (input.kind) {
      case 'event':
        return tracker.push(input.event).flatMap((o) => record.apply(o));
      case 'decision':
        return [
          ...record.decide(input.decision, t),
          ...tracker.decide(input.decision, t).flatMap((o) => record.apply(o)),
        ];
      case 'result':
        return record.setResult(input.result, t);
      case 'info':
        return record.setInfo(input.info, t);
      case 'state':
        // A board lost right after a move (cable pulled, hub off, the simulator closing its links)
        // sends nothing more: what is pending is decided now, with the time it has.
        return [
          ...(input.state === 'lost' ? tracker.flush(t).flatMap((o) => record.apply(o)) : []),
          ...record.setState(input.state, t, input.serial),
        ];
    }
  }
}

/** What a replay needs besides the journal: the round's rules. */
export type ReplaySettings = Omit<BoardGameOptions, 'info'> & { variant: GameInfo['variant'] };

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
  const { variant, ...rest } = settings;
  const games = new Map(
    [...boards]
      .sort((a, b) => a - b)
      .map((board) => [board, new BoardGame({ ...rest, info: { board, round, variant } })]),
  );
  const only = boards.length === 1 ? boards[0] : undefined;
  journal.forEachRoundInput(round, (board, input, t) => games.get(board)?.apply(input, t), undefined, only);
  return [...games.values()];
}
