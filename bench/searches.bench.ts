// `npm run bench -- searches`: a hall back from an outage, in a real Controller (journal on disk,
// boards over TCP, ticks every 100 ms). SEARCHES_BOARDS (20) boards dump a board no line reaches
// soon: each search would spend its whole budget (2,000,000 positions). SEARCHES_AT_MS (3000) later
// one more board comes back 10 plies on. Over SEARCHES_WINDOW_S (30) seconds the searches share the
// daemon's time (`gapSearch.share`, default 0.3 of a core), the least served first (past
// 50,000 positions, the furthest on first). Prints:
// searches_boards, searches_share, searches_cpu_share (the daemon process's CPU over the window,
// searches, ticks and I/O, and the bench's own boards and polls), searches_step_share (the granted
// steps' own time over the window: what the share bounds), searches_positions_per_s (steps granted
// × step budget, over the window), searches_positions_per_step_s (the same over the steps' own time:
// what a position costs, whatever the share),
// searches_loop_delay_p50/p99/max_ms (how late a timer ran: the wait any board's event had),
// searches_late_gap_found_ms (from the late board's dump to its line recorded), searches_heap_mb
// (heap of the searches under way at the end, after a GC) and searches_tables_mb (their typed
// arrays, the proved-positions tables: outside the heap); searches_alerted (hall boards come to
// unknown-position within the window) and searches_alert_first/p50/last_s (when, from the start:
// nan when none did). SEARCHES_POSITIONS sets the budget (`gapSearch.positions`): a small one lets
// the hall's searches end within the window.
import { mkdtempSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { loadConfig } from '../daemon/config/index.ts';
import { Controller } from '../daemon/controller.ts';
import { Journal } from '../daemon/journal/index.ts';
import { Position } from '../src/engine/index.ts';
import { GapSearchRun } from '../src/tracker/gap/search.ts';
import { createTracker } from '../src/tracker/index.ts';
import type { TrackerFactory } from '../src/game/board-game.ts';
import { RESYNC_BUDGET } from '../src/tracker/gap/lost-lines.ts';
import { TIMING } from '../test/daemon/fixtures/controller-timing.ts';
import { FakeBoard } from '../test/daemon/fixtures/fake-board.ts';
import { selfPlayed, sensedText } from '../test/src/tracker/fixtures/gap-lines.ts';

const BOARDS = Number(process.env.SEARCHES_BOARDS ?? 20);
const LATE_MS = Number(process.env.SEARCHES_AT_MS ?? 3000);
const WINDOW_S = Number(process.env.SEARCHES_WINDOW_S ?? 30);
const SHARE = Number(process.env.SEARCHES_SHARE ?? 0.3);
const POSITIONS = process.env.SEARCHES_POSITIONS ? Number(process.env.SEARCHES_POSITIONS) : undefined;

/**
 * Boards no line reaches within 20,000 positions: self-play 10 plies on, a white man moved one row
 * further (one of the boards the tests use, in many games).
 */
function hopelessBoards(count: number): string[] {
  const out: string[] = [];
  for (let seed = 1; out.length < count && seed < 500; seed++) {
    const text = [...selfPlayed(seed, 10).position.toBoardString()];
    for (let from = 30; from < 40 && out.length < count; from++) {
      const to = text.findIndex((c, i) => c === '.' && i >= from - 6 && i < from - 3);
      if (text[from] !== 'w' || to < 0) continue;
      const board = [...text];
      board[to] = 'w';
      board[from] = '.';
      const run = new GapSearchRun(Position.initial('international'), sensedText(board.join('')), {
        nodes: 20_000,
      });
      let found = run.step(20_000);
      while (!found) found = run.step(20_000);
      if (found.kind === 'none' && !found.complete) {
        out.push(board.join(''));
        break;
      }
    }
  }
  return out;
}

const boards = hopelessBoards(BOARDS);
// Self-play game 3, 10 plies on: one line, proved in some 41,000 positions.
const late = selfPlayed(3, 10).position;
const dir = mkdtempSync(join(tmpdir(), 'damlink-bench-searches-'));
const fakes = boards.map((board, i) => {
  const b = new FakeBoard(`HALL-${i + 1}`);
  b.board = board;
  return b;
});
for (const b of fakes) await b.listen();
const lateBoard = new FakeBoard('HALL-LATE');
lateBoard.board = late.toBoardString();
const latePort = await lateBoard.listen();
// Not listening until it comes back: the daemon keeps trying.
await lateBoard.close();

const sources = [...fakes.map((b) => `tcp://127.0.0.1:${b.port}`), `tcp://127.0.0.1:${latePort}`];
const config = loadConfig({ flags: { boards: sources }, env: {} });
if (!config.ok) throw new Error(config.error.join('\n'));
if (POSITIONS !== undefined) config.value.gapSearch = { ...config.value.gapSearch, positions: POSITIONS };
const journal = Journal.open(join(dir, 'journal.sqlite'));
/** The time the granted steps took (a tick with `steps`): the searches' own share of the window. */
let stepMs = 0;
const timedTracker: TrackerFactory = (options) => {
  const tracker = createTracker(options);
  const push = tracker.push.bind(tracker);
  tracker.push = (event) => {
    if (event.type !== 'tick' || !event.steps) return push(event);
    const from = performance.now();
    const out = push(event);
    stepMs += performance.now() - from;
    return out;
  };
  return tracker;
};
const controller = new Controller({
  config: config.value,
  journal,
  createTracker: timedTracker,
  timing: TIMING,
  searchShare: SHARE,
});
console.log(`loadavg_1m ${loadavg()[0].toFixed(2)} load`);
console.log(`searches_boards ${boards.length} boards`);
console.log(`searches_share ${SHARE} share`);
const delay = monitorEventLoopDelay({ resolution: 1 });
globalThis.gc?.();
const { heapUsed: heap0, arrayBuffers: buffers0 } = process.memoryUsage();
controller.start();
const wall0 = performance.now();
const cpu0 = process.cpuUsage();
delay.enable();
const lateBoardNo = sources.length;
let lateFound: number | undefined;
let lateAt: number | undefined;
setTimeout(async () => {
  const again = new FakeBoard('HALL-LATE');
  again.board = late.toBoardString();
  await again.listen(latePort);
  lateAt = performance.now();
  fakes.push(again);
}, LATE_MS);
/** Per hall board: when it came to unknown-position (ms from the start). */
const alertedAt = new Map<number, number>();
const poll = setInterval(() => {
  if (lateAt !== undefined && lateFound === undefined && controller.snapshot(lateBoardNo)!.moves.length > 0)
    lateFound = performance.now() - lateAt;
}, 5);
// A tenth of a second is close enough here, and the bench's own reads stay out of the daemon's share.
const alertPoll = setInterval(() => {
  for (let n = 1; n <= boards.length; n++) {
    if (alertedAt.has(n)) continue;
    if (controller.snapshot(n)?.alerts.some((a) => a.rule === 'unknown-position'))
      alertedAt.set(n, performance.now() - wall0);
  }
}, 100);
await new Promise((resolve) => setTimeout(resolve, WINDOW_S * 1000));
clearInterval(poll);
clearInterval(alertPoll);
delay.disable();
const cpu = process.cpuUsage(cpu0);
const wall = performance.now() - wall0;
controller.stop();
globalThis.gc?.();
const { heapUsed: heap, arrayBuffers: buffers } = process.memoryUsage();
let granted = 0;
journal.forEachRoundInput(1, (_board, input) => {
  if (input.kind === 'event' && input.event.type === 'tick' && input.event.steps)
    granted += input.event.steps;
});
const ms = (ns: number) => (ns / 1e6).toFixed(1);
console.log(`searches_cpu_share ${((cpu.user + cpu.system) / 1000 / wall).toFixed(2)} share`);
console.log(`searches_step_share ${(stepMs / wall).toFixed(2)} share`);
console.log(
  `searches_positions_per_s ${Math.round((granted * RESYNC_BUDGET.step) / (wall / 1000))} positions/s`,
);
console.log(
  `searches_positions_per_step_s ${Math.round((granted * RESYNC_BUDGET.step) / (stepMs / 1000))} positions/s`,
);
console.log(`searches_loop_delay_p50_ms ${ms(delay.percentile(50))} ms`);
console.log(`searches_loop_delay_p99_ms ${ms(delay.percentile(99))} ms`);
console.log(`searches_loop_delay_max_ms ${ms(delay.max)} ms`);
console.log(`searches_late_gap_found_ms ${lateFound === undefined ? 'nan' : lateFound.toFixed(0)} ms`);
console.log(`searches_heap_mb ${((heap - heap0) / 1e6).toFixed(1)} MB`);
console.log(`searches_tables_mb ${((buffers - buffers0) / 1e6).toFixed(1)} MB`);
const alerted = [...alertedAt.values()].sort((a, b) => a - b);
const at = (i: number) => (alerted.length === 0 ? 'nan' : (alerted[i] / 1000).toFixed(1));
console.log(`searches_alerted ${alerted.length} boards`);
console.log(`searches_alert_first_s ${at(0)} s`);
console.log(`searches_alert_p50_s ${at(Math.floor((alerted.length - 1) / 2))} s`);
console.log(`searches_alert_last_s ${at(alerted.length - 1)} s`);
journal.close();
for (const b of fakes) await b.close();
process.exit(0);
