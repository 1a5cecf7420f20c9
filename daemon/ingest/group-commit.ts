// Journal first, then apply, then tell the subscribers — in groups: the inputs of one turn of the
// event loop (often many boards' events) are journaled in one transaction, one WAL write instead
// of one per event, and only then applied and published, in order.
// When the journal cannot write (disk full, I/O error) the boards are still tracked and broadcast:
// their inputs are applied from memory and kept, in order, in a bounded backlog written as soon as
// the journal writes again (retried with backoff). Arbiter inputs are never applied from memory:
// they are refused (JournalUnavailable), and answered only once synced to disk.
import type { GameEvent, RecordedConnection } from '../../src/game/types.ts';
import { derivedRecord } from '../journal/derived.ts';
import { DEFAULTS } from '../config/schema.ts';
import type { LiveBoard } from '../live-board.ts';
import { type JournalHealth, JournalUnavailable } from '../hub.ts';
import type { AppendRequest, DerivedRecord, Journal } from '../journal/index.ts';
import type { BoardInput } from '../../src/game/board-game.ts';
import type { Logger } from '../log.ts';

/** Rows written per transaction while catching up: the event loop keeps serving in between. */
const CATCH_UP_ROWS = 5000;

export interface BacklogOptions {
  /** Rows (inputs and outputs) kept in memory while the journal cannot write. */
  max: number;
  /** Called once when `max` is exceeded: the daemon exits, to be restarted (see controller). */
  onOverflow: (health: JournalHealth) => void;
  /** First retry after this many ms, doubled on each failure up to `maxRetryMs`. */
  retryMs?: number;
  maxRetryMs?: number;
}

interface Answer {
  resolve: () => void;
  reject: (e: Error) => void;
}

interface Queued {
  board: LiveBoard;
  input: BoardInput;
  t: number;
  serial?: string;
  raw?: Uint8Array;
  /** An arbiter input: answered once durable. */
  answer?: Answer;
}

const describe = (e: unknown): string => {
  const code = (e as { code?: unknown })?.code;
  const message = e instanceof Error ? e.message : String(e);
  return typeof code === 'string' ? `${code}: ${message}` : message;
};

export class GroupCommit {
  private queue: Queued[] = [];
  /** The connection each board's queued state inputs leave it in, until they are applied. */
  private readonly pendingConnections = new Map<
    LiveBoard,
    { connection: RecordedConnection; from: Queued }
  >();
  private flushScheduled = false;
  /** Outputs to store as rows with the next commit. */
  private derived: DerivedRecord[] = [];
  private readonly listeners = new Set<(event: GameEvent) => void>();
  /** Inputs applied from memory, in order, not yet journaled. */
  private backlog: AppendRequest[] = [];
  private failure: { reason: string; since: number } | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private retryMs: number;
  private overflowed = false;
  private closed = false;

  constructor(
    private readonly journal: Journal,
    private readonly round: number,
    private readonly log: Logger,
    private readonly limits: BacklogOptions = {
      max: DEFAULTS.journalBacklog,
      onOverflow: () => {
        throw new Error('journal backlog exceeded');
      },
    },
  ) {
    this.retryMs = limits.retryMs ?? 100;
  }

  /** Queues an input of `board` for the commit at the end of this turn. */
  input(board: LiveBoard, input: BoardInput, t: number, serial?: string, raw?: Uint8Array): void {
    this.enqueue({ board, input, t, serial, raw });
  }

  /**
   * An arbiter's input: journaled, applied, then resolved once synced to disk. Refused at once,
   * and never applied, while the journal is behind.
   */
  durable(board: LiveBoard, input: BoardInput, t: number): Promise<void> {
    if (this.failure) return Promise.reject(this.unavailable());
    return new Promise((resolve, reject) => this.enqueue({ board, input, t, answer: { resolve, reject } }));
  }

