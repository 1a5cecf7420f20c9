// The gap search: from the last known position and what a board shows after lost events (a
// reconnect dump, a daemon restart, an HID board), the lines of legal play that lead there — up to
// GAP_PLIES lost plies. Pure: the board is the sensed codes of board.ts (colours, or occupancy only).
//
// Two stages share one node budget (a node is a position whose legal moves are generated):
// 1. every line of up to SHORT_PLIES plies, breadth first — the reconnect in the middle of a move:
//    the last ply of the line may still be under way (a piece in the hand, a capture landed whose
//    pieces are still coming off);
// 2. complete lines up to GAP_PLIES, depth first by growing length, guided by what the board shows:
//    pieces only leave the board (piece counts bound the captures still to come), every square the
//    board shows a piece on that the position has not needs a move ending there, every square to be
//    emptied needs a move leaving it or a capture, men only move forward one row a quiet move (two a
//    jump), kings appear only by promotion. A position whose bound exceeds the plies left is not
//    expanded, and a position that failed for a number of plies left is never searched again for it
//    (transposed moves meet in the same positions).
// The bound is per node, not per depth: a board the search cannot explain costs at most the budget,
// and the search runs in steps of a node budget each (GapSearchRun; the tracker's step and total
// are in ./resync.ts, their time measured by `npm run bench -- gap`, see docs/performance.md), so
// a hard gap gets many steps without holding the event loop for more than one. The tracker does not search the same board
// against the same position twice: a stuck board costs nothing until it changes.
import {
  geometry,
  legalMoves,
  type Move,
  moveNotation,
  parseFen,
  type Position,
  play,
  resolveMove,
  type Variant,
} from '../engine/index.ts';
import { err, ok, type Result } from '../result.ts';
import * as sensed from './board.ts';
import {
  codeAfter,
  EMPTY,
  morePieces,
  OCCUPIED,
  occupiedSquares,
  sensedSquares,
  shows,
  showsCaptureUnderWay,
  showsPieceInHand,
} from './board.ts';
import { ProvenTable } from './proven-table.ts';
import type { Alert, ArbiterDecision } from './types.ts';

// The bound's loops read the board helpers through module-local bindings: run through tsx, every
// read of an imported binding is a getter call, and those calls were most of a node's time.
const { agrees, isKingCode, isWhiteCode } = sensed;
const NONE = EMPTY;
const UNKNOWN_COLOUR = OCCUPIED;

/** The most lost plies a gap may hold. */
export const GAP_PLIES = 20;
/** The first stage's depth: reconnects in the middle of a move. */
export const SHORT_PLIES = 4;
/** Nodes searchGap's one go expands by default (the tracker searches in steps: ./resync.ts). */
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

/** The lines as PDN moves, each written in the position it is played in. */
export function lineNotation(from: Position, line: readonly Move[]): string[] {
  const out: string[] = [];
  let pos = from;
  for (const m of line) {
    out.push(moveNotation(pos, m));
    pos = play(pos, m);
  }
  return out;
}

/**
 * The line an arbiter's answer to a `gap` alert names — a candidate, or moves from the score sheet —
 * played from the alert's `before` and checked to reach the board it shows (`boardShown`); or why
 * it cannot be recorded. An `unknown-position` after lost events (no line within the search's
 * bound) takes moves from the score sheet the same way.
 */
