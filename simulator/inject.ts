// Irregularities, each exactly as docs/irregularities.md describes its sensor events. A move injector
// replaces the player's move at a ply; an after-move injector acts once the move is pressed
// (5.4.1 two moves in a row, 5.4.4 takeback). Every injector first checks it applies.
import { DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS } from '../src/tracker/timing.ts';
import type { PieceCode } from '../firmware-protocol/events.ts';
import {
  type Side,
  geometry,
  isKing,
  legalMoves,
  legalSequences,
  type Move,
  moveKey,
  moveNotation,
  opposite,
  Position,
  play,
} from '../src/engine/index.ts';
import { CLOCK_RULE_IDS, RULE_IDS, type RuleId } from '../src/tracker/types.ts';
import { completeCaptures } from './captures.ts';
import { type Delay, DELAYS, type Hands } from './human.ts';
import type { Rng } from './prng.ts';

/** The rule id a board's outage raises, not the hands (simulator/outage.ts makes one). */
export const OUTAGE_RULE_IDS: readonly RuleId[] = ['gap'];

/**
 * Every rule id the simulator can inject: all the hands can cause (flags come from the clock, a
 * gap from an outage).
 */
export const INJECTABLE: readonly RuleId[] = RULE_IDS.filter(
  (id) => !CLOCK_RULE_IDS.includes(id) && !OUTAGE_RULE_IDS.includes(id),
);

/** The situation at a ply: the game position (S to move) and the move the player means to play. */
export interface PlyContext {
  pos: Position;
  ply: number;
  legal: readonly Move[];
  /** The sequence (path, capture order) the player would play. */
  intended: Move;
  hands: Hands;
  rng: Rng;
  /** True when `board` (board string) looks, to the sensors, like one of the game's earlier
   * positions: an irregular result must not, or the tracker rightly reads a takeback. */
  isEarlier: (board: string) => boolean;
}

/** What the board shows as played at this ply. */
export interface Played {
  move: Move;
  pdn: string;
  /** Rule ids the tracker marks the move with (R in docs/irregularities.md). */
  irregular?: RuleId;
  /** The game position after it: the engine's, or what is physically on the board (O to move). */
  after: Position;
}

export interface MoveInjector {
  rule: RuleId;
  /** Leaves a position no legal game reaches (scripted games cannot go on after it). */
  altersGame: boolean;
  /** How rare the position it needs is (3: a capture of three or more, 2: of two, 1: any capture):
   * when several rules could happen at a ply, the rarer one goes first. */
  rarity: number;
  /** The action, or undefined when the rule cannot happen at this ply. */
  plan(ctx: PlyContext): (() => Played) | undefined;
}

const span = (min: number, max: number): Delay => ({ median: (min + max) / 2, min, max });

/** The position physically on the board, `turn` to move. */
export function physicalPosition(hands: Hands, variant: Position['variant'], turn: Side): Position {
  const board = hands.tl.trueBoardString();
  const pieces: [number, PieceCode][] = [];
  for (let s = 1; s <= board.length; s++)
    if (board[s - 1] !== '.') pieces.push([s, board[s - 1] as PieceCode]);
  return Position.setup(variant, turn, pieces);
}

const simpleMove = (
  from: number,
  to: number,
  piece: PieceCode,
  captured: number[] = [],
  path = [from, to],
): Move => ({
  from,
  to,
  path,
  captured,
  promotes: false,
  piece,
});

/** One-step man moves of `color` in `forward`-for-`color` (or backward) direction to empty squares. */
function manSteps(pos: Position, color: Side, dirsOf: Side, backward: boolean): Move[] {
  const g = geometry(pos.variant);
  const forward = dirsOf === 'white' ? [0, 1] : [2, 3];
  const dirs = backward ? [0, 1, 2, 3].filter((d) => !forward.includes(d)) : forward;
  const out: Move[] = [];
  for (const [s, p] of pos.pieces(color)) {
    if (isKing(p)) continue;
    for (const d of dirs) {
      const to = g.rays[s][d][0];
      if (to !== undefined && !pos.pieceAt(to)) out.push(simpleMove(s, to, p));
    }
  }
  return out;
}

const promotionRow = (pos: Position, color: Side, square: number): boolean => {
  const g = geometry(pos.variant);
  return color === 'white' ? g.whitePromotion(square) : g.blackPromotion(square);
};

