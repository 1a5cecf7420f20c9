// The tracker's contract: what the daemon feeds it and what it gets back. Pure and deterministic.
import type { BoardEvent, Side } from '../../firmware-protocol/events.ts';
import type { FinalResult, Move, Position, Variant } from '../engine/index.ts';

/**
 * Rule ids the tracker alerts on: the article numbers of docs/rules.md, and `unknown-position` (the
 * board matches no legal continuation and the arbiter must look: a snapshot after a gap, …); the
 * clock's: `flag` (one side's time ran out) and `flags` (both flags down, no telling which first); `gap`:
 * plies lost in a gap (reconnect, restart) fit several lines and the arbiter picks one (`candidates`). The one
 * list: messages, the simulator's injection and the web texts (checked by a test) follow it.
 */
export const RULE_IDS = [
  '4.11',
  '5.1',
  '5.3',
  '5.4.1',
  '5.4.2',
  '5.4.3',
  '5.4.4',
  '5.4.5',
  '5.4.6',
  '5.4.7',
  '5.4.8',
  '5.4.9',
  '5.4.10',
  '5.4.11',
  '5.4.12',
  '5.4.13',
  '5.4.14',
  'unknown-position',
  'flag',
  'flags',
  'gap',
] as const;

/** The rule ids the clock raises, not the hands on the board (src/clock/watch.ts). */
export const CLOCK_RULE_IDS: readonly RuleId[] = ['flag', 'flags'];

export type RuleId = (typeof RULE_IDS)[number];

/** An alert's facts as data: who, the move as the board shows it, the squares concerned. */
export interface AlertParams {
  /** Absent where no one side is concerned (`flags`: both flags fell). */
  side?: Side;
  move?: string;
  squares?: number[];
}

export interface Alert {
  /** Unique within the board's game: `${ply}-${rule}-${n}`. */
  id: string;
  rule: RuleId;
  /** Ply (1-based half-move number) the irregularity belongs to. */
  ply: number;
  /** The side concerned; absent where no one side is (`flags`: both flags fell, no telling which first). */
  side?: Side;
  /** What happened, in words an arbiter understands. */
  message: string;
  /** The same facts as `message`, as data (for texts in other languages). */
  params?: AlertParams;
  t: number;
  /** The sensor events that prove it. */
  events: BoardEvent[];
  /** FEN before and after, when known. */
  before?: string;
  after?: string;
  /** `gap`: the lines of play (PDN moves from `before`) that lead to the board, the first tracked meanwhile. */
  candidates?: string[][];
  /** `gap`: the board the lines must reach, one character per square (`w b W B o .`). */
  boardShown?: string;
}

export type TrackerOutput =
  /**
   * A move was played (and settled). `irregular` lists the rule ids of alerts attached to it. A
   * move of a ply already recorded replaces it: the piece went on before the clock was pressed.
   */
  | {
      type: 'move';
      t: number;
      ply: number;
      move: Move;
      pdn: string;
      fenAfter: string;
      irregular?: RuleId[];
      /** Played in a gap (events lost): found by the gap search, not seen. */
      recovered?: true;
      /**
       * Played in a gap, one of several lines that lead to the board: recorded so that the game goes
       * on live, until the arbiter answers the `gap` alert (the line then stands, or is replaced).
       */
      provisional?: true;
    }
  | { type: 'alert'; t: number; alert: Alert }
  /** The board went back to an earlier position (takeback): moves after `ply` are no longer on it. */
  | { type: 'takeback'; t: number; ply: number; fen: string }
  /**
   * The players corrected an irregularity on the board before the opponent moved on (5.4, 5.7):
   * the alerts `alertIds` are corrected, moves after `ply` leave the record (the irregular move),
   * and the game continues from `fen`. Not a takeback: no 5.4.4.
   */
  | { type: 'correction'; t: number; ply: number; fen: string; alertIds: string[] }
  /** The board was set up in the start position again: a new game. */
  | { type: 'new-game'; t: number; fen: string }
  /** Kings put on the centre squares to show the result; not a move. */
  | { type: 'result-gesture'; t: number; result?: FinalResult }
  /** The position the tracker continues from was set by the arbiter (correction). */
  | { type: 'position-set'; t: number; fen: string; reason: string };

