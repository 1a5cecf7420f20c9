// The hands: how a person turns an intended move into lifts and puts, with human timing and the
// harmless sensor noise of real boards (bounce, slides, 4.9 touches, scan order, adjustments).
import type { PieceCode } from '../firmware-protocol/events.ts';
import { type Geometry, geometry, type Move, type Variant } from '../src/engine/index.ts';
import type { Rng } from './prng.ts';
import type { Timeline } from './timeline.ts';

export type Noise = 'none' | 'realistic' | 'harsh';
export const NOISES: readonly Noise[] = ['none', 'realistic', 'harsh'];

export interface NoiseProfile {
  /** Probability a multi-capture is shown by touching each intermediate landing square (4.9). */
  touchLandings: number;
  /** Probability a king's move (or a capture leg) slides across the squares it crosses. */
  slide: number;
  /** Probability of a sensor bounce (quick lift + put) after a put. */
  bounce: number;
  /** Probability the player adjusts the piece just moved before pressing the clock. */
  adjust: number;
  /** Probability the scan reports the new square before the old one on a quiet move. */
  newBeforeOld: number;
  /** Probability captured pieces come off in reverse capture order (4.11 allows both). */
  reverseRemoval: number;
  /** Probability a promotion is shown by putting the man down and then swapping it for a king. */
  crownAfter: number;
  /** Spread of every human delay (σ of the log-normal). */
  jitter: number;
}

export const NOISE_PROFILES: Record<Noise, NoiseProfile> = {
  none: {
    touchLandings: 0,
    slide: 0,
    bounce: 0,
    adjust: 0,
    newBeforeOld: 0,
    reverseRemoval: 0,
    crownAfter: 0,
    jitter: 0.2,
  },
  realistic: {
    touchLandings: 0.6,
    slide: 0.4,
    bounce: 0.04,
    adjust: 0.04,
    newBeforeOld: 0.1,
    reverseRemoval: 0.3,
    crownAfter: 0.5,
    jitter: 0.35,
  },
  harsh: {
    touchLandings: 0.9,
    slide: 0.8,
    bounce: 0.15,
    adjust: 0.12,
    newBeforeOld: 0.3,
    reverseRemoval: 0.5,
    crownAfter: 0.7,
    jitter: 0.5,
  },
};

/**
 * Human delays (ms): a log-normal around `median`, clamped to the bounds docs/irregularities.md
 * ("Normal hand behaviour") promises the tracker, so noise never turns into an alert.
 */
export interface Delay {
  median: number;
  min: number;
  max: number;
}
const d = (median: number, min: number, max: number): Delay => ({ median, min, max });
export const DELAYS = {
  /** Lift → put of an ordinary move (the piece in the hand at most 2000 ms, all legs together). */
  carry: d(350, 120, 1200),
  /** Each step of a slide trail (20–150 ms apart). */
  slide: d(60, 20, 150),
  /** Each 4.9 touch of an intermediate landing square (100–300 ms). */
  touch: d(160, 100, 300),
  /** Sensor bounce: each half of a lift/put pair on one square (the pair within 100 ms). */
  bounce: d(20, 5, 45),
  /** Last put → first removal (150–1000 ms). */
  beforeRemoval: d(350, 150, 1000),
  /** Between two removals (≤ 1000 ms: 4.11 "without pausing"). */
  betweenRemovals: d(280, 80, 1000),
  /** Last board change → clock press (100–3000 ms). */
  beforePress: d(450, 100, 3000),
  /** Holding a piece while adjusting it in place (150–1000 ms). */
  adjust: d(300, 150, 1000),
  /** A promoted man swapped for a king (150–1500 ms after it was put down). */
  crown: d(500, 150, 1500),
  /** Each piece taken off or put on while setting up a game. */
  setUp: d(300, 100, 1500),
  /** Between two pieces swept off by two hands (20–100 ms). */
  sweep: d(50, 20, 100),
  /** One captured piece taken off while the capturing piece is in the hand: lift → take, take → land. */
  takeFirst: d(250, 5, 600),
} as const;

