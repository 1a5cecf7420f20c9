// A `gap` alert waiting for the arbiter: its first line is recorded at once, provisional, and play
// goes on from it live; what the record got from there (that line, the moves since) is kept, so the
// answer can confirm it, or replace the line and play the moves since again (docs/irregularities.md,
// "Gaps").
import { type Move, moveNotation, type Position, play, writeFen } from '../../engine/index.ts';
import type { GameLine } from '../line.ts';
import type { Alert, TrackerOutput } from '../types.ts';

/** The record's outputs a held gap keeps a copy of (alerts, clocks and gestures are not the line's). */
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
   * outputs keeping starts.
   */
  constructor(
    readonly alert: Alert,
    private readonly base: number,
    private readonly line: readonly Move[],
    private cut: number,
  ) {}

  /**
   * The end of an input: everything goes out; the outputs for the record (from `cut` on) are kept,
   * the first line's moves among them marked provisional.
   */
  keep(out: readonly TrackerOutput[]): TrackerOutput[] {
    const from = this.cut;
    this.cut = 0;
    const sent = out.slice(0, from);
    for (const o of out.slice(from)) {
      if (!HELD.has(o.type)) {
        sent.push(o);
        continue;
      }
      const provisional = o.type === 'move' && this.held.length < this.line.length;
      const kept: TrackerOutput = provisional ? { ...o, provisional: true } : o;
      this.held.push(kept);
      sent.push(kept);
    }
    return sent;
  }

  /**
   * Answered otherwise (the line stands): the record's outputs since the gap again, the line's moves
   * no longer provisional.
   */
  confirm(): TrackerOutput[] {
    return this.held.map((o) => {
      if (o.type !== 'move' || !o.provisional) return o;
      const { provisional: _, ...stands } = o;
      return stands;
    });
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
    // A position was set since the gap: the record keeps what was tracked.
    if (!start || !end) return { kind: 'stands', outputs: this.confirm() };
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
    // The chosen line in place of the provisional one (its first move replaces the gap's ply and all
    // after it in the record), then what was played since, as it was recorded.
    return { kind: 'stands', outputs: [...recorded, ...since] };
  }
}
