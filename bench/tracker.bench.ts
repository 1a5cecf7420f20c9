// `npm run bench -- tracker`: 10,000 simulated games (simulator/game.ts ground truth) through the
// tracker — half clean, half with irregularities injected per docs/irregularities.md, every game
// with real hands' habits (a one-piece capture taken off before the landing, sweeps) and half of the
// piece-sensing boards reporting by scans in square order — then a quarter as many games of the
// independent hand model (test/src/tracker/fixtures/other-hands.ts) with the same habits, and the
// processing time per event with 200 boards' streams interleaved. Prints `name value unit`
// lines: tracker_games, tracker_move_accuracy (target 1.0), tracker_false_alerts (0),
// tracker_missed_irregularities (0), tracker_stuck_games (0: games in which a move on the board was
// not recorded) for the simulator, the same names suffixed `_independent` for the other model, and
// tracker_event_p99_us (target ≤ 1000: the plain streams, comparable across changes) and
// tracker_event_p99_us_real_hands. TRACKER_BENCH_GAMES overrides the number of games.
import { loadavg } from 'node:os';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import { type SimulatedGame, simulateGame } from '../simulator/game.ts';
import { REAL_HANDS } from '../simulator/human.ts';
import { INJECTABLE } from '../simulator/inject.ts';
import type { ScanReports } from '../simulator/scan-board.ts';
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

/** Boards that sense pieces (shapeOf: seed % 4 !== 1) report by scans on half of the seeds. */
const scanOf = (seed: number): ScanReports | undefined =>
  seed % 4 === 2
    ? { scanMs: 250, order: 'rising' }
    : seed % 4 === 3
      ? { scanMs: 250, order: 'falling' }
      : undefined;

const plainGameOf = (seed: number): SimulatedGame =>
  simulateGame(
    seed % 2 === 0 ? { ...shapeOf(seed), inject: INJECTABLE, injectProbability: 0.1 } : shapeOf(seed),
  );

const gameOf = (seed: number): SimulatedGame => {
  const scanReports = scanOf(seed);
  return simulateGame({
    ...shapeOf(seed),
    habits: REAL_HANDS,
    ...(scanReports ? { scanReports } : {}),
    ...(seed % 2 === 0 ? { inject: INJECTABLE, injectProbability: 0.1 } : {}),
  });
};

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
  const scanOrder = scanOf(seed)?.order;
  const game = playOtherHands({
    seed,
    variant: seed % 3 === 0 ? 'brazilian' : 'international',
    occupancyOnly: seed % 4 === 1,
    plies: 80,
    irregularity: seed % 2 === 0 ? 0.15 : 0,
    habits: { takeBeforeLanding: 0.4, sweep: 0.4, scanOrder },
  });
  // Its scanning board says its period in its hello.
  const verdict = trackEvents(game.variant, game.occupancyOnly, game.events, game.endT);
  independent.add(`independent seed ${seed}`, game, verdict);
}
independent.print(OTHER_GAMES, '_independent');

/** 200 boards' streams interleaved in time order, every push timed: the percentiles, µs. */
function latency(make: (seed: number) => SimulatedGame): { events: number; pct: (p: number) => number } {
  const streams = Array.from({ length: BOARDS }, (_, i) => make(50_000 + i));
  const trackers: Tracker[] = streams.map((g) =>
    createTracker({ variant: g.variant, occupancyOnly: g.occupancyOnly, scanMs: g.scanReports?.scanMs }),
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
  return {
    events: merged.length,
    pct: (p) => times[Math.min(times.length - 1, Math.floor(times.length * p))] * 1000,
  };
}

// The plain streams (no habits, no scanning boards): the figure compared across changes.
const plain = latency(plainGameOf);
console.log(`tracker_events_interleaved ${plain.events} events`);
console.log(`tracker_event_p50_us ${plain.pct(0.5).toFixed(1)} us`);
console.log(`tracker_event_p99_us ${plain.pct(0.99).toFixed(1)} us`);
console.log(`tracker_event_max_us ${plain.pct(1).toFixed(1)} us`);
const real = latency(gameOf);
console.log(`tracker_event_p99_us_real_hands ${real.pct(0.99).toFixed(1)} us`);
