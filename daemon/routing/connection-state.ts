// A board's connection state as its game records it (journaled like any input, so versions after
// a replay match the ones served before), and what it means for the board's time.
import type { ConnectionState } from '../../src/game/types.ts';
import type { HoldUpClock } from '../hold-up-clock.ts';
import type { LiveBoard } from '../live-board.ts';
import { watched } from '../../src/game/board-time.ts';
import type { GroupCommit } from '../ingest/group-commit.ts';
import type { BoardConnection } from '../transport/index.ts';

export class ConnectionStates {
  constructor(
    private readonly commits: GroupCommit,
    private readonly clock: HoldUpClock,
  ) {}

  set(board: LiveBoard, state: ConnectionState, from: BoardConnection, serial?: string): void {
    // Only the connection feeding a board speaks for its state (a replugged board moved elsewhere).
    if (board.feeder && board.feeder !== from) return;
    // With what its queued inputs leave it in: the record has a state only once its batch is
    // written, and a board can go silent and speak again before that.
    const now = this.commits.connection(board);
    if (now.state === state && (serial === undefined || now.serial === serial)) return;
    // Going away does not end the gap (no board time passes until the board is watched again).
    const t = board.time.gap && !watched(state) ? board.time.last : board.time.at(this.clock.now());
    this.commits.input(board, { kind: 'state', state, ...(serial !== undefined ? { serial } : {}) }, t);
    if (state === 'lost') board.time.gap = true;
  }
}
