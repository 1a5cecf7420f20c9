// The gap search: from the last known position and what a board shows after lost events (a
// reconnect dump, a daemon restart, an HID board), the lines of legal play that lead there — up to
// GAP_PLIES lost plies. Pure: the board is the sensed codes of ../sensed-codes.ts (colours, or occupancy only).
//
// Two stages share one node budget (a node is a position whose legal moves are generated):
// 1. every line of up to SHORT_PLIES plies, breadth first — the reconnect in the middle of a move:
//    the last ply of the line may still be under way (a piece in the hand, a capture landed whose
//    pieces are still coming off);
// 2. complete lines up to GAP_PLIES, depth first by growing length, guided by what the board shows:
//    pieces only leave the board (piece counts bound the captures still to come), every square the
//    board shows a piece on that the position has not needs a move ending there, every square to be
//    emptied needs a move leaving it or a capture, men only move forward one row a quiet move (two a
//    jump), kings appear only by promotion (the bound: ./bound.ts). A position whose bound
//    exceeds the plies left is not expanded, and a position that failed for a number of plies left
//    is never searched again for it (transposed moves meet in the same positions).
// The bound is per node, not per depth: a board the search cannot explain costs at most the budget,
// and the search runs in steps of a node budget each (GapSearchRun; the tracker's step and total
// are in ./lost-lines.ts, their time measured by `npm run bench -- gap`, see docs/performance.md), so
// a hard gap gets many steps without holding the event loop for more than one. The tracker does not search the same board
// against the same position twice: a stuck board costs nothing until it changes.
import { legalMoves, type Move, type Position, play } from '../../engine/index.ts';
import {
  morePieces,
  occupiedSquares,
  shows,
  showsCaptureUnderWay,
  showsPieceInHand,
} from '../sensed-codes.ts';
import { GapBound, Tally } from './bound.ts';
import { ProvenTable } from './proven-table.ts';

/** The most lost plies a gap may hold. */
export const GAP_PLIES = 20;
/** The first stage's depth: reconnects in the middle of a move. */
export const SHORT_PLIES = 4;
/** Nodes searchGap's one go expands by default (the tracker searches in steps: ./lost-lines.ts). */
export const GAP_NODES = 4_000;
/**
 * The second stage's table of proved positions grows to 2^21 slots (24 MiB): a whole search of
 * RESYNC_BUDGET proves about 0.7 positions a node, so it keeps nearly all of them.
 */
export const GAP_TABLE_BITS = 21;
/** Lines listed at most (an arbiter chooses among them; more are counted, not listed). */
export const GAP_MAX_LINES = 8;

export interface GapLine {
  /** The lost plies, in order, from the search's position. */
  line: readonly Move[];
  /** After the line the next move is under way on the board (piece in the hand, capture landing). */
  underWay: boolean;
  /** The position after the line. */
  end: Position;
}

export type GapSearch =
  /**
   * Lines of the shortest length that explains the board (the first stage's may end under way).
   * `complete`: every line of that length was counted (`total` of them, counted up to
   * GAP_MAX_LINES: `total` = GAP_MAX_LINES means at least that many; `lines` lists at most
   * GAP_MAX_LINES); false when the budget ran out first — another line may fit as well.
   */
  | { kind: 'found'; lines: GapLine[]; total: number; complete: boolean; nodes: number }
  /** No line: `complete` when none exists within GAP_PLIES, false when the budget ran out. */
  | { kind: 'none'; complete: boolean; nodes: number };

export interface GapSearchOptions {
  /** Node budget (default GAP_NODES). */
  nodes?: number;
  /** Longest line (default GAP_PLIES). */
  maxPlies?: number;
  /** Search the first stage only (short lines, moves under way). */
  shortOnly?: boolean;
  /**
   * The second stage remembers the positions it proved in at most 2^tableBits slots of 12 bytes
   * (default GAP_TABLE_BITS).
   */
  tableBits?: number;
}

/**
 * The lines of play from `from` to the board `seen` (sensed codes, index = square). A board that is
 * `from` itself with a move under way is no gap: `found` with an empty line (the caller decides it
 * as an ordinary move). One go with the whole budget (see GapSearchRun for a search in steps).
 */
