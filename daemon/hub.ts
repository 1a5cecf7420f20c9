// The seam between "boards in" (controller: transports, journal, trackers) and "games out"
// (HTTP, WebSocket, MQTT). The controller implements it; the servers only read and call it.
import type { ClockByHandReason, ClockCommandOutcome } from '../firmware-protocol/clock-command.ts';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import type { ArbiterDecision } from '../src/tracker/types.ts';
import type { ArbiterAction } from '../src/game/actions.ts';
import type { Side } from '../firmware-protocol/events.ts';
import type { GameEvent, GameInfo, GameResult, GameSnapshot } from '../src/game/types.ts';
import type { CalibrationOutput, CalibrationStart } from './calibration/connected.ts';

export interface BoardSummary {
  board: number;
  round: number;
  source: string;
  serial?: string;
  state: GameSnapshot['state'];
  version: number;
  /**
   * The connected board's clock takes no settings from damlink (`no-command`: its protocol has none;
   * `no-capability`: a line board without `caps=clock`): time added must be set by hand.
   */
  clockByHand?: Extract<ClockByHandReason, 'no-command' | 'no-capability'>;
  /** Being calibrated from the console: its game hears nothing of the board meanwhile. */
  calibrating?: true;
  /**
   * A search for plies lost in a gap is under way (after a reconnect or a restart): the board waits
   * undecided until it ends; `positions` it has looked at so far.
   */
  searching?: { positions: number };
  /**
   * An unknown-position after lost events waits for the score sheet: the moves played on since are
   * followed from the board it shows (`plies` so far), and recorded after the score sheet.
   */
  following?: { plies: number };
  /**
   * Its link cannot be opened: what failed and what to do (`cannot open serial:/dev/ttyUSB3: … —
   * plug the board in; …`). For the arbiter: the board list shows it to arbiter connections only.
   */
  openProblem?: string;
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

/** What an arbiter's action did besides the record: the board's clock it had to set (G.4, G.5). */
export interface ActAnswer {
  /** The clock took the new setting, or the arbiter must set it by hand (absent: no clock to set). */
  clock?: ClockCommandOutcome;
}

/** An arbiter call refused because it could not be made durable: nothing was applied. */
export class JournalUnavailable extends Error {
  readonly code = 'journal-unavailable';
}

/**
 * A past round whose games are being rebuilt from the journal off the event loop (its daemon was
 * killed before it kept them): asked again in a moment, it is there.
 */
export class RoundRebuilding extends Error {
  readonly code = 'busy';
  constructor(readonly round: number) {
    super(`round ${round} is being rebuilt from the journal: ask again in a second`);
  }
}

/** What every server reads: the round's boards, their games and events (a daemon, or a gateway). */
export interface HubReader {
  /** The boards of the current round, in board order. */
  boards(): BoardSummary[];
  round(): number;
  snapshot(board: number): GameSnapshot | undefined;
  /** Whether the round has games: the current round, or one the journal holds (an index lookup). */
  hasRound(round: number): boolean;
  /**
   * All games of a round, board order (stable for the whole round). A past round not yet rebuilt
   * throws RoundRebuilding while it is rebuilt.
   */
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
  /** The journal's state, for /health (absent: always writing). */
  journalHealth?(): JournalHealth;
}

/** The arbiter's side, which only a daemon has: journaled decisions and actions, the boards' own reads. */
export interface ArbiterHub {
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
  /**
   * Resignation, draw by agreement or offer, refusal to follow the rules, Appendix G actions;
   * resolved once durable and, when the action set the board's clock, once the clock answered.
   */
  act(board: number, action: ArbiterAction): Promise<ActAnswer>;
  /** Asks the boards being watched (every one, or `board`) for a full dump; the boards asked. */
  resync(board?: number): number[];
  /** Closes the round's games and starts round `round` (a daemon that can change rounds). */
  setRound?(round: number): Promise<void>;
  /**
   * Calibrates connected board `board` (the console's calibration page): its game hears nothing
   * of the board until the calibration ends; what the calibration says goes to `onOutput`, the last
   * output `saved` (the profile written and applied) or `failed`. Absent: this hub cannot.
   */
  calibrate?(board: number, onOutput: (output: CalibrationOutput) => void): CalibrationStart;
}

/** A daemon's hub: both sides. */
export interface Hub extends HubReader, ArbiterHub {}

/** The arbiter's side of `hub`, when it has one (a daemon's; a gateway's has none). */
export const arbiterSide = (hub: HubReader): ArbiterHub | undefined =>
  'decide' in hub ? (hub as Hub) : undefined;
