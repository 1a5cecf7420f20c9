// Bitboards in two words for counting (perft): a ghost bit after every two rows makes every diagonal
// step a shift by width/2 or width/2+1 (5/6 on 10×10, 4/5 on 8×8) without wrapping, so the men of
// one side move or find captures with a few shifts and masks for the whole board at once. The 54
// bits of 10×10 are split 27 + 27 (not 32 + 22): every word then stays a small integer (V8 "Smi",
// 31 bits), which keeps the recursion free of heap numbers (a boxed double allocated per step).
// Kings and multi-captures walk precomputed neighbour tables. The move lists of the public API
// (paths, capture order) still come from movegen.ts; tests check both against each other.
import type { Position } from './position.ts';
import { geometry, type Variant } from './variant.ts';

/** Bits in the low word: half the bits of the layout, rounded up (27 on 10×10, 18 on 8×8). */
function wordBits(variant: Variant): number {
  const g = geometry(variant);
  const bits = g.squares + g.width / 2 - 1;
  return Math.ceil(bits / 2);
}

interface Tables {
  /** Bits per two rows (width + 1); shifts for the two diagonals. */
  short: number;
  long: number;
  bitOfSquare: Int32Array;
  /** next[bit*4+d]: the neighbour bit in direction d (0 up-left, 1 up-right, 2 down-left, 3 down-right), or −1. */
  next: Int32Array;
  /** Valid squares, and the crowning rows of White (top) and Black (bottom). */
  boardLo: number;
  boardHi: number;
  whiteRowLo: number;
  whiteRowHi: number;
  blackRowLo: number;
  blackRowHi: number;
}

function buildTables(variant: Variant): Tables {
  const g = geometry(variant);
  const S = wordBits(variant);
  const perRow = g.width / 2;
  const bitOfSquare = new Int32Array(g.squares + 1).fill(-1);
  for (let s = 1; s <= g.squares; s++) bitOfSquare[s] = s - 1 + Math.floor((s - 1) / g.width);
  const next = new Int32Array(64 * 4).fill(-1);
  for (let s = 1; s <= g.squares; s++) {
    for (let d = 0; d < 4; d++) {
      const n = g.rays[s][d][0];
      if (n !== undefined) next[bitOfSquare[s] * 4 + d] = bitOfSquare[n];
    }
  }
  const mask = (squares: Iterable<number>) => {
    let lo = 0;
    let hi = 0;
    for (const s of squares) {
      const b = bitOfSquare[s];
      if (b < S) lo |= 1 << b;
      else hi |= 1 << (b - S);
    }
    return [lo, hi];
  };
  const all = Array.from({ length: g.squares }, (_, i) => i + 1);
  const [boardLo, boardHi] = mask(all);
  const [whiteRowLo, whiteRowHi] = mask(all.filter((s) => g.whitePromotion(s)));
  const [blackRowLo, blackRowHi] = mask(all.filter((s) => g.blackPromotion(s)));
  return {
    short: perRow,
    long: perRow + 1,
    bitOfSquare,
    next,
    boardLo,
    boardHi,
    whiteRowLo,
    whiteRowHi,
    blackRowLo,
    blackRowHi,
  };
}

function popcount(x: number): number {
  x -= (x >>> 1) & 0x55555555;
  x = (x & 0x33333333) + ((x >>> 2) & 0x33333333);
  x = (x + (x >>> 4)) & 0x0f0f0f0f;
  return Math.imul(x, 0x01010101) >>> 24;
}

export interface Counter {
  /** Leaves at `depth` plies (bulk counting at the last ply). */
  perft(pos: Position, depth: number): number;
  /** The number of legal (canonical) moves. */
  countMoves(pos: Position): number;
}

const MAX_MOVES = 512;
const MAX_DEPTH = 64;
/** Move record: from bit, to bit, captured lo, captured hi, promotes. */
const STRIDE = 5;

