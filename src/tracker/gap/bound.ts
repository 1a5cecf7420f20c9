// The gap search's bound (./search.ts, stage 2): could a line of exactly so many plies lead
// from a board to the board shown? What it counts of a board — each side's pieces, men and their
// rows, squares to be emptied, squares to be reached — is a sum over squares, kept in a Tally: the
// search scans a node's board once and makes each child's tally from it by the few squares the
// move changes, instead of scanning every child's board (the bound was most of a node's time).
import type { Side } from '../../../firmware-protocol/side.ts';
import { type Geometry, geometry, type Move, type Position, type Variant } from '../../engine/index.ts';
import * as sensed from '../sensed-codes.ts';
import { EMPTY, OCCUPIED } from '../sensed-codes.ts';

// Module-local bindings: run through tsx, every read of an imported binding is a getter call.
const { agrees, isKingCode, isWhiteCode } = sensed;
const NONE = EMPTY;
/** Squares a side's list holds at most (a board has 50). */
const LIST = 64;
/** Rows a man stands forward of its own back row, at most (10×10: 9). */
const ROWS = 16;
/** The Tally's buffer: its counts, its men as sets of squares, its men by rows, then its lists. */
const COUNTS = 10;
/** A colour's men as a set of squares: bits 0–31 and 32–63, two words a colour. */
const BITS = 4;
const ROWS_AT = COUNTS + BITS;
const TALLY_SIZE = ROWS_AT + 2 * ROWS + 2 * LIST;

/** A board's counts against the board shown, per side (0 White, 1 Black; occupancy only: all on 0). */
export class Tally {
  /** Every count in one buffer, so a child's tally is one copy of its parent's. */
  private readonly data = new Int32Array(TALLY_SIZE);
  readonly have = this.data.subarray(0, 2);
  readonly kings = this.data.subarray(2, 4);
  /** Rows its men stand forward of their back row, summed. */
  readonly forward = this.data.subarray(4, 6);
  /** Squares with a piece of the side that the board shows empty or with the other side's. */
  readonly leaving = this.data.subarray(6, 8);
  readonly arrivalCount = this.data.subarray(8, 10);
  /** The white men's squares, then the black men's, as bit sets (by colour, occupancy only too). */
  readonly menBits = this.data.subarray(COUNTS, ROWS_AT);
  /** Men by rows forward. */
  readonly rows = this.data.subarray(ROWS_AT, ROWS_AT + 2 * ROWS);
  /** Squares the board shows one of the side's pieces on that the position has not (see travel). */
  readonly arrivals = this.data.subarray(ROWS_AT + 2 * ROWS, TALLY_SIZE);

  copyFrom(t: Tally): void {
    this.data.set(t.data);
  }

  /** Counts and lists emptied. */
  clear(): void {
    this.data.fill(0, 0, ROWS_AT + 2 * ROWS);
  }
}

export class GapBound {
  private readonly byColour: boolean;
  private readonly rowOf: Int8Array;
  private readonly width: number;
  private readonly reach: ManReach;
  /** Of the board shown, per side: pieces, kings (and men on their far row), men's rows summed. */
  private readonly shown = [0, 0];
  private readonly shownKings = [0, 0];
  private readonly shownForward = [0, 0];
  /**
   * Per side, the rows forward of its m most advanced men shown, summed (index m): a man shown may
   * be a king whose crown is not on (sensed-codes.ts agrees), so up to so many of them count for none.
   */
  private readonly shownTop: number[][] = [[0], [0]];
  /** Per side, the kings of the position the gap starts from. */
  private readonly startKings = [0, 0];
  private readonly scratch = {
    /** travel's least moves per share of the jumps, and per square and jumps. */
    total: new Float64Array(64),
    moves: new Float64Array(LIST * 64),
  };

