// `npm run bench -- tracker`: 10,000 simulated games (simulator/game.ts ground truth) through the
// tracker — half clean, half with irregularities injected per docs/irregularities.md — and the
// processing time per event with 200 boards' streams interleaved. Prints `name value unit` lines:
// tracker_games, tracker_move_accuracy (target 1.0), tracker_false_alerts (0),
// tracker_missed_irregularities (0), tracker_event_p99_us (target ≤ 1000).
// TRACKER_BENCH_GAMES overrides the number of games (quick runs).
import { loadavg } from 'node:os';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import { type SimulatedGame, simulateGame } from '../simulator/game.ts';
import { INJECTABLE } from '../simulator/inject.ts';
import { createTracker } from '../src/tracker/index.ts';
import type { Tracker } from '../src/tracker/types.ts';
import { problems, score, shapeOf, track } from '../test/tracker/truth.ts';

const GAMES = Number(process.env.TRACKER_BENCH_GAMES ?? 10_000);
const BOARDS = 200;

console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);

const gameOf = (seed: number): SimulatedGame =>
  simulateGame(
    seed % 2 === 0 ? { ...shapeOf(seed), inject: INJECTABLE, injectProbability: 0.1 } : shapeOf(seed),
  );

// Accuracy over ground truth.
let matched = 0;
let plies = 0;
let falseAlerts = 0;
let missed = 0;
let injected = 0;
const examples: string[] = [];
const started = performance.now();
for (let seed = 1; seed <= GAMES; seed++) {
  const game = gameOf(seed);
  const verdict = track(game);
  const s = score(game, verdict);
  matched += s.matched;
  plies += s.plies;
  falseAlerts += s.falseAlerts.length;
  missed += s.missed.length;
  injected += game.injected.length;
  if (examples.length < 10) examples.push(...problems(game, verdict));
}
const seconds = (performance.now() - started) / 1000;
for (const e of examples.slice(0, 10)) console.error(e);

console.log(`tracker_games ${GAMES} games`);
console.log(`tracker_plies ${plies} plies`);
console.log(`tracker_injected_irregularities ${injected} alerts`);
console.log(`tracker_move_accuracy ${(plies === 0 ? 1 : matched / plies).toFixed(6)} ratio`);
console.log(`tracker_moves_wrong ${plies - matched} plies`);
console.log(`tracker_false_alerts ${falseAlerts} alerts`);
console.log(`tracker_missed_irregularities ${missed} alerts`);
console.log(`tracker_accuracy_run_seconds ${seconds.toFixed(1)} s`);

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
