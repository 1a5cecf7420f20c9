// A small scripted pair of hands for tracker tests: builds sensor-event streams move by move, with
// the timings and orders of docs/irregularities.md, and runs them through a tracker.
import type { BoardEvent, PieceCode, Side } from '../../firmware-protocol/events.ts';
import {
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  parseFen,
  play,
  Position,
  resolveMove,
  type Variant,
} from '../../src/engine/index.ts';
import { createTracker } from '../../src/tracker/index.ts';
import type { Alert, Tracker, TrackerOptions, TrackerOutput } from '../../src/tracker/types.ts';
import { verdictOf } from './truth.ts';

export function fen(text: string, variant: Variant = 'international'): Position {
  const r = parseFen(text, { variant });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** The legal sequence of `text` whose capture order is `order` (or the canonical one). */
export function sequence(pos: Position, text: string, order?: readonly number[]): Move {
  const r = resolveMove(pos, text);
  if (!r.ok) throw new Error(r.error.message);
  if (!order) return r.value;
  const found = legalSequences(pos).find(
    (m) => moveKey(m) === moveKey(r.value) && m.captured.every((s, i) => s === order[i]),
  );
  if (!found) throw new Error(`no sequence of ${text} captures in order ${order.join(',')}`);
  return found;
}

export class Script {
  t = 1000;
  readonly events: BoardEvent[] = [];
  /** What stands on each square (index = square). */
  private readonly cells: (PieceCode | undefined)[];

  constructor(
    start: Position,
    private readonly occupancyOnly = false,
  ) {
    this.cells = [
      undefined,
      ...[...start.toBoardString()].map((c) => (c === '.' ? undefined : (c as PieceCode))),
    ];
  }

  wait(ms: number): this {
    this.t += ms;
    return this;
  }

  lift(square: number): PieceCode {
    const p = this.cells[square];
    if (!p) throw new Error(`test bug: lift from empty ${square}`);
    this.cells[square] = undefined;
    this.events.push({ t: this.t, type: 'lift', square });
    return p;
  }

  put(square: number, piece: PieceCode): this {
    this.cells[square] = piece;
    this.events.push(
      this.occupancyOnly ? { t: this.t, type: 'put', square } : { t: this.t, type: 'put', square, piece },
    );
    return this;
  }

  press(side: Side): this {
    this.events.push({ t: this.t, type: 'press', side });
    return this;
  }

  /** The board (re)connects and says who it is: the next snapshot is its full dump. */
  hello(serial = 'B1'): this {
    this.events.push({
      t: this.t,
      type: 'hello',
      serial,
      protocol: 'damlink-line/1.0',
      squares: 50,
      senses: 'pieces',
    });
    return this;
  }

  tick(): this {
    this.events.push({ t: this.t, type: 'tick' });
    return this;
  }

  snapshot(board: string): this {
    this.events.push({ t: this.t, type: 'snapshot', board });
    this.cells.splice(1, board.length, ...[...board].map((c) => (c === '.' ? undefined : (c as PieceCode))));
    return this;
  }

  /** What stands on the board now, as a board string (`w b W B .`). */
  boardString(): string {
    return this.cells
      .slice(1)
      .map((p) => p ?? '.')
      .join('');
  }

  /**
   * The players put the board back to `target`: wrong pieces off first, then the missing ones on,
   * `ms` apart (quicker than the settle time, so no board on the way is read).
   */
  restore(target: Position, ms = 100): this {
    const want = [...target.toBoardString()];
    want.forEach((c, i) => {
      const have = this.cells[i + 1];
      if (have && have !== c) this.wait(ms).lift(i + 1);
    });
    want.forEach((c, i) => {
      if (c !== '.' && !this.cells[i + 1]) this.wait(ms).put(i + 1, c as PieceCode);
    });
    return this;
  }

  /** Lift and put back (held `ms`). */
  touch(square: number, ms = 400): this {
    const p = this.lift(square);
    this.wait(ms);
    return this.put(square, p);
  }

  /** Moves a piece from one square to another, nothing else. */
  carry(from: number, to: number, ms = 350): this {
    const p = this.lift(from);
    this.wait(ms);
    return this.put(to, p);
  }

  remove(square: number): this {
    this.lift(square);
    return this;
  }

  /**
   * Plays `move` by hand: lift, 4.9 touches on each landing square, the put (crowned if it promotes),
   * then removals in `order` (default capture order) `gap` ms apart, then the clock press.
   */
  play(
    move: Move,
    side: Side,
    opts: { order?: readonly number[]; gap?: number; touchLandings?: boolean; press?: boolean } = {},
  ): this {
    const p = this.lift(move.from);
    for (const landing of move.path.slice(1, -1)) {
      this.wait(150);
      if (opts.touchLandings ?? true) {
        this.put(landing, p);
        this.wait(150);
        this.lift(landing);
      }
    }
    this.wait(300);
    const crowned: PieceCode = move.promotes ? (p === 'w' ? 'W' : 'B') : p;
    this.put(move.to, crowned);
    (opts.order ?? move.captured).forEach((s, i) => {
      this.wait(i === 0 ? 400 : (opts.gap ?? 300));
      this.remove(s);
    });
    if (opts.press ?? true) this.wait(400).press(side);
    return this.wait(2000).tick();
  }
}

export interface Run {
  tracker: Tracker;
  outputs: TrackerOutput[];
  /** The game as recorded: moves after takebacks, corrections and replaced plies. */
  moves: string[];
  alerts: Alert[];
}

/** Feeds every event, then flushes. */
export function run(
  events: readonly BoardEvent[],
  options: Partial<TrackerOptions> & { start?: Position } = {},
): Run {
  const tracker = createTracker({ variant: options.start?.variant ?? 'international', ...options });
  const outputs: TrackerOutput[] = [];
  for (const e of events) outputs.push(...tracker.push(e));
  const last = events.length > 0 ? events[events.length - 1].t : 0;
  outputs.push(...tracker.flush(last + 1));
  return summarise(tracker, outputs);
}

export function summarise(tracker: Tracker, outputs: TrackerOutput[]): Run {
  return {
    tracker,
    outputs,
    moves: verdictOf(outputs).moves,
    alerts: outputs.flatMap((o) => (o.type === 'alert' ? [o.alert] : [])),
  };
}

/** The position after the canonical legal move `text` in `pos`. */
export function playText(pos: Position, text: string): Position {
  return play(pos, sequence(pos, text));
}

export { legalMoves, Position };