  /** `start`: the board the gap starts from (its kings may stand on the board shown uncrowned). */
  constructor(
    private readonly seen: Int8Array,
    variant: Variant,
    start?: Int8Array,
  ) {
    const g = geometry(variant);
    this.rowOf = g.rowOf;
    this.width = g.width;
    this.reach = manReach(g);
    // A board that tells colours (no square of unknown colour) bounds each side's moves apart.
    this.byColour = !seen.includes(OCCUPIED);
    for (let s = 1; s < seen.length; s++) {
      const t = seen[s];
      if (t === NONE) continue;
      const ts = this.sideOf(t);
      this.shown[ts]++;
      // The board's men on their far row are kings not crowned yet, and count for none.
      if (this.byColour && !isKingCode(t) && this.forwardOf(t, s) < this.width - 1) {
        this.shownForward[ts] += this.forwardOf(t, s);
        this.shownTop[ts].push(this.forwardOf(t, s));
      } else this.shownKings[ts]++;
    }
    if (start)
      for (let s = 1; s < start.length; s++)
        if (isKingCode(start[s])) this.startKings[this.sideOf(start[s])]++;
    for (const top of this.shownTop) {
      const rows = top.splice(1).sort((a, b) => b - a);
      for (const f of rows) top.push(top[top.length - 1] + f);
    }
  }

  /** `board`'s tally, square by square. */
  scan(board: Int8Array, into: Tally): void {
    into.clear();
    for (let s = 1; s < board.length; s++) this.count(into, s, board[s], 1);
  }

  /** The tally after `move` in `pos` (whose tally is `from`), into `into`. */
  child(from: Tally, pos: Position, move: Move, into: Tally): void {
    into.copyFrom(from);
    const board = pos.board;
    const code = board[move.from];
    this.count(into, move.from, code, -1);
    this.count(into, move.from, NONE, 1);
    for (const c of move.captured) {
      this.count(into, c, board[c], -1);
      this.count(into, c, NONE, 1);
    }
    // A capture may end where it began: the square is empty by now.
    const before = move.to === move.from ? NONE : board[move.to];
    this.count(into, move.to, before, -1);
    this.count(into, move.to, move.promotes ? code + 2 : code, 1);
  }

  /** Adds (`sign` 1) or takes away (−1) what square `s` holding `p` counts. */
  private count(tally: Tally, s: number, p: number, sign: number): void {
    const t = this.seen[s];
    const ps = p === NONE ? 0 : this.sideOf(p);
    if (p !== NONE) {
      tally.have[ps] += sign;
      if (isKingCode(p)) tally.kings[ps] += sign;
      else {
        const f = this.forwardOf(p, s);
        tally.forward[ps] += sign * f;
        tally.rows[ps * ROWS + f] += sign;
        // A square is added where it was not, and taken away where it was: a toggle either way.
        tally.menBits[(isWhiteCode(p) ? 0 : 2) + (s >> 5)] ^= 1 << (s & 31);
      }
      if (t === NONE || this.sideOf(t) !== ps) tally.leaving[ps] += sign;
    }
    if (t !== NONE && (p === NONE || ps !== this.sideOf(t) || !agrees(t, p)))
      listed(tally.arrivals, tally.arrivalCount, this.sideOf(t), s, sign);
  }

  private sideOf(code: number): number {
    return this.byColour && !isWhiteCode(code) ? 1 : 0;
  }

