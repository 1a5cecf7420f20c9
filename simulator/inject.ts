// Irregularities, each exactly as docs/irregularities.md describes its sensor events. A move injector
// replaces the player's move at a ply (the table below, made of ./inject-steps.ts); the after-move
// ones act once the move is pressed (./after-move.ts). Every injector first checks it applies.
import { DEFAULT_ALERT_AFTER_MS, DEFAULT_SETTLE_MS } from '../src/tracker/timing.ts';
import type { PieceCode } from '../firmware-protocol/events.ts';
import { isKing, legalSequences, type Move, opposite } from '../src/engine/index.ts';
import { CLOCK_RULE_IDS, RULE_IDS, type RuleId } from '../src/tracker/types.ts';
import { completeCaptures } from './captures.ts';
import { DELAYS } from './human.ts';
import {
  asItStands,
  captureAs,
  displaceOneOf,
  fresh,
  hasCapture,
  legalPlayed,
  liftOneMoreAfterCapture,
  manSteps,
  type MoveInjector,
  neighbours,
  playNormally,
  playsOnWithoutUndoing,
  playThenLift,
  promotionRow,
  span,
  squaresOf,
  wrongRemovalOrder,
} from './inject-steps.ts';

/** The rule id a board's outage raises, not the hands (simulator/outage.ts makes one). */
export const OUTAGE_RULE_IDS: readonly RuleId[] = ['gap'];

/**
 * Every rule id the simulator can inject: all the hands can cause (flags come from the clock, a
 * gap from an outage).
 */
export const INJECTABLE: readonly RuleId[] = RULE_IDS.filter(
  (id) => !CLOCK_RULE_IDS.includes(id) && !OUTAGE_RULE_IDS.includes(id),
);

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
            h.scanGap();
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