/** Squares diagonally next to `s`. */
const neighbours = (pos: Position, s: number): number[] =>
  geometry(pos.variant)
    .rays[s].map((ray) => ray[0])
    .filter((x) => x !== undefined);

/** Displacements that do not recreate an earlier position of the game. */
function fresh(ctx: PlyContext, moves: Move[]): Move[] {
  const board = ctx.pos.toBoardString();
  return moves.filter((m) => {
    const cells = [...board];
    cells[m.to - 1] = cells[m.from - 1];
    cells[m.from - 1] = '.';
    return !ctx.isEarlier(cells.join(''));
  });
}

/**
 * After S steps O's man `m` backward (5.4.5), O has a reply other than stepping it back: that
 * reply would put the board back as it was, which reads as the players' correction.
 */
function playsOnWithoutUndoing(pos: Position, m: Move): boolean {
  const cells = [...pos.toBoardString()];
  cells[m.to - 1] = cells[m.from - 1];
  cells[m.from - 1] = '.';
  const pieces: [number, PieceCode][] = [];
  cells.forEach((c, i) => {
    if (c !== '.') pieces.push([i + 1, c as PieceCode]);
  });
  const after = Position.setup(pos.variant, opposite(pos.turn), pieces);
  const before = pos.toBoardString();
  return legalMoves(after).some((r) => play(after, r).toBoardString() !== before);
}

/** The plain hand of an irregular displacement: lift, carry, put; nothing else. */
function displace(h: Hands, m: Move): void {
  h.tl.lift(m.from);
  h.pause(DELAYS.carry);
  h.tl.put(m.to, m.piece);
}

/** A normal move by the player's hand, with the noise of the profile. */
export function playNormally(ctx: PlyContext, opts: { removal?: number[]; noAdjust?: boolean } = {}): Played {
  const { hands, intended: move, rng } = ctx;
  const crownLater = move.promotes && move.captured.length === 0 && rng.chance(hands.noise.crownAfter);
  hands.carry(move, { crownLater });
  if (crownLater) hands.crown(move.to);
  if (move.captured.length > 0) hands.removeAll(opts.removal ?? hands.removalOrder(move));
  if (!opts.noAdjust && rng.chance(hands.noise.adjust)) {
    hands.pause(DELAYS.adjust);
    hands.liftAndReplace(move.to);
  }
  return legalPlayed(ctx, move);
}

/** A legal move as played: its notation and the engine's position after it. */
const legalPlayed = (ctx: PlyContext, move: Move): Played => ({
  move,
  pdn: moveNotation(ctx.pos, move, ctx.legal),
  after: play(ctx.pos, move),
});

/** An irregular result: the game goes on from the pieces as they physically stand, O to move. */
const asItStands = (ctx: PlyContext, played: Pick<Played, 'move' | 'pdn'>, rule: RuleId): Played => ({
  ...played,
  irregular: rule,
  after: physicalPosition(ctx.hands, ctx.pos.variant, opposite(ctx.pos.turn)),
});

const irregularAfter = (ctx: PlyContext, move: Move, rule: RuleId, sep: '-' | 'x'): Played =>
  asItStands(ctx, { move, pdn: `${move.from}${sep}${move.to}` }, rule);

/** S's hand displaces one of `steps` (lift, carry, put), read under `rule`. */
function displaceOneOf(ctx: PlyContext, steps: Move[], rule: RuleId): (() => Played) | undefined {
  if (steps.length === 0) return undefined;
  const m = ctx.rng.pick(steps);
  return () => {
    displace(ctx.hands, m);
    return irregularAfter(ctx, m, rule, '-');
  };
}

/** S's hand plays the capture `m` (not a legal one) and removes what it jumped, read under `rule`. */
const captureAs =
  (ctx: PlyContext, m: Move, rule: RuleId): (() => Played) =>
  () => {
    ctx.hands.carry(m);
    ctx.hands.removeAll(m.captured);
    return irregularAfter(ctx, m, rule, 'x');
  };

/** The move played normally (captured pieces off as `removal`), then one more piece lifted. */
function playThenLift(
  ctx: PlyContext,
  rule: RuleId,
  lifted: number,
  pause: Delay,
  removal?: number[],
): Played {
  const played = playNormally(ctx, { removal, noAdjust: true });
  ctx.hands.pause(pause);
  ctx.hands.tl.lift(lifted);
  return asItStands(ctx, played, rule);
}

