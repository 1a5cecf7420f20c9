// Catching up with a board that keeps its history (line protocol 1.1, capability `history`): the
// host asked for every change after the last one it stored, and holds back what the link says until
// the board's answer ends; then the changes go on in the board's order, with the board's own times.
import { changeStamp } from '../../firmware-protocol/board-string.ts';
import type {
  BoardEvent,
  HistoryEndEvent,
  HistoryLogEvent,
  PieceCode,
  StampedEvent,
} from '../../firmware-protocol/events.ts';

/** A history answer not ended after this long without a line of it: the board is read afresh instead. */
export const CATCH_UP_QUIET_MS = 3000;
/**
 * Lines an answer may bring, with what the link says meanwhile: far past what a board keeps (4,096
 * changes at least), and a bound on what a board that never ends its answer can make the host hold.
 */
export const CATCH_UP_MAX = 65_536;

/** A DGT board's record is one message of up to 8 KB: about 8 s at 9600 baud. */
export const RECORD_WAIT_MS = 15_000;

/** A change as a board's record can be matched against it. */
export interface Change {
  type: 'lift' | 'put';
  square: number;
  piece?: PieceCode;
}

/** The last changes stored that are looked for in a DGT board's record. */
export const TAIL = 8;

/**
 * What to ask a board that comes back: the changes numbered after `after` (made at the board's time
 * `since`, when known), or those after `tail`.
 */
export type ResumeAsk = { after: number; since?: number } | { tail: readonly Change[] };

/**
 * What a history answer is believed to hold: hands make a change every 50 ms at the most, kept up
 * for the whole time since the change asked for (a slide, a sweep, a set-up, a reset), and a margin
 * besides. An answer with more — or with times that go back, or past the board's own clock — is
 * no history of a game: the board is read afresh instead.
 */
export const PLAUSIBLE = { slack: 1000, msPerChange: 50 } as const;

const same = (a: Change, b: Change): boolean =>
  a.type === b.type && a.square === b.square && (a.type === 'lift' || a.piece === b.piece);

/**
 * Where `tail` (the last changes stored) ends in a board's record: the number of the record's
 * changes up to and including them, the latest place they all match; undefined when they are not in
 * it (the record does not reach back to them, or something else happened on the board).
 */
export function joinRecord(record: readonly Change[], tail: readonly Change[]): number | undefined {
  if (tail.length === 0) return undefined;
  for (let end = record.length; end >= tail.length; end--) {
    let k = 0;
    while (k < tail.length && same(record[end - tail.length + k], tail[k])) k++;
    if (k === tail.length) return end;
  }
  return undefined;
}

/** Asking again after a broken answer (a line lost in it), at most this many times. */
const TRIES = 3;

export type CatchUpEnd =
  /** Caught up: pass these on. */
  | { kind: 'caught-up'; events: BoardEvent[] }
  /** The answer had a hole (a line of it lost): pass these on and ask again with `next`. */
  | { kind: 'again'; events: BoardEvent[]; next: CatchUp }
  /**
   * The board does not have them, did not answer, or answered what no game can hold (`implausible`):
   * pass these on and read the board afresh.
   */
  | { kind: 'fallback'; events: BoardEvent[]; reason: string; implausible?: true };

export class CatchUp {
  private readonly recalled = new Map<number, StampedEvent>();
  private heardAt: number;

  /** The catch-up for what the host asked the board (`ask`): from a change on, or its record. */
  static asking(ask: ResumeAsk, onConnect: boolean, now: number): CatchUp {
    return 'tail' in ask
      ? new CatchUp(0, onConnect, now, 1, [], RECORD_WAIT_MS, ask.tail)
      : new CatchUp(ask.after, onConnect, now, 1, [], CATCH_UP_QUIET_MS, undefined, ask.since);
  }

  constructor(
    /** The last change the host has: the board was asked for every one after it. */
    readonly after: number,
    /** Asked when the link opened (a fresh dump follows), not after a line lost on it. */
    readonly onConnect: boolean,
    now: number,
    private readonly tries = 1,
    /** What the link said meanwhile, in order: passed on after the recalled changes. */
    private readonly held: BoardEvent[] = [],
    /** How long the answer may keep quiet. */
    private readonly quietMs = CATCH_UP_QUIET_MS,
    /** A DGT board's record asked for: the last changes stored, to find in it. */
    readonly tail?: readonly Change[],
    /** The board's time of change `after`, when known: what the answer may plausibly hold since. */
    private readonly since?: number,
  ) {
    this.heardAt = now;
  }

  /** Whether the board has said nothing of its answer for too long. */
  stalled(now: number): boolean {
    return now - this.heardAt >= this.quietMs;
  }

