// `npm run bench -- daemon`: the daemon under load, as real processes.
//   recovery_seconds        restart with 200 boards' journals of full games (time to rebuild them;
//                           the median of BENCH_RECOVERY_TRIALS (3) restarts after a stop, each
//                           printed, the boards' images restored; target ≤ 1 s, and
//                           recovery_startup_seconds ≤ 2 s); recovery_stop_seconds (SIGTERM to exit,
//                           the images taken); recovery_replay_seconds and
//                           recovery_replay_startup_seconds: the first start, on the journal alone
//                           (a daemon killed before it took any image: the whole round replayed);
//                           recovery_images_after_replay_seconds: such a start serving → every board
//                           imaged again; recovery_crash_seconds: the rebuild after SIGKILL then
//   daemon_cpu_200_boards   the daemon's CPU over the live trials (target ≤ 30 % of a core)
//   rss_mb_per_board        daemon RSS with 200 live boards minus with 1, per extra board
//   event_to_ws_p99_ms      200 boards at 10× speed over tcp: a board's clock line written by the
//                           simulator → the spectator's `clock` frame (moves wait for the tracker's
//                           settle/press grace by design, so the clock measures the pipeline itself);
//                           the median of BENCH_DAEMON_TRIALS (3) trials of 20 s, each printed
//   event_to_ws_false_alerts alerts raised in those games (the simulator injects none), median
//   daemon_false_alerts_total the sum of them over every trial (BENCH_DAEMON_TRIALS=15 for the
//                           15-trial run); each trial's alerts printed with board, rule and ply
//   crash_restarts / crash_moves_lost / crash_moves_duplicated
//                           20 boards at human speed, the daemon killed with SIGKILL 20 times at
//                           random points and restarted; then every game is compared with the truth
import { createRng } from '../simulator/prng.ts';
import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { BoardGame } from '../src/game/board-game.ts';
import { derivedRecord } from '../daemon/journal/derived.ts';
import { type AppendRequest, type DerivedRecord, Journal } from '../daemon/journal/index.ts';
import type { BoardInput } from '../src/game/board-game.ts';
import { createTracker } from '../src/tracker/index.ts';
import { simulateGame, startSimulation } from '../simulator/index.ts';
import {
  type Daemon,
  fetchText,
  pdnMoves,
  startDaemon,
  tempDir,
} from '../test/integration/fixtures/helpers.ts';
import { percentile, print } from './lines.ts';

/** Absolute milliseconds, comparable between threads. */
const now = (): number => performance.timeOrigin + performance.now();

/**
 * The spectator thread: subscribes to the round, stamps every frame as it arrives and reads them
 * only at the end (parsing thousands of frames a second as they come would delay the stamps of the
 * frames behind them: the harness's cost, not the daemon's); reports the clock frames' stamps.
 */
const SPECTATOR = `
const { parentPort, workerData } = require('node:worker_threads');
const WebSocket = require('ws');
const frames = [];
const ws = new WebSocket(workerData.url);
ws.on('open', () => {
  ws.send(JSON.stringify({ id: 1, call: 'subscribe', param: { feed: 'round', id: 'r' } }));
  parentPort.postMessage('ready');
});
ws.on('message', (data) => frames.push(performance.timeOrigin + performance.now(), data));
parentPort.on('message', () => {
  ws.close();
  const received = new Map();
  const alerts = [];
  for (let i = 0; i < frames.length; i += 2) {
    const msg = JSON.parse(frames[i + 1].toString());
    const p = msg.param;
    if (msg.response !== 'feed' || !p) continue;
    if (p.kind === 'clock') received.set(p.board + ':' + p.white + ':' + p.black, frames[i]);
    // Every alert raised, in every game (a snapshot keeps only the current game's); a correction
    // sends the alert again, marked.
    else if (p.kind === 'alert' && !p.alert.correctedOnBoard)
      alerts.push({ board: p.board, rule: p.alert.rule, ply: p.alert.ply, message: p.alert.message });
  }
  parentPort.postMessage({ received, alerts });
});
`;

