// One board's game as the journal drives it: each journal input goes through the tracker and the
// game record in one fixed way, live or replayed — so a replay rebuilds exactly the served game,
// versions included.
import { GameRecord } from '../../src/game/index.ts';
import type { DrawRules } from '../../src/engine/index.ts';
import type { GameEvent, GameInfo } from '../../src/game/types.ts';
import type { Tracker, TrackerOptions } from '../../src/tracker/types.ts';
import type { JournalInput } from '../journal/types.ts';

export type TrackerFactory = (options: TrackerOptions) => Tracker;

export interface BoardGameOptions {
  info: GameInfo;
  createTracker: TrackerFactory;
  tracker?: Omit<TrackerOptions, 'variant'>;
  /** Draw rules: a profile name or the engine's DrawRules (with the 6.5 advantage option). */
  drawProfile?: string | DrawRules;
  autoResult?: boolean;
  /** Appendix G announced for the event (the time control decides whether it applies). */
  quickplayFinish?: boolean;
}

export class BoardGame {
  readonly tracker: Tracker;
  readonly record: GameRecord;

  constructor(readonly options: BoardGameOptions) {
    // Gap searches take the steps the daemon's ticks grant (daemon/ingest/searches.ts), live and
    // replayed alike.
    this.tracker = options.createTracker({
      variant: options.info.variant,
      searchSteps: 'granted',
      ...options.tracker,
    });
    this.record = new GameRecord({
      info: options.info,
      drawProfile: options.drawProfile,
      autoResult: options.autoResult,
      quickplayFinish: options.quickplayFinish,
    });
  }

  apply(input: JournalInput, t: number): GameEvent[] {
    const { record, tracker } = this;
    switch (input.kind) {
      case 'event':
        return [
          ...tracker.push(input.event).flatMap((o) => record.apply(o)),
          ...record.clockEvent(input.event),
        ];
      case 'action':
        return record.act(input.action, t);
      case 'decision':
        return [
          ...record.decide(input.decision, t),
          ...tracker.decide(input.decision, t).flatMap((o) => record.apply(o)),
          ...record.decided(t),
        ];
      case 'result':
        return record.setResult(input.result, t, input.advantage);
      case 'info':
        return record.setInfo(input.info, t);
      case 'clock-command':
        return record.clockCommand(input.asked, input.outcome, t);
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

/** What a board's game needs besides its info: the round's rules (the same for live games and replays). */
export type ReplaySettings = Omit<BoardGameOptions, 'info'> & { variant: GameInfo['variant'] };

/** A fresh game for board `board` of `round`. */
export function newBoardGame(settings: ReplaySettings, round: number, board: number): BoardGame {
  const { variant, ...rest } = settings;
  return new BoardGame({ ...rest, info: { board, round, variant } });
}