/** The intended capture played and its pieces removed, then one of `candidates(move)` lifted too. */
function liftOneMoreAfterCapture(
  ctx: PlyContext,
  rule: RuleId,
  candidates: (move: Move) => number[],
): (() => Played) | undefined {
  const m = ctx.intended;
  if (m.captured.length === 0) return undefined;
  const squares = candidates(m);
  if (squares.length === 0) return undefined;
  const lifted = ctx.rng.pick(squares);
  return () => playThenLift(ctx, rule, lifted, span(150, 900), [...m.captured]);
}

const squaresOf = (pos: Position, color: Side): number[] => pos.pieces(color).map(([sq]) => sq);

const hasCapture = (ctx: PlyContext) => ctx.legal.length > 0 && ctx.legal[0].captured.length > 0;

/** Removal orders that no legal sequence with this from, to and captured set allows (4.11). */
function wrongRemovalOrder(ctx: PlyContext): number[] | undefined {
  const m = ctx.intended;
  const key = moveKey(m);
  const allowed = new Set<string>();
  for (const s of legalSequences(ctx.pos)) {
    if (moveKey(s) !== key) continue;
    allowed.add(s.captured.join());
    allowed.add([...s.captured].reverse().join());
  }
  const swapped = [m.captured[1], m.captured[0], ...m.captured.slice(2)];
  if (!allowed.has(swapped.join())) return swapped;
  for (let i = 0; i < 20; i++) {
    const shuffled = ctx.rng.shuffle(m.captured);
    if (!allowed.has(shuffled.join())) return shuffled;
  }
  return undefined;
}

