// The steps the irregularity injectors are made of (./inject.ts): the situation at a ply, what the
// board shows played, and the hands' ways of playing a move wrongly — a piece displaced, a capture's
// pieces taken off in the wrong order or left on, one piece too many lifted.
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
import type { RuleId } from '../src/tracker/types.ts';
import { type Delay, DELAYS, type Hands } from './human.ts';
import type { Rng } from './prng.ts';

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

export const span = (min: number, max: number): Delay => ({ median: (min + max) / 2, min, max });

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
export function manSteps(pos: Position, color: Side, dirsOf: Side, backward: boolean): Move[] {
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

export const promotionRow = (pos: Position, color: Side, square: number): boolean => {
  const g = geometry(pos.variant);
  return color === 'white' ? g.whitePromotion(square) : g.blackPromotion(square);
};

/** Squares diagonally next to `s`. */
export const neighbours = (pos: Position, s: number): number[] =>
  geometry(pos.variant)
    .rays[s].map((ray) => ray[0])
    .filter((x) => x !== undefined);

/** Displacements that do not recreate an earlier position of the game. */
export function fresh(ctx: PlyContext, moves: Move[]): Move[] {
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
export function playsOnWithoutUndoing(pos: Position, m: Move): boolean {
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
export function displace(h: Hands, m: Move): void {
  h.tl.lift(m.from);
  h.pause(DELAYS.carry);
  h.tl.put(m.to, m.piece);
}

/** A normal move by the player's hand, with the noise of the profile. */
export function playNormally(ctx: PlyContext, opts: { removal?: number[]; noAdjust?: boolean } = {}): Played {
  const { hands, intended: move, rng } = ctx;
  const crownLater = move.promotes && move.captured.length === 0 && rng.chance(hands.noise.crownAfter);
  if (move.captured.length === 1 && !opts.removal && hands.habit(hands.habits.takeBeforeLanding)) {
    hands.takeThenLand(move);
  } else {
    hands.carry(move, { crownLater });
    if (crownLater) hands.crown(move.to);
    if (move.captured.length > 0) hands.removeAll(opts.removal ?? hands.removalOrder(move));
  }
  if (!opts.noAdjust && rng.chance(hands.noise.adjust)) {
    hands.pause(DELAYS.adjust);
    hands.liftAndReplace(move.to);
  }
  return legalPlayed(ctx, move);
}

/** A legal move as played: its notation and the engine's position after it. */
export const legalPlayed = (ctx: PlyContext, move: Move): Played => ({
  move,
  pdn: moveNotation(ctx.pos, move, ctx.legal),
  after: play(ctx.pos, move),
});

/** An irregular result: the game goes on from the pieces as they physically stand, O to move. */
export const asItStands = (ctx: PlyContext, played: Pick<Played, 'move' | 'pdn'>, rule: RuleId): Played => ({
  ...played,
  irregular: rule,
  after: physicalPosition(ctx.hands, ctx.pos.variant, opposite(ctx.pos.turn)),
});

const irregularAfter = (ctx: PlyContext, move: Move, rule: RuleId, sep: '-' | 'x'): Played =>
  asItStands(ctx, { move, pdn: `${move.from}${sep}${move.to}` }, rule);

/** S's hand displaces one of `steps` (lift, carry, put), read under `rule`. */
export function displaceOneOf(ctx: PlyContext, steps: Move[], rule: RuleId): (() => Played) | undefined {
  if (steps.length === 0) return undefined;
  const m = ctx.rng.pick(steps);
  return () => {
    displace(ctx.hands, m);
    return irregularAfter(ctx, m, rule, '-');
  };
}

/** S's hand plays the capture `m` (not a legal one) and removes what it jumped, read under `rule`. */
export const captureAs =
  (ctx: PlyContext, m: Move, rule: RuleId): (() => Played) =>
  () => {
    ctx.hands.carry(m);
    ctx.hands.removeAll(m.captured);
    return irregularAfter(ctx, m, rule, 'x');
  };

/** The move played normally (captured pieces off as `removal`), then one more piece lifted. */
export function playThenLift(
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
export function liftOneMoreAfterCapture(
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

export const squaresOf = (pos: Position, color: Side): number[] => pos.pieces(color).map(([sq]) => sq);

export const hasCapture = (ctx: PlyContext) => ctx.legal.length > 0 && ctx.legal[0].captured.length > 0;

/** Removal orders that no legal sequence with this from, to and captured set allows (4.11). */
export function wrongRemovalOrder(ctx: PlyContext): number[] | undefined {
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
