// The game record's contract: what the broadcast serves. Pure data; versions let clients catch up.
import type { ClockByHandReason, ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { ClockReading } from '../../firmware-protocol/clock-reading.ts';
import type { Side } from '../../firmware-protocol/events.ts';
import type { DrawRules, GameResult, Variant } from '../engine/index.ts';
import type { Alert, ArbiterDecision } from '../tracker/types.ts';
import type { ActionRecord, ClaimDecision } from './action-types.ts';

export type { GameResult } from '../engine/index.ts';
/** How the daemon's connection to a board stands (not the board's position: that is the game). */
export const CONNECTION_STATES = ['connecting', 'active', 'silent', 'lost'] as const;
export type ConnectionState = (typeof CONNECTION_STATES)[number];

export interface GameInfo {
  board: number;
  round: number;
  event?: string;
  site?: string;
  /** `YYYY.MM.DD` */
  date?: string;
  white?: string;
  black?: string;
  /** The players' FMJD ids, from the tournament's pairings. */
  whiteFmjdId?: string;
  blackFmjdId?: string;
  variant: Variant;
  timeControl?: string;
}

export interface RecordedMove {
  ply: number;
  /** PDN notation as written in the file (`32-28`, `19x28`, or the full path when ambiguous). */
  pdn: string;
  from: number;
  to: number;
  path: readonly number[];
  captured: readonly number[];
  fenAfter: string;
  t: number;
  /** Clock after the move, when the board reports one (ms). */
  clock?: ClockReading;
  /** Alert ids attached to this move, and the arbiter's decision on them. */
  alerts?: string[];
  /** Played in a gap (events lost): found by the tracker's gap search, not seen. */
  recovered?: true;
  /** One of several lines of a gap, recorded until the arbiter picks the line (the `gap` alert). */
  provisional?: true;
}

export interface AlertRecord extends Alert {
  board: number;
  decision?: ArbiterDecision & { t: number };
  /** The players put the board back before the opponent moved on (5.4, 5.7): the irregular move left the record. */
  correctedOnBoard?: { t: number };
}

/** A board's connection as its game records it: the state, and the board's serial once known. */
export interface RecordedConnection {
  state: ConnectionState;
  serial?: string;
}

/** Everything a viewer needs to draw one board from scratch. */
export interface GameSnapshot extends RecordedConnection {
  info: GameInfo;
  /** Per-board version: increases by one with every GameEvent. */
  version: number;
  startFen: string;
  fen: string;
  moves: RecordedMove[];
  clock?: ClockReading & { t: number };
  alerts: AlertRecord[];
  result: GameResult;
  /** A draw with advantage (6.5, 1+/1−): the side that had it; only with `result` 1-1. */
  advantage?: Side;
  /** A result the engine proposes (game over / draw rule), waiting for the arbiter's confirmation. */
  proposedResult?: { result: GameResult; reason: string; advantage?: Side };
  /** What the arbiter entered besides results: resignations, draw offers, Appendix G (in order). */
  actions?: ActionRecord[];
  /** The quickplay finish (Appendix G), when the game has a time control. */
  quickplay?: QuickplayState;
  /** What became of damlink's last setting of the board's clock, once it set one. */
  clockCommand?: ClockCommandState;
  /** The last ply played when the result was written (0: before any move); only with a result. */
  resultPly?: number;
  /** When the result was written (the record's time): what the board showed after it is not the game's. */
  resultT?: number;
  /**
   * Where the game on the board left the line of legal moves and the departure stood (5.7): the
   * broadcast continues from each one's position (docs/broadcast.md). Never shrinks within a game.
   */
  continued?: Continuation[];
  /**
   * The board's game of the round, kept when the pieces were set up again after it: the table's
   * game, which the broadcast shows and the table's result is written to (docs/broadcast.md).
   */
  tableGame?: GameSnapshot;
}

/**
 * The board left the line of legal moves (an irregularity that stood, a position set) at ply
 * `ply` − 1: the game goes on from `fen`, its next move being ply `ply`. `at`: the latest time the
 * record had seen when it stood (orders the broadcast's continuations across boards).
 */
export interface Continuation {
  ply: number;
  fen: string;
  at: number;
}

/**
 * The board's clock took damlink's last setting (`set`), or the arbiter must set it by hand, and why
 * (`reason`, see ClockByHandReason).
 */
export interface ClockCommandState {
  set: boolean;
  reason?: ClockByHandReason;
  t: number;
}

export interface QuickplayState {
  /** Whether Appendix G applies to this game (announced, no increment, not blitz). */
  applies: boolean;
  /** Why not, when it does not (`G.3: not for blitz`). */
  reason?: string;
  /** The increment a move introduced by G.4 (ms; 0 before). */
  incrementMs: number;
  /** A G.5 claim the arbiter postponed: decided at the end or after a flag. */
  postponed?: { side: Side; ply: number; t: number; decision: Extract<ClaimDecision, 'postpone'> };
  /** G.6: a claim ended the game here; the record stops and keeps this position for the arbiter. */
  ended?: { side: Side; ply: number; fen: string; t: number };
}

/** A clock setting: what damlink asks a board's clock to show. */
export type ClockSetting = ClockReading;

/** One change to one board's game; `version` = the snapshot's version after applying it. */
export type GameEvent = { board: number; version: number; t: number } & (
  | { kind: 'move'; move: RecordedMove }
  | { kind: 'takeback'; ply: number; fen: string }
  | { kind: 'new-game'; snapshot: GameSnapshot }
  | ({ kind: 'clock' } & ClockReading)
  | { kind: 'alert'; alert: AlertRecord }
  | { kind: 'decision'; alertId: string; decision: ArbiterDecision }
  | { kind: 'position-set'; fen: string; reason: string }
  | {
      kind: 'result';
      result: GameResult;
      advantage?: Side;
      proposed?: { result: GameResult; reason: string; advantage?: Side };
      /** The game on the board is played after the table's game (`tableGame`): not the table's result. */
      afterGame?: true;
    }
  /** The table's game kept aside changed (its result, its names), or is no longer kept (null). */
  | { kind: 'table-game'; game: GameSnapshot | null }
  /** The board's game left the line of legal moves and the departure stood: the broadcast continues from it. */
  | { kind: 'continued'; continuation: Continuation }
  | { kind: 'state'; state: ConnectionState; serial?: string }
  | { kind: 'info'; info: GameInfo }
  /** An arbiter's action, and the quickplay state after it. */
  | { kind: 'action'; action: ActionRecord; quickplay?: QuickplayState }
  /** damlink sets the board's clock to this (time added by the arbiter, the G.4 increment). */
  | ({ kind: 'clock-set' } & ClockReading)
  /**
   * What the board's clock did with a setting (`asked`): took it, or must be set by hand (`outcome`
   * with the clock's answer to each try). A `replaced` setting changes nothing: a newer one followed.
   */
  | { kind: 'clock-command'; asked: ClockSetting; outcome: ClockCommandOutcome }
);

export interface GameRecordOptions {
  info: GameInfo;
  /** FEN the game starts from (default: the variant's initial position). */
  startFen?: string;
  /**
   * Draw rules of the tournament: a profile name (`fmjd`, `fmjd-64`, `club`, `advantage`) or the
   * engine's DrawRules; default: the variant's own (src/engine/draw.ts).
   */
  drawProfile?: string | DrawRules;
  /** Write the result the engine proposes at once instead of waiting for the arbiter. */
  autoResult?: boolean;
  /** How many recent events to keep for `since` (default 200). */
  keepEvents?: number;
  state?: ConnectionState;
  serial?: string;
  /** Appendix G was announced for the event (G.2); it applies when the time control allows (G.3). */
  quickplayFinish?: boolean;
}