export const MOVE_INJECTORS: readonly MoveInjector[] = [
  {
    rule: '5.4.2',
    altersGame: true,
    rarity: 0,
    plan(ctx) {
      if (hasCapture(ctx)) return undefined;
      return displaceOneOf(ctx, fresh(ctx, manSteps(ctx.pos, ctx.pos.turn, ctx.pos.turn, true)), '5.4.2');
    },
  },
  {
    rule: '5.4.5',
    altersGame: true,
    rarity: 0,
    plan(ctx) {
      const s = ctx.pos.turn;
      // O's men stepping the way S's men go: backward for O, so never a legal O move.
      const steps = fresh(
        ctx,
        manSteps(ctx.pos, opposite(s), s, false).filter(
          (m) => !promotionRow(ctx.pos, opposite(s), m.to) && playsOnWithoutUndoing(ctx.pos, m),
        ),
      );
      return displaceOneOf(ctx, fresh(ctx, steps), '5.4.5');
    },
  },
  {
    rule: '5.4.6',
    altersGame: true,
    rarity: 1,
    plan(ctx) {
      if (!hasCapture(ctx)) return undefined;
      const s = ctx.pos.turn;
      const steps = manSteps(ctx.pos, s, s, false).filter((m) => !promotionRow(ctx.pos, s, m.to));
      return displaceOneOf(ctx, fresh(ctx, steps), '5.4.6');
    },
  },
  {
    rule: '5.4.7',
    altersGame: true,
    rarity: 0,
    plan(ctx) {
      if (hasCapture(ctx)) return undefined;
      const m = ctx.intended;
      const near = new Set([m.from, m.to, ...neighbours(ctx.pos, m.from), ...neighbours(ctx.pos, m.to)]);
      const victims = ctx.pos.pieces().filter(([sq]) => !near.has(sq));
      if (victims.length === 0) return undefined;
      const [victim] = ctx.rng.pick(victims);
      return () => playThenLift(ctx, '5.4.7', victim, span(300, 900));
    },
  },
  {
    rule: '5.4.8',
    altersGame: true,
    rarity: 2,
    plan(ctx) {
      const max = hasCapture(ctx) ? ctx.legal[0].captured.length : 0;
      if (max < 2) return undefined;
      const legal = legalSequences(ctx.pos);
      const isPrefix = (c: Move) =>
        legal.some(
          (l) =>
            l.from === c.from &&
            c.path.every((sq, i) => l.path[i] === sq) &&
            c.captured.every((sq, i) => l.captured[i] === sq),
        );
      const candidates = ctx.pos
        .pieces(ctx.pos.turn)
        .flatMap(([sq]) => completeCaptures(ctx.pos, sq))
        .filter((c) => c.captured.length < max && !c.promotes && !isPrefix(c));
      if (candidates.length === 0) return undefined;
      return captureAs(ctx, ctx.rng.pick(candidates), '5.4.8');
    },
  },
  {
    rule: '5.4.9',
    altersGame: true,
    rarity: 2,
    plan(ctx) {
      const full = ctx.intended;
      const n = full.captured.length;
      if (n < 2) return undefined;
      const side = ctx.pos.turn;
      const stops = Array.from({ length: n - 1 }, (_, i) => i + 1).filter(
        (k) => isKing(full.piece) || !promotionRow(ctx.pos, side, full.path[k]),
      );
      if (stops.length === 0) return undefined;
      const k = ctx.rng.pick(stops);
      const m: Move = {
        ...full,
        to: full.path[k],
        path: full.path.slice(0, k + 1),
        captured: full.captured.slice(0, k),
        promotes: false,
      };
      return captureAs(ctx, m, '5.4.9');
    },
  },
  {
    rule: '5.4.11',
    altersGame: true,
    rarity: 1,
    plan(ctx) {
      if (ctx.intended.captured.length === 0) return undefined;
      const keep = ctx.intended.captured.slice(0, -1);
      return () => asItStands(ctx, playNormally(ctx, { removal: keep, noAdjust: true }), '5.4.11');
    },
  },
  {
    rule: '5.4.12',
    altersGame: true,
    rarity: 1,
    plan: (ctx) =>
      liftOneMoreAfterCapture(ctx, '5.4.12', (m) =>
        squaresOf(ctx.pos, opposite(ctx.pos.turn)).filter((sq) => !m.captured.includes(sq)),
      ),
  },
  {
    rule: '5.4.14',
    altersGame: true,
    rarity: 1,
    plan: (ctx) =>
      liftOneMoreAfterCapture(ctx, '5.4.14', (m) =>
        squaresOf(ctx.pos, ctx.pos.turn).filter((sq) => sq !== m.from),
      ),
  },
  {
    rule: '4.11',
    altersGame: false,
    rarity: 3,
    plan(ctx) {
      if (ctx.intended.captured.length < 3) return undefined;
      const order = wrongRemovalOrder(ctx);
      if (!order) return undefined;
      return () => ({ ...playNormally(ctx, { removal: order, noAdjust: true }), irregular: '4.11' });
    },
  },
  {
    rule: '5.4.13',
    altersGame: false,
    rarity: 2,
    plan(ctx) {
      const m = ctx.intended;
      if (m.captured.length < 2) return undefined;
      const gapAfter = ctx.rng.int(m.captured.length - 1);
      return () => {
        const h = ctx.hands;
        h.carry(m);
        m.captured.forEach((sq, i) => {
          h.pause(
            i === 0 ? DELAYS.beforeRemoval : i === gapAfter + 1 ? span(2000, 2500) : DELAYS.betweenRemovals,
          );
          h.tl.lift(sq);
        });
        return { ...legalPlayed(ctx, m), irregular: '5.4.13' };
      };
    },
  },
  {
    rule: '5.4.10',
    altersGame: false,
    rarity: 2,
    plan(ctx) {
      const m = ctx.intended;
      if (m.captured.length < 2) return undefined;
      return () => {
        const h = ctx.hands;
        h.carry(m, {
          touchLandings: true,
          onLanding: (i) => {
            if (i !== 1) return;
            h.pause(span(100, 250));
            h.tl.lift(m.captured[0]);
          },
        });
        h.removeAll(m.captured.slice(1));
        return { ...legalPlayed(ctx, m), irregular: '5.4.10' };
      };
    },
  },
  {
    rule: '5.4.3',
    altersGame: false,
    rarity: 0,
    plan(ctx) {
      const others = [...new Set(ctx.legal.map((m) => m.from))].filter((sq) => sq !== ctx.intended.from);
      if (others.length === 0) return undefined;
      const touched = ctx.rng.pick(others);
      return () => {
        ctx.hands.liftAndReplace(touched, span(300, 800));
        ctx.hands.pause(span(300, 1200));
        return { ...playNormally(ctx), irregular: '5.4.3' };
      };
    },
  },
  {
    rule: 'unknown-position',
    altersGame: false,
    rarity: 0,
    plan(ctx) {
      // Two of S's men stepped forward at once: no legal move, nothing the tracker can name.
      const s = ctx.pos.turn;
      const steps = manSteps(ctx.pos, s, s, false).filter((m) => !promotionRow(ctx.pos, s, m.to));
      const first = steps.length > 0 ? ctx.rng.pick(steps) : undefined;
      const second =
        first &&
        steps.find(
          (m) => m.from !== first.from && m.to !== first.to && m.from !== first.to && m.to !== first.from,
        );
      if (!first || !second) return undefined;
      // Both pieces move (and later go back) within one settle window (< DEFAULT_SETTLE_MS between changes),
      // so the tracker never sees one of them alone, which would read as a legal move.
      const quick = span(60, DEFAULT_SETTLE_MS - 70);
      return () => {
        const h = ctx.hands;
        const shift = (from: number, to: number, piece: PieceCode) => {
          h.tl.lift(from);
          h.pause(quick);
          h.tl.put(to, piece);
          h.pause(quick);
        };
        for (const m of [first, second]) shift(m.from, m.to, m.piece);
        // Nothing pressed: the tracker reads it after its stall time; then the player notices, puts
        // both back, and plays.
        h.pause(span(DEFAULT_ALERT_AFTER_MS + 600, DEFAULT_ALERT_AFTER_MS + 1500));
        for (const m of [second, first]) shift(m.to, m.from, m.piece);
        h.pause(span(500, 1500));
        return playNormally(ctx);
      };
    },
  },
  {
    rule: '5.3',
    altersGame: false,
    rarity: 0,
    plan(ctx) {
      return () => {
        // A piece set aside on a light square: the decoder's report of it (a 100-/64-field scan).
        ctx.hands.tl.fault('light-square', 'a piece stands on a light square');
        ctx.hands.pause(span(400, 1200));
        return playNormally(ctx);
      };
    },
  },
];

