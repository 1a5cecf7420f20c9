// WebSocket fan-out: 10,000 spectators connected on loopback follow one board; one move goes to all.
// Prints `ws_viewers` (connected and subscribed) and `ws_fanout_p99_ms` (move published → frame
// received, over every viewer and several moves; target ≤ 250 ms).
// The server runs here; the viewers live in child processes (their parsing must not steal the
// server's event loop, and each process needs its own file descriptors). Raises `ulimit -n` by
// re-running itself under `sh -c 'ulimit -n …'` when the soft limit is too low.
import { execFileSync, fork, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { connect } from 'node:net';
import { fileURLToPath } from 'node:url';
import { startServer } from '../daemon/server/index.ts';
import { FakeHub } from '../test/server/fake-hub.ts';
import { player } from '../test/game/helpers.ts';

const VIEWERS = Number(process.env.WS_VIEWERS ?? 10_000);
const CHILDREN = Number(process.env.WS_CHILDREN ?? 4);
const MOVES = ['32-28', '19-23', '28x19', '14x23', '37-32', '10-14', '41-37', '5-10'];
const self = fileURLToPath(import.meta.url);
const now = () => performance.timeOrigin + performance.now();

type FromChild = { type: 'ready'; connected: number } | { type: 'times'; times: Record<number, number[]> };

/**
 * One spectator as a bare TCP socket speaking just enough WebSocket (RFC 6455): the upgrade, one
 * masked text frame out, unmasked frames in. The measuring side must be far cheaper than the server
 * it measures: 10,000 clients of the full `ws` library on the same 2 cores spent most of the
 * measured time in their own frame handling, not waiting for the server.
 */
function openViewer(url: URL, onFrame: (text: string, at: number) => void): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(Number(url.port), url.hostname);
    socket.setNoDelay(true);
    let upgraded = false;
    let pending: Buffer = Buffer.alloc(0);
    socket.on('error', () => resolve(false));
    socket.on('connect', () =>
      socket.write(
        `GET ${url.pathname} HTTP/1.1\r\nHost: ${url.host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n` +
          `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
      ),
    );
    socket.on('data', (chunk: Buffer) => {
      const at = now();
      pending = pending.length === 0 ? chunk : Buffer.concat([pending, chunk]);
      if (!upgraded) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        if (!pending.subarray(0, 12).toString().includes('101')) return resolve(false);
        upgraded = true;
        pending = pending.subarray(end + 4);
        socket.write(clientFrame(SUBSCRIBE));
        resolve(true);
      }
      // Server frames are unmasked: FIN+opcode, length (7 bits, or 126 + 16 bits), payload.
      while (pending.length >= 2) {
        let len = pending[1] & 0x7f;
        let head = 2;
        if (len === 126) {
          if (pending.length < 4) return;
          len = pending.readUInt16BE(2);
          head = 4;
        } else if (len === 127) {
          if (pending.length < 10) return;
          len = Number(pending.readBigUInt64BE(2));
          head = 10;
        }
        if (pending.length < head + len) return;
        if ((pending[0] & 0x0f) === 1) onFrame(pending.toString('utf8', head, head + len), at);
        pending = pending.subarray(head + len);
      }
    });
  });
}

const SUBSCRIBE = '{"id":1,"call":"subscribe","param":{"feed":"board","board":1,"id":"b"}}';

/** A client's text frame: masked, as RFC 6455 requires (payloads under 126 bytes). */
function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

async function viewer(): Promise<void> {
  const url = new URL(process.env.WS_URL!);
  const count = Number(process.env.WS_COUNT);
  const times: Record<number, number[]> = {};
  let connected = 0;
  const openOne = () =>
    new Promise<void>((resolve) => {
      void openViewer(url, (text, at) => {
        const m = JSON.parse(text);
        if (m.param?.kind === 'snapshot') {
          connected++;
          resolve();
        } else if (m.param?.kind === 'move') (times[m.param.version] ??= []).push(at);
      }).then((ok) => {
        if (!ok) resolve();
      });
    });
  // Open in waves so the accept queue never overflows.
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, openOne));
  }
  process.send!({ type: 'ready', connected } satisfies FromChild);
  process.on('message', (m: { type: string }) => {
    if (m.type === 'report')
      process.send!({ type: 'times', times } satisfies FromChild, () => process.exit(0));
  });
}

function softLimit(): number {
  return Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim()) || 0;
}

async function main(): Promise<void> {
  const needed = VIEWERS + 1000;
  if (softLimit() < needed && !process.env.WS_BENCH_RAISED) {
    const r = spawnSync(
      'sh',
      [
        '-c',
        `ulimit -n ${needed} 2>/dev/null || ulimit -n "$(ulimit -Hn)"; exec "$0" "$@"`,
        process.execPath,
        ...process.execArgv,
        self,
      ],
      { stdio: 'inherit', env: { ...process.env, WS_BENCH_RAISED: '1' } },
    );
    process.exit(r.status ?? 1);
  }
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

if (process.env.WS_ROLE === 'viewer') await viewer();
else await main();
