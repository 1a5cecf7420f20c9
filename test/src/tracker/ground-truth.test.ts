// Property test over simulator ground truth (simulator/game.ts): seeded legal games played by
// simulated hands with realistic noise → the tracker reconstructs exactly the played moves and
// raises no alert; with irregularities injected per docs/irregularities.md → each one is flagged
// with its rule id, ply and side, and nothing else is.
import { describe, expect, it } from 'vitest';
import { simulateGame } from '../../../simulator/game.ts';
import { INJECTABLE } from '../../../simulator/inject.ts';
import { problems, shapeOf, track } from './fixtures/truth.ts';

const GAMES = 200;
const PLIES = 100;

describe('tracker over simulator ground truth', () => {
  it(`${GAMES} noisy legal games: the played moves, no alerts`, () => {
    const failures: string[] = [];
    let plies = 0;
    for (let seed = 1; seed <= GAMES; seed++) {
      const gesture = seed % 10 === 0 && seed % 4 !== 1;
      const game = simulateGame({ ...shapeOf(seed, PLIES), resultGesture: gesture });
      const verdict = track(game);
      plies += game.moves.length;
      failures.push(...problems(game, verdict));
      if (gesture && verdict.gestures.join() !== game.result) {
        failures.push(`seed ${seed}: result gesture ${verdict.gestures} ≠ ${game.result}`);
      }
    }
    expect(failures).toEqual([]);
    expect(plies).toBeGreaterThan(GAMES * 40);
  });

  it(`${GAMES} games with injected irregularities: each flagged at its ply, nothing else`, () => {
    const failures: string[] = [];
    const seen = new Set<string>();
    for (let seed = 1001; seed <= 1000 + GAMES; seed++) {
      const game = simulateGame({ ...shapeOf(seed, PLIES), inject: INJECTABLE, injectProbability: 0.15 });
      for (const i of game.injected) seen.add(i.rule);
      failures.push(...problems(game, track(game)));
    }
    expect(failures).toEqual([]);
    expect([...seen].sort()).toEqual([...INJECTABLE].sort());
  });
});