export function searchGap(from: Position, seen: Int8Array, options: GapSearchOptions = {}): GapSearch {
  const run = new GapSearchRun(from, seen, options);
  return run.step(run.budget) ?? run.partial();
}

/**
 * A gap search that goes on where it stopped: each `step` expands up to the nodes it is given and
 * returns the answer once there is one (or the whole budget, `options.nodes`, is spent), undefined
 * while the search goes on. Pure state: how many steps a search takes depends on the budgets alone.
 * The first stage keeps its frontier across steps; the second keeps what it proved (positions with
 * no line of so many plies, lines counted), so a step takes up again below the node where the last
 * one ran out, re-expanding only the nodes above it.
 */
export class GapSearchRun {
  readonly budget: number;
  /** Steps taken. */
  steps = 0;
  private readonly maxPlies: number;
  private readonly shortOnly: boolean;
  private readonly tableBits: number;
  private readonly short: ShortSearch | undefined;
  private long: LongSearch | undefined;
  /** The second stage's current length, and the lines it counted there when its step ran out. */
  private plies = 0;
  private counted = 0;
  private result: GapSearch | undefined;

  constructor(
    private readonly from: Position,
    private readonly seen: Int8Array,
    options: GapSearchOptions = {},
  ) {
    this.budget = options.nodes ?? GAP_NODES;
    this.maxPlies = options.maxPlies ?? GAP_PLIES;
    this.shortOnly = options.shortOnly ?? false;
    this.tableBits = options.tableBits ?? GAP_TABLE_BITS;
    // Pieces only leave the board: one showing more than the position is reached by no line.
    if (morePieces(seen, from)) this.result = { kind: 'none', complete: true, nodes: 0 };
    else this.short = new ShortSearch(from, seen, Math.min(SHORT_PLIES, this.maxPlies));
  }

  /** Nodes expanded so far. */
  get nodes(): number {
    return (this.short?.nodes ?? 0) + (this.long?.nodes ?? 0);
  }

  /** Expands up to `nodes` more nodes; the answer once settled (or the budget spent), else undefined. */
  step(nodes: number): GapSearch | undefined {
    if (this.result) return this.result;
    this.steps++;
    const limit = Math.min(this.budget, this.nodes + nodes);
    this.result = this.advance(limit);
    if (!this.result && this.nodes >= this.budget) this.result = this.partial();
    return this.result;
  }

  /** What is known so far: lines found before every other line was ruled out are not `complete`. */
  partial(): GapSearch {
    if (this.result) return this.result;
    const nodes = this.nodes;
    const short = this.short!;
    if (!short.result) {
      const lines = short.found;
      return lines.length > 0
        ? { kind: 'found', lines, total: short.total, complete: false, nodes }
        : { kind: 'none', complete: false, nodes };
    }
    if (this.counted > 0) return this.longFound(false);
    return { kind: 'none', complete: false, nodes };
  }

  private advance(limit: number): GapSearch | undefined {
    const short = this.short!;
    if (!this.long) {
      if (!short.run(limit)) return undefined;
      const { lines, total, searched } = short.result!;
      if (lines.length > 0) return { kind: 'found', lines, total, complete: true, nodes: short.nodes };
      if (this.shortOnly || searched >= this.maxPlies)
        return { kind: 'none', complete: searched >= this.maxPlies, nodes: short.nodes };
      this.long = new LongSearch(this.from, this.seen, this.tableBits);
      this.plies = searched + 1;
    }
    const long = this.long;
    long.resume(limit - short.nodes);
    for (; this.plies <= this.maxPlies; this.plies++) {
      this.counted = long.count(this.from, this.plies);
      if (long.exhausted) return undefined;
      if (this.counted > 0) return this.longFound(true);
    }
    return { kind: 'none', complete: true, nodes: this.nodes };
  }

