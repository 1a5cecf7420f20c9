// What the journal holds: every input that changes a board's game (src/game/board-game.ts), in the
// order it was applied. Replaying a board's entries through a fresh tracker and game record rebuilds
// the same game.
import type { DrawRules } from '../../src/engine/index.ts';
import type { GameInfo } from '../../src/game/types.ts';
import type { BoardInput } from '../../src/game/board-game.ts';

export interface JournalEntry {
  round: number;
  board: number;
  /** Per board and round, from 1, no gaps. */
  seq: number;
  /** Receive / decision time (ms since the epoch). */
  t: number;
  serial?: string;
  input: BoardInput;
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
