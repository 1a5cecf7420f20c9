// While an unknown-position raised after lost events waits for the arbiter, the players play on,
// from the board the alert shows. A follower tracks them from there: one tracker for each side
// that may be to move, until a clean move tells which. The score sheet's answer then records the
// gap's moves and, after them, the moves followed since: seen, so never searched for however long
// the arbiter took. A candidate stops at its first alert (an irregularity, a board it cannot
// read) or at the game's end: what is played after that is read from where it stopped, like any
// gap. A board whose colours are unknown cannot be followed from what it shows: its events are
// kept instead, and read from the score sheet's end once it gives the position.
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import type { Move, Position } from '../../engine/index.ts';
import type { Tracker, TrackerOutput } from '../types.ts';

/** A move a follower saw played. */
export interface FollowedMove {
  move: Move;
  /** Found by the follower's own search after a dump (an HID board's two-square report). */
  recovered?: true;
}

const STOPS: ReadonlySet<TrackerOutput['type']> = new Set([
  'alert',
  'correction',
  'new-game',
  'position-set',
  'result-gesture',
]);

interface Candidate {
  readonly start: Position;
  readonly tracker: Tracker;
  moves: FollowedMove[];
  stopped: boolean;
}

/** Events kept for a board of unknown colours: a long game's many times over. */
export const KEPT_EVENTS_MAX = 20_000;

export class Follower {
  private candidates: Candidate[];
  /** The events since the board shown, when it cannot be followed live (undefined: past the bound). */
  private kept: BoardEvent[] | undefined;
  private readonly live: boolean;

  /**
   * `starts`: the board shown, with each side that may be to move (none: keep the events for
   * `movesFrom`); `create` makes a tracker from a position.
   */
  constructor(
    starts: readonly Position[],
    private readonly create: (start: Position) => Tracker,
  ) {
    this.live = starts.length > 0;
    this.candidates = starts.map((start) => this.candidate(start));
    this.kept = this.live ? undefined : [];
  }

  push(event: BoardEvent): void {
    if (!this.live) {
      // A tick only lets time run: the replay's events carry their times, and it ends with one.
      if (event.type === 'tick') return;
      if (this.kept && this.kept.length < KEPT_EVENTS_MAX) this.kept.push(event);
      else this.kept = undefined;
      return;
    }
    for (const c of this.candidates) if (!c.stopped) this.take(c, c.tracker.push(event));
    this.choose();
  }

  flush(t: number): void {
    if (!this.live) return;
    for (const c of this.candidates) if (!c.stopped) this.take(c, c.tracker.flush(t));
    this.choose();
  }

  /**
   * Moves played since the board shown, when `start` is the position there (the score sheet's
   * end): followed live when `start` has the side seen to move, or read now from the kept events
   * up to time `t`. None otherwise.
   */
  movesFrom(start: Position, t: number): readonly FollowedMove[] {
    if (!this.live) {
      if (!this.kept) return [];
      const c = this.candidate(start);
      for (const e of this.kept) if (!c.stopped) this.take(c, c.tracker.push(e));
      if (!c.stopped) this.take(c, c.tracker.push({ t, type: 'tick' }));
      return c.moves;
    }
    return this.candidates.find((c) => c.start.equals(start))?.moves ?? [];
  }

  /** Kept events past the bound: nothing can be read from them any more. */
  get overflowed(): boolean {
    return !this.live && this.kept === undefined;
  }

  /** Events have come since the board shown (ticks aside). */
  get seen(): boolean {
    return this.live || (this.kept !== undefined && this.kept.length > 0);
  }

  /** How many moves have been followed so far (on the side found to be to move); undefined when kept for later. */
  get plies(): number | undefined {
    if (!this.live) return undefined;
    return this.candidates.length === 1 ? this.candidates[0].moves.length : 0;
  }

  private candidate(start: Position): Candidate {
    return { start, tracker: this.create(start), moves: [], stopped: false };
  }

  private take(c: Candidate, outputs: readonly TrackerOutput[]): void {
    for (const o of outputs) {
      if (c.stopped) return;
      // What it followed stands; past an alert, or past the game's end, it reads on no more.
      if (STOPS.has(o.type) || (o.type === 'move' && o.irregular)) {
        c.stopped = true;
      } else if (o.type === 'move') {
        c.moves.push(o.recovered ? { move: o.move, recovered: true } : { move: o.move });
      } else if (o.type === 'takeback') {
        c.moves = c.moves.slice(0, o.ply);
      }
    }
  }

  /** The first side seen making a clean move is the one that was to move: the others go. */
  private choose(): void {
    if (this.candidates.length < 2) return;
    const moved = this.candidates.filter((c) => c.moves.length > 0);
    if (moved.length === 1) this.candidates = moved;
    else if (this.candidates.every((c) => c.stopped)) this.candidates = [];
  }
}