  /**
   * Could a line of exactly `plies` plies lead from the board `tally` counts (`turn` to move) to
   * the board shown? False only when none can: the side to move plays plies 1, 3, 5 …,
   * the other 2, 4, 6 …, and each side's moves must lie within its bounds. `quietMover`: the tally
   * is a child's after a quiet move of that side — the other side's pieces, and the moves left to
   * it, are its parent's, whose bound held: only the mover's are bounded again.
   */
  fits(tally: Tally, turn: Side, plies: number, quietMover?: Side): boolean {
    const byColour = this.byColour;
    const sides = byColour ? 2 : 1;
    const only = byColour && quietMover !== undefined ? (quietMover === 'white' ? 0 : 1) : -1;
    for (let c = 0; c < sides; c++) {
      if (only >= 0 && c !== only) continue;
      const have = tally.have[c];
      const kings = tally.kings[c];
      // Pieces only leave the board.
      const lost = have - this.shown[c];
      if (lost < 0) return false;
      // The captures this side still makes (occupancy only: every capture, both sides').
      const jumps = byColour ? tally.have[1 - c] - this.shown[1 - c] : lost;
      // The moves this side has: the side to move plays plies 1, 3, 5 …, the other 2, 4, 6 ….
      const own = !byColour
        ? plies
        : (c === 0) === (turn === 'white')
          ? Math.ceil(plies / 2)
          : Math.floor(plies / 2);
      // Men shown that may be kings with no crown on: the kings the game had before the gap, which
      // the board may have shown uncrowned all along (sensed-codes.ts agrees). A king made in the gap is
      // looked for crowned, or on its far row: its crown is put on as it is made.
      const top = this.shownTop[c];
      const uncrowned = Math.min(top.length - 1, kings, this.startKings[c]);
      // Men's progress still to make: the rows the board's men stand forward, less the position's.
      const progress = this.shownForward[c] - top[uncrowned] - tally.forward[c];
      // A quiet move takes a man one row forward, a jump at most two; nothing else adds progress,
      // and the side's pieces captured take theirs with them (at least the least advanced ones').
      const gained = progress + (lost > 0 ? leastProgress(tally, c, kings, lost) : 0);
      const stepped = byColour ? Math.max(0, gained - 2 * jumps) + (jumps > 0 ? 1 : 0) : 0;
      // A side with men only that loses no more pieces cannot waste a move: a quiet move takes a man
      // one row forward, a capture at most one move and two rows back per piece taken.
      if (byColour && lost === 0 && kings === 0 && this.shownKings[c] === 0 && own > progress + 3 * jumps)
        return false;
      // The cheap bounds first: the arrivals' travel only when they leave room.
      const arrivals = tally.arrivalCount[c];
      if (Math.max(arrivals, tally.leaving[c] - lost, jumps > 0 ? 1 : 0, stepped) > own) return false;
      // Occupancy only: no crown shows, so a man crowned in the gap may have moved on anywhere.
      const crowning = !byColour && this.crowns(tally, jumps, own);
      if (arrivals > 0 && this.travel(tally, c, kings, jumps, own, crowning) > own) return false;
    }
    return true;
  }

  /**
   * Can a man be crowned and moved on from the far row within `own` moves, `jumps` captures left?
   * (A quiet move takes a man a row forward, the jumps of a capture two rows each.)
   */
  private crowns(tally: Tally, jumps: number, own: number): boolean {
    const far = this.width - 1;
    for (let f = far - 1; f >= 0; f--) {
      if (tally.rows[f] === 0) continue;
      const rows = far - f;
      return (jumps > 0 ? Math.max(1, rows - 2 * jumps + 1) : rows) + 1 <= own;
    }
    return false;
  }

  /** How many rows a man (code) on `s` stands forward of its own back row. */
  private forwardOf(code: number, s: number): number {
    return isWhiteCode(code) ? this.width - 1 - this.rowOf[s] : this.rowOf[s];
  }

  /**
   * The fewest moves a man of side `c` (occupancy only: of either colour) needs to `t` with `k`
   * jumps.
   */
  private nearest(t: number, c: number, k: number, bits: Int32Array): number {
    const reach = this.reach;
    if (this.byColour) return reach.least(t, c, k, bits[2 * c], bits[2 * c + 1]);
    return Math.min(reach.least(t, 0, k, bits[0], bits[1]), reach.least(t, 1, k, bits[2], bits[3]));
  }