  /**
   * A DGT board's record came: the changes after the `tail` asked with found in it, numbered on from `after`, then
   * what was held. A record that does not hold `tail` cannot say what came after it.
   */
  record(log: HistoryLogEvent, now: number): CatchUpEnd {
    const from = joinRecord(log.changes, this.tail ?? []);
    if (from === undefined)
      return {
        kind: 'fallback',
        events: this.held,
        reason: "the board's record does not hold the last changes stored",
      };
    // The field changes the link brought while the board was asked were made before it answered:
    // they are in its record (numbered nowhere, they could only be played twice). Its clock presses
    // are not.
    for (let i = this.held.length - 1; i >= 0; i--) {
      const type = this.held[i].type;
      if (type === 'lift' || type === 'put') this.held.splice(i, 1);
    }
    const missed = log.changes.slice(from);
    missed.forEach((e, i) => {
      this.take({ ...e, stamp: { ...e.stamp!, n: this.after + 1 + i } }, now);
    });
    const last = this.after + missed.length;
    return this.end({ t: log.t, type: 'history-end', outcome: 'done', last, ms: log.ms }, log.t, now);
  }

  /**
   * An event decoded while catching up. Recalled changes are kept by number; the board's pictures
   * and clock readings are dropped (older than the changes recalled after them: a fresh dump and the
   * next reading follow); anything else is held. False once CATCH_UP_MAX lines are kept: the answer
   * is given up.
   */
  take(event: BoardEvent, now: number): boolean {
    if (this.recalled.size + this.held.length >= CATCH_UP_MAX) return false;
    const stamp = changeStamp(event);
    if (stamp?.recalled) {
      this.heardAt = now;
      if (stamp.n > this.after) this.recalled.set(stamp.n, event as StampedEvent);
      return true;
    }
    if (event.type !== 'snapshot' && event.type !== 'clock') this.held.push(event);
    return true;
  }

  /**
   * The board's answer ended (`end`, received at board time `t`): the recalled changes in order, each
   * at `t` less how long before the answer the board saw it; then what was held that they do not
   * repeat.
   */
  end(end: HistoryEndEvent, t: number, now: number): CatchUpEnd {
    if (end.outcome === 'gone')
      return {
        kind: 'fallback',
        events: this.held,
        reason: `the board no longer has change ${this.after + 1} (it keeps ${end.first ?? '?'}–${end.last})`,
      };
    const doubt = this.implausible(end);
    if (doubt) return { kind: 'fallback', events: this.held, reason: doubt, implausible: true };
    const out: BoardEvent[] = [];
    let n = this.after;
    for (;;) {
      const e = this.recalled.get(n + 1);
      if (!e) break;
      n++;
      out.push({ ...e, t: t - Math.max(0, end.ms - e.stamp!.ms) });
    }
    if (n >= end.last) return { kind: 'caught-up', events: [...out, ...this.heldAfter(n)] };
    if (this.tries >= TRIES)
      return {
        kind: 'fallback',
        events: [...out, ...this.heldAfter(n)],
        reason: `change ${n + 1} did not come in ${TRIES} answers`,
      };
    const lastOut = out.at(-1);
    const since = lastOut ? changeStamp(lastOut)?.ms : this.since;
    const next = new CatchUp(
      n,
      this.onConnect,
      now,
      this.tries + 1,
      this.heldAfter(n),
      this.quietMs,
      this.tail,
      since,
    );
    return { kind: 'again', events: out, next };
  }

  /** Why the answer is no history of a game (see PLAUSIBLE), or undefined when it may be one. */
  private implausible(end: HistoryEndEvent): string | undefined {
    if (this.since === undefined) return undefined;
    const count = this.recalled.size;
    const allowed = PLAUSIBLE.slack + Math.max(0, end.ms - this.since) / PLAUSIBLE.msPerChange;
    if (count > allowed)
      return `implausible: ${count} changes in ${Math.round((end.ms - this.since) / 1000)} s of the board's time`;
    let last = this.since;
    for (const n of [...this.recalled.keys()].sort((a, b) => a - b)) {
      const ms = this.recalled.get(n)!.stamp!.ms;
      if (ms < last || ms > end.ms)
        return `implausible: change ${n} timed ${ms} ms, out of the board's order`;
      last = ms;
    }
    return undefined;
  }

  /** Nothing more comes (the board went quiet, or greeted again after a restart): what was held. */
  abandon(): BoardEvent[] {
    return this.held;
  }

  /** Held events but the changes numbered up to `n` (sent live before the board answered: repeats). */
  private heldAfter(n: number): BoardEvent[] {
    return this.held.filter((e) => (changeStamp(e)?.n ?? n + 1) > n);
  }
}