function makeCounter(variant: Variant): Counter {
  const S = wordBits(variant);
  const T = buildTables(variant);
  const { short, long, next, boardLo, boardHi } = T;
  const moves = new Int32Array(MAX_DEPTH * MAX_MOVES * STRIDE);

  // Capture search state (one search at a time).
  let oppLo = 0;
  let oppHi = 0;
  let occLo = 0;
  let occHi = 0;
  let best = 0;
  let base = 0;
  let count = 0;
  let from = 0;
  let promoLo = 0;
  let promoHi = 0;
  let isMan = false;

  const has = (lo: number, hi: number, b: number) => (b < S ? (lo >>> b) & 1 : (hi >>> (b - S)) & 1);

  function record(to: number, capLo: number, capHi: number, n: number): void {
    if (n > best) {
      best = n;
      count = 0;
    } else {
      for (let i = 0; i < count; i++) {
        const o = base + i * STRIDE;
        if (moves[o] === from && moves[o + 1] === to && moves[o + 2] === capLo && moves[o + 3] === capHi)
          return;
      }
    }
    const o = base + count * STRIDE;
    moves[o] = from;
    moves[o + 1] = to;
    moves[o + 2] = capLo;
    moves[o + 3] = capHi;
    moves[o + 4] = isMan && has(promoLo, promoHi, to) ? 1 : 0;
    count++;
  }

  function manCaptures(sq: number, capLo: number, capHi: number, n: number): void {
    let extended = false;
    for (let d = 0; d < 4; d++) {
      const v = next[sq * 4 + d];
      if (v < 0 || !has(oppLo, oppHi, v) || has(capLo, capHi, v)) continue;
      const l = next[v * 4 + d];
      if (l < 0 || has(occLo, occHi, l)) continue;
      extended = true;
      if (v < S) manCaptures(l, capLo | (1 << v), capHi, n + 1);
      else manCaptures(l, capLo, capHi | (1 << (v - S)), n + 1);
    }
    if (!extended && n > 0 && n >= best) record(sq, capLo, capHi, n);
  }

  function kingCaptures(sq: number, capLo: number, capHi: number, n: number): void {
    let extended = false;
    for (let d = 0; d < 4; d++) {
      let v = next[sq * 4 + d];
      while (v >= 0 && !has(occLo, occHi, v)) v = next[v * 4 + d];
      if (v < 0 || !has(oppLo, oppHi, v) || has(capLo, capHi, v)) continue;
      let l = next[v * 4 + d];
      const nLo = v < S ? capLo | (1 << v) : capLo;
      const nHi = v < S ? capHi : capHi | (1 << (v - S));
      while (l >= 0 && !has(occLo, occHi, l)) {
        extended = true;
        kingCaptures(l, nLo, nHi, n + 1);
        l = next[l * 4 + d];
      }
    }
    if (!extended && n > 0 && n >= best) record(sq, capLo, capHi, n);
  }

  /** Fills the capture list at `at` for the side `us`; returns its length (0: no capture). */
  function captures(
    usLo: number,
    usHi: number,
    themLo: number,
    themHi: number,
    kLo: number,
    kHi: number,
    white: boolean,
    at: number,
  ): number {
    const emptyLo = ~(usLo | themLo) & boardLo;
    const emptyHi = ~(usHi | themHi) & boardHi;
    const menLo = usLo & ~kLo;
    const menHi = usHi & ~kHi;
    const kingsLo = usLo & kLo;
    const kingsHi = usHi & kHi;
    // The men that can make a first jump, in all four directions at once: shift onto a piece of
    // theirs, then onto an empty square, then back to where the jump started.
    let cLo = 0;
    let cHi = 0;
    for (let i = 0; i < 2; i++) {
      const k = i === 0 ? short : long;
      const k2 = k + k;
      // Toward bit 0 (up): shift right.
      let vLo = ((menLo >>> k) | (menHi << (S - k))) & themLo;
      let vHi = (menHi >>> k) & themHi;
      let lLo = ((vLo >>> k) | (vHi << (S - k))) & emptyLo;
      let lHi = (vHi >>> k) & emptyHi;
      cLo |= lLo << k2;
      cHi |= (lHi << k2) | (lLo >>> (S - k2));
      // Away from bit 0 (down): shift left.
      vLo = (menLo << k) & themLo;
      vHi = ((menHi << k) | (menLo >>> (S - k))) & themHi;
      lLo = (vLo << k) & emptyLo;
      lHi = ((vHi << k) | (vLo >>> (S - k))) & emptyHi;
      cLo |= (lLo >>> k2) | (lHi << (S - k2));
      cHi |= lHi >>> k2;
    }
    cLo &= menLo;
    cHi &= menHi;
    const manCan = (cLo | cHi) !== 0;
    if (!manCan && (kingsLo | kingsHi) === 0) return 0;

    oppLo = themLo;
    oppHi = themHi;
    best = 0;
    count = 0;
    base = at;
    promoLo = white ? T.whiteRowLo : T.blackRowLo;
    promoHi = white ? T.whiteRowHi : T.blackRowHi;
    const allLo = usLo | themLo;
    const allHi = usHi | themHi;
    if (manCan) {
      isMan = true;
      for (let w = 0; w < 2; w++) {
        let x = w === 0 ? cLo : cHi;
        while (x !== 0) {
          const b = x & -x;
          x ^= b;
          from = 31 - Math.clz32(b) + w * S;
          // The mover's square is empty during its own capture.
          occLo = w === 0 ? allLo ^ b : allLo;
          occHi = w === 0 ? allHi : allHi ^ b;
          manCaptures(from, 0, 0, 0);
        }
      }
    }
    isMan = false;
    for (let w = 0; w < 2; w++) {
      let x = w === 0 ? kingsLo : kingsHi;
      while (x !== 0) {
        const b = x & -x;
        x ^= b;
        from = 31 - Math.clz32(b) + w * S;
        occLo = w === 0 ? allLo ^ b : allLo;
        occHi = w === 0 ? allHi : allHi ^ b;
        kingCaptures(from, 0, 0, 0);
      }
    }
    return count;
  }

  function kingQuiet(sq: number, emptyLo: number, emptyHi: number, at: number, n: number): number {
    for (let d = 0; d < 4; d++) {
      let t = next[sq * 4 + d];
      while (t >= 0 && has(emptyLo, emptyHi, t)) {
        if (at >= 0) {
          const o = at + n * STRIDE;
          moves[o] = sq;
          moves[o + 1] = t;
          moves[o + 2] = 0;
          moves[o + 3] = 0;
          moves[o + 4] = 0;
        }
        n++;
        t = next[t * 4 + d];
      }
    }
    return n;
  }

  /** Quiet moves of `us`: written at `at` (or only counted when `at` < 0). */
  function quiet(
    usLo: number,
    usHi: number,
    themLo: number,
    themHi: number,
    kLo: number,
    kHi: number,
    white: boolean,
    at: number,
  ): number {
    const emptyLo = ~(usLo | themLo) & boardLo;
    const emptyHi = ~(usHi | themHi) & boardHi;
    const menLo = usLo & ~kLo;
    const menHi = usHi & ~kHi;
    let n = 0;
    for (let i = 0; i < 2; i++) {
      const k = i === 0 ? short : long;
      let tLo: number;
      let tHi: number;
      if (white) {
        tLo = ((menLo >>> k) | (menHi << (S - k))) & emptyLo;
        tHi = (menHi >>> k) & emptyHi;
      } else {
        tLo = (menLo << k) & emptyLo;
        tHi = ((menHi << k) | (menLo >>> (S - k))) & emptyHi;
      }
      if (at < 0) {
        n += popcount(tLo) + popcount(tHi);
        continue;
      }
      const promoLo = white ? T.whiteRowLo : T.blackRowLo;
      const promoHi = white ? T.whiteRowHi : T.blackRowHi;
      for (let w = 0; w < 2; w++) {
        let x = w === 0 ? tLo : tHi;
        while (x !== 0) {
          const b = x & -x;
          x ^= b;
          const to = 31 - Math.clz32(b) + w * S;
          const o = at + n * STRIDE;
          moves[o] = white ? to + k : to - k;
          moves[o + 1] = to;
          moves[o + 2] = 0;
          moves[o + 3] = 0;
          moves[o + 4] = has(promoLo, promoHi, to);
          n++;
        }
      }
    }
    for (let w = 0; w < 2; w++) {
      let x = w === 0 ? usLo & kLo : usHi & kHi;
      while (x !== 0) {
        const b = x & -x;
        x ^= b;
        n = kingQuiet(31 - Math.clz32(b) + w * S, emptyLo, emptyHi, at, n);
      }
    }
    return n;
  }

  function perftRec(
    usLo: number,
    usHi: number,
    themLo: number,
    themHi: number,
    kLo: number,
    kHi: number,
    white: boolean,
    depth: number,
  ): number {
    const at = depth * MAX_MOVES * STRIDE;
    let n = captures(usLo, usHi, themLo, themHi, kLo, kHi, white, at);
    if (n === 0) {
      if (depth === 1) return quiet(usLo, usHi, themLo, themHi, kLo, kHi, white, -1);
      n = quiet(usLo, usHi, themLo, themHi, kLo, kHi, white, at);
    } else if (depth === 1) return n;
    let total = 0;
    for (let i = 0; i < n; i++) {
      const o = at + i * STRIDE;
      const f = moves[o];
      const t = moves[o + 1];
      const cLo = moves[o + 2];
      const cHi = moves[o + 3];
      const fLo = f < S ? 1 << f : 0;
      const fHi = f < S ? 0 : 1 << (f - S);
      const tLo = t < S ? 1 << t : 0;
      const tHi = t < S ? 0 : 1 << (t - S);
      let nkLo = kLo;
      let nkHi = kHi;
      if ((kLo & fLo) | (kHi & fHi) || moves[o + 4]) {
        nkLo = (nkLo & ~fLo) | tLo;
        nkHi = (nkHi & ~fHi) | tHi;
      }
      total += perftRec(
        themLo & ~cLo,
        themHi & ~cHi,
        usLo ^ fLo ^ tLo,
        usHi ^ fHi ^ tHi,
        nkLo & ~cLo,
        nkHi & ~cHi,
        !white,
        depth - 1,
      );
    }
    return total;
  }

  function split(pos: Position): [number, number, number, number, number, number, boolean] {
    let wLo = 0;
    let wHi = 0;
    let bLo = 0;
    let bHi = 0;
    let kLo = 0;
    let kHi = 0;
    // The mailbox itself (codes 1 w, 2 b, 3 W, 4 B): no list of pieces built per call (draw.ts
    // asks whether the side to move can move after every move of every board).
    const board = pos.board;
    for (let s = 1; s < board.length; s++) {
      const c = board[s];
      if (c === 0) continue;
      const b = T.bitOfSquare[s];
      const lo = b < S ? 1 << b : 0;
      const hi = b < S ? 0 : 1 << (b - S);
      if (c === 1 || c === 3) {
        wLo |= lo;
        wHi |= hi;
      } else {
        bLo |= lo;
        bHi |= hi;
      }
      if (c >= 3) {
        kLo |= lo;
        kHi |= hi;
      }
    }
    const white = pos.turn === 'white';
    return white ? [wLo, wHi, bLo, bHi, kLo, kHi, true] : [bLo, bHi, wLo, wHi, kLo, kHi, false];
  }

  return {
    perft(pos, depth) {
      if (depth <= 0) return 1;
      if (depth >= MAX_DEPTH) throw new RangeError(`perft depth ${depth} is beyond ${MAX_DEPTH - 1}`);
      return perftRec(...split(pos), depth);
    },
    countMoves(pos) {
      return perftRec(...split(pos), 1);
    },
  };
}

const COUNTERS = new Map<Variant, Counter>();

/** The bitboard counter of a variant (built once). */
export function counter(variant: Variant): Counter {
  let c = COUNTERS.get(variant);
  if (!c) {
    c = makeCounter(variant);
    COUNTERS.set(variant, c);
  }
  return c;
}
