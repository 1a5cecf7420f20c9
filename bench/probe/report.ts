// Sets the daemon bench's measured frames (latencies.json, kept with BENCH_DAEMON_DEBUG=1) beside
// the daemon's pauses (bench/probe/pauses.js): which slow frames were in flight during a GC, during
// another gap of the main thread (split into running / waiting for a CPU), or neither.
//   npx tsx bench/probe/report.ts DIR/latencies.json /tmp/pauses.<pid>.json [slow-ms, default 4]
import { readFileSync } from 'node:fs';

type Span = [start: number, ms: number];
type Gap = [start: number, ms: number, running: number, waiting: number];

const [latFile, pauseFile, slowArg] = process.argv.slice(2);
if (!latFile || !pauseFile) {
  console.error('usage: report.ts latencies.json pauses.<pid>.json [slow-ms]');
  process.exit(2);
}
const slowMs = Number(slowArg ?? 4);
const frames = JSON.parse(readFileSync(latFile, 'utf8')) as Span[];
const pauses = JSON.parse(readFileSync(pauseFile, 'utf8')) as { gcs: Span[]; gaps: Gap[] };

const from = Math.min(...frames.map((f) => f[0]));
const to = Math.max(...frames.map((f) => f[0] + f[1]));
const within = <T extends Span | Gap>(list: T[]) => list.filter((p) => p[0] + p[1] >= from && p[0] <= to);
const overlaps = (a: Span | Gap, start: number, ms: number) => a[0] < start + ms && a[0] + a[1] > start;
const gcs = within(pauses.gcs);
const gaps = within(pauses.gaps).filter((g) => !gcs.some((gc) => overlaps(gc, g[0], g[1])));

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1] ?? 0;
const slow = frames.filter((f) => f[1] > slowMs);
const inGc = slow.filter((f) => gcs.some((g) => overlaps(g, f[0], f[1]))).length;
const inGap = slow.filter(
  (f) => !gcs.some((g) => overlaps(g, f[0], f[1])) && gaps.some((g) => overlaps(g, f[0], f[1])),
).length;

const line = (name: string, value: string) => console.log(`${name.padEnd(34)} ${value}`);
line('window', `${((to - from) / 1000).toFixed(1)} s, ${frames.length} frames`);
line(
  'gc pauses',
  `${gcs.length}, median ${median(gcs.map((g) => g[1])).toFixed(2)} ms, total ${sum(gcs.map((g) => g[1])).toFixed(0)} ms`,
);
line('other gaps > 4 ms', `${gaps.length}, total ${sum(gaps.map((g) => g[1])).toFixed(0)} ms`);
line('  of which running', `${sum(gaps.map((g) => g[2])).toFixed(0)} ms`);
line('  of which waiting for a CPU', `${sum(gaps.map((g) => g[3])).toFixed(0)} ms`);
line(`frames over ${slowMs} ms`, `${slow.length}`);
line('  in flight during a gc', `${inGc}`);
line('  during another gap', `${inGap}`);
line('  neither', `${slow.length - inGc - inGap}`);
