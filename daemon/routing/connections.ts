// Connections ↔ boards: one connection per configured source; what it reads goes to the board its
// serial number belongs to, which may be another board than the source's own (a replugged board).
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { ConnectionState } from '../../src/game/types.ts';
import type { HoldUpClock } from '../hold-up-clock.ts';
import type { LiveBoard } from '../live-board.ts';
import { resumeAfter } from '../transport/resume.ts';
import { watched } from '../../src/game/board-time.ts';
import type { BoardSetup } from '../config/index.ts';
import type { GroupCommit } from '../ingest/group-commit.ts';
import type { Logger } from '../log.ts';
import {
  BoardConnection,
  type BoardTransport,
  boardTransport,
  type ConnectionTiming,
  type TransportDeps,
} from '../transport/index.ts';
import type { SerialBindings } from './bindings.ts';
import type { ConnectionStates } from './connection-state.ts';

/** Board faults that say the set-up is wrong rather than a byte was lost. */
const SET_UP_FAULTS = new Set(['clock-error', 'unmapped-dump', 'unknown-piece']);

/** A source's connection and the board it feeds now (its own until a serial says otherwise). */
interface Feed {
  readonly setup: BoardSetup;
  conn: BoardConnection;
  board?: number;
}

export interface ConnectionsOptions {
  setups: readonly BoardSetup[];
  boards: ReadonlyMap<number, LiveBoard>;
  bindings: SerialBindings;
  states: ConnectionStates;
  commits: GroupCommit;
  clock: HoldUpClock;
  transport?: TransportDeps;
  timing?: Partial<ConnectionTiming>;
  log: Logger;
}

export class Connections {
  private readonly feeds: Feed[] = [];

  constructor(private readonly options: ConnectionsOptions) {}

  /** Opens every source's connection (a source that cannot be used is logged and left out). */
  start(): void {
    const { log } = this.options;
    for (const setup of this.options.setups) {
      let transport: BoardTransport;
      try {
        // A board given its profile file in the config is not looked up by serial as well.
        const deps = setup.profile
          ? { ...this.options.transport, profiles: undefined }
          : this.options.transport;
        transport = boardTransport(setup.source, setup.protocol, setup.options, deps);
      } catch (e) {
        log.error({ board: setup.board, source: setup.source.text, err: e }, 'cannot use this board source');
        continue;
      }
      const feed: Feed = { setup, conn: undefined as unknown as BoardConnection };
      feed.conn = new BoardConnection({
        source: setup.source.text,
        ...transport,
        timing: this.options.timing,
        // The input clock: a board's own time is reckoned here, once the events reach their board.
        eventTime: () => this.options.clock.now(),
        events: {
          onState: (state, detail) => this.connectionState(feed, state, detail.serial, detail.reason),
          onOpenProblem: (problem) => {
            const live = this.options.boards.get(feed.board ?? setup.board);
            if (live) live.openProblem = problem;
          },
          onEvents: (serial, events, raw) => this.boardEvents(feed, serial, events, raw),
          onLog: (level, message, fields) => log[level]({ board: setup.board, ...fields }, message),
        },
      });
      this.feeds.push(feed);
      feed.conn.start();
    }
  }

  stop(): void {
    for (const { conn } of this.feeds) conn.stop();
    this.feeds.length = 0;
  }

  /** Asks the boards being watched (all, or `board`) for a full dump; the boards asked. */
  resync(board?: number): number[] {
    const asked: number[] = [];
    for (const live of this.options.boards.values()) {
      if (board !== undefined && live.setup.board !== board) continue;
      if (!live.feeder || !watched(live.game.record.connection.state)) continue;
      live.feeder.requestSnapshot();
      asked.push(live.setup.board);
    }
    return asked.sort((a, b) => a - b);
  }

  private connectionState(
    feed: Feed,
    state: ConnectionState,
    serial: string | undefined,
    reason: string | undefined,
  ): void {
    const { boards, states } = this.options;
    if (state === 'active' && serial !== undefined) {
      const board = this.options.bindings.boardOf(feed.setup, serial);
      if (feed.board !== undefined && feed.board !== board) {
        const left = boards.get(feed.board);
        if (left) states.set(left, 'lost', feed.conn);
      }
      feed.board = board;
      boards.get(board)!.feeder = feed.conn;
    }
    const board = feed.board ?? feed.setup.board;
    this.options.log[state === 'active' ? 'info' : 'warn'](
      { board, serial, source: feed.setup.source.text, reason },
      `board ${state}`,
    );
    const live = boards.get(board);
    // Before the link asks the board what it missed (it does once identified): from what is stored.
    if (state === 'active') feed.conn.remember(live?.resume);
    if (live) states.set(live, state, feed.conn, serial);
  }

  private boardEvents(feed: Feed, serial: string, stamped: BoardEvent[], raw: Uint8Array): void {
    const live = this.options.boards.get(feed.board ?? this.options.bindings.boardOf(feed.setup, serial));
    if (!live) return;
    const { commits } = this.options;
    for (const e of stamped) {
      // What the set-up must fix (a clock that refuses commands, a dump without a field map) is said
      // where the organiser looks; the line noise of resync faults is not.
      if (e.type === 'fault' && SET_UP_FAULTS.has(e.code))
        this.options.log.warn({ board: live.setup.board, serial, code: e.code }, e.message);
    }
    live.time.receive(stamped).forEach((event, i) => {
      if (event.type !== 'tick') live.lastEvent = event.t;
      live.resume = resumeAfter(live.resume, event, serial);
      commits.input(live, { kind: 'event', event }, event.t, serial, i === 0 ? raw : undefined);
    });
    feed.conn.remember(live.resume);
  }
}