/**
 * Habits of real hands, each the chance per move it fits (off unless asked for): the one captured
 * piece of a one-piece capture taken off before the capturing piece is let go (4.4: that capture is
 * complete, no 5.4.10), and a multi-capture's pieces swept off by two hands.
 */
export interface HandHabits {
  takeBeforeLanding?: number;
  sweep?: number;
}

/** The habits as often as club players show them (`damlink simulate --real-hands`, the demo). */
export const REAL_HANDS: HandHabits = { takeBeforeLanding: 0.4, sweep: 0.4 };

/** A man as a king (a king as it is). */
export const crowned = (p: PieceCode): PieceCode => (p === 'w' ? 'W' : p === 'b' ? 'B' : p);

/** The most a piece may be held from lift to final put (ms). */
const MAX_CARRY_MS = 1900;

export class Hands {
  readonly geometry: Geometry;
  constructor(
    readonly tl: Timeline,
    readonly rng: Rng,
    readonly noise: NoiseProfile,
    variant: Variant,
    readonly habits: HandHabits = {},
    /** The habits' own dice: a game without habits plays as it always did. */
    private readonly habitRng: Rng = rng,
  ) {
    this.geometry = geometry(variant);
  }

  /** The habit applies to this move (never when it is off). */
  habit(chance: number | undefined): boolean {
    return chance !== undefined && chance > 0 && this.habitRng.chance(chance);
  }

  /**
   * A one-piece capture: the piece lifted, the captured piece taken off while it is in the hand
   * (the other hand, or the same movement), then let go on its square.
   */
  takeThenLand(move: Move): void {
    const piece = this.tl.lift(move.from);
    const setDown = move.promotes ? crowned(piece) : piece;
    this.pause(DELAYS.takeFirst);
    this.tl.lift(move.captured[0]);
    this.pause(DELAYS.takeFirst);
    this.put(move.to, setDown);
  }

  /** A human delay within `range` (ms). */
  delay(range: Delay): number {
    return Math.min(range.max, Math.max(range.min, this.rng.logNormal(range.median, this.noise.jitter)));
  }

  pause(range: Delay): void {
    this.tl.wait(Math.max(this.floorMs, this.delay(range)));
  }

  /** A pause only a board that reports by scans needs, to see what came before in a scan of its own. */
  scanGap(): void {
    if (this.floorMs > 0) this.tl.wait(this.floorMs);
  }

  /** The shortest pause while `run` runs (a board that reports by scans must see each step). */
  private floorMs = 0;
  atLeast<T>(ms: number, run: () => T): T {
    const was = this.floorMs;
    this.floorMs = Math.max(was, ms);
    try {
      return run();
    } finally {
      this.floorMs = was;
    }
  }

  put(square: number, piece: PieceCode): void {
    this.tl.put(square, piece);
    if (this.rng.chance(this.noise.bounce)) this.bounce(square);
  }

  /** A contact flickering: lift and put on the same square within a few tens of ms. */
  bounce(square: number): void {
    this.tl.wait(this.delay(DELAYS.bounce));
    const piece = this.tl.lift(square);
    this.tl.wait(this.delay(DELAYS.bounce));
    this.tl.put(square, piece);
  }

  /** Lift and put back the same piece on the same square (adjusting, or touch-move when hovered). */
  liftAndReplace(square: number, hold: Delay = DELAYS.adjust): void {
    const piece = this.tl.lift(square);
    this.pause(hold);
    this.tl.put(square, piece);
  }

  /** Empty squares the piece crosses going from `a` to `b` in a straight line (excluding both). */
  crossed(a: number, b: number): number[] {
    const g = this.geometry;
    const up = g.rowOf[b] < g.rowOf[a];
    const left = g.colOf[b] < g.colOf[a];
    const ray = g.rays[a][(up ? 0 : 2) + (left ? 0 : 1)];
    const out: number[] = [];
    for (const s of ray) {
      if (s === b) break;
      if (!this.tl.pieceAt(s)) out.push(s);
    }
    return out;
  }

