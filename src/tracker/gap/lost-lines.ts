// The lost plies after a dump (a reconnect, a restart, an HID board): the lines of legal play from
// the game position to the board, found by the gap search (./search.ts), and of those the ones
// the hands seen before the gap agree with best.
import { legalMoves, type Move, moveKey, type Position, play } from '../../engine/index.ts';
import { GAP_NODES, type GapLine, type GapSearch, GapSearchRun } from './search.ts';
import type { SensedBoard } from '../sensed.ts';
import { sensedText } from '../sensed-codes.ts';
import type { KnownSearch, TrackerOptions } from '../types.ts';

/** A search's node budgets: per step (one input of the tracker), and in all. */
export type ResyncBudget = NonNullable<TrackerOptions['gapBudget']>;

/**
 * After a dump: steps of RESYNC_NODES nodes (a few milliseconds each, `npm run bench -- gap`), up
 * to 2,000,000 nodes in all: gaps of 8 plies need up to 32,000 nodes, of 12 plies up to 1,310,000
 * (docs/performance-history.md). The daemon grants a board its steps from a share of the CPU it divides
 * among the boards searching (daemon/ingest/searches.ts).
 */
export const RESYNC_NODES = 500;
export const RESYNC_BUDGET: ResyncBudget = { step: RESYNC_NODES, total: 2_000_000 };
/**
 * The search while stuck on unknown-position outside a dump's episode: it is tried at every settle
 * of a board the players keep playing on, where the full budget would let a few stuck boards take
 * the daemon's CPU. Continuations of a ply or two are still found.
 */
const STUCK_NODES = 2_000;

/**
 * The budgets of a tracker whose steps are granted (the daemon's) or taken an input. One taken an
 * input (`damlink replay`, a tracker of one's own) has no one to share its time with: steps of
 * GAP_NODES (some 30 ms), the same totals — a stuck board's search in one input, as a sensor
 * file's sparse inputs need.
 */
export function resyncBudgets(granted: boolean): { dump: ResyncBudget; stuck: ResyncBudget } {
  const step = granted ? RESYNC_NODES : GAP_NODES;
  return {
    dump: { step, total: RESYNC_BUDGET.total },
    stuck: { step: Math.min(step, STUCK_NODES), total: STUCK_NODES },
  };
}

export interface LostLines {
  /** The lines that fit best, first the one tracked meanwhile (see `likeliest`). */
  lines: GapLine[];
  /** Lines found in all (the search lists at most GAP_MAX_LINES). */
  total: number;
  /** One line, and the search proved no other leads to the board. */
  unique: boolean;
  /**
   * The board the lines lead to, as the search read it (`sensedText`): the players may have played
   * on since, and an answer's line is checked against this board (./answer.ts).
   */
  board: string;
}

/** A step's answer: still searching, no line within the budget, or the lines. */
export type LostLinesStep = { kind: 'searching' } | { kind: 'none' } | { kind: 'found'; lost: LostLines };

/**
 * The lines of up to GAP_PLIES legal plies from `from` that end on the board as it is now (the last
 * may be under way), searched a step at a time within `budget`. A search `known` beforehand (a
 * SearchMemo's) takes its steps without the work and ends as it did.
 */
export class LostLinesSearch {
  private readonly run: GapSearchRun | undefined;
  /** A search known beforehand: its steps and nodes, and its answer once they are taken. */
  private readonly replay: { steps: number; nodes: number; answer: GapSearch } | undefined;
  /** Steps taken of a known search. */
  private taken = 0;
  /** Steps granted to a search worked here, those counted without the work (deferred) included. */
  private granted = 0;
  private outcome: GapSearch | undefined;
  /** The board searched: the board's squares change under the search. */
  private readonly seen: Int8Array;

  constructor(
    from: Position,
    private readonly board: SensedBoard,
    private readonly budget: ResyncBudget,
    known?: KnownSearch,
  ) {
    // An entry whose lines are not legal play from here is another search's: searched again.
    const answer = known && knownAnswer(from, known);
    this.replay = answer && { steps: known!.steps, nodes: known!.nodes, answer };
    // The search is of the board as it is now.
    this.seen = Int8Array.from(board.squares);
    this.run = this.replay ? undefined : new GapSearchRun(from, this.seen, { nodes: budget.total });
  }

