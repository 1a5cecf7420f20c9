// Property test over simulator ground truth (simulator/game.ts): seeded legal games played by
// simulated hands with realistic noise → the tracker reconstructs exactly the played moves and
// raises no alert; with irregularities injected per docs/irregularities.md → each one is flagged
// with its rule id, ply and side, and nothing else is.
import { describe, expect, it } from 'vitest';
import { type SimulatedGame, simulateGame } from '../../simulator/game.ts';
import { INJECTABLE } from '../../simulator/inject.ts';
import { createTracker } from '../../src/tracker/index.ts';
import type { TrackerOutput } from '../../src/tracker/types.ts';

const GAMES = 200;

export interface Verdict {
  moves: string[];
  alerts: string[];
  gestures: string[];
}

/** Runs a simulated game's events through a fresh tracker. */
export function track(game: SimulatedGame): Verdict {
  const tracker = createTracker({ variant: game.variant, occupancyOnly: game.occupancyOnly });
  const outputs: TrackerOutput[] = [];
  for (const e of game.events) outputs.push(...tracker.push(e));
  outputs.push(...tracker.flush(game.endT + 1));
  let moves: string[] = [];
  const alerts: string[] = [];
  const gestures: string[] = [];
  for (const o of outputs) {
    if (o.type === 'move') moves.push(o.pdn);
    else if (o.type === 'takeback') moves = moves.slice(0, o.ply);
    else if (o.type === 'new-game') moves = [];
    else if (o.type === 'alert') alerts.push(`${o.alert.rule}@${o.alert.ply}:${o.alert.side}`);
    else if (o.type === 'result-gesture') gestures.push(o.result ?? '?');
  }
  return { moves, alerts, gestures };
}

const shape = (seed: number) => ({
  seed,
  variant: seed % 3 === 0 ? ('brazilian' as const) : ('international' as const),
  occupancyOnly: seed % 4 === 1,
  noise: seed % 2 === 0 ? ('harsh' as const) : ('realistic' as const),
  maxPlies: 100,
});

function problems(game: SimulatedGame, verdict: Verdict): string[] {
  const expected = game.moves.map((m) => m.pdn);
  const injected = game.injected.map((i) => `${i.rule}@${i.ply}:${i.side}`);
  const out: string[] = [];
  const first = expected.findIndex((m, i) => verdict.moves[i] !== m);
  if (first >= 0 || verdict.moves.length !== expected.length) {
    out.push(
      `seed ${game.seed}: moves differ from ply ${first + 1}: ${verdict.moves.slice(first, first + 3)} ≠ ${expected.slice(first, first + 3)}`,
    );
  }
  const missed = injected.filter((a) => !verdict.alerts.includes(a));
  const extra = verdict.alerts.filter((a) => !injected.includes(a));
  if (missed.length > 0) out.push(`seed ${game.seed}: missed ${missed.join(' ')}`);
  if (extra.length > 0) out.push(`seed ${game.seed}: false alerts ${extra.join(' ')}`);
  return out;
}

describe('tracker over simulator ground truth', () => {
  it(`${GAMES} noisy legal games: the played moves, no alerts`, () => {
    const failures: string[] = [];
    let plies = 0;
    for (let seed = 1; seed <= GAMES; seed++) {
      const game = simulateGame({ ...shape(seed), resultGesture: seed % 10 === 0 && seed % 4 !== 1 });
      const verdict = track(game);
      plies += game.moves.length;
      failures.push(...problems(game, verdict));
      if (seed % 10 === 0 && seed % 4 !== 1) expect(verdict.gestures).toEqual([game.result]);
    }
    expect(failures).toEqual([]);
    expect(plies).toBeGreaterThan(GAMES * 40);
  });

  it(`${GAMES} games with injected irregularities: each flagged at its ply, nothing else`, () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let seed = 1001; seed <= 1000 + GAMES; seed++) {
      const game = simulateGame({ ...shape(seed), inject: INJECTABLE, injectProbability: 0.15 });
      for (const i of game.injected) seen.add(i.rule);
      failures.push(...problems(game, track(game)));
    }
    expect(failures).toEqual([]);
    expect([...seen].sort()).toEqual([...INJECTABLE].sort());
  });
});
