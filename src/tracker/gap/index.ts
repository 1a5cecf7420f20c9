// A tracker's gap machinery, one owner: the searches for plies lost in a gap (./lost-plies.ts over
// ./resync.ts, ./search.ts, ./bound.ts, ./proven-table.ts) and the `gap` alert waiting for the
// arbiter (./hold.ts). The tracker asks it and acts on the answers; the search under way belongs to
// the tracker's episode (SearchEpisode), which ends with the episode.
import type { Move, Position } from '../../engine/index.ts';
import type { GameLine } from '../line.ts';
import type { SensedBoard } from '../sensed.ts';
import type { Alert, TrackerOptions, TrackerOutput } from '../types.ts';
import { type GapSettled, HeldGap } from './hold.ts';
import { LostPlies, type SearchEpisode } from './lost-plies.ts';
import { type LostLinesStep, resyncBudgets } from './resync.ts';

export { Follower } from './follower.ts';
export type { GapSettled } from './hold.ts';
export { noSearch, type SearchEpisode } from './lost-plies.ts';
export type { LostLines, LostLinesStep } from './resync.ts';

export class Gaps {
  private readonly plies: LostPlies;
  /** The `gap` alert not answered yet: its first line recorded provisional, what followed kept. */
  private held: HeldGap | undefined;

  constructor(options: Pick<TrackerOptions, 'searchSteps' | 'gapBudget' | 'searchMemo'>) {
    const budgets = resyncBudgets(options.searchSteps === 'granted');
    this.plies = new LostPlies(options.gapBudget ?? budgets.dump, budgets.stuck, options.searchMemo);
  }

  // ——— the searches ———

  /** See LostPlies.begin: the search of the board as it is now, started or gone on with. */
  begin(ep: SearchEpisode, position: Position, board: SensedBoard, afterDump: boolean): boolean {
    return this.plies.begin(ep, position, board, afterDump);
  }

  step(ep: SearchEpisode, steps: number): LostLinesStep {
    return this.plies.step(ep, steps);
  }

  stale(ep: SearchEpisode, position: Position, squares: Int8Array): boolean {
    return this.plies.stale(ep, position, squares);
  }

  nodes(ep: SearchEpisode): number {
    return this.plies.nodes(ep);
  }

  /** Tracker.deferSearches. */
  defer(on: boolean): void {
    this.plies.deferring = on;
  }

  // ——— the gap alert held ———

  /** Several lines: `alert` waits for the arbiter, the first `line` recorded from `base` moves on. */
  hold(alert: Alert, base: number, line: readonly Move[], cut: number): void {
    this.held = new HeldGap(alert, base, line, cut);
  }

  /** Whether `alert` is the gap alert waiting. */
  holds(alert: Alert): boolean {
    return this.held?.alert === alert;
  }

  /** The end of an input: its outputs, the held gap's line marked provisional and kept. */
  keep(out: TrackerOutput[]): TrackerOutput[] {
    return this.held ? this.held.keep(out) : out;
  }

  /** The arbiter's line for the held gap (HeldGap.settle); the gap is no longer held. */
  settle(chosen: readonly Move[], game: GameLine, t: number): GapSettled {
    const held = this.held!;
    this.held = undefined;
    return held.settle(chosen, game, t);
  }

  /** Answered otherwise: the line stands (HeldGap.confirm); the gap is no longer held. */
  confirm(): TrackerOutput[] {
    const held = this.held;
    this.held = undefined;
    return held ? held.confirm() : [];
  }

  /** A new game: an unanswered gap stays in the ended game as recorded, provisional. */
  drop(): void {
    this.held = undefined;
  }
}