  /**
   * The fewest moves that bring a piece of side `c` to `t` with `k` jumps: a king needs at least a
   * move, a man manMoves. `toCrown`: the rows the side's most advanced white and black man have
   * still to go to be crowned (Infinity: none of that colour) — a man crowned in the gap is that far
   * at best. `crowning`: a man crowned in the gap may have moved on anywhere (occupancy only).
   */
  private arrivalMoves(
    t: number,
    c: number,
    k: number,
    kingCount: number,
    crowning: boolean,
    bits: Int32Array,
    whiteToCrown: number,
    blackToCrown: number,
  ): number {
    let best = kingCount > 0 ? 1 : INF;
    if (isKingCode(this.seen[t])) {
      // Crowned in the gap: the man reaches its far row, then (unless that is here) moves on.
      const white = whiteToCrown + (this.rowOf[t] === 0 ? 0 : 1) - 2 * k;
      const black = blackToCrown + (this.rowOf[t] === this.width - 1 ? 0 : 1) - 2 * k;
      return Math.min(best, Math.max(1, white), Math.max(1, black));
    }
    // No man needs fewer than one move.
    if (best === 1) return 1;
    best = Math.min(best, this.nearest(t, c, k, bits));
    // Crowned in the gap (a capture crowns only where it ends), then moved on. Not when no man
    // can: that costs more than is allowed.
    if (crowning) {
      const toCrown = Math.min(whiteToCrown, blackToCrown);
      best = Math.min(best, k === 0 ? toCrown + 1 : Math.max(0, toCrown - 2 * k) + 2);
    }
    return best;
  }

  /**
   * Each square the board shows a piece on that the position has not needs its own piece to get
   * there, and distinct pieces make distinct moves: the least moves over those squares, summed, the
   * side's `jumps` (the captures left to it) shared among them (arrivalMoves). Where the sum is
   * settled against `allowed` without sharing — each square with the fewest of any share already
   * more, or each with none, the jumps made in one move more, within it — that sum is returned:
   * the bound asks only whether the least exceeds `allowed`.
   */
  private travel(
    tally: Tally,
    c: number,
    kingCount: number,
    jumps: number,
    allowed: number,
    crowning: boolean,
  ): number {
    const { rowOf, width, scratch } = this;
    const arrivals = tally.arrivals;
    const arrivalCount = tally.arrivalCount[c];
    const stride = jumps + 1;
    const bits = tally.menBits;
    // The side's most advanced man of each colour: its rows to its far row (squares are numbered
    // row by row from Black's side: White's is its lowest square, Black's its highest).
    const white = (!this.byColour || c === 0) && (bits[0] !== 0 || bits[1] !== 0);
    const black = (!this.byColour || c === 1) && (bits[2] !== 0 || bits[3] !== 0);
    const whiteToCrown = white ? rowOf[lowestSquare(bits[0], bits[1])] : INF;
    const blackToCrown = black ? width - 1 - rowOf[highestSquare(bits[2], bits[3])] : INF;
    // moves[i * stride + k]: the i-th square's least moves with k jumps.
    const moves = scratch.moves;
    let lower = 0;
    let upper = jumps > 0 ? 1 : 0;
    for (let i = 0; i < arrivalCount; i++) {
      const t = arrivals[c * LIST + i];
      let fewest = INF;
      for (let k = 0; k < stride; k++) {
        const m = this.arrivalMoves(t, c, k, kingCount, crowning, bits, whiteToCrown, blackToCrown);
        moves[i * stride + k] = m;
        if (m < fewest) fewest = m;
      }
      lower += fewest;
      upper += moves[i * stride];
      // Sums only grow: past the moves allowed, the rest of the squares cannot bring it back.
      if (lower > allowed) return lower;
    }
    if (upper <= allowed) return upper;
    // total[k]: the least moves for the squares so far with exactly k jumps among them.
    const total = scratch.total;
    total.fill(INF, 0, stride);
    total[0] = 0;
    for (let i = 0; i < arrivalCount; i++) {
      // Shares of the jumps: this square's k of them, the others' the rest (min-plus, small).
      let fewest = INF;
      for (let all = jumps; all >= 0; all--) {
        let least = INF;
        for (let k = 0; k <= all; k++) least = Math.min(least, total[all - k] + moves[i * stride + k]);
        total[all] = least;
        fewest = Math.min(fewest, least);
      }
      if (fewest > allowed) return fewest;
    }
    // Jumps no arriving piece makes are made by pieces captured later (or coming back): at least
    // one move more.
    let least = total[jumps];
    for (let k = 0; k < jumps; k++) least = Math.min(least, total[k] + 1);
    return least;
  }
}