  private longFound(complete: boolean): GapSearch {
    const { from, plies } = this;
    return {
      kind: 'found',
      lines: this.long!.lines(from, plies, GAP_MAX_LINES).map((line) => ({
        line,
        underWay: false,
        end: line.reduce(play, from),
      })),
      total: this.counted,
      complete,
      nodes: this.nodes,
    };
  }
}

// ——— stage 1: short lines, breadth first ———

interface ShortNode {
  pos: Position;
  ways: Move[][];
  count: number;
}

/**
 * Every explanation of the shortest length up to `maxPlies`, breadth first: plies in another order
 * (or another capture) may end on the same board. Runs in steps: the frontier is kept.
 */
class ShortSearch {
  nodes = 0;
  /** Settled: the lines of depth `searched` (`total` counted), or none up to `maxPlies`. */
  result: { lines: GapLine[]; total: number; searched: number } | undefined;
  /** The lines found so far at the current depth, and how many. */
  found: GapLine[] = [];
  total = 0;
  private depth = 1;
  private frontier: ShortNode[];
  private index = 0;
  private next = new Map<number, ShortNode>();
  private readonly visited: Set<number>;
  private readonly occupied: number;

  constructor(
    from: Position,
    private readonly seen: Int8Array,
    private readonly maxPlies: number,
  ) {
    this.occupied = occupiedSquares(seen);
    // A position met again at the same depth is expanded once, but every way to it is kept: the
    // lines through it are transpositions of one another, each a candidate.
    this.frontier = [{ pos: from, ways: [[]], count: 1 }];
    this.visited = new Set<number>([from.hash]);
  }

  /** Expands nodes until `limit` of them are; true once settled. */
  run(limit: number): boolean {
    while (!this.result) {
      if (this.depth > this.maxPlies) {
        this.result = { lines: [], total: 0, searched: this.maxPlies };
        break;
      }
      while (this.index < this.frontier.length) {
        if (this.nodes >= limit) return false;
        this.expand(this.frontier[this.index++]);
      }
      if (this.found.length > 0) {
        this.result = { lines: this.found, total: this.total, searched: this.depth };
        break;
      }
      this.frontier = [...this.next.values()];
      this.next = new Map();
      this.index = 0;
      this.depth++;
    }
    return true;
  }

  private add(
    node: ShortNode,
    line: (way: Move[]) => Move[],
    underWay: boolean,
    end: (way: Move[]) => Position,
  ) {
    this.total = Math.min(MANY_WAYS, this.total + node.count);
    for (const way of node.ways)
      if (this.found.length < GAP_MAX_LINES) this.found.push({ line: line(way), underWay, end: end(way) });
  }

  private expand(node: ShortNode): void {
    const { seen, next, visited } = this;
    this.nodes++;
    const moves = legalMoves(node.pos);
    // The lost plies, then the next move under way: a piece in the hand. Shorter than any line
    // of more plies that happens to end on the same occupancy (plies that cancel out).
    if (showsPieceInHand(seen, node.pos, moves))
      this.add(
        node,
        (way) => way,
        true,
        () => node.pos,
      );
    for (const move of moves) {
      const after = play(node.pos, move);
      if (shows(seen, after))
        this.add(
          node,
          (way) => [...way, move],
          false,
          () => after,
        );
      else if (showsCaptureUnderWay(seen, node.pos, move))
        this.add(
          node,
          (way) => way,
          true,
          () => node.pos,
        );
      if (visited.has(after.hash) && !next.has(after.hash)) continue;
      if (occupiedSquares(after.board) < this.occupied) continue;
      visited.add(after.hash);
      const met = next.get(after.hash);
      const ways = node.ways.map((way) => [...way, move]);
      if (!met) next.set(after.hash, { pos: after, ways: ways.slice(0, GAP_MAX_LINES), count: node.count });
      else {
        met.count = Math.min(MANY_WAYS, met.count + node.count);
        for (const way of ways) if (met.ways.length < GAP_MAX_LINES) met.ways.push(way);
      }
    }
  }
}

/** Ways counted at most (a count, not a list). */
const MANY_WAYS = 1_000_000;

// ——— stage 2: complete lines, depth first with a lower bound ———

