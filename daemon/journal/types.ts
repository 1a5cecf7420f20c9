// What the journal holds: every input that changes a board's game, in the order it was applied.
// Replaying a board's entries through a fresh tracker and game record rebuilds the same game.
import type { ClockCommandOutcome } from '../../firmware-protocol/clock-command.ts';
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import type { DrawRules } from '../../src/engine/index.ts';
import type { ArbiterAction } from '../../src/game/actions.ts';
import type { ClockSetting, GameInfo, GameResult } from '../../src/game/types.ts';
import type { ArbiterDecision } from '../../src/tracker/types.ts';
import type { ConnectionState } from '../../src/game/types.ts';

export type JournalInput =
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

export interface JournalEntry {
  round: number;
  board: number;
  /** Per board and round, from 1, no gaps. */
  seq: number;
  /** Receive / decision time (ms since the epoch). */
  t: number;
  serial?: string;
  input: JournalInput;
  raw?: Uint8Array;
}

/** How a round is played: what a replay must know besides the entries. */
export interface RoundSettings {
  variant: GameInfo['variant'];
  drawProfile?: string | DrawRules;
  autoResult?: boolean;
  /** Appendix G announced for the event. */
  quickplayFinish?: boolean;
  /** A gap search's budget other than the default (`gapSearch.positions`). */
  tracker?: { gapBudget?: { step: number; total: number } };
}

/** A dump search's row: its steps and nodes, and the lines it found as JSON (null: none kept). */
export interface SearchRow {
  steps: number;
  nodes: number;
  found: string | null;
}

/** The dump searches' rows by key. */
export interface SearchRows {
  get(key: string): SearchRow | undefined;
  put(key: string, row: SearchRow): void;
}