/** e.g. BENCH_DAEMON_NODE_ARGS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the daemon. */
const daemonNodeArgs = (): string[] => process.env.BENCH_DAEMON_NODE_ARGS?.split(' ').filter(Boolean) ?? [];

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return kb / 1024;
}

/** User + system CPU seconds a process has used so far (Linux). */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

const median = (values: number[]): number => percentile(values, 50);

/**
 * Journals of `boards` full games as the daemon writes them: every board event, the ticks (every
 * 100 ms while a board is active) that decided something, and the games' outputs.
 */
function writeJournals(dir: string, boards: number): number {
  const journal = Journal.open(join(dir, 'journal.sqlite'));
  const base = Date.parse('2026-07-12T10:00:00Z');
  let rows = 0;
  journal.setRoundSettings(1, { variant: 'international', drawProfile: 'fmjd' });
  for (let board = 1; board <= boards; board++) {
    const game = simulateGame({ seed: board, noise: 'realistic' });
    const live = new BoardGame({
      info: { board, round: 1, variant: 'international' },
      createTracker,
      drawProfile: 'fmjd',
    });
    // One commit per board: the rows as the daemon writes them, in its order.
    const inputs: AppendRequest[] = [];
    const derived: DerivedRecord[] = [];
    const add = (t: number, input: BoardInput, always: boolean) => {
      const events = live.apply(input, t);
      if (events.length === 0 && !always) return;
      for (const e of events) {
        const record = derivedRecord(1, e);
        if (record) derived.push(record);
      }
      inputs.push({ round: 1, board, t, serial: `SIM-${board}`, input });
    };
    add(base, { kind: 'state', state: 'active', serial: `SIM-${board}` }, true);
    const events = game.events.map((e) => ({ ...e, t: base + e.t }));
    events.forEach((event, i) => {
      add(event.t, { kind: 'event', event }, true);
      const next = events[i + 1]?.t ?? event.t + 6000;
      for (let t = event.t + 100; t < Math.min(next, event.t + 6000); t += 100) {
        add(t, { kind: 'event', event: { t, type: 'tick' } }, false);
      }
    });
    journal.appendMany(inputs, derived);
    rows += inputs.length;
  }
  journal.close();
  return rows;
}

/** What a started daemon logged of its rebuild: how long it took, how many boards it restored. */
async function rebuilt(daemon: Daemon): Promise<{ seconds: number; restored: number }> {
  // The log line (stderr) may arrive after the listening line (stdout) the start waited for.
  const rebuiltLine = () =>
    daemon
      .stderr()
      .split('\n')
      .find((l) => l.includes('games rebuilt from the journal'));
  for (let i = 0; i < 100 && !rebuiltLine(); i++) await sleep(50);
  const line = rebuiltLine();
  if (!line) return { seconds: Number.NaN, restored: Number.NaN };
  const { ms, restored } = JSON.parse(line);
  return { seconds: Number(ms) / 1000, restored: Number(restored) };
}

