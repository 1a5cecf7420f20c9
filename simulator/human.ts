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

/** Human delays (ms, medians); every draw is log-normal around these. */
export const DELAYS = {
  /** Lift → put of an ordinary move. */
  carry: 350,
  /** Each step of a slide trail or a 4.9 touch. */
  touch: 120,
  /** Sensor bounce: far below anything a hand does. */
  bounce: 25,
  /** Last put → first removal. */
  beforeRemoval: 350,
  /** Between two removals (well inside what 4.11 calls "without pausing"). */
  betweenRemovals: 280,
  /** Last action → clock press. */
  beforePress: 400,
  /** Adjusting a piece in place. */
  adjust: 250,
} as const;

export class Hands {
  readonly geometry: Geometry;
  constructor(
    readonly tl: Timeline,
    readonly rng: Rng,
    readonly noise: NoiseProfile,
    variant: Variant,
  ) {
    this.geometry = geometry(variant);
  }

  /** A human delay around `median` ms (never below a quarter of it). */
  delay(median: number): number {
    return Math.max(median / 4, this.rng.logNormal(median, this.noise.jitter));
  }

  pause(median: number): void {
    this.tl.wait(this.delay(median));
  }

  put(square: number, piece: PieceCode): void {
    this.tl.put(square, piece);
    if (this.rng.chance(this.noise.bounce)) this.bounce(square);
  }

  /** A contact flickering: lift and put on the same square within a few tens of ms. */
  bounce(square: number): void {
    const piece = this.tl.pieceAt(square)!;
    this.tl.wait(this.delay(DELAYS.bounce));
    this.tl.lift(square);
    this.tl.wait(this.delay(DELAYS.bounce));
    this.tl.put(square, piece);
  }

  /** Lift and put back the same piece on the same square (adjusting, or touch-move when hovered). */
  liftAndReplace(square: number, holdMedian: number = DELAYS.adjust): void {
    const piece = this.tl.lift(square);
    this.pause(holdMedian);
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

  /** A trail of put/lift on each square the piece slides over. */
  slideOver(squares: readonly number[], piece: PieceCode): void {
    for (const s of squares) {
      this.tl.put(s, piece);
      this.pause(DELAYS.touch / 2);
      this.tl.lift(s);
      this.pause(DELAYS.touch / 3);
    }
  }

  /**
   * Carries `move`'s piece from its square to its destination (no removals). `touchLandings`
   * overrides the noise profile's 4.9 choice. Returns the piece as first set down.
   */
  carry(move: Move, opts: { touchLandings?: boolean; crownLater?: boolean } = {}): PieceCode {
    const { tl, rng, noise } = this;
    const piece = tl.pieceAt(move.from)!;
    const crowned: PieceCode = piece === 'w' ? 'W' : piece === 'b' ? 'B' : piece;
    const setDown = move.promotes && !opts.crownLater ? crowned : piece;
    const quiet = move.captured.length === 0;
    if (quiet && move.path.length === 2 && piece === move.piece && rng.chance(noise.newBeforeOld)) {
      // The scan reaches the new square first: the piece shows on both squares for a moment.
      tl.put(move.to, setDown);
      tl.wait(rng.range(5, 60));
      tl.lift(move.from);
      return setDown;
    }
    tl.lift(move.from);
    const slides = rng.chance(noise.slide);
    const touch = opts.touchLandings ?? rng.chance(noise.touchLandings);
    for (let i = 1; i < move.path.length; i++) {
      const a = move.path[i - 1];
      const b = move.path[i];
      if (slides && b !== a) this.slideOver(this.crossed(a, b), piece);
      else this.pause(DELAYS.carry / Math.max(1, move.path.length - 1));
      if (i < move.path.length - 1 && touch) {
        tl.put(b, piece);
        this.pause(DELAYS.touch);
        tl.lift(b);
        this.pause(DELAYS.touch / 2);
      }
    }
    this.put(move.to, setDown);
    return setDown;
  }

  /** Takes the captured pieces off in the given order, with the short pauses of a person's hand. */
  removeAll(order: readonly number[], betweenMedian: number = DELAYS.betweenRemovals): void {
    order.forEach((s, i) => {
      this.pause(i === 0 ? DELAYS.beforeRemoval : betweenMedian);
      this.tl.lift(s);
    });
  }

  /** The order a person takes captured pieces off: capture order or its reverse (4.11). */
  removalOrder(move: Move): number[] {
    const order = [...move.captured];
    return this.rng.chance(this.noise.reverseRemoval) ? order.reverse() : order;
  }

  /** Swaps a man on `square` for a king (promotion shown after the move). */
  crown(square: number): void {
    const man = this.tl.lift(square);
    this.pause(DELAYS.adjust);
    this.tl.put(square, man === 'w' ? 'W' : 'B');
  }
}