  /** Whether this search's outcome was known beforehand (SearchMemo). */
  get replayed(): boolean {
    return this.replay !== undefined;
  }

  /** Steps granted so far: where a replay ends this search, the memo's `steps`. */
  get steps(): number {
    return this.run ? this.granted : this.taken;
  }

  /**
   * What the search has cost its episode's budget: the nodes of one that ended, the steps granted
   * at their full size for one given up — the same on a replay that did not do the work.
   */
  get charged(): number {
    return this.outcome ? this.nodes : this.steps * this.budget.step;
  }

  get nodes(): number {
    if (this.run) return this.run.nodes;
    const { steps, nodes } = this.replay!;
    return this.taken >= steps ? nodes : Math.min(nodes, this.taken * this.budget.step);
  }

  /** How the search ended, as a SearchMemo keeps it (undefined while it goes on). */
  get record(): KnownSearch | undefined {
    const outcome = this.outcome;
    if (!outcome) return undefined;
    const { steps, nodes } = this;
    if (outcome.kind === 'none') return { steps, nodes };
    const lines = outcome.lines.map((l) => ({ moves: l.line.map(moveKey), underWay: l.underWay }));
    return { steps, nodes, found: { lines, total: outcome.total, complete: outcome.complete } };
  }

  /**
   * Up to `steps` steps (none: still searching). `work` false (Tracker.deferSearches): the first
   * step is worked — a search over in one step is not kept in the memo — and the others counted;
   * their work is done in the steps granted once `work` is true again.
   */
  step(steps = 1, work = true): LostLinesStep {
    let found: GapSearch | undefined;
    if (this.replay) {
      this.taken = Math.min(this.replay.steps, this.taken + steps);
      if (this.taken >= this.replay.steps) found = this.replay.answer;
    } else
      for (let i = 0; !found && i < steps; i++) {
        this.granted++;
        if (work || this.granted === 1) found = this.run!.step(this.budget.step);
      }
    if (!found) return { kind: 'searching' };
    this.outcome = found;
    if (found.kind === 'none') return { kind: 'none' };
    const lines = likeliest(found.lines, this.board.liftOrder());
    const unique = lines.length === 1 && found.complete && found.total === found.lines.length;
    return { kind: 'found', lost: { lines, total: found.total, unique, board: sensedText(this.seen) } };
  }
}

/** The moves (engine move keys) played from `from`, and where they lead; undefined when one is not legal there. */
export function playKeys(
  from: Position,
  keys: readonly string[],
): { line: Move[]; end: Position } | undefined {
  const line: Move[] = [];
  let end = from;
  for (const key of keys) {
    const move = legalMoves(end).find((m) => moveKey(m) === key);
    if (!move) return undefined;
    line.push(move);
    end = play(end, move);
  }
  return { line, end };
}

/** A known search's answer, its lines played out from `from`; undefined when they are not legal there. */
function knownAnswer(from: Position, known: KnownSearch): GapSearch | undefined {
  const { found, nodes } = known;
  if (!found) return { kind: 'none', complete: false, nodes };
  const lines: GapLine[] = [];
  for (const { moves, underWay } of found.lines) {
    const played = playKeys(from, moves);
    if (!played) return undefined;
    lines.push({ ...played, underWay });
  }
  if (lines.length === 0) return undefined;
  return { kind: 'found', lines, total: found.total, complete: found.complete, nodes };
}

/**
 * Of lines that explain the board equally well, the ones whose moves start where the hands were
 * seen lifting pieces, in that order (the events before the gap); then completed lines.
 */
function likeliest<T extends { line: readonly Move[]; underWay: boolean }>(
  found: readonly T[],
  lifts: readonly number[],
): T[] {
  const score = (c: T): number => {
    let agreeing = 0;
    for (let i = 0; i < c.line.length && i < lifts.length; i++) {
      if (c.line[i].from !== lifts[i]) break;
      agreeing++;
    }
    return agreeing * 2 + (c.underWay ? 0 : 1);
  };
  const best = Math.max(...found.map(score));
  // A line found twice (a capture under way reached by two of its sequences) is one line.
  const seen = new Set<string>();
  return found.filter((c) => {
    const key = `${c.underWay}:${c.line.map(moveKey).join(' ')}`;
    if (score(c) !== best || seen.has(key)) return false;
    seen.add(key);
    return true;
  });
}
