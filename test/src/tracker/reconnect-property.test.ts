// Property test of reconnects over simulator ground truth: a seeded game loses the events of a gap
// (daemon killed and restarted, board unplugged) at a random moment — in the middle of a move, a
// capture, a clock press — and the board is dumped when it is watched again. Board time as the
// daemon feeds it (daemon/board/time.ts): the gap is no board time, it counts as a 500 ms pause; the connection greets (`hello`) and dumps.
// The tracker must give exactly the played game and no alert.
import { describe, expect, it } from 'vitest';
import { simulateGame } from '../../../simulator/game.ts';
import { withOutage } from '../../../simulator/outage.ts';
import { createRng } from '../../../simulator/prng.ts';
import { createTracker } from '../../../src/tracker/index.ts';
import type { TrackerOutput } from '../../../src/tracker/types.ts';
import { shapeOf, verdictOf } from './fixtures/truth.ts';

const GAMES = 120;

describe('reconnect at a random moment: the dump and the live events give the played game', () => {
  it(`${GAMES} games, each with a 1–4 s gap somewhere (no, realistic and harsh noise): the played moves, no alerts`, () => {
    const failures: string[] = [];
    for (let seed = 1; seed <= GAMES; seed++) {
      const game = simulateGame({
        ...shapeOf(seed, 40),
        noise: (['none', 'realistic', 'harsh'] as const)[seed % 3],
      });
      const rng = createRng(seed * 7919);
      const first = game.moves[0].t;
      // Half the gaps start right after a lift: a piece in the air when the daemon dies.
      const lifts = game.events.filter((e) => e.type === 'lift' && e.t > first && e.t < game.endT - 6000);
      const from =
        rng.chance(0.5) && lifts.length > 0
          ? rng.pick(lifts).t
          : first + rng.next() * (game.endT - first - 6000);
      const events = withOutage(game, from, 1000 + rng.next() * 3000);
      const tracker = createTracker({ variant: game.variant, occupancyOnly: game.occupancyOnly });
      const outputs: TrackerOutput[] = events.flatMap((e) => tracker.push(e));
      outputs.push(...tracker.flush(events[events.length - 1].t + 5000));
      const verdict = verdictOf(outputs);
      const truth = game.moves.map((m) => m.pdn);
      const gap = `gap at ${Math.round(from)}`;
      if (verdict.moves.join() !== truth.join()) {
        const i = truth.findIndex((m, k) => verdict.moves[k] !== m);
        failures.push(
          `seed ${seed} (${gap}): from ply ${i + 1} [${verdict.moves.slice(i, i + 3)}] ≠ [${truth.slice(i, i + 3)}]`,
        );
      }
      if (verdict.alerts.length > 0)
        failures.push(`seed ${seed} (${gap}): alerts ${verdict.alerts.join(' ')}`);
    }
    expect(failures).toEqual([]);
  });
});
