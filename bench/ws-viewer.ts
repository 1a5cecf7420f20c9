// A WebSocket spectator for the fan-out benchmarks: a bare TCP socket speaking just enough RFC 6455.
import { execFileSync, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { connect } from 'node:net';

/** Wall-clock milliseconds comparable across the benchmark's processes. */
export const now = (): number => performance.timeOrigin + performance.now();

/**
 * One spectator as a bare TCP socket speaking just enough WebSocket (RFC 6455): the upgrade, one
 * masked text frame out, unmasked frames in. The measuring side must be far cheaper than the server
 * it measures: 10,000 clients of the full `ws` library on the same 2 cores spent most of the
 * measured time in their own frame handling, not waiting for the server.
 */
export function openViewer(
  url: URL,
  subscribe: string,
  onFrame: (text: string, at: number) => void,
): Promise<boolean> {
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
        socket.write(clientFrame(subscribe));
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

/** A client's text frame: masked, as RFC 6455 requires (payloads under 126 bytes). */
export function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const frame = Buffer.alloc(6 + payload.length);
  frame[0] = 0x81;
  frame[1] = 0x80 | payload.length;
  mask.copy(frame, 2);
  for (let i = 0; i < payload.length; i++) frame[6 + i] = payload[i] ^ mask[i & 3];
  return frame;
}

/**
 * Re-runs this benchmark (`self`) under `sh -c 'ulimit -n …'` when the soft limit of open files is
 * below `needed`, and exits with its status; returns when the limit is enough.
 */
export function raiseFileLimit(needed: number, self: string): void {
  const soft = Number(execFileSync('sh', ['-c', 'ulimit -n']).toString().trim()) || 0;
  if (soft >= needed || process.env.WS_BENCH_RAISED) return;
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

const SUBSCRIBE = '{"id":1,"call":"subscribe","param":{"feed":"board","board":1,"id":"b"}}';

/**
 * The body of a viewer process: `count` spectators of board 1, the i-th on `urls[i % n]`, opened in
 * waves so the accept queue never overflows. Sends `{type: 'ready', connected}` to the parent, and
 * on `{type: 'report'}` the arrival times of each move by version (`{type: 'times', times}`).
 */
export async function viewerProcess(urls: readonly URL[], count: number): Promise<void> {
  const times: Record<number, number[]> = {};
  let connected = 0;
  const openOne = (i: number) =>
    new Promise<void>((resolve) => {
      void openViewer(urls[i % urls.length], SUBSCRIBE, (text, at) => {
        const m = JSON.parse(text);
        if (m.param?.kind === 'snapshot') {
          connected++;
          resolve();
        } else if (m.param?.kind === 'move') (times[m.param.version] ??= []).push(at);
      }).then((ok) => {
        if (!ok) resolve();
      });
    });
  for (let i = 0; i < count; i += 100) {
    await Promise.all(Array.from({ length: Math.min(100, count - i) }, (_, j) => openOne(i + j)));
  }
  process.send!({ type: 'ready', connected });
  process.on('message', (m: { type: string }) => {
    if (m.type === 'report') process.send!({ type: 'times', times }, () => process.exit(0));
  });
}