interface Solved {
  /** Lines from this position of exactly the plies asked (capped, see MANY). */
  count: number;
  /** Counted by a step that ran out: a lower bound, counted again when the search goes on. */
  partial: boolean;
  /** The moves that begin them, with the positions they lead to. */
  next: Array<{ move: Move; after: Position }>;
}

/**
 * Lines are counted up to GAP_MAX_LINES: the arbiter is shown that many at most, and a search that
 * has found them stops there instead of enumerating every transposition of a quiet line.
 */
const MANY = GAP_MAX_LINES;

class LongSearch {
  nodes = 0;
  exhausted = false;
  /** Nodes this search may have expanded by the end of the current step. */
  private budget = 0;
  private readonly bound: GapBound;
  /** The tally of the node expanded with so many plies left (its children's: one fewer). */
  private readonly tallies: Tally[] = [];
  /** Position hash → bit r set: no line of r plies from it. */
  private readonly failed: ProvenTable;
  /** Position hash → plies → the lines found from it. */
  private readonly solved = new Map<number, Map<number, Solved>>();

  constructor(
    from: Position,
    private readonly seen: Int8Array,
    tableBits: number,
  ) {
    this.failed = new ProvenTable(tableBits);
    this.bound = new GapBound(seen, from.variant, from.board);
  }

  /** A step: expand until `budget` nodes in all. */
  resume(budget: number): void {
    this.budget = budget;
    this.exhausted = false;
  }

  /** How many lines of exactly `plies` plies lead from `pos` to the board (so far, when exhausted). */
  count(pos: Position, plies: number, bounded = false): number {
    if (plies === 0) return shows(this.seen, pos) ? 1 : 0;
    if ((this.failed.get(pos.hash) >> plies) & 1) return 0;
    const known = this.solved.get(pos.hash)?.get(plies);
    if (known && !known.partial) return known.count;
    const tally = this.tally(plies);
    if (!bounded) {
      this.bound.scan(pos.board, tally);
      if (!this.bound.fits(tally, pos.turn, plies)) {
        this.fail(pos, plies);
        return 0;
      }
    }
    if (this.nodes >= this.budget) {
      this.exhausted = true;
      return 0;
    }
    this.nodes++;
    let count = 0;
    const next: Solved['next'] = [];
    const turn = pos.turn === 'white' ? 'black' : 'white';
    for (const move of legalMoves(pos)) {
      // Bounded on the child's tally first: most children are cut there, no position built for them
      // (on the last ply too: a child that is not the board shown fails the bound of no plies).
      const childTally = this.tally(plies - 1);
      this.bound.child(tally, pos, move, childTally);
      if (!this.bound.fits(childTally, turn, plies - 1, move.captured.length === 0 ? pos.turn : undefined))
        continue;
      const after = play(pos, move);
      const n = this.count(after, plies - 1, true);
      if (n > 0) {
        count = Math.min(MANY, count + n);
        next.push({ move, after });
      }
      if (this.exhausted || count >= MANY) break;
    }
    if (count > 0) {
      let byPlies = this.solved.get(pos.hash);
      if (!byPlies) this.solved.set(pos.hash, (byPlies = new Map()));
      byPlies.set(plies, { count, partial: this.exhausted, next });
    } else if (!this.exhausted) this.fail(pos, plies);
    return count;
  }

  /** Up to `max` of the lines counted, in move-generation order. */
  lines(pos: Position, plies: number, max: number): Move[][] {
    if (plies === 0) return [[]];
    const out: Move[][] = [];
    for (const { move, after } of this.solved.get(pos.hash)?.get(plies)?.next ?? []) {
      for (const rest of this.lines(after, plies - 1, max - out.length)) {
        out.push([move, ...rest]);
        if (out.length >= max) return out;
      }
    }
    return out;
  }

  private tally(plies: number): Tally {
    let t = this.tallies[plies];
    if (!t) this.tallies[plies] = t = new Tally();
    return t;
  }

  private fail(pos: Position, plies: number): void {
    this.failed.add(pos.hash, plies);
  }
}
