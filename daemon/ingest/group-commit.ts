// Journal first, then apply, then tell the subscribers — in groups: the inputs of one turn of the
// event loop (often many boards' events) are journaled in one transaction, one WAL write instead
// of one per event, and only then applied and published, in order. Nothing is applied that is not
// on disk.
import type { GameEvent } from '../../src/game/types.ts';
import { derivedRecord } from '../board/derived.ts';
import type { LiveBoard } from '../board/live-board.ts';
import type { AppendRequest, DerivedRecord, Journal, JournalInput } from '../journal/index.ts';
import type { Logger } from '../log.ts';

interface Queued {
  board: LiveBoard;
  input: JournalInput;
  t: number;
  serial?: string;
  raw?: Uint8Array;
}

export class GroupCommit {
  private queue: Queued[] = [];
  private flushScheduled = false;
  private settledWaiters: (() => void)[] = [];
  /** Outputs to store as rows with the next commit. */
  private derived: DerivedRecord[] = [];
  private readonly listeners = new Set<(event: GameEvent) => void>();

  constructor(
    private readonly journal: Journal,
    private readonly round: number,
    private readonly log: Logger,
  ) {}

  /** Queues an input of `board` for the commit at the end of this turn. */
  input(board: LiveBoard, input: JournalInput, t: number, serial?: string, raw?: Uint8Array): void {
    board.time.saw(t);
    this.queue.push({ board, input, t, serial, raw });
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
    if (batch.length > 0) {
      const { round } = this;
      if (
        this.commit(
          batch.map((q) => ({
            round,
            board: q.board.setup.board,
            t: q.t,
            input: q.input,
            serial: q.serial,
            raw: q.raw,
          })),
        )
      ) {
        for (const q of batch) for (const event of this.apply(q.board, q.input, q.t)) this.publish(event);
      }
      // Not durable, so not applied: the boards' next dump brings their positions back.
    }
    const waiting = this.settledWaiters;
    this.settledWaiters = [];
    for (const resolve of waiting) resolve();
  }

  /**
   * One transaction: the inputs, and the outputs derived since the last one (they ride along
   * instead of costing a commit of their own; a restart stores any a crash kept out).
   */
  commit(inputs: AppendRequest[]): boolean {
    const derived = this.derived;
    this.derived = [];
    try {
      this.journal.appendMany(inputs, derived);
      return true;
    } catch (e) {
      this.log.error({ err: e, inputs: inputs.length }, 'journal write failed');
      this.derived = derived.concat(this.derived);
      return false;
    }
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

  /** Resolves once every input queued so far is journaled and applied. */
  settled(): Promise<void> {
    if (this.queue.length === 0) return Promise.resolve();
    return new Promise((resolve) => this.settledWaiters.push(resolve));
  }

  apply(board: LiveBoard, input: JournalInput, t: number): GameEvent[] {
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

  /** Commits what is queued and the outputs still waiting (stop). */
  close(): void {
    this.flush();
    if (this.derived.length > 0) this.commit([]);
  }
}