  /**
   * A board's connection as its inputs leave it: what is queued and not yet applied, else what its
   * game recorded. The game is the one that holds it; the queue only runs a batch ahead.
   */
  connection(board: LiveBoard): RecordedConnection {
    return this.pendingConnections.get(board)?.connection ?? board.game.record.connection;
  }

  private enqueue(q: Queued): void {
    q.board.time.saw(q.t);
    if (q.input.kind === 'state') {
      const serial = q.input.serial ?? this.connection(q.board).serial;
      const connection = { state: q.input.state, ...(serial !== undefined ? { serial } : {}) };
      this.pendingConnections.set(q.board, { connection, from: q });
    }
    this.queue.push(q);
    if (!this.flushScheduled) {
      this.flushScheduled = true;
      setImmediate(() => this.flush());
    }
  }

  /** Journals what is queued in one transaction, then applies and publishes it. */
  flush(): void {
    this.flushScheduled = false;
    const batch = this.queue;
    this.queue = [];
    if (batch.length === 0) return;
    if (this.write(batch.map((q) => this.request(q)))) {
      let answers: Answer[] | undefined;
      for (const q of batch) {
        this.applyAndPublish(q);
        if (q.answer) (answers ??= []).push(q.answer);
      }
      if (answers) this.answerWhenSynced(answers);
      return;
    }
    const refused = this.unavailable();
    for (const q of batch) {
      if (q.answer) {
        q.answer.reject(refused);
        this.settled(q);
      } else {
        this.hold(this.request(q));
        this.applyAndPublish(q);
      }
    }
    this.checkBound();
  }

  /** Inputs applied already (decisive ticks): journaled now, or kept until the journal writes. */
  commitApplied(inputs: AppendRequest[]): void {
    if (this.write(inputs)) return;
    for (const r of inputs) this.hold(r);
    this.checkBound();
  }

  /**
   * Writes the outputs waiting for a commit. True when everything applied is then journaled with its
   * outputs, and nothing is queued: what a board's image may be taken of (daemon/images.ts).
   */
  caughtUp(): boolean {
    if (this.failure || this.backlog.length > 0 || this.queue.length > 0) return false;
    return this.derived.length === 0 || this.write([]);
  }

  /** The journal's state, for /health and the console. */
  health(): JournalHealth {
    const behind = this.backlog.length;
    const { max: bound } = this.limits;
    if (!this.failure) return { ok: true, behind, bound };
    return { ok: false, behind, bound, reason: this.failure.reason, since: this.failure.since };
  }

  private request(q: Queued): AppendRequest {
    return {
      round: this.round,
      board: q.board.setup.board,
      t: q.t,
      input: q.input,
      serial: q.serial,
      raw: q.raw,
    };
  }

  private applyAndPublish(q: Queued): void {
    for (const event of this.apply(q.board, q.input, q.t)) this.publish(event);
    this.settled(q);
  }

  /** Applied or refused: its game holds the state now, unless a later input is still on its way. */
  private settled(q: Queued): void {
    if (this.pendingConnections.get(q.board)?.from === q) this.pendingConnections.delete(q.board);
  }

  /**
   * One transaction: the inputs, and the outputs derived since the last one (they ride along
   * instead of costing a commit of their own; a restart stores any a crash kept out). While the
   * journal is behind nothing is written here: the backlog goes first, in order (catchUp).
   */
  private write(inputs: AppendRequest[]): boolean {
    if (this.failure) return false;
    const derived = this.derived;
    this.derived = [];
    try {
      this.journal.appendMany(inputs, derived);
      return true;
    } catch (e) {
      this.derived = derived.concat(this.derived);
      this.failed(e);
      return false;
    }
  }

  /** Kept for the journal; the bytes copied, so a view does not hold a whole socket buffer. */
  private hold(r: AppendRequest): void {
    this.backlog.push(r.raw ? { ...r, raw: r.raw.slice() } : r);
  }

