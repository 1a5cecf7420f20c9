// A `gap` alert waiting for the arbiter: play goes on from its first line, and what the record would
// get from there (that line, the moves since) is held back until the answer says which line was
// played (docs/irregularities.md, "Gaps").
import { type Move, moveNotation, type Position, play, writeFen } from '../engine/index.ts';
import type { GameLine } from './line.ts';
import type { Alert, TrackerOutput } from './types.ts';

/** The record's outputs a held gap keeps back (alerts, clocks and gestures go out at once). */
const HELD: ReadonlySet<TrackerOutput['type']> = new Set(['move', 'takeback', 'correction', 'position-set']);

/**
 * What the arbiter's line makes of a held gap: the outputs for the record as they stand, or the game
 * cut back to the gap, where the chosen line is to be recorded and the moves `played` since played
 * again, as far as they are legal.
 */
export type GapSettled = { kind: 'stands'; outputs: TrackerOutput[] } | { kind: 'replay'; played: Move[] };

export class HeldGap {
  private readonly held: TrackerOutput[] = [];

  /**
   * `line`: the first line, tracked from `base` moves on; `cut`: where in the current input's
   * outputs holding starts.
   */
  constructor(
    readonly alert: Alert,
    private readonly base: number,
    private readonly line: readonly Move[],
    private cut: number,
  ) {}

  /** The end of an input: its outputs for the record are held (from `cut` on); the others go out. */
  keep(out: readonly TrackerOutput[]): TrackerOutput[] {
    const from = this.cut;
    this.cut = 0;
    const kept = out.slice(0, from);
    for (const o of out.slice(from)) (HELD.has(o.type) ? this.held : kept).push(o);
    return kept;
  }

  /** Answered otherwise, or the game ends: the tracked line stands, with what was held. */
  release(): TrackerOutput[] {
    return this.held;
  }

  /**
   * The arbiter's line for the gap. The same line as tracked, or one ending on the same position:
   * the game line takes it in place, and what was played since stands as held. Another: the game
   * goes back to the gap.
   */
  settle(chosen: readonly Move[], game: GameLine, t: number): GapSettled {
    const tracked = this.line;
    const since = this.held.slice(tracked.length);
    const start = game.positionAt(this.base);
    const end = game.positionAt(this.base + tracked.length);
    // A position was set since the gap: the record takes what was tracked.
    if (!start || !end) return { kind: 'stands', outputs: this.held };
    const positions: Position[] = [];
    for (const m of chosen) positions.push(play(positions.at(-1) ?? start, m));
    if (!positions.at(-1)!.equals(end)) {
      game.cut(this.base, start);
      const played = since.flatMap((o) => (o.type === 'move' ? [o.move] : []));
      return { kind: 'replay', played };
    }
    game.replace(this.base, tracked.length, chosen, positions);
    const recorded: TrackerOutput[] = chosen.map((move, i) => ({
      type: 'move',
      t,
      ply: this.base + i + 1,
      move,
      pdn: moveNotation(positions[i - 1] ?? start, move),
      fenAfter: writeFen(positions[i]),
      recovered: true,
    }));
    return { kind: 'stands', outputs: [...recorded, ...since] };
  }
}
