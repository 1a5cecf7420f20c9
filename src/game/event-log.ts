// A board's GameEvents as the record emits them: numbered one by one (a snapshot's version is the
// number of its last event), the recent ones kept for `since`, and the latest time among them (a
// board's recalled moves come with earlier times than what was already seen).
import type { GameEvent, GameSnapshot } from './types.ts';

/** Distributes over the union so each event kind keeps its own fields. */
export type EventBody = GameEvent extends infer E
  ? E extends GameEvent
    ? Omit<E, 'board' | 'version' | 't'>
    : never
  : never;

/** Emits an event of the record at `t`. */
export type Emit = (t: number, body: EventBody) => void;

export class EventLog {
  /** The number of the last event: the snapshot's version. */
  version = 0;
  /** The latest time among the events so far. */
  latest = 0;
  private recent: GameEvent[] = [];

  constructor(
    private readonly board: number,
    /** How many recent events are kept for `since`. */
    private readonly keep: number,
  ) {}

  /** The next event, numbered and stamped, into `out`. */
  emit(out: GameEvent[], t: number, body: EventBody): void {
    this.version++;
    // Every caller passes a fresh literal: stamped in place rather than spread (one allocation less
    // per event, and the same key order as the spread gave).
    const event = body as Record<string, unknown>;
    event.board = this.board;
    event.version = this.version;
    event.t = t;
    this.push(out, event as unknown as GameEvent);
  }

  /** A new game's event: its snapshot, made once the version is taken, carries that version. */
  emitNewGame(out: GameEvent[], t: number, snapshot: () => GameSnapshot): void {
    this.version++;
    this.push(out, { board: this.board, version: this.version, t, kind: 'new-game', snapshot: snapshot() });
  }

  /** Events after `version`, or undefined when they are no longer kept (send a snapshot instead). */
  since(version: number): GameEvent[] | undefined {
    if (version === this.version) return [];
    if (version > this.version || version < 0) return undefined;
    const first = this.recent[0]?.version ?? this.version + 1;
    if (version + 1 < first) return undefined;
    return this.recent.slice(version + 1 - first);
  }

  private push(out: GameEvent[], event: GameEvent): void {
    if (event.t > this.latest) this.latest = event.t;
    out.push(event);
    this.recent.push(event);
    if (this.recent.length > this.keep) this.recent.splice(0, this.recent.length - this.keep);
  }
}