/**
 * 5.4.1: S moves again before O has moved (no press), a man's step; then either puts the piece
 * back (the players' correction) or leaves it, and O plays on (accepted, 5.7). A second move that
 * recreates an earlier position would be a takeback, so it is not used. Returns the second move,
 * from `again` (the position after it with S to move).
 */
export function planTwoMoves(
  hands: Hands,
  after: Position,
  isEarlier: (board: string) => boolean,
): ((putBack: boolean) => { move: Move; again: Position }) | undefined {
  const again = after.withTurn(opposite(after.turn));
  const moves = legalMoves(again);
  if (moves.length === 0 || moves[0].captured.length > 0) return undefined;
  // A man's step: a king's second move may be the two shapes the tracker decides only at a press or
  // the stall time (docs/irregularities.md: the result gesture, a capture's king carried back).
  const fresh = moves.filter(
    (m) => !m.promotes && !isKing(m.piece) && !isEarlier(play(again, m).toBoardString()),
  );
  if (fresh.length === 0) return undefined;
  const m = hands.rng.pick(fresh);
  return (putBack) => {
    hands.pause(span(600, 1200));
    displace(hands, m);
    if (putBack) {
      hands.pause(span(1000, 2000));
      hands.tl.lift(m.to);
      hands.pause(DELAYS.carry);
      hands.tl.put(m.from, m.piece);
    }
    return { move: m, again };
  };
}

/**
 * The players correct an irregularity (5.4): the board goes back to `pos` — pieces that should not
 * stand where they do come off first, then the missing ones go on, each quicker than the tracker's
 * settle time so no board on the way is read.
 */
export function putBack(hands: Hands, pos: Position): void {
  hands.pause(span(600, 2000));
  const want = pos.toBoardString();
  const quick = span(60, DEFAULT_SETTLE_MS - 70);
  for (let s = 1; s <= want.length; s++) {
    const have = hands.tl.pieceAt(s);
    if (have && have !== want[s - 1]) {
      hands.tl.lift(s);
      hands.pause(quick);
    }
  }
  for (let s = 1; s <= want.length; s++) {
    if (want[s - 1] !== '.' && !hands.tl.pieceAt(s)) {
      hands.tl.put(s, want[s - 1] as PieceCode);
      hands.pause(quick);
    }
  }
  hands.pause(span(400, 1200));
}

/** 5.4.4: the player who made `move` puts it back: the piece on `from`, the captured pieces back. */
export function takeBack(hands: Hands, before: Position, move: Move): void {
  hands.pause(span(800, 1500));
  hands.tl.lift(move.to);
  hands.pause(DELAYS.carry);
  hands.tl.put(move.from, before.pieceAt(move.from)!);
  for (const sq of [...move.captured].reverse()) {
    hands.pause(span(250, 600));
    hands.tl.put(sq, before.pieceAt(sq)!);
  }
}