  private failed(e: unknown): void {
    const reason = describe(e);
    if (!this.failure) {
      this.failure = { reason, since: Date.now() };
      this.log.error({ err: e }, 'the journal cannot write: boards are tracked from memory until it can');
    } else this.failure.reason = reason;
    this.retryLater();
  }

  private retryLater(): void {
    if (this.closed || this.retryTimer) return;
    this.retryTimer = setTimeout(() => {
      this.retryTimer = undefined;
      this.catchUp();
    }, this.retryMs);
    this.retryMs = Math.min(this.retryMs * 2, this.limits.maxRetryMs ?? 5000);
  }

  /** Writes the backlog in order, a transaction per turn, until it is empty. */
  private catchUp(): void {
    if (this.closed || !this.failure) return;
    if (!this.writeBacklog(CATCH_UP_ROWS)) return;
    if (this.backlog.length > 0) {
      setImmediate(() => this.catchUp());
      return;
    }
    this.log.warn(
      { since: new Date(this.failure.since).toISOString() },
      'the journal writes again: every input kept in memory is journaled',
    );
    this.failure = undefined;
    this.retryMs = this.limits.retryMs ?? 100;
  }

  /** One transaction of at most `rows` backlog rows (and the outputs waiting); false when it failed. */
  private writeBacklog(rows: number): boolean {
    const inputs = this.backlog.slice(0, rows);
    const derived = this.derived.slice(0, rows);
    try {
      this.journal.appendMany(inputs, derived);
    } catch (e) {
      this.failed(e);
      return false;
    }
    this.backlog.splice(0, inputs.length);
    this.derived.splice(0, derived.length);
    return true;
  }

  private checkBound(): void {
    if (this.overflowed || this.backlog.length + this.derived.length <= this.limits.max) return;
    this.overflowed = true;
    this.limits.onOverflow(this.health());
  }

  private unavailable(): JournalUnavailable {
    return new JournalUnavailable(
      `the journal cannot write (${this.failure?.reason ?? 'unknown error'}): nothing was changed`,
    );
  }

  private answerWhenSynced(answers: Answer[]): void {
    this.journal.sync().then(
      () => {
        for (const a of answers) a.resolve();
      },
      (e: unknown) => {
        this.log.error({ err: e }, 'syncing the journal failed');
        const error = new JournalUnavailable(`journaled, but not synced to disk (${describe(e)})`);
        for (const a of answers) a.reject(error);
      },
    );
  }

  /** Outputs are waiting for a commit. */
  hasDerived(): boolean {
    return this.derived.length > 0;
  }

  /** A game output worth keeping as a row (board/derived.ts), stored with the next commit. */
  keep(event: GameEvent): void {
    const record = derivedRecord(this.round, event);
    if (record) this.derived.push(record);
  }

  apply(board: LiveBoard, input: BoardInput, t: number): GameEvent[] {
    try {
      return board.game.apply(input, t);
    } catch (e) {
      // A bug in the core must not take the hall down; the input is journaled for the bug report.
      this.log.error({ board: board.setup.board, err: e, input }, 'applying an input failed');
      return [];
    }
  }

  /** An applied output: kept as a row when it is one, and told to every subscriber. */
  publish(event: GameEvent): void {
    this.keep(event);
    for (const listener of this.listeners) {
      try {
        listener(event);
      } catch (e) {
        this.log.error({ err: e }, 'a subscriber failed');
      }
    }
  }

  subscribe(listener: (event: GameEvent) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /**
   * Commits what is queued and the outputs still waiting (stop), the backlog first; returns how
   * many inputs could not be journaled (lost unless the boards' next dump brings them back).
   */
  close(): number {
    this.flush();
    clearTimeout(this.retryTimer);
    this.closed = true;
    if (this.failure) {
      if (!this.writeBacklog(this.backlog.length)) return this.backlog.length;
      this.failure = undefined;
    }
    if (this.derived.length > 0) this.write([]);
    return 0;
  }
}