/** One restart on the journals in `dir`: the rebuild time the daemon logs, the whole start, the moves. */
async function restart(dir: string) {
  const sources = Array.from({ length: 200 }, () => 'tcp://127.0.0.1:1');
  const started = performance.now();
  const daemon = await startDaemon(sources, dir, ['--log-level', 'info'], daemonNodeArgs());
  const startup = (performance.now() - started) / 1000;
  const { seconds, restored } = await rebuilt(daemon);
  const games = pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`));
  const stopping = performance.now();
  await daemon.stop();
  const stop = (performance.now() - stopping) / 1000;
  return { seconds, startup, stop, restored, moves: games.reduce((n, g) => n + g.length, 0), pdn: games };
}

async function recovery(): Promise<void> {
  const dir = tempDir('bench-recovery');
  const rows = writeJournals(dir, 200);
  const say = (what: string, t: { seconds: number; startup: number; stop: number }) =>
    console.error(
      `${what}: rebuilt in ${t.seconds.toFixed(2)} s, started in ${t.startup.toFixed(2)} s, stopped in ${t.stop.toFixed(2)} s`,
    );
  // The journal alone: every input of the round replayed. Its stop takes the boards' images.
  const replay = await restart(dir);
  say('first start (the journal alone)', replay);
  // Like the live figures: the median of several restarts, each printed (the machine is shared).
  const trials = [];
  for (let i = 0; i < Number(process.env.BENCH_RECOVERY_TRIALS ?? 3); i++) {
    const trial = await restart(dir);
    trials.push(trial);
    say(`restart ${i + 1}`, trial);
    // The images hold the games the replay rebuilt, move for move.
    if (JSON.stringify(trial.pdn) !== JSON.stringify(replay.pdn)) throw new Error('restored games differ');
  }
  const crash = await crashAfterReplay(dir);
  say('a crash once the replayed boards were imaged', crash);
  if (JSON.stringify(crash.pdn) !== JSON.stringify(replay.pdn))
    throw new Error('games after the crash differ');
  rmSync(dir, { recursive: true, force: true });
  print('recovery_rows', rows);
  print('recovery_moves', replay.moves);
  print('recovery_seconds', median(trials.map((t) => t.seconds)).toFixed(2), 's');
  print('recovery_startup_seconds', median(trials.map((t) => t.startup)).toFixed(2), 's');
  print('recovery_stop_seconds', median(trials.map((t) => t.stop)).toFixed(2), 's');
  print('recovery_replay_seconds', replay.seconds.toFixed(2), 's');
  print('recovery_replay_startup_seconds', replay.startup.toFixed(2), 's');
  print('recovery_images_after_replay_seconds', crash.imaged.toFixed(1), 's');
  print('recovery_crash_seconds', crash.seconds.toFixed(2), 's');
}

/**
 * A start that replays the round (its images dropped: an upgrade's first start), the daemon killed
 * once every board is imaged again, and the start after the crash: how long the images took, then
 * the restart's figures.
 */
async function crashAfterReplay(dir: string) {
  const path = join(dir, 'journal.sqlite');
  const writable = Journal.open(path);
  writable.database.prepare('DELETE FROM board_images').run();
  writable.close();
  const sources = Array.from({ length: 200 }, () => 'tcp://127.0.0.1:1');
  const daemon = await startDaemon(sources, dir, ['--log-level', 'info'], daemonNodeArgs());
  const serving = performance.now();
  if ((await rebuilt(daemon)).restored !== 0) throw new Error('a start without images restored boards');
  const reader = Journal.open(path, { readonly: true });
  const count = reader.database.prepare('SELECT count(*) FROM board_images WHERE round = 1').pluck();
  let imaged = Number.NaN;
  for (let i = 0; i < 1200; i++) {
    if ((count.get() as number) >= 200) {
      imaged = (performance.now() - serving) / 1000;
      break;
    }
    await sleep(250);
  }
  reader.close();
  daemon.proc.kill('SIGKILL');
  await daemon.exited;
  const after = await restart(dir);
  if (after.restored !== 200) throw new Error(`the start after the crash restored ${after.restored} boards`);
  return { imaged, ...after };
}

async function liveBoards(boards: number, seconds: number, speed: number) {
  let simLateOver5 = 0;
  let simLateOver25 = 0;
  let measuring = false;
  const sim = await startSimulation({
    boards,
    transport: 'tcp',
    speed,
    seed: 7,
    game: { noise: 'realistic', maxPlies: 400, thinkMs: 2500 },
    loop: true,
    onLateness: (ms) => {
      if (measuring && ms > 5) simLateOver5++;
      // 25 ms at 10× is 250 ms of board time: the tracker's settle window.
      if (measuring && ms > 25) simLateOver25++;
    },
  });
  // Stamp every clock line as the simulator writes it.
  const written = new Map<string, number>();
  sim.boards.forEach((b, i) => {
    const board = b.board;
    const attach = board.attach.bind(board);
    board.attach = (link, greet) =>
      attach(
        {
          write(bytes: Uint8Array) {
            const text = Buffer.from(bytes).toString('latin1');
            for (const m of text.matchAll(/^clock \d+ (\d+) (\d+) /gm))
              written.set(`${i + 1}:${m[1]}:${m[2]}`, now());
            link.write(bytes);
          },
        },
        greet,
      );
  });
  const dataDir = tempDir('bench-live');
  const daemon = await startDaemon(
    sim.boards.map((b) => b.address),
    dataDir,
    ['--time-scale', String(speed)],
    daemonNodeArgs(),
  );
  // The spectator lives in its own thread, so the simulator's work in this one does not delay it;
  // both sides stamp absolute times (timeOrigin + now) and the frames are matched at the end.
  const spectator = new Worker(SPECTATOR, {
    eval: true,
    workerData: { url: `${daemon.url.replace('http', 'ws')}/api/v1` },
  });
  await new Promise((r) => spectator.once('message', r));
  // Measure the steady state: every board connected, dumped and playing.
  await sleep(5000);
  measuring = true;
  const measureFrom = now();
  const cpuFrom = { daemon: cpuSeconds(daemon.proc.pid!), simulator: cpuSeconds(process.pid) };
  await sleep(seconds * 1000);
  const cpu = {
    daemon: (cpuSeconds(daemon.proc.pid!) - cpuFrom.daemon) / seconds,
    simulator: (cpuSeconds(process.pid) - cpuFrom.simulator) / seconds,
  };
  spectator.postMessage('done');
  const { received, alerts } = (await new Promise((r) => spectator.once('message', r))) as {
    received: Map<string, number>;
    alerts: FalseAlert[];
  };
  // How late the simulator wrote each alerted board's events: a board whose "hands" were held up
  // past a rule's window tells something else than the daemon misjudging them.
  for (const a of alerts) a.simLateMaxMs = sim.boards[a.board - 1]?.board.stats.maxLateMs ?? Number.NaN;
  await spectator.terminate();
  const latencies: number[] = [];
  const timeline: Array<[number, number]> = [];
  for (const [key, at] of received) {
    const sent = written.get(key);
    if (sent !== undefined && sent > measureFrom) {
      latencies.push(at - sent);
      timeline.push([sent, at - sent]);
    }
  }
  // The simulator injects nothing here: every alert is a false one. Every one is printed, so a
  // rare one is known by its rule even in a run without debug.
  for (const a of alerts)
    console.error(
      `false alert: board ${a.board} ${a.rule} ply ${a.ply}: ${a.message} (that board's simulator events up to ${a.simLateMaxMs.toFixed(0)} ms late)`,
    );
  if (process.env.BENCH_DAEMON_DEBUG) console.error(JSON.stringify(buckets(latencies)));
  const rss = rssMb(daemon.proc.pid!);
  await daemon.stop();
  await sim.stop();
  // With BENCH_DAEMON_DEBUG the journal stays for `damlink export --events` and `damlink replay`.
  // … and every measured frame as [written at (epoch ms), latency ms], to set beside the daemon's pauses.
  if (process.env.BENCH_DAEMON_DEBUG) {
    writeFileSync(join(dataDir, 'latencies.json'), JSON.stringify(timeline));
    console.error(`journal and latencies.json kept in ${dataDir}`);
  } else rmSync(dataDir, { recursive: true, force: true });
  return { rss, latencies, cpu, alerts, simLateOver5, simLateOver25 };
}

