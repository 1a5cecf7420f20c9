// Comparing the tracker with simulator ground truth: shared by the property test and the bench.
import type { BoardEvent } from '../../firmware-protocol/events.ts';
import type { SimulatedGame, SimulateGameOptions } from '../../simulator/game.ts';
import type { Variant } from '../../src/engine/index.ts';
import { createTracker } from '../../src/tracker/index.ts';
import type { TrackerOutput } from '../../src/tracker/types.ts';

export interface Verdict {
  moves: string[];
  /** `rule@ply:side` */
  alerts: string[];
  gestures: string[];
}

/** Reads the tracker's outputs as a game: moves (after takebacks and new games), alerts, gestures. */
export function verdictOf(outputs: readonly TrackerOutput[]): Verdict {
  let moves: string[] = [];
  const alerts: string[] = [];
  const gestures: string[] = [];
  for (const o of outputs) {
    if (o.type === 'move') moves = [...moves.slice(0, o.ply - 1), o.pdn];
    else if (o.type === 'takeback' || o.type === 'correction') moves = moves.slice(0, o.ply);
    else if (o.type === 'new-game') moves = [];
    else if (o.type === 'alert') alerts.push(`${o.alert.rule}@${o.alert.ply}:${o.alert.side}`);
    else if (o.type === 'result-gesture') gestures.push(o.result ?? '?');
  }
  return { moves, alerts, gestures };
}

/** Runs a board's events through a fresh tracker, then flushes it. */
export function trackEvents(
  variant: Variant,
  occupancyOnly: boolean,
  events: readonly BoardEvent[],
  endT: number,
): Verdict {
  const tracker = createTracker({ variant, occupancyOnly });
  const outputs: TrackerOutput[] = [];
  for (const e of events) outputs.push(...tracker.push(e));
  outputs.push(...tracker.flush(endT + 1));
  return verdictOf(outputs);
}

/** Runs a simulated game's events through a fresh tracker. */
export const track = (game: SimulatedGame): Verdict =>
  trackEvents(game.variant, game.occupancyOnly, game.events, game.endT);

/** A spread of games: both variants, occupancy-only boards, realistic and harsh noise. */
export const shapeOf = (seed: number, maxPlies?: number): SimulateGameOptions => ({
  seed,
  variant: seed % 3 === 0 ? 'brazilian' : 'international',
  occupancyOnly: seed % 4 === 1,
  noise: seed % 2 === 0 ? 'harsh' : 'realistic',
  maxPlies,
});

export interface Score {
  /** Plies of the played game reproduced at the same index. */
  matched: number;
  plies: number;
  missed: string[];
  falseAlerts: string[];
  firstDifference: number;
  /** A move that was on the board is missing from the record: the tracker stopped following. */
  stuck: boolean;
}

/** What the tracker must make of a board's events: the moves (PDN) and the alerts (`rule@ply:side`). */
export interface Truth {
  moves: readonly string[];
  alerts: readonly string[];
}

export const truthOf = (game: SimulatedGame): Truth => ({
  moves: game.moves.map((m) => m.pdn),
  alerts: game.injected.map((i) => `${i.rule}@${i.ply}:${i.side}`),
});

export function scoreAgainst(truth: Truth, verdict: Verdict): Score {
  const expected = truth.moves;
  let matched = 0;
  for (let i = 0; i < expected.length; i++) if (verdict.moves[i] === expected[i]) matched++;
  const differs = expected.findIndex((m, i) => verdict.moves[i] !== m);
  const firstDifference =
    differs >= 0
      ? differs
      : verdict.moves.length !== expected.length
        ? Math.min(verdict.moves.length, expected.length)
        : -1;
  return {
    matched,
    plies: Math.max(expected.length, verdict.moves.length),
    missed: truth.alerts.filter((a) => !verdict.alerts.includes(a)),
    falseAlerts: verdict.alerts.filter((a) => !truth.alerts.includes(a)),
    firstDifference,
    stuck: verdict.moves.length < expected.length,
  };
}

export const score = (game: SimulatedGame, verdict: Verdict): Score => scoreAgainst(truthOf(game), verdict);

/** What went wrong, in words (empty when the tracker got the game exactly). */
export function problems(game: SimulatedGame, verdict: Verdict): string[] {
  const s = score(game, verdict);
  const out: string[] = [];
  const expected = game.moves.map((m) => m.pdn);
  if (s.firstDifference >= 0) {
    const i = s.firstDifference;
    out.push(
      `seed ${game.seed}: moves differ from ply ${i + 1}: [${verdict.moves.slice(i, i + 3)}] ≠ [${expected.slice(i, i + 3)}]`,
    );
  }
  if (s.missed.length > 0) out.push(`seed ${game.seed}: missed ${s.missed.join(' ')}`);
  if (s.falseAlerts.length > 0) out.push(`seed ${game.seed}: false alerts ${s.falseAlerts.join(' ')}`);
  return out;
}
