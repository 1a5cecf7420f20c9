// One board's game as its inputs drive it: each input (the journal keeps them) goes through the
// tracker and the game record in one fixed way, live or replayed — so a replay rebuilds exactly the
// served game, versions included. Pure: time arrives with each input.
import { GameRecord } from './record.ts';
import type { DrawRules } from '../engine/index.ts';
import type { GameEvent, GameInfo } from './types.ts';
import type { Tracker, TrackerOptions } from '../tracker/types.ts';
import type { ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import type { ArbiterAction } from './actions.ts';
import type { ClockSetting, ConnectionState, GameResult } from './types.ts';
import type { ArbiterDecision } from '../tracker/types.ts';

/** What changes a board's game, in the order it was applied (the journal keeps each one). */
export type BoardInput =
  /** A decoded board event (including the daemon's `tick`), with the bytes it came from. */
  | { kind: 'event'; event: BoardEvent }
  | { kind: 'decision'; decision: ArbiterDecision }
  | { kind: 'result'; result: GameResult; advantage?: Side }
  /** An arbiter's action: resignation, draw by agreement or offer, refusal, Appendix G. */
  | { kind: 'action'; action: ArbiterAction }
  | { kind: 'info'; info: Partial<GameInfo> }
  /**
   * What the board's clock did with a setting damlink sent it (`asked`): the outcome with the clock's
   * answer to each try, so the record and the console know whether it must be set by hand.
   */
  | { kind: 'clock-command'; asked: ClockSetting; outcome: ClockCommandOutcome }
  /** Connection state of the board (kept so versions after a replay match the ones served before). */
  | { kind: 'state'; state: ConnectionState; serial?: string };

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

  apply(input: BoardInput, t: number): GameEvent[] {
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
