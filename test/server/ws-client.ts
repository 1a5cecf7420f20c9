// A small test client for the WebSocket API: calls with ids, collected messages, waiting for one.
import { connect, type Socket } from 'node:net';
import WebSocket from 'ws';

export interface Msg {
  response: 'call' | 'feed' | 'error';
  id: string | number | null;
  // biome-ignore lint/suspicious/noExplicitAny: test messages are inspected freely
  param: any;
  time: number;
}

export class TestClient {
  readonly ws: WebSocket;
  readonly messages: Msg[] = [];
  closeInfo: { code: number; reason: string } | undefined;
  private nextId = 1;
  private waiters: Array<{ match: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];

  private constructor(ws: WebSocket) {
    this.ws = ws;
    ws.on('message', (data) => {
      const m = JSON.parse(data.toString()) as Msg;
      this.messages.push(m);
      for (const w of [...this.waiters]) {
        if (w.match(m)) {
          this.waiters = this.waiters.filter((x) => x !== w);
          w.resolve(m);
        }
      }
    });
    ws.on('close', (code, reason) => {
      this.closeInfo = { code, reason: reason.toString() };
    });
    ws.on('error', () => {});
  }

  /** `options`: what a browser or another host would send (`origin`, `localAddress`…). */
  static open(url: string, options?: WebSocket.ClientOptions): Promise<TestClient> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(url, options);
      const c = new TestClient(ws);
      ws.once('open', () => resolve(c));
      ws.once('unexpected-response', (_req, res) => reject(new Error(`HTTP ${res.statusCode}`)));
      ws.once('error', reject);
    });
  }

  /** Sends a call and resolves with its answer (call or error). */
  call(call: string, param?: unknown): Promise<Msg> {
    const id = this.nextId++;
    const answer = this.wait((m) => m.id === id && m.response !== 'feed');
    this.ws.send(JSON.stringify(param === undefined ? { id, call } : { id, call, param }));
    return answer;
  }

  /** The first message (already received or coming) that matches. */
  wait(match: (m: Msg) => boolean, timeoutMs = 5000): Promise<Msg> {
    const seen = this.messages.find(match);
    if (seen) return Promise.resolve(seen);
    return this.waitNew(match, timeoutMs);
  }

  /** The next message from now on that matches. */
  waitNew(match: (m: Msg) => boolean, timeoutMs = 5000): Promise<Msg> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for a message')), timeoutMs);
      this.waiters.push({
        match,
        resolve: (m) => {
          clearTimeout(timer);
          resolve(m);
        },
      });
    });
  }

  feeds(id: string | number): Msg[] {
    return this.messages.filter((m) => m.response === 'feed' && m.id === id);
  }

  closed(): Promise<{ code: number; reason: string }> {
    if (this.closeInfo) return Promise.resolve(this.closeInfo);
    return new Promise((resolve) =>
      this.ws.once('close', (code, reason) => resolve({ code, reason: reason.toString() })),
    );
  }

  close(): void {
    this.ws.close();
  }
}

/** A raw TCP socket through the WebSocket handshake, speaking nothing more unless told to. */
export async function upgradedSocket(port: number): Promise<Socket> {
  const socket = connect(port, '127.0.0.1');
  socket.on('error', () => {});
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(
    'GET /api/v1 HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
      'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n',
  );
  await new Promise<void>((resolve) => socket.once('data', () => resolve()));
  return socket;
}

/** A masked client text frame (payload < 64 KiB). */
export function clientFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = Buffer.from([1, 2, 3, 4]);
  const masked = Buffer.from(payload.map((b, i) => b ^ mask[i % 4]));
  return Buffer.concat([
    Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]),
    mask,
    masked,
  ]);
}

/** A client that subscribes, then never reads again: what it is sent waits in the daemon. */
export async function stalledSubscriber(port: number, subscribe: object): Promise<Socket> {
  const socket = await upgradedSocket(port);
  socket.write(clientFrame(JSON.stringify({ id: 1, call: 'subscribe', param: subscribe })));
  socket.pause();
  return socket;
}
