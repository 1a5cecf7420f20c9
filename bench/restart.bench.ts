// `npm run bench -- restart`: a daemon started on a journal whose boards were searching for lost
// plies when it stopped (4 boards, each a seeded game whose board came back 12 plies on, and
// RESTART_BENCH_STEPS (2000) ticks of one search step granted since: about a million positions a
// board), as real processes.
//   restart_to_serving_ms     from starting `damlink run` to the round's games.pdn answering (the
//                             median of RESTART_BENCH_TRIALS (3) starts, each printed; target ≤ 2000)
//   restart_rebuild_ms        the rebuild as the daemon logs it ("games rebuilt from the journal")
//   past_round_loop_delay_p99_ms / _max_ms
//                             the same journal as round 1, a daemon run on it and stopped (it keeps
//                             the round's games), then the daemon on round 2: while a client asks
//                             for round 1's games.pdn, /health is asked every 5 ms; its answers'
//                             delays, p99 and max (target p99 ≤ 100); past_round_first_request_ms
//                             that first request
//   past_round_replayed_loop_delay_p99_ms / _first_request_ms
//                             the same when the daemon of round 1 was killed (-9): nothing kept; the
//                             daemon rebuilds the round in a thread from its start, and a request
//                             meanwhile is answered 503 (asked again every 20 ms until served)
import { fetchText, startDaemon, tempDir } from '../test/integration/fixtures/helpers.ts';
import { writeSearchingRound } from './journals.ts';
import { percentile, print } from './lines.ts';

const STEPS = Number(process.env.RESTART_BENCH_STEPS ?? 2000);
const TRIALS = Number(process.env.RESTART_BENCH_TRIALS ?? 3);
const BOARDS = 4;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const writeJournal = (dir: string, round: number) => writeSearchingRound(dir, round, BOARDS, STEPS);

const sources = Array.from({ length: BOARDS }, () => 'tcp://127.0.0.1:1');

async function restartToServing(): Promise<void> {
  const dir = tempDir('bench-restart');
  writeJournal(dir, 1);
  const serving: number[] = [];
  const rebuild: number[] = [];
  for (let i = 0; i < TRIALS; i++) {
    const started = performance.now();
    const daemon = await startDaemon(sources, dir, ['--log-level', 'info']);
    await fetchText(`${daemon.url}/rounds/1/games.pdn`);
    const ms = performance.now() - started;
    const line = daemon
      .stderr()
      .split('\n')
      .find((l) => l.includes('games rebuilt from the journal'));
    const rebuilt = line ? Number(JSON.parse(line).ms) : Number.NaN;
    console.log(`# start ${i + 1}: serving after ${ms.toFixed(0)} ms, rebuild ${rebuilt} ms`);
    serving.push(ms);
    rebuild.push(rebuilt);
    await daemon.stop();
  }
  print('restart_to_serving_ms', percentile(serving, 50).toFixed(0), 'ms');
  print('restart_rebuild_ms', percentile(rebuild, 50).toFixed(0), 'ms');
}

/** /health's delays while round 1's games.pdn is asked for once, the daemon on round 2. */
async function pastRoundServed(dir: string): Promise<{ delays: number[]; first: number }> {
  const daemon = await startDaemon(sources, dir, ['--round', '2']);
  const delays: number[] = [];
  let asking = true;
  const health = (async () => {
    while (asking) {
      const t0 = performance.now();
      await fetchText(`${daemon.url}/health`).catch(() => '');
      delays.push(performance.now() - t0);
      await sleep(5);
    }
  })();
  await sleep(200);
  const t0 = performance.now();
  // A round being rebuilt answers 503 with Retry-After: asked again (sooner than a second) until served.
  while ((await fetch(`${daemon.url}/rounds/1/games.pdn`)).status === 503) await sleep(20);
  const first = performance.now() - t0;
  await sleep(200);
  asking = false;
  await health;
  await daemon.stop();
  return { delays, first };
}

async function pastRound(): Promise<void> {
  const stopped = tempDir('bench-past-round');
  writeJournal(stopped, 1);
  // Round 1's daemon, stopped as an organiser stops it after the round.
  await (await startDaemon(sources, stopped, [])).stop();
  const kept = await pastRoundServed(stopped);
  print('past_round_first_request_ms', kept.first.toFixed(1), 'ms');
  print('past_round_loop_delay_p99_ms', percentile(kept.delays, 99).toFixed(1), 'ms');
  print('past_round_loop_delay_max_ms', Math.max(...kept.delays).toFixed(1), 'ms');
  const killed = tempDir('bench-past-round-killed');
  writeJournal(killed, 1);
  const replayed = await pastRoundServed(killed);
  print('past_round_replayed_first_request_ms', replayed.first.toFixed(1), 'ms');
  print('past_round_replayed_loop_delay_p99_ms', percentile(replayed.delays, 99).toFixed(1), 'ms');
}

await restartToServing();
await pastRound();
