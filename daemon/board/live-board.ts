// A board of the current round as the daemon runs it: its game and its time, with what the ticks
// and the connections keep about it.
import type { ConnectionState } from '../../src/game/types.ts';
import type { BoardSetup } from '../config/index.ts';
import type { BoardConnection } from '../transport/index.ts';
import type { BoardGame } from './board-game.ts';
import type { ResumePoint } from './resume.ts';
import { BoardTime } from './time.ts';

export interface LiveBoard {
  readonly setup: BoardSetup;
  readonly game: BoardGame;
  readonly time: BoardTime;
  /** Last board event other than a tick (ms). */
  lastEvent: number;
  lastTick: number;
  state: ConnectionState;
  /** The connection currently feeding this board. */
  feeder?: BoardConnection;
  /** Being calibrated: its connection's bytes go to the calibration, and no time passes for its game. */
  calibrating?: boolean;
  /** A history board: the last of its changes stored (what it is asked after when it comes back). */
  resume?: ResumePoint;
  /** Its link cannot be opened: what failed and what to do (the console shows it on the board's row). */
  openProblem?: string;
}

export function liveBoard(setup: BoardSetup, game: BoardGame): LiveBoard {
  return { setup, game, time: new BoardTime(), lastEvent: 0, lastTick: 0, state: 'connecting' };
}
