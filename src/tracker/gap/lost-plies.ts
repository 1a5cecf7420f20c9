// One tracker's lost-plies searches (./lost-lines.ts): which budget a board gets (a dump's, shared by
// its episode, or the stuck board's small one), the board last found hopeless against the game
// position (never searched again: a stuck board costs nothing until it changes), and the memo of the
// costly searches (SearchMemo), so that a replay takes their steps without the work. A dump's
// search stays on the dump's board while the players play on, their play kept (./follower.ts) to be
// read from the line found: a long gap comes to an end whatever is played meanwhile.
import { type Position, writeFen } from '../../engine/index.ts';
import { completesMove, sensedText } from '../sensed-codes.ts';
import type { BoardEvent } from '../../../firmware-protocol/events.ts';
import type { Follower } from './follower.ts';
import { type LostLines, LostLinesSearch, type ResyncBudget } from './lost-lines.ts';
import type { SensedBoard } from '../sensed.ts';
import type { SearchMemo } from '../types.ts';

/**
 * Part of every SearchMemo key: a search that takes other steps, or finds other lines, gets another
 * number.
 */
const SEARCH_MEMO_VERSION = 2;

/** A lost-plies search of the board `key` names (budget, game position, squares). */
interface PendingSearch {
  key: string;
  /** The position and squares searched (what `key` names), compared without a key on every tick. */
  hash: Position['hash'];
  squares: Int8Array;
  /**
   * A dump's search, the costly kind: its SearchMemo key (everything its outcome and steps depend
   * on). The stuck board's small searches are not kept.
   */
  memoKey: string | undefined;
  budget: ResyncBudget;
  run: LostLinesSearch;
  /**
   * A dump's search: the events since its board, kept for the line it finds (undefined once a new
   * connection's dump comes, or past the follower's bound: then a changed board is searched afresh).
   */
  since: Follower | undefined;
  /** A clock press came since it began: the board was at rest there (see keepEvent). */
  pressed: boolean;
}

/**
 * A step's answer: still searching, no line within the budget, or the lines — with the play kept
 * since the board searched, when it changed since.
 */
export type SearchStep =
  | { kind: 'searching' }
  | { kind: 'none' }
  | { kind: 'found'; lost: LostLines; since: Follower | undefined };

/** What an episode (from one decision to the next) keeps of its searches; a new episode starts empty. */
export interface SearchEpisode {
  /** The search under way, a step for each step an input grants. */
  search: PendingSearch | undefined;
  /**
   * Nodes this episode's searches after the dump spent, those given up for a board that changed
   * included: the dump's budget is the episode's, so a board played on while it is searched still
   * comes to an answer (unknown-position at worst) instead of searching afresh at every move.
   */
  searched: number;
}

function sameSquares(a: Int8Array, b: Int8Array): boolean {
  if (a.length !== b.length) return false;
  for (let i = 0; i < a.length; i++) if (a[i] !== b[i]) return false;
  return true;
}

const keyOf = (budget: ResyncBudget, position: Position, squares: Int8Array): string =>
  `${budget.step}:${position.hash}:${squares.join('')}`;

export class LostPlies {
  /** The last board and position a search found nothing for. */
  private failed: string | undefined;
  /** A replay: dump searches the memo does not know count their steps without the work (Tracker.deferSearches). */
  deferring = false;

  constructor(
    private readonly dump: ResyncBudget,
    private readonly stuck: ResyncBudget,
    private readonly memo: SearchMemo | undefined,
    /** Keeps the play since `board` (a follower in its kept mode). */
    private readonly keep: (board: SensedBoard) => Follower,
  ) {}

