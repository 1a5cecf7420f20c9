// `npm run bench -- tracker`: 10,000 simulated games (simulator/game.ts ground truth) through the
// tracker — half clean, half with irregularities injected per docs/irregularities.md — then a
// quarter as many games of the independent hand model (test/tracker/fixtures/other-hands.ts), and
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
import { playOtherHands } from '../test/tracker/fixtures/other-hands.ts';
import { problems, score, shapeOf, track, trackEvents } from '../test/tracker/truth.ts';

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
let stuck = 0;
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
  if (verdict.moves.length < game.moves.length) stuck++;
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
console.log(`tracker_stuck_games ${stuck} games`);
console.log(`tracker_accuracy_run_seconds ${seconds.toFixed(1)} s`);

// The independent hand model: half clean games, half with irregularities and both continuations.
const OTHER_GAMES = Math.max(2, Math.round(GAMES / 4));
let oMatched = 0;
let oPlies = 0;
let oFalse = 0;
let oMissed = 0;
let oInjected = 0;
let oStuck = 0;
const oStarted = performance.now();
for (let seed = 1; seed <= OTHER_GAMES; seed++) {
  const game = playOtherHands({
    seed,
    variant: seed % 3 === 0 ? 'brazilian' : 'international',
    occupancyOnly: seed % 4 === 1,
    plies: 80,
    irregularity: seed % 2 === 0 ? 0.15 : 0,
  });
  const verdict = trackEvents(game.variant, game.occupancyOnly, game.events, game.endT);
  for (let i = 0; i < game.moves.length; i++) if (verdict.moves[i] === game.moves[i]) oMatched++;
  oPlies += Math.max(game.moves.length, verdict.moves.length);
  oFalse += verdict.alerts.filter((a) => !game.alerts.includes(a)).length;
  oMissed += game.alerts.filter((a) => !verdict.alerts.includes(a)).length;
  oInjected += game.alerts.length;
  if (verdict.moves.length < game.moves.length) oStuck++;
  if (
    examples.length < 20 &&
    (verdict.moves.join() !== game.moves.join() || verdict.alerts.join() !== game.alerts.join())
  )
    examples.push(
      `independent seed ${seed}: moves ${verdict.moves.length}/${game.moves.length}, alerts [${verdict.alerts}] vs [${game.alerts}]`,
    );
}
for (const e of examples.slice(10, 20)) console.error(e);
console.log(`tracker_games_independent ${OTHER_GAMES} games`);
console.log(`tracker_plies_independent ${oPlies} plies`);
console.log(`tracker_injected_irregularities_independent ${oInjected} alerts`);
console.log(`tracker_move_accuracy_independent ${(oPlies === 0 ? 1 : oMatched / oPlies).toFixed(6)} ratio`);
console.log(`tracker_false_alerts_independent ${oFalse} alerts`);
console.log(`tracker_missed_irregularities_independent ${oMissed} alerts`);
console.log(`tracker_stuck_games_independent ${oStuck} games`);
console.log(`tracker_independent_run_seconds ${((performance.now() - oStarted) / 1000).toFixed(1)} s`);

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