interface FalseAlert {
  board: number;
  rule: string;
  ply: number;
  message: string;
  simLateMaxMs: number;
}

const buckets = (values: number[]) => ({
  over5: values.filter((v) => v > 5).length,
  over50: values.filter((v) => v > 50).length,
  max: Math.max(...values),
});

async function liveLoad(): Promise<void> {
  const one = await liveBoards(1, 5, 10);
  // The shared 2-core machine has bad spells that have nothing to do with the daemon: each figure
  // is the median of several trials, every trial printed.
  const trials = [];
  const count = Number(process.env.BENCH_DAEMON_TRIALS ?? process.env.BENCH_LIVE_TRIALS ?? 3);
  for (let i = 0; i < count; i++) {
    const load = loadavg()[0];
    const trial = await liveBoards(200, 20, 10);
    trials.push(trial);
    const p99 = percentile(trial.latencies, 99).toFixed(2);
    const rules = trial.alerts.map((a) => `${a.rule} (board ${a.board} ply ${a.ply})`).join(', ');
    console.error(
      `trial ${i + 1}: p99 ${p99} ms, daemon ${(trial.cpu.daemon * 100).toFixed(0)}% of a core, simulator ${(trial.cpu.simulator * 100).toFixed(0)}%, simulator events late > 5 ms ${trial.simLateOver5}, > 25 ms ${trial.simLateOver25}, load average ${load.toFixed(2)} → ${loadavg()[0].toFixed(2)}, false alerts ${trial.alerts.length}${rules ? `: ${rules}` : ''}`,
    );
  }
  print('event_to_ws_trials', trials.length);
  print('event_to_ws_samples', median(trials.map((t) => t.latencies.length)));
  print('event_to_ws_p50_ms', median(trials.map((t) => percentile(t.latencies, 50))).toFixed(2), 'ms');
  print('event_to_ws_p99_ms', median(trials.map((t) => percentile(t.latencies, 99))).toFixed(2), 'ms');
  print('event_to_ws_false_alerts', median(trials.map((t) => t.alerts.length)));
  print(
    'daemon_false_alerts_total',
    trials.reduce((n, t) => n + t.alerts.length, 0),
  );
  print('daemon_cpu_200_boards', (median(trials.map((t) => t.cpu.daemon)) * 100).toFixed(0), '% of a core');
  print('rss_mb_1_board', one.rss.toFixed(1), 'MB');
  print('rss_mb_200_boards', trials[0].rss.toFixed(1), 'MB');
  print('rss_mb_per_board', ((trials[0].rss - one.rss) / 199).toFixed(2), 'MB');
}

