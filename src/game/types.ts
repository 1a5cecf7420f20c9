// The game record's contract: what the broadcast serves. Pure data; versions let clients catch up.
import type { Side } from '../../firmware-protocol/events.ts';
import type { Variant } from '../engine/index.ts';
import type { Alert, ArbiterDecision } from '../tracker/types.ts';

export type GameResult = '2-0' | '1-1' | '0-2' | '*';
export type BoardState = 'connecting' | 'active' | 'silent' | 'lost';

export interface GameInfo {
  board: number;
  round: number;
  event?: string;
  site?: string;
  /** `YYYY.MM.DD` */
  date?: string;
  white?: string;
  black?: string;
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
  clock?: { white: number; black: number; running: Side | null };
  /** Alert ids attached to this move, and the arbiter's decision on them. */
  alerts?: string[];
  /** Played in a gap (events lost): found by the tracker's gap search, not seen. */
  recovered?: true;
}

export interface AlertRecord extends Alert {
  board: number;
  decision?: ArbiterDecision & { t: number };
}

/** Everything a viewer needs to draw one board from scratch. */
export interface GameSnapshot {
  info: GameInfo;
  /** Per-board version: increases by one with every GameEvent. */
  version: number;
  state: BoardState;
  serial?: string;
  startFen: string;
  fen: string;
  moves: RecordedMove[];
  clock?: { white: number; black: number; running: Side | null; t: number };
  alerts: AlertRecord[];
  result: GameResult;
  /** A result the engine proposes (game over / draw rule), waiting for the arbiter's confirmation. */
  proposedResult?: { result: GameResult; reason: string };
}

/** One change to one board's game; `version` = the snapshot's version after applying it. */
export type GameEvent = { board: number; version: number; t: number } & (
  | { kind: 'move'; move: RecordedMove }
  | { kind: 'takeback'; ply: number; fen: string }
  | { kind: 'new-game'; snapshot: GameSnapshot }
  | { kind: 'clock'; white: number; black: number; running: Side | null }
  | { kind: 'alert'; alert: AlertRecord }
  | { kind: 'decision'; alertId: string; decision: ArbiterDecision }
  | { kind: 'position-set'; fen: string; reason: string }
  | { kind: 'result'; result: GameResult; proposed?: { result: GameResult; reason: string } }
  | { kind: 'state'; state: BoardState; serial?: string }
  | { kind: 'info'; info: GameInfo }
);
