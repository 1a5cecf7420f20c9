// A probe preloaded into the daemon (`node --import ./bench/probe/pauses.js …`, e.g. through
// BENCH_DAEMON_NODE_ARGS): records the main thread's pauses so a latency tail can be explained.
// - every GC, from the runtime's own `gc` performance entries;
// - every gap of over 4 ms between two runs of a 1 ms timer, with how much of it the thread spent
//   running and how much waiting for a CPU (Linux /proc schedstat), so a slow turn of our own code
//   tells itself apart from the machine being busy elsewhere.
// Written at exit to $PAUSES_DIR (default: the temp dir) as pauses.<pid>.json, in epoch ms like the
// bench's latencies.json; `npx tsx bench/probe/report.ts latencies.json pauses.<pid>.json` sets them
// side by side. A diagnostic only: the timer itself costs the daemon a little CPU.
import { closeSync, openSync, readSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PerformanceObserver, performance } from 'node:perf_hooks';
import { isMainThread } from 'node:worker_threads';

if (isMainThread) {
  const gcs = [];
  const gaps = [];
  new PerformanceObserver((list) => {
    for (const e of list.getEntries()) gcs.push([performance.timeOrigin + e.startTime, e.duration]);
  }).observe({ entryTypes: ['gc'] });

  let schedstat;
  try {
    schedstat = openSync(`/proc/self/task/${process.pid}/schedstat`, 'r');
  } catch {
    schedstat = undefined;
  }
  const buf = Buffer.alloc(100);
  /** [ms running, ms waiting for a CPU] of the main thread so far (zeros where unknown). */
  const sched = () => {
    if (schedstat === undefined) return [0, 0];
    const n = readSync(schedstat, buf, 0, buf.length, 0);
    const [run, wait] = buf.toString('latin1', 0, n).split(' ').map(Number);
    return [run / 1e6, wait / 1e6];
  };

  let last = performance.now();
  let lastSched = sched();
  setInterval(() => {
    const now = performance.now();
    const s = sched();
    if (now - last > 4) {
      gaps.push([performance.timeOrigin + last, now - last, s[0] - lastSched[0], s[1] - lastSched[1]]);
    }
    last = now;
    lastSched = s;
  }, 1).unref();

  process.on('exit', () => {
    if (schedstat !== undefined) closeSync(schedstat);
    const file = join(process.env.PAUSES_DIR ?? tmpdir(), `pauses.${process.pid}.json`);
    writeFileSync(file, JSON.stringify({ gcs, gaps }));
  });
}