/** `revises`: the alert was decided before and the arbiter changes that decision (journaled as such). */
export type ArbiterDecision =
  | { alertId: string; kind: 'stands'; revises?: true }
  | { alertId: string; kind: 'corrected'; fen: string; revises?: true }
  /** `gap`: the candidate line `line` (0-based) was played. */
  | { alertId: string; kind: 'line'; line: number; revises?: true }
  /** `gap`: these moves (PDN, from the score sheet) were played; they must lead to the board. */
  | { alertId: string; kind: 'moves'; pdn: string; revises?: true };

export interface TrackerOptions {
  variant: Variant;
  /** Start position (default: the variant's initial position). */
  start?: Position;
  /** Quiet time after the last change before a move is decided without a clock press (default 250 ms). */
  settleMs?: number;
  /** The board only senses occupancy: colours and kinds follow from the game. */
  occupancyOnly?: boolean;
  /**
   * The board reports its changes by scans of this period (ms), in scan order: what a `hello` with
   * `scanMs` says too. Absent: changes come as they happen (only back-to-back ones are unordered).
   */
  scanMs?: number;
  /**
   * How long an undecided board may stay unchanged before it is read as an irregular move when no
   * clock is pressed (docs/irregularities.md, default 4000 ms).
   */
  alertAfterMs?: number;
  /**
   * The search for plies lost in a gap, in nodes: per step and in all (default 2,000,000 in all, in
   * steps of 500 when granted, of 4000 an input otherwise: src/tracker/gap/lost-lines.ts).
   */
  gapBudget?: { step: number; total: number };
  /**
   * When the search takes its steps: `each-input` (default), one step an input; `granted`, only
   * the steps a tick grants (`tick.steps`), so the one who feeds the tracker shares the CPU among
   * boards (the daemon does, and journals those ticks).
   */
  searchSteps?: 'each-input' | 'granted';
  /**
   * Dump searches already run (kept across restarts by the daemon): one of them takes the same
   * steps and nodes again without the work, and ends as it did, so a replay decides at the same
   * inputs.
   */
  searchMemo?: SearchMemo;
}

/** How a search ended: the steps and nodes it took, and the lines it found (absent: none). */
export interface KnownSearch {
  steps: number;
  nodes: number;
  found?: {
    /** Each line's moves as `moveKey`s, and whether its last ply was still under way. */
    lines: { moves: string[]; underWay: boolean }[];
    total: number;
    complete: boolean;
  };
}

/** Dump searches by the search's own key (its position, board and budget). */
export interface SearchMemo {
  known(key: string): KnownSearch | undefined;
  note(key: string, search: KnownSearch): void;
}

export interface TrackerState {
  /** The game's position (after the last recorded move). */
  position: Position;
  /** Recorded moves, in order. */
  moves: Move[];
  /** Squares whose physical content differs from `position` right now. */
  pending: number[];
  /** Alerts not yet decided by the arbiter. */
  openAlerts: Alert[];
}

export interface Tracker {
  /** Feed one event (including `tick`); returns what it caused, in order. */
  push(event: BoardEvent): TrackerOutput[];
  /** Apply an arbiter decision (journaled by the daemon, replayed in order). */
  decide(decision: ArbiterDecision, t: number): TrackerOutput[];
  /** Settle whatever is pending (end of a replay file). */
  flush(t: number): TrackerOutput[];
  readonly state: TrackerState;
  /**
   * A search for plies lost in a gap is under way: later inputs take its steps (see
   * TrackerOptions.searchSteps), so the daemon keeps ticking the board and journals those ticks (a
   * replay steps alike).
   */
  readonly searching: boolean;
  /**
   * Nodes the search under way has expanded, and after a dump those its episode's searches did
   * before it, on the board as it was (0 when none is under way).
   */
  readonly searchNodes: number;
  /**
   * Plies followed from the board an unknown-position after lost events shows, while it waits for
   * the score sheet (recorded after it); undefined when no such alert waits.
   */
  readonly following: number | undefined;
  /**
   * Replaying a journal (a restart's rebuild, a past round, an export): a dump's search the memo
   * does not know works its first step and counts the others without the work, until this is turned
   * off (a live board after its rebuild), then works within the steps granted from there on. A
   * search the journal saw end is the memo's (every one that took more than a step is noted when it
   * ends); one it did not see end does not end on the replay's account either — so a restart serves
   * at once, whatever searches its journal holds.
   */
  deferSearches?(on: boolean): void;
}
