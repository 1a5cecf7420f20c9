// The seam between "boards in" (controller: transports, journal, trackers) and "games out"
// (HTTP, WebSocket, MQTT). The controller implements it; the servers only read and call it.
import type { BoardEvent } from '../firmware-protocol/events.ts';
import type { ArbiterDecision } from '../src/tracker/types.ts';
import type { ArbiterAction } from '../src/game/actions.ts';
import type { Side } from '../firmware-protocol/events.ts';
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
  /** Whether the round has games: the current round, or one the journal holds (an index lookup). */
  hasRound(round: number): boolean;
  /** All games of a round, board order (stable for the whole round). */
  games(round: number): GameSnapshot[];
  /** Events after `version` for one board, or undefined when they are no longer kept (send a snapshot). */
  since(board: number, version: number): GameEvent[] | undefined;
  /** Every GameEvent of every board, as it happens. Returns an unsubscribe function. */
  subscribe(listener: (event: GameEvent) => void): () => void;
  /**
   * A hub that can move a board on without telling the events between (a gateway that missed
   * them on the broker) says so here: its followers need the board's snapshot (`board`), or, once
   * the round changed, every game of the new round (no board).
   */
  subscribeResets?(listener: (board?: number) => void): () => void;
  /**
   * One board's sensor events of the current round (ticks included) with `from <= t <= to`, oldest
   * first, at most `limit` of them. Read-only, for the dispute view; a hub without a journal has none.
   */
  sensorEvents?(board: number, from: number, to: number, limit: number): BoardEvent[];
  /**
   * Arbiter actions: journaled first, then applied; resolved once synced to disk, rejected with
   * JournalUnavailable when the journal cannot write (nothing applied then).
   */
  decide(board: number, decision: ArbiterDecision): Promise<void>;
  /** `advantage`: a draw with advantage (6.5) to that side. */
  setResult(board: number, result: GameResult, advantage?: Side): Promise<void>;
  setInfo(board: number, info: Partial<GameInfo>): Promise<void>;
  /** Resignation, draw by agreement or offer, refusal to follow the rules, Appendix G actions. */
  act(board: number, action: ArbiterAction): Promise<void>;
  /** Asks the boards being watched (every one, or `board`) for a full dump; the boards asked. */
  resync(board?: number): number[];
  /** Closes the round's games and starts round `round` (a daemon that can change rounds). */
  setRound?(round: number): Promise<void>;
  /** The journal's state, for /health (absent: always writing). */
  journalHealth?(): JournalHealth;
}
