// A tracker's gap machinery, one owner: the searches for plies lost in a gap (./lost-plies.ts over
// ./lost-lines.ts, ./search.ts, ./bound.ts, ./proven-table.ts), the play followed while a gap is open
// (./follower.ts: from a dump's board while it is searched, from the board an unknown-position
// shows until the score sheet comes), and the `gap` alert waiting for the arbiter (./hold.ts). The
// tracker asks it and acts on the answers; the search under way belongs to the tracker's episode
// (SearchEpisode), which ends with the episode.
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import { SIDES } from '../../../firmware-protocol/side.ts';
import type { Move, Position } from '../../engine/index.ts';
import type { GameLine } from '../line.ts';
import type { SensedBoard } from '../sensed.ts';
import type { Alert, Tracker, TrackerOptions, TrackerOutput } from '../types.ts';
import { type FollowedMove, Follower } from './follower.ts';
import { type GapSettled, HeldGap } from './hold.ts';
import { LostPlies, type SearchEpisode, type SearchStep } from './lost-plies.ts';
import { resyncBudgets } from './lost-lines.ts';
import type { GapLine } from './search.ts';

export type { FollowedMove } from './follower.ts';
export type { GapSettled } from './hold.ts';
export type { SearchEpisode, SearchStep } from './lost-plies.ts';
export type { LostLines } from './lost-lines.ts';

/** What a follower's tracker starts from besides its position: the board as sensed then. */
export type Shown = Pick<SensedBoard, 'squares' | 'rotated' | 'occupancyOnly'>;

/** Makes a tracker that follows play from `start`, its sensed board `shown`. */
export type FollowingTracker = (start: Position, shown: Shown) => Tracker;

const shownOf = (board: SensedBoard): Shown => ({
  squares: Int8Array.from(board.squares),
  rotated: board.rotated,
  occupancyOnly: board.occupancyOnly,
});

/**
 * The lines a search found for a board the players played on from: the ones whose end the play kept
 * since reads furthest from go first (a line of the wrong length leaves the wrong side to move, and
 * the moves since say so), with the moves read. Each end is read once.
 */
export function readSince(
  lines: readonly GapLine[],
  since: Follower,
  t: number,
): { lines: GapLine[]; followed: readonly FollowedMove[] } {
  const read = new Map<number, readonly FollowedMove[]>();
  const of = (l: GapLine) => {
    let moves = read.get(l.end.hash);
    if (!moves) read.set(l.end.hash, (moves = since.movesFrom(l.end, t)));
    return moves;
  };
  const most = Math.max(...lines.map((l) => of(l).length));
  const ordered = [
    ...lines.filter((l) => of(l).length === most),
    ...lines.filter((l) => of(l).length < most),
  ];
  return { lines: ordered, followed: of(ordered[0]) };
}

export class Gaps {
  private readonly plies: LostPlies;
  /** The `gap` alert not answered yet: its first line recorded provisional, what followed kept. */
  private held: HeldGap | undefined;
  /** Play followed from the board an unknown-position after lost events shows, until it is answered. */
  private watch: { alert: Alert; follower: Follower; fresh: boolean } | undefined;

  constructor(
    options: Pick<TrackerOptions, 'searchSteps' | 'gapBudget' | 'searchMemo'>,
    private readonly create: FollowingTracker,
  ) {
    const budgets = resyncBudgets(options.searchSteps === 'granted');
    this.plies = new LostPlies(
      options.gapBudget ?? budgets.dump,
      budgets.stuck,
      options.searchMemo,
      (board) => {
        const shown = shownOf(board);
        return new Follower([], (start) => create(start, shown));
      },
    );
  }

  // ——— the searches ———

  /** See LostPlies.begin: the search of the board as it is now, started or gone on with. */
  begin(ep: SearchEpisode, position: Position, board: SensedBoard, afterDump: boolean): boolean {
    return this.plies.begin(ep, position, board, afterDump);
  }

  step(ep: SearchEpisode, steps: number): SearchStep {
    return this.plies.step(ep, steps);
  }

  /**
   * Whether the search under way takes a step now: one of a board as it stands (not `changing`, not
   * changed since), or a dump's, which stays on the dump's board.
   */
  searchable(ep: SearchEpisode, position: Position, squares: Int8Array, changing: boolean): boolean {
    if (!ep.search) return false;
    if (this.plies.anchored(ep)) return true;
    return !changing && !this.plies.stale(ep, position, squares);
  }

  nodes(ep: SearchEpisode): number {
    return this.plies.nodes(ep);
  }

  /** Tracker.deferSearches. */
  defer(on: boolean): void {
    this.plies.deferring = on;
  }

  // ——— play followed ———

  /**
   * An unknown-position after lost events waits: play is followed from the board it shows, for
   * either side to move; a board of unknown colours keeps its events for the score sheet's end.
   * `applied`: the input being pushed is on the board already.
   */
  watchFrom(alert: Alert, position: Position, board: SensedBoard, applied: boolean): void {
    const starts = board.occupancyOnly
      ? []
      : SIDES.flatMap((side) => {
          const start = board.physicalPosition(position, side);
          return start ? [start] : [];
        });
    const shown = shownOf(board);
    const follower = new Follower(starts, (start) => this.create(start, shown));
    this.watch = { alert, follower, fresh: applied };
  }

  /** Moves followed since `alert`'s board (while it is the alert waiting), undefined when kept for later. */
  following(waiting: Alert | undefined): number | undefined {
    return this.watch && this.watch.alert === waiting ? this.watch.follower.plies : undefined;
  }

  /**
   * The moves played since `alert`'s board when `start` is the position there (the score sheet's
   * end, FollowedMove): the watch ends.
   */
  watched(alert: Alert, start: Position, t: number): readonly FollowedMove[] {
    const watch = this.watch;
    this.watch = undefined;
    return watch?.alert === alert ? watch.follower.movesFrom(start, t) : [];
  }

  /**
   * An input's event, after the tracker took it (the game `position`, the `board` sensed): to the
   * play kept for the search under way (LostPlies.keepEvent), and to
   * the watch while its alert is the one `waiting` (a new connection ends the watch: its dump is a
   * gap of its own).
   */
  feed(
    ep: SearchEpisode,
    event: BoardEvent,
    position: Position,
    board: SensedBoard,
    waiting: Alert | undefined,
  ): void {
    this.plies.keepEvent(ep, event, position, board);
    const w = this.watch;
    if (!w) return;
    if (w.alert !== waiting || event.type === 'hello') this.watch = undefined;
    else if (w.fresh) w.fresh = false;
    else w.follower.push(event);
  }

  flush(t: number): void {
    this.watch?.follower.flush(t);
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
