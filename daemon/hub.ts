// The seam between "boards in" (controller: transports, journal, trackers) and "games out"
// (HTTP, WebSocket, MQTT). The controller implements it; the servers only read and call it.
import type { ArbiterDecision } from '../src/tracker/types.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../src/game/types.ts';

export interface BoardSummary {
  board: number;
  round: number;
  source: string;
  serial?: string;
  state: GameSnapshot['state'];
  version: number;
}

/** Whether the journal is writing: while it is not, boards are tracked from memory (docs/ops). */
export interface JournalHealth {
  ok: boolean;
  /** Rows applied and kept in memory, waiting for the journal to write again. */
  behind: number;
  /** Rows it may keep before the daemon exits to be restarted (`journal.backlog`). */
  bound: number;
  /** The last write error (`SQLITE_FULL: database or disk is full`). */
  reason?: string;
  /** When writing started failing (ms since the epoch). */
  since?: number;
}

/** An arbiter call refused because it could not be made durable: nothing was applied. */
export class JournalUnavailable extends Error {
  readonly code = 'journal-unavailable';
}

export interface Hub {
  /** The boards of the current round, in board order. */
  boards(): BoardSummary[];
  round(): number;
  snapshot(board: number): GameSnapshot | undefined;
  /** All games of a round, board order (stable for the whole round). */
  games(round: number): GameSnapshot[];
  /** Events after `version` for one board, or undefined when they are no longer kept (send a snapshot). */
  since(board: number, version: number): GameEvent[] | undefined;
  /** Every GameEvent of every board, as it happens. Returns an unsubscribe function. */
  subscribe(listener: (event: GameEvent) => void): () => void;
  /**
   * Arbiter actions: journaled first, then applied; resolved once synced to disk, rejected with
   * JournalUnavailable when the journal cannot write (nothing applied then).
   */
  decide(board: number, decision: ArbiterDecision): Promise<void>;
  setResult(board: number, result: GameResult): Promise<void>;
  setInfo(board: number, info: Partial<GameInfo>): Promise<void>;
  /** Asks the boards being watched (every one, or `board`) for a full dump; the boards asked. */
  resync(board?: number): number[];
  /** The journal's state, for /health (absent: always writing). */
  journalHealth?(): JournalHealth;
}