/** Seeded so a failure can be replayed. */
const rng = (seed: number): (() => number) => {
  const r = createRng(seed);
  return () => r.next();
};

async function crashes(): Promise<void> {
  const random = rng(20);
  const sim = await startSimulation({
    boards: 20,
    transport: 'tcp',
    speed: 1,
    seed: 20,
    game: { noise: 'none', maxPlies: 80, thinkMs: 1500 },
  });
  const dir = tempDir('bench-crash');
  const sources = sim.boards.map((b) => b.address);
  let daemon: Daemon = await startDaemon(sources, dir);
  let finished = false;
  void sim.done.then(() => {
    finished = true;
  });
  let restarts = 0;
  while (!finished && restarts < 20) {
    await sleep(3000 + random() * 4000);
    if (finished) break;
    daemon.proc.kill('SIGKILL');
    await daemon.exited;
    restarts++;
    daemon = await startDaemon(sources, dir);
  }
  await sim.done;
  await sleep(3000);
  const served = pdnMoves(await fetchText(`${daemon.url}/rounds/1/games.pdn`));
  let lost = 0;
  let duplicated = 0;
  let plies = 0;
  sim.boards.forEach((b, i) => {
    const truth = b.board.games[0].moves.map((m) => m.pdn);
    const got = served[i] ?? [];
    let same = 0;
    while (same < truth.length && same < got.length && truth[same] === got[same]) same++;
    plies += truth.length;
    lost += truth.length - same;
    duplicated += got.length - same;
  });
  await daemon.stop();
  await sim.stop();
  rmSync(dir, { recursive: true, force: true });
  print('crash_restarts', restarts);
  print('crash_moves_total', plies);
  print('crash_moves_lost', lost);
  print('crash_moves_duplicated', duplicated);
}

const only = process.env.BENCH_DAEMON_ONLY;
for (const [name, run] of [
  ['recovery', recovery],
  ['live', liveLoad],
  ['crash', crashes],
] as const) {
  if (!only || only.split(',').includes(name)) await run();
}