export function gapDecisionLine(alert: Alert, decision: ArbiterDecision, variant: Variant): Result<Move[]> {
  const start = alert.before !== undefined ? parseFen(alert.before, { variant }) : undefined;
  const lost = alert.rule === 'unknown-position' && decision.kind === 'moves';
  if ((alert.rule !== 'gap' && !lost) || !start?.ok || alert.boardShown === undefined) {
    return err({
      code: 'not-a-gap',
      message: `alert ${alert.id} is no gap with candidate lines, nor a board after lost events`,
    });
  }
  let texts: string[];
  if (decision.kind === 'line') {
    const line = alert.candidates?.[decision.line];
    if (!line)
      return err({ code: 'no-such-line', message: `alert ${alert.id} has no line ${decision.line}` });
    texts = line;
  } else if (decision.kind === 'moves') {
    // Score-sheet text: move numbers, a result and comments carry no moves.
    texts = decision.pdn
      .replace(/\{[^}]*\}/g, ' ')
      .split(/\s+/)
      .map((w) => w.replace(/^\d+\.+/, ''))
      .filter((w) => w !== '' && !/^(\*|2-0|1-1|0-2|1-0|0-1|1\/2-1\/2)$/.test(w));
  } else
    return err({ code: 'not-a-line', message: `a gap is decided by a line or moves, not ${decision.kind}` });
  let pos = start.value;
  const board = sensedSquares(alert.boardShown);
  const line: Move[] = [];
  // A score sheet written up to the game's end goes past the board shown: the moves up to it are
  // the gap's (what was played since is the board's own record, followed or read from it).
  let reached = 0;
  for (const [i, text] of texts.entries()) {
    const move = resolveMove(pos, text);
    if (!move.ok) return err({ ...move.error, message: `move ${i + 1} (${text}): ${move.error.message}` });
    line.push(move.value);
    pos = play(pos, move.value);
    if (reached === 0 && shows(board, pos)) reached = line.length;
  }
  if (reached === 0) {
    return err({ code: 'not-the-board', message: 'these moves do not lead to the position on the board' });
  }
  return ok(decision.kind === 'moves' ? line.slice(0, reached) : line);
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
  private readonly byColour: boolean;
  private readonly rowOf: Int8Array;
  private readonly colOf: Int8Array;
  private readonly width: number;
  /** Per side: the squares of its men, and the arrival squares (see pliesNeeded). */
  private readonly scratch = {
    men: [new Int16Array(64), new Int16Array(64)],
    arrivals: [new Int16Array(64), new Int16Array(64)],
    values: new Int16Array(64),
    /** travel's least moves per share of the jumps. */
    total: new Float64Array(64),
    best: new Float64Array(64),
  };
  /** A child's board, bounded before its position is built (see count). */
  private readonly child: Int8Array;
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
    const g = geometry(from.variant);
    this.rowOf = g.rowOf;
    this.colOf = g.colOf;
    this.width = g.width;
    this.child = new Int8Array(from.board.length);
    // A board that tells colours (no square of unknown colour) bounds each side's moves apart.
    this.byColour = !seen.includes(UNKNOWN_COLOUR);
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
    if (!bounded && !this.fits(pos.board, pos.turn, plies)) {
      this.fail(pos, plies);
      return 0;
    }
    if (this.nodes >= this.budget) {
      this.exhausted = true;
      return 0;
    }
    this.nodes++;
    let count = 0;
    const next: Solved['next'] = [];
    const child = this.child;
    const turn = pos.turn === 'white' ? 'black' : 'white';
    for (const move of legalMoves(pos)) {
      // Bounded on a scratch board first: most children are cut there, no position built for them.
      if (plies > 1) {
        child.set(pos.board);
        child[move.from] = NONE;
        for (const c of move.captured) child[c] = NONE;
        child[move.to] = codeAfter(pos, move, move.to);
        if (!this.fits(child, turn, plies - 1)) continue;
      }
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

  private fail(pos: Position, plies: number): void {
    this.failed.add(pos.hash, plies);
  }

  /**
   * Could a line of exactly `plies` plies lead from `board` (`turn` to move) to the board shown?
   * False only when none can: the side to move plays plies 1, 3, 5 …, the other 2, 4, 6 …, and each
   * side's moves must lie within its bounds.
   */
  private fits(board: Int8Array, turn: 'white' | 'black', plies: number): boolean {
    const { seen, scratch } = this;
    const n = board.length - 1;
    // Per side (0 white, 1 black; occupancy only: everything on side 0): pieces in the position,
    // pieces shown, squares the board shows one on that the position has not (arrivals), squares
    // the position has one on that the board shows none on (leaving), men, kings.
    const have = [0, 0];
    // Men's progress: the rows they stand forward of their own back row, summed (the board's men on
    // their far row are kings not crowned yet, and count for none).
    const progress = [0, 0];
    const shown = [0, 0];
    const leaving = [0, 0];
    const arrivals = [0, 0];
    const men = [0, 0];
    const kings = [0, 0];
    // Kings the board shows, and men on their far row (kings not crowned yet).
    const shownKings = [0, 0];
    const byColour = this.byColour;
    for (let s = 1; s <= n; s++) {
      const p = board[s];
      const t = seen[s];
      const ps = byColour && p !== NONE && !isWhiteCode(p) ? 1 : 0;
      const ts = byColour && t !== NONE && !isWhiteCode(t) ? 1 : 0;
      if (p !== NONE) {
        have[ps]++;
        if (isKingCode(p)) kings[ps]++;
        else {
          scratch.men[ps][men[ps]++] = s;
          progress[ps] -= this.forwardOf(p, s);
        }
        if (t === NONE || ts !== ps) leaving[ps]++;
      }
      if (t !== NONE) {
        shown[ts]++;
        if (byColour && !isKingCode(t) && this.forwardOf(t, s) < this.width - 1)
          progress[ts] += this.forwardOf(t, s);
        else shownKings[ts]++;
        if (p === NONE || ps !== ts || !agrees(t, p)) scratch.arrivals[ts][arrivals[ts]++] = s;
      }
    }
    const sides = byColour ? 2 : 1;
    for (let c = 0; c < sides; c++) {
      // Pieces only leave the board.
      const lost = have[c] - shown[c];
      if (lost < 0) return false;
      // The captures this side still makes (occupancy only: every capture, both sides').
      const jumps = byColour ? have[1 - c] - shown[1 - c] : lost;
      // A quiet move takes a man one row forward, a jump at most two; nothing else adds progress,
      // and the side's pieces captured take theirs with them (at least the least advanced ones').
      const gained = progress[c] + (lost > 0 ? this.leastProgress(board, c, men[c], kings[c], lost) : 0);
      const stepped = byColour ? Math.max(0, gained - 2 * jumps) + (jumps > 0 ? 1 : 0) : 0;
      // The moves this side has: the side to move plays plies 1, 3, 5 …, the other 2, 4, 6 ….
      const own = !byColour
        ? plies
        : (c === 0) === (turn === 'white')
          ? Math.ceil(plies / 2)
          : Math.floor(plies / 2);
      // A side with men only that loses no more pieces cannot waste a move: a quiet move takes a man
      // one row forward, a capture at most one move and two rows back per piece taken.
      if (byColour && lost === 0 && kings[c] === 0 && shownKings[c] === 0 && own > progress[c] + 3 * jumps)
        return false;
      // The cheap bounds first: the arrivals' travel only when they leave room.
      if (Math.max(arrivals[c], leaving[c] - lost, jumps > 0 ? 1 : 0, stepped) > own) return false;
      if (arrivals[c] > 0 && this.travel(board, c, arrivals[c], men[c], kings[c], jumps, own) > own)
        return false;
    }
    return true;
  }

  /** The progress of the `count` least advanced pieces of side `c` (kings have none). */
  private leastProgress(
    board: Int8Array,
    c: number,
    menCount: number,
    kingCount: number,
    count: number,
  ): number {
    const men = this.scratch.men[c];
    const values = this.scratch.values;
    for (let i = 0; i < menCount; i++) values[i] = this.forwardOf(board[men[i]], men[i]);
    let left = menCount;
    let sum = 0;
    // Kings first (none), then the least advanced men, one by one (count is small).
    for (let k = Math.min(count, kingCount); k < count && left > 0; k++) {
      let min = 0;
      for (let i = 1; i < left; i++) if (values[i] < values[min]) min = i;
      sum += values[min];
      values[min] = values[--left];
    }
    return sum;
  }

  /** How many rows a man (code) on `s` stands forward of its own back row. */
  private forwardOf(code: number, s: number): number {
    return isWhiteCode(code) ? this.width - 1 - this.rowOf[s] : this.rowOf[s];
  }

  /**
   * Each square the board shows a piece on that the position has not needs its own piece to get
   * there, and distinct pieces make distinct moves: the least moves over those squares, summed, the
   * side's `jumps` (the captures left to it) shared among them. A king (or a man crowned on the way)
   * needs at least a move; a man's cost is manMoves.
   */
  private travel(
    board: Int8Array,
    c: number,
    arrivalCount: number,
    menCount: number,
    kingCount: number,
    jumps: number,
    allowed: number,
  ): number {
    const { seen, rowOf, colOf, width, scratch } = this;
    const arrivals = scratch.arrivals[c];
    const menList = scratch.men[c];
    const stride = jumps + 1;
    // total[k]: the least moves for the arrivals so far with exactly k jumps among them.
    const total = scratch.total;
    const best = scratch.best;
    total.fill(INF, 0, stride);
    total[0] = 0;
    for (let i = 0; i < arrivalCount; i++) {
      const t = arrivals[i];
      const crowned = isKingCode(seen[t]);
      best.fill(kingCount > 0 ? 1 : INF, 0, stride);
      for (let j = 0; j < menCount; j++) {
        const s = menList[j];
        // Occupancy only: either side's man; on a colour board the side's own.
        const white = this.byColour ? c === 0 : isWhiteCode(board[s]);
        if (crowned) {
          // Crowned in the gap: the man reaches its far row, then (unless that is here) moves on.
          const toCrown = white ? rowOf[s] : width - 1 - rowOf[s];
          const onFarRow = white ? rowOf[t] === 0 : rowOf[t] === width - 1;
          for (let k = 0; k < stride; k++)
            best[k] = Math.min(best[k], Math.max(1, toCrown + (onFarRow ? 0 : 1) - 2 * k));
          continue;
        }
        const forward = white ? rowOf[s] - rowOf[t] : rowOf[t] - rowOf[s];
        const row = manMovesRow(forward, colOf[s] - colOf[t]);
        if (row < 0) continue;
        for (let k = 0; k < stride; k++) {
          // More jumps than the table holds: a capture move at least.
          const need = k <= MAX_JUMPS ? MAN_MOVES[row + k] : 1;
          if (need < best[k]) best[k] = need;
        }
      }
      // Shares of the jumps: this square's k of them, the others' the rest (min-plus, small).
      let fewest = INF;
      for (let all = jumps; all >= 0; all--) {
        let least = INF;
        for (let k = 0; k <= all; k++) least = Math.min(least, total[all - k] + best[k]);
        total[all] = least;
        fewest = Math.min(fewest, least);
      }
      // Sums only grow: past the moves allowed, the rest of the squares cannot bring it back.
      if (fewest > allowed) return fewest;
    }
    // Jumps no arriving piece makes are made by pieces captured later (or coming back): at least
    // one move more.
    let least = total[jumps];
    for (let k = 0; k < jumps; k++) least = Math.min(least, total[k] + 1);
    return least;
  }
}

