// WebSocket fan-out: 10,000 spectators connected on loopback follow one board; one move goes to all.
// Prints `ws_viewers` (connected and subscribed) and `ws_fanout_p99_ms` (move published → frame
// received, over every viewer and several moves; target ≤ 250 ms).
// The server runs here; the viewers live in child processes (their parsing must not steal the
// server's event loop, and each process needs its own file descriptors). Raises `ulimit -n` by
// re-running itself under `sh -c 'ulimit -n …'` when the soft limit is too low.
import { fork } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { fileURLToPath } from 'node:url';
import { startServer } from '../daemon/server/index.ts';
import { FakeHub } from '../test/daemon/fixtures/fake-hub.ts';
import { player } from '../test/src/game/fixtures/helpers.ts';
import { now, raiseFileLimit, viewerProcess } from './ws-viewer.ts';

const VIEWERS = Number(process.env.WS_VIEWERS ?? 10_000);
const CHILDREN = Number(process.env.WS_CHILDREN ?? 4);
const MOVES = ['32-28', '19-23', '28x19', '14x23', '37-32', '10-14', '41-37', '5-10'];
const self = fileURLToPath(import.meta.url);

type FromChild = { type: 'ready'; connected: number } | { type: 'times'; times: Record<number, number[]> };

async function main(): Promise<void> {
  raiseFileLimit(VIEWERS + 1000, self);
  const hub = new FakeHub(1);
  // No heartbeat pings during the measurement: 10,000 pings landing on a move would be measured too.
  // Every viewer connects from loopback: one address, beyond the per-address default.
  const connections = VIEWERS + 100;
  const server = await startServer({
    hub,
    port: 0,
    heartbeatMs: 3_600_000,
    limits: { connections, connectionsPerAddress: connections },
  });
  const per = Math.ceil(VIEWERS / CHILDREN);
  const children = Array.from({ length: CHILDREN }, (_, i) =>
    fork(self, [], {
      execArgv: ['--import', 'tsx'],
      env: {
        ...process.env,
        WS_ROLE: 'viewer',
        WS_URL: server.wsUrl,
        WS_COUNT: String(Math.min(per, VIEWERS - i * per)),
      },
    }),
  );
  const ask = <T extends FromChild['type']>(child: (typeof children)[number], type: T) =>
    new Promise<Extract<FromChild, { type: T }>>((resolve) => {
      const on = (m: FromChild) => {
        if (m.type === type) {
          child.off('message', on);
          resolve(m as Extract<FromChild, { type: T }>);
        }
      };
      child.on('message', on);
    });
  const ready = await Promise.all(children.map((c) => ask(c, 'ready')));
  const connected = ready.reduce((n, r) => n + r.connected, 0);
  global.gc?.();
  const rssMb = process.memoryUsage().rss / 1024 / 1024;

  // WS_PROFILE=file.cpuprofile: a CPU profile of the server during the moves only.
  const session = process.env.WS_PROFILE ? new Session() : undefined;
  const post = (method: string) =>
    new Promise<unknown>((resolve, reject) => session!.post(method, (e, r) => (e ? reject(e) : resolve(r))));
  if (session) {
    session.connect();
    await post('Profiler.enable');
    await post('Profiler.start');
  }
  const p = player();
  const published: Record<number, number> = {};
  const dispatch: number[] = [];
  for (const text of MOVES) {
    await new Promise((r) => setTimeout(r, 400));
    global.gc?.();
    const t0 = now();
    const [event] = hub.feed(1, p.move(text, Math.round(t0)));
    dispatch.push(now() - t0);
    published[event.version] = t0;
  }
  await new Promise((r) => setTimeout(r, 1500));
  if (session) {
    const { profile } = (await post('Profiler.stop')) as { profile: unknown };
    writeFileSync(process.env.WS_PROFILE!, JSON.stringify(profile));
  }
  const reports = await Promise.all(
    children.map((c) => {
      const answer = ask(c, 'times');
      c.send({ type: 'report' });
      return answer;
    }),
  );
  const lat: number[] = [];
  let received = 0;
  for (const r of reports) {
    for (const [v, ts] of Object.entries(r.times)) {
      received += ts.length;
      for (const t of ts) lat.push(t - published[Number(v)]);
    }
  }
  lat.sort((a, b) => a - b);
  const pct = (q: number) => lat[Math.min(lat.length - 1, Math.floor(q * lat.length))] ?? Number.NaN;
  const expected = connected * MOVES.length;
  console.log(`ws_viewers ${connected} clients`);
  console.log(`ws_fanout_p50_ms ${pct(0.5).toFixed(1)} ms`);
  console.log(`ws_fanout_p99_ms ${pct(0.99).toFixed(1)} ms`);
  console.log(`ws_fanout_max_ms ${lat.at(-1)?.toFixed(1)} ms`);
  console.log(`ws_dispatch_max_ms ${Math.max(...dispatch).toFixed(1)} ms`);
  if (process.env.WS_VERBOSE)
    console.error(`dispatch per move: ${dispatch.map((d) => d.toFixed(0)).join(' ')}`);
  console.log(`ws_server_rss_mb ${rssMb.toFixed(0)} MB`);
  console.log(`ws_fanout_lost ${expected - received} frames`);
  await server.close();
  process.exit(connected === VIEWERS && received === expected ? 0 : 1);
}

if (process.env.WS_ROLE === 'viewer')
  await viewerProcess([new URL(process.env.WS_URL!)], Number(process.env.WS_COUNT));
else await main();