  /** A trail of put/lift on each square the piece slides over (one movement: never slowed down). */
  slideOver(squares: readonly number[], piece: PieceCode): void {
    for (const s of squares) {
      this.tl.wait(this.delay(DELAYS.slide));
      this.tl.put(s, piece);
      this.tl.wait(this.delay(DELAYS.slide));
      this.tl.lift(s);
    }
  }

  /**
   * Carries `move`'s piece from its square to its destination (no removals), sliding and touching
   * landing squares (4.9) as the noise profile says; `touchLandings` forces the 4.9 choice and
   * `onLanding(i)` runs while the piece stands on the i-th intermediate landing (5.4.10).
   * A promotion is set down as a king unless `crownLater`. Returns the piece as first set down.
   */
  carry(
    move: Move,
    opts: { touchLandings?: boolean; crownLater?: boolean; onLanding?: (i: number) => void } = {},
  ): PieceCode {
    const { tl, rng, noise } = this;
    const piece = tl.pieceAt(move.from)!;
    const setDown = move.promotes && !opts.crownLater ? crowned(piece) : piece;
    const quiet = move.captured.length === 0;
    if (quiet && move.path.length === 2 && rng.chance(noise.newBeforeOld)) {
      // The scan reaches the new square first: the piece shows on both squares for a moment.
      tl.put(move.to, setDown);
      tl.wait(rng.range(5, 60));
      tl.lift(move.from);
      return setDown;
    }
    const liftedAt = tl.t;
    tl.lift(move.from);
    const slides = rng.chance(noise.slide);
    const touch = opts.touchLandings ?? (move.path.length > 2 && rng.chance(noise.touchLandings));
    const legs = move.path.length - 1;
    for (let i = 1; i <= legs; i++) {
      const a = move.path[i - 1];
      const b = move.path[i];
      // Keep the whole carry within the time a piece may be held (later legs get what is left).
      const left = MAX_CARRY_MS - (tl.t - liftedAt);
      const share = Math.max(20, left / (legs - i + 1));
      const crossed = slides ? this.crossed(a, b) : [];
      if (crossed.length > 0 && share > 2 * 20 * crossed.length) this.slideOver(crossed, piece);
      else tl.wait(Math.min(share * 0.6, this.delay(DELAYS.carry) / legs));
      if (i < legs && touch) {
        tl.put(b, piece);
        opts.onLanding?.(i);
        tl.wait(Math.min(Math.max(40, share * 0.3), this.delay(DELAYS.touch)));
        tl.lift(b);
      } else if (i < legs) opts.onLanding?.(i);
    }
    this.put(move.to, setDown);
    return setDown;
  }

  /**
   * Takes the captured pieces off in the given order, with the short pauses of a person's hand, or
   * swept by two hands when that habit applies.
   */
  removeAll(order: readonly number[], between?: Delay): void {
    between ??= order.length > 1 && this.habit(this.habits.sweep) ? DELAYS.sweep : DELAYS.betweenRemovals;
    const gap = between;
    order.forEach((s, i) => {
      this.pause(i === 0 ? DELAYS.beforeRemoval : gap);
      this.tl.lift(s);
    });
  }

  /** The order a person takes captured pieces off: capture order or its reverse (4.11). */
  removalOrder(move: Move): number[] {
    const order = [...move.captured];
    return this.rng.chance(this.noise.reverseRemoval) ? order.reverse() : order;
  }

  /** Sets up `board` (board string) by hand: clears what differs, then puts the pieces one by one. */
  setUp(board: string): void {
    for (let s = 1; s <= board.length; s++) {
      if (this.tl.pieceAt(s) && this.tl.pieceAt(s) !== board[s - 1]) {
        this.pause(DELAYS.setUp);
        this.tl.lift(s);
      }
    }
    for (let s = 1; s <= board.length; s++) {
      const want = board[s - 1];
      if (want !== '.' && !this.tl.pieceAt(s)) {
        this.pause(DELAYS.setUp);
        this.tl.put(s, want as PieceCode);
      }
    }
  }

  /** Swaps a man on `square` for a king (promotion shown after the move). */
  crown(square: number): void {
    this.pause(DELAYS.crown);
    const man = this.tl.lift(square);
    this.pause(DELAYS.adjust);
    this.tl.put(square, crowned(man));
  }
}