  /**
   * The search of the board as it is now from `position`: started, or the one under way gone on
   * with. `afterDump`: the episode began with a dump, whose budget it has until it is spent; then
   * a board that changes gets the stuck board's. False when this board failed against this
   * position before: the same search fails the same way.
   */
  begin(ep: SearchEpisode, position: Position, board: SensedBoard, afterDump: boolean): boolean {
    if (ep.search?.since) return true;
    const dump = afterDump && ep.searched < this.dump.total;
    const budget = dump ? this.dump : this.stuck;
    const key = keyOf(budget, position, board.squares);
    if (key === this.failed) return false;
    // A dump's board stays the one searched (above); a board that changed under another search
    // restarts it from the board, with what is left of the dump's budget; one back to the search's
    // board goes on.
    if (ep.search?.key === key) return true;
    this.end(ep);
    const left = dump ? budget.total - ep.searched : budget.total;
    const memoKey =
      dump && this.memo
        ? `${SEARCH_MEMO_VERSION}:${position.variant}:${budget.step}:${left}:${writeFen(position)}:${sensedText(board.squares)}`
        : undefined;
    const known = memoKey === undefined ? undefined : this.memo?.known(memoKey);
    const run = new LostLinesSearch(position, board, { step: budget.step, total: left }, known);
    const squares = Int8Array.from(board.squares);
    const since = dump ? this.keep(board) : undefined;
    ep.search = { key, hash: position.hash, squares, memoKey, budget, run, since, pressed: false };
    return true;
  }

  /** The search stays on its board whatever the board shows since: the dump's, its play kept. */
  anchored(ep: SearchEpisode): boolean {
    return ep.search?.since !== undefined;
  }

  /**
   * An input's event, after the tracker took it: kept for the search's line. A `hello` (a new
   * connection: its dump is a gap of its own) or the keeper's bound ends the keeping. A dump (or
   * the board settled after it) may catch a move under way, which no long line reaches: at the
   * first clock press (a player presses once the move is made), a board whose change since
   * completes a move (sensed-codes.ts, completesMove) becomes the one searched.
   */
  keepEvent(ep: SearchEpisode, event: BoardEvent, position: Position, board: SensedBoard): void {
    const search = ep.search;
    if (!search?.since) return;
    if (event.type === 'press' && !search.pressed) {
      search.pressed = true;
      if (completesMove(search.squares, board.squares)) {
        this.end(ep);
        if (this.begin(ep, position, board, true)) ep.search!.pressed = true;
        return;
      }
    }
    if (event.type === 'hello') search.since = undefined;
    else {
      search.since.push(event);
      if (search.since.overflowed) search.since = undefined;
    }
  }

  /** The search under way (not an anchored one) is of another board or position than these: given up (true). */
  stale(ep: SearchEpisode, position: Position, squares: Int8Array): boolean {
    const search = ep.search;
    if (!search || (search.hash === position.hash && sameSquares(search.squares, squares))) return false;
    this.end(ep);
    return true;
  }

  /** `steps` steps of the search under way. Once it answers it is over: none is remembered, a costly one noted. */
  step(ep: SearchEpisode, steps: number): SearchStep {
    const search = ep.search!;
    // The stuck board's small searches are not kept: they are worked on a replay too.
    const step = search.run.step(steps, !(this.deferring && search.memoKey !== undefined));
    if (step.kind === 'searching') return step;
    this.end(ep);
    // A search that ended in its first step costs no more than that to run again.
    const record = search.run.record;
    if (search.memoKey !== undefined && !search.run.replayed && record && record.steps > 1)
      this.memo?.note(search.memoKey, record);
    if (step.kind === 'none') {
      this.failed = search.key;
      return step;
    }
    return { ...step, since: search.since?.seen ? search.since : undefined };
  }

  /** Nodes spent: the search under way's, with the episode's dump searches before it. */
  nodes(ep: SearchEpisode): number {
    const search = ep.search;
    if (!search) return 0;
    return (search.budget === this.dump ? ep.searched : 0) + search.run.nodes;
  }

  /**
   * The search under way is over (or given up): what it cost counts against the dump's budget —
   * the steps granted, for one given up, so that a replay that did not work them counts the same.
   */
  private end(ep: SearchEpisode): void {
    const search = ep.search;
    if (search?.budget === this.dump) ep.searched += search.run.charged;
    ep.search = undefined;
  }
}