const INF = Number.POSITIVE_INFINITY;

/**
 * The least moves that take a man `forward` rows ahead (negative: back) and `sideways` columns
 * over, capturing exactly `jumps` pieces on the way: a quiet move is one row forward and one column
 * either way, a jump two rows either way and two columns either way, and all of a man's jumps cost
 * one move at least (they may be one capture). Tabled once: the bound asks it for every man and
 * square of every child.
 */
export function manMoves(forward: number, sideways: number, jumps: number): number {
  const row = manMovesRow(forward, sideways);
  if (row < 0) return INF;
  return jumps <= MAX_JUMPS ? MAN_MOVES[row + jumps] : 1;
}

/** Where the table's entries for (forward, sideways) begin, one per number of jumps; −1: none. */
function manMovesRow(forward: number, sideways: number): number {
  const f = forward + MAX_ROWS;
  const w = sideways < 0 ? -sideways : sideways;
  if (f < 0 || f > 2 * MAX_ROWS || w > MAX_ROWS) return -1;
  return (f * (MAX_ROWS + 1) + w) * (MAX_JUMPS + 1);
}

const MAX_ROWS = 9;
const MAX_JUMPS = 20;

/** Can q quiet moves and exactly j jumps take a man (dr, dc)? */
function reaches(dr: number, dc: number, q: number, j: number): boolean {
  // Rows: q forward steps and j jumps of ±2, (up − down) = (dr − q) / 2 with up + down = j.
  const rows = dr - q;
  if (rows % 2 !== 0 || Math.abs(rows / 2) > j || (rows / 2 - j) % 2 !== 0) return false;
  // Columns: q steps of ±1 (a sum of q's parity) and j jumps of ±2 (b of j's parity, |b| ≤ j).
  for (let a = -q; a <= q; a += 2) {
    const rest = dc - a;
    if (rest % 2 !== 0) continue;
    const b = rest / 2;
    if (Math.abs(b) <= j && (b - j) % 2 === 0) return true;
  }
  return false;
}

const MAN_MOVES = (() => {
  const table = new Float64Array((2 * MAX_ROWS + 1) * (MAX_ROWS + 1) * (MAX_JUMPS + 1));
  for (let f = -MAX_ROWS; f <= MAX_ROWS; f++) {
    for (let w = 0; w <= MAX_ROWS; w++) {
      const quiet = f >= 1 && w <= f && (f - w) % 2 === 0 ? f : INF;
      for (let k = 0; k <= MAX_JUMPS; k++) {
        // Exactly k jumps: one capture move (the fewest) and the quiet moves that fit.
        let best = k === 0 ? quiet : INF;
        // More quiet moves than rows and columns together never help.
        for (let q = 0; k > 0 && q <= 2 * MAX_ROWS + 2 * k; q++) {
          if (reaches(f, w, q, k)) {
            best = q + 1;
            break;
          }
        }
        table[((f + MAX_ROWS) * (MAX_ROWS + 1) + w) * (MAX_JUMPS + 1) + k] = best;
      }
    }
  }
  return table;
})();
