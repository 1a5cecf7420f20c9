// `npm run bench -- history`: catching up with a board that keeps its history (line protocol 1.1).
//   history_replay_ms        a board that made HISTORY_BENCH_CHANGES (200) changes while the daemon
//                            was down (a seeded self-play game, after 10 plies played live): from the
//                            daemon's start (its link opening, the hello, `history N`) until its record
//                            has every move of them; p50 and p99 of HISTORY_BENCH_TRIALS (20) trials,
//                            each on a fresh journal (an in-process controller with the real tracker
//                            over TCP)
//   history_replay_changes   the changes replayed in each trial
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../daemon/config/index.ts';
import { Controller } from '../daemon/controller.ts';
import { Journal } from '../daemon/journal/index.ts';
import type { BoardEvent } from '../firmware-protocol/events.ts';
import { startPosition } from '../firmware-protocol/index.ts';
import { simulateGame } from '../simulator/index.ts';
import { createTracker } from '../src/tracker/index.ts';
import { TIMING, until } from '../test/daemon/fixtures/controller-timing.ts';
import { FakeBoard } from '../test/daemon/fixtures/fake-board.ts';
import { percentile, print } from './lines.ts';

const CHANGES = Number(process.env.HISTORY_BENCH_CHANGES ?? 200);
const TRIALS = Number(process.env.HISTORY_BENCH_TRIALS ?? 20);
const LIVE_PLIES = 10;

const isChange = (e: BoardEvent) => e.type === 'lift' || e.type === 'put' || e.type === 'press';

function controllerOn(path: string, port: number) {
  const config = loadConfig({ flags: { boards: [`tcp://127.0.0.1:${port}`] }, env: {} });
  if (!config.ok) throw new Error(config.error.join('\n'));
  const journal = Journal.open(path);
  const c = new Controller({ config: config.value, journal, createTracker, timing: TIMING, tickMs: 20 });
  return {
    c,
    stop: () => {
      c.stop();
      journal.close();
    },
  };
}

/** A seeded quiet game: its changes up to ply LIVE_PLIES, then the next CHANGES changes (to a press). */
function script(seed: number) {
  const game = simulateGame({ seed, noise: 'none', maxPlies: 160 });
  const changes = game.events.filter(isChange);
  let presses = 0;
  let cut = 0;
  while (presses < LIVE_PLIES) if (changes[cut++].type === 'press') presses++;
  let end = cut + CHANGES;
  while (end < changes.length && changes[end - 1].type !== 'press') end++;
  const board = [...startPosition(10)];
  for (const e of changes.slice(0, end)) {
    if (e.type === 'lift') board[e.square - 1] = '.';
    if (e.type === 'put') board[e.square - 1] = e.piece ?? 'o';
  }
  const plies = changes.slice(0, end).filter((e) => e.type === 'press').length;
  return { live: changes.slice(0, cut), missed: changes.slice(cut, end), board: board.join(''), plies };
}

const times: number[] = [];
const counts: number[] = [];
for (let trial = 0; trial < TRIALS; trial++) {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-bench-history-'));
  const path = join(dir, 'journal.sqlite');
  const s = script(1000 + trial);
  const b = new FakeBoard('HB-1', 'line', ['history']);
  await b.listen();
  const first = controllerOn(path, b.port);
  first.c.start();
  await until(() => first.c.boards()[0].state === 'active' && b.commands.some((c) => c.type === 'snapshot'));
  await new Promise((r) => setTimeout(r, 100));
  for (const e of s.live) b.send(e);
  await until(() => first.c.snapshot(1)!.moves.length === LIVE_PLIES, 10_000);
  first.stop();
  for (const e of s.missed) b.miss(e);
  b.board = s.board;
  const second = controllerOn(path, b.port);
  const t0 = performance.now();
  second.c.start();
  await until(() => second.c.snapshot(1)!.moves.length >= s.plies, 30_000);
  times.push(performance.now() - t0);
  counts.push(s.missed.length);
  const alerts = second.c.snapshot(1)!.alerts;
  if (alerts.length > 0) throw new Error(`trial ${trial}: alerts ${alerts.map((a) => a.rule).join(', ')}`);
  second.stop();
  await b.close();
  rmSync(dir, { recursive: true, force: true });
}
print('history_replay_changes', `${Math.min(...counts)}-${Math.max(...counts)}`);
print('history_replay_ms_p50', percentile(times, 50).toFixed(1), 'ms');
print('history_replay_ms', percentile(times, 99).toFixed(1), 'ms');