/** The lowest square of a set (bits 0–31 `low`, 32–63 `high`; not empty). */
function lowestSquare(low: number, high: number): number {
  return low !== 0 ? 31 - Math.clz32(low & -low) : 63 - Math.clz32(high & -high);
}

/** The highest square of a set (not empty). */
function highestSquare(low: number, high: number): number {
  return high !== 0 ? 63 - Math.clz32(high) : 31 - Math.clz32(low);
}

/** Adds square `s` to side `c`'s list (`sign` 1), or takes it out (−1). */
function listed(list: Int32Array, counts: Int32Array, c: number, s: number, sign: number): void {
  const base = c * LIST;
  if (sign > 0) {
    list[base + counts[c]++] = s;
    return;
  }
  const n = counts[c];
  for (let i = 0; i < n; i++) {
    if (list[base + i] === s) {
      list[base + i] = list[base + n - 1];
      counts[c] = n - 1;
      return;
    }
  }
}

/** The progress of the `count` least advanced pieces of side `c` (kings first: they have none). */
function leastProgress(tally: Tally, c: number, kings: number, count: number): number {
  let left = count - Math.min(count, kings);
  let sum = 0;
  for (let f = 0; f < ROWS && left > 0; f++) {
    const n = Math.min(left, tally.rows[c * ROWS + f]);
    sum += n * f;
    left -= n;
  }
  return sum;
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

/**
 * manMoves by the arrival square: for each square, colour and number of jumps, the squares a man
 * needs so many moves from, grouped by that number, fewest first. The nearest man of a set is the
 * first group it meets, a few word tests instead of one lookup a man.
 */
class ManReach {
  /** Per (square, colour, jumps): where its groups begin in the lists below (and end: the next's). */
  private readonly start: Int32Array;
  private readonly moves: Float64Array;
  private readonly low: Int32Array;
  private readonly high: Int32Array;

  constructor(g: Geometry) {
    const { rowOf, colOf, squares } = g;
    const groups: Array<{ moves: number; low: number; high: number }> = [];
    this.start = new Int32Array((squares + 1) * 2 * (MAX_JUMPS + 1) + 1);
    for (let t = 0; t <= squares; t++)
      for (let colour = 0; colour < 2; colour++)
        for (let k = 0; k <= MAX_JUMPS; k++) {
          this.start[(t * 2 + colour) * (MAX_JUMPS + 1) + k] = groups.length;
          const byMoves = new Map<number, { moves: number; low: number; high: number }>();
          for (let s = 1; t > 0 && s <= squares; s++) {
            const forward = colour === 0 ? rowOf[s] - rowOf[t] : rowOf[t] - rowOf[s];
            const need = manMoves(forward, colOf[s] - colOf[t], k);
            if (need === INF) continue;
            let group = byMoves.get(need);
            if (!group) byMoves.set(need, (group = { moves: need, low: 0, high: 0 }));
            if (s < 32) group.low |= 1 << s;
            else group.high |= 1 << (s - 32);
          }
          groups.push(...[...byMoves.values()].sort((a, b) => a.moves - b.moves));
        }
    this.start[this.start.length - 1] = groups.length;
    this.moves = Float64Array.from(groups, (g) => g.moves);
    this.low = Int32Array.from(groups, (g) => g.low);
    this.high = Int32Array.from(groups, (g) => g.high);
  }

  /** The fewest moves a man of `colour` on the squares `low`/`high` needs to `t` with `k` jumps. */
  least(t: number, colour: number, k: number, low: number, high: number): number {
    // More jumps than tabled: a capture move at least.
    if (k > MAX_JUMPS) return low !== 0 || high !== 0 ? 1 : INF;
    const at = (t * 2 + colour) * (MAX_JUMPS + 1) + k;
    const end = this.start[at + 1];
    for (let i = this.start[at]; i < end; i++)
      if ((this.low[i] & low) !== 0 || (this.high[i] & high) !== 0) return this.moves[i];
    return INF;
  }
}

const REACHES = new WeakMap<Geometry, ManReach>();

function manReach(g: Geometry): ManReach {
  let reach = REACHES.get(g);
  if (!reach) REACHES.set(g, (reach = new ManReach(g)));
  return reach;
}

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
