// `npm run bench -- tracker`: 10,000 simulated games (simulator/game.ts ground truth) through the
// tracker — half clean, half with irregularities injected per docs/irregularities.md — then a
// quarter as many games of the independent hand model (test/src/tracker/fixtures/other-hands.ts), and
// the processing time per event with 200 boards' streams interleaved. Prints `name value unit`
// lines: tracker_games, tracker_move_accuracy (target 1.0), tracker_false_alerts (0),
// tracker_missed_irregularities (0), tracker_stuck_games (0: games in which a move on the board was
// not recorded) for the simulator, the same names suffixed `_independent` for the other model, and
// tracker_event_p99_us (target ≤ 1000). TRACKER_BENCH_GAMES overrides the number of games.
import { loadavg } from 'node:os';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import { type SimulatedGame, simulateGame } from '../simulator/game.ts';
import { INJECTABLE } from '../simulator/inject.ts';
import { createTracker } from '../src/tracker/index.ts';
import type { Tracker } from '../src/tracker/types.ts';
import { playOtherHands } from '../test/src/tracker/fixtures/other-hands.ts';
import {
  scoreAgainst,
  shapeOf,
  type Truth,
  track,
  trackEvents,
  truthOf,
  type Verdict,
} from '../test/src/tracker/fixtures/truth.ts';

const GAMES = Number(process.env.TRACKER_BENCH_GAMES ?? 10_000);
const BOARDS = 200;

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);

const gameOf = (seed: number): SimulatedGame =>
  simulateGame(
    seed % 2 === 0 ? { ...shapeOf(seed), inject: INJECTABLE, injectProbability: 0.1 } : shapeOf(seed),
  );

/** The accuracy figures of one hand model, summed over its games. */
class Tally {
  matched = 0;
  plies = 0;
  falseAlerts = 0;
  missed = 0;
  injected = 0;
  stuck = 0;
  readonly examples: string[] = [];
  private readonly started = performance.now();

  add(name: string, truth: Truth, verdict: Verdict): void {
    const s = scoreAgainst(truth, verdict);
    this.matched += s.matched;
    this.plies += s.plies;
    this.falseAlerts += s.falseAlerts.length;
    this.missed += s.missed.length;
    this.injected += truth.alerts.length;
    if (s.stuck) this.stuck++;
    if (this.examples.length < 10 && (s.firstDifference >= 0 || s.missed.length + s.falseAlerts.length > 0))
      this.examples.push(
        `${name}: first difference at ply ${s.firstDifference + 1}, missed [${s.missed}], false [${s.falseAlerts}]`,
      );
  }

  print(games: number, suffix: string): void {
    for (const e of this.examples) console.error(e);
    const line = (name: string, value: string | number, unit: string) =>
      console.log(`${name}${suffix} ${value} ${unit}`);
    line('tracker_games', games, 'games');
    line('tracker_plies', this.plies, 'plies');
    line('tracker_injected_irregularities', this.injected, 'alerts');
    line('tracker_move_accuracy', (this.plies === 0 ? 1 : this.matched / this.plies).toFixed(6), 'ratio');
    line('tracker_moves_wrong', this.plies - this.matched, 'plies');
    line('tracker_false_alerts', this.falseAlerts, 'alerts');
    line('tracker_missed_irregularities', this.missed, 'alerts');
    line('tracker_stuck_games', this.stuck, 'games');
    line('tracker_accuracy_run_seconds', ((performance.now() - this.started) / 1000).toFixed(1), 's');
  }
}

// Accuracy over the simulator's ground truth (bare names).
const simulator = new Tally();
for (let seed = 1; seed <= GAMES; seed++) {
  const game = gameOf(seed);
  simulator.add(`simulator seed ${seed}`, truthOf(game), track(game));
}
simulator.print(GAMES, '');

// The independent hand model: half clean games, half with irregularities and both continuations.
const OTHER_GAMES = Math.max(2, Math.round(GAMES / 4));
const independent = new Tally();
for (let seed = 1; seed <= OTHER_GAMES; seed++) {
  const game = playOtherHands({
    seed,
    variant: seed % 3 === 0 ? 'brazilian' : 'international',
    occupancyOnly: seed % 4 === 1,
    plies: 80,
    irregularity: seed % 2 === 0 ? 0.15 : 0,
  });
  const verdict = trackEvents(game.variant, game.occupancyOnly, game.events, game.endT);
  independent.add(`independent seed ${seed}`, game, verdict);
}
independent.print(OTHER_GAMES, '_independent');

// Latency: 200 boards' streams interleaved in time order, every push timed.
const streams = Array.from({ length: BOARDS }, (_, i) => gameOf(50_000 + i));
const trackers: Tracker[] = streams.map((g) =>
  createTracker({ variant: g.variant, occupancyOnly: g.occupancyOnly }),
);
const merged: Array<{ board: number; event: BoardEvent }> = [];
streams.forEach((g, board) => {
  for (const event of g.events) merged.push({ board, event });
});
merged.sort((a, b) => a.event.t - b.event.t || a.board - b.board);
const times = new Float64Array(merged.length);
globalThis.gc?.();
for (let i = 0; i < merged.length; i++) {
  const { board, event } = merged[i];
  const t0 = performance.now();
  trackers[board].push(event);
  times[i] = performance.now() - t0;
}
times.sort();
const pct = (p: number) => times[Math.min(times.length - 1, Math.floor(times.length * p))] * 1000;
console.log(`tracker_events_interleaved ${merged.length} events`);
console.log(`tracker_event_p50_us ${pct(0.5).toFixed(1)} us`);
console.log(`tracker_event_p99_us ${pct(0.99).toFixed(1)} us`);
console.log(`tracker_event_max_us ${pct(1).toFixed(1)} us`);
