// The daemon keeps serving whatever clients do: garbage, huge frames, connection storms, and a
// client that never reads (dropped once its send buffer is full, without slowing the others).
import type { Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { type RunningServer, startServer } from '../../../daemon/server/index.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { clientFrame, TestClient, upgradedSocket } from './fixtures/ws-client.ts';

let server: RunningServer | undefined;
const clients: TestClient[] = [];
const sockets: Socket[] = [];

const logged: Array<Record<string, unknown>> = [];
const log = { info: (o: object) => logged.push({ ...o }), warn() {}, debug() {} };

async function setup(limits = {}, heartbeatMs?: number) {
  const hub = new FakeHub(2);
  logged.length = 0;
  server = await startServer({ hub, port: 0, tokens: { arbiter: 's' }, limits, log, heartbeatMs });
  return hub;
}

/** A raw TCP client that completes the WebSocket handshake and then does nothing at all. */
async function rawUpgrade(port: number): Promise<Socket> {
  const socket = await upgradedSocket(port);
  sockets.push(socket);
  return socket;
}

async function open(): Promise<TestClient> {
  const c = await TestClient.open(server!.wsUrl);
  clients.push(c);
  return c;
}
const until = async (cond: () => boolean, ms = 10_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 10));
  }
};

afterEach(async () => {
  for (const c of clients.splice(0)) c.close();
  for (const s of sockets.splice(0)) s.destroy();
  await server?.close();
  server = undefined;
});

describe('WebSocket abuse', () => {
  it('garbage frames get error answers and never crash the server', async () => {
    await setup();
    const c = await open();
    const junk = [
      '',
      'null',
      '[]',
      '"call"',
      '{"call": null}',
      '{"id": {"a": 1}, "call": "ping"}',
      '{"id": 901, "call": "subscribe", "param": {"feed": "round", "since": {"1": -4}}}',
      '{"id": 902, "call": "games", "param": {"round": "__proto__"}}',
      '{"__proto__": {"call": "ping"}}',
      '\u0000\u0001\u0002',
      '{"id":903,"call":"subscribe","param":{"feed":"board","board":1e308}}',
    ];
    for (const j of junk) c.ws.send(j);
    c.ws.send(Buffer.from([0xff, 0xfe, 0x00, 0x7b]), { binary: true });
    const ok = await c.call('ping');
    expect(ok.param).toBe('pong');
    expect(c.messages.filter((m) => m.response === 'error')).toHaveLength(junk.length + 1);
    expect(((await (await fetch(`${server!.url}/health`)).json()) as { ok: boolean }).ok).toBe(true);
  });

  it('a 1 MiB frame closes that connection with 1009; others are unaffected', async () => {
    await setup();
    const big = await open();
    const other = await open();
    big.ws.send(JSON.stringify({ id: 1, call: 'ping', param: 'x'.repeat(1024 * 1024) }));
    const closed = await big.closed();
    expect(closed.code).toBe(1009);
    expect((await other.call('ping')).param).toBe('pong');
  });

  it('too many errors close the connection with a reason', async () => {
    await setup({ maxErrors: 5 });
    const c = await open();
    for (let i = 0; i < 10; i++) c.ws.send('nope');
    expect(await c.closed()).toEqual({ code: 1008, reason: 'too many errors' });
  });

  it('500 connections opened and dropped leave the server serving and clean', async () => {
    const hub = await setup({ connectionsPerAddress: 1000 });
    const storm = await Promise.all(
      Array.from({ length: 500 }, (_, i) => {
        const ws = new WebSocket(server!.wsUrl);
        ws.on('error', () => {});
        return new Promise<WebSocket>((resolve) =>
          ws.once('open', () => {
            if (i % 2 === 0) ws.send(JSON.stringify({ id: 1, call: 'subscribe', param: { feed: 'round' } }));
            resolve(ws);
          }),
        );
      }),
    );
    await until(() => server!.clients() === 500);
    // Half close politely, half vanish without a close frame.
    for (const [i, ws] of storm.entries()) {
      if (i % 2) ws.close();
      else ws.terminate();
    }
    await until(() => server!.clients() === 0);
    const c = await open();
    await c.call('subscribe', { feed: 'board', board: 1, id: 'b' });
    hub.clock(1, 1000, 1000, 'white');
    expect((await c.wait((m) => m.id === 'b' && m.param.kind === 'clock')).param.version).toBe(1);
    expect(hub.listenerCount).toBe(1);
  });

  it('a client that never reads is dropped; the others keep getting every event promptly', async () => {
    const hub = await setup({ maxBuffered: 256 * 1024 });
    // A raw socket that upgrades, subscribes, then never reads again.
    const stuck = await rawUpgrade(server!.port);
    stuck.write(clientFrame(JSON.stringify({ id: 1, call: 'subscribe', param: { feed: 'round' } })));
    stuck.pause();
    await until(() => server!.clients() === 1);

    const good = await open();
    await good.call('subscribe', { feed: 'round', id: 'r' });
    // Big events (a long alert message) until the stuck client's buffer overflows.
    const big = 'x'.repeat(16 * 1024);
    const lags: number[] = [];
    let sent = 0;
    for (let round = 0; round < 200 && server!.clients() === 2; round++) {
      for (let i = 0; i < 20; i++) {
        sent++;
        hub.feed(1, {
          type: 'alert',
          t: sent,
          alert: { id: `a${sent}`, rule: '5.4.1', ply: 1, side: 'white', message: big, t: sent, events: [] },
        });
      }
      const start = Date.now();
      await good.wait((m) => m.id === 'r' && m.param.alert?.id === `a${sent}`);
      lags.push(Date.now() - start);
    }
    expect(server!.clients()).toBe(1);
    expect(sent).toBeGreaterThan(20);
    expect(logged).toContainEqual(expect.objectContaining({ reason: 'send buffer exceeded' }));
    expect(good.feeds('r').filter((m) => m.param.kind === 'alert')).toHaveLength(sent);
    expect(Math.max(...lags)).toBeLessThan(1000);
    // Still served after the drop.
    expect((await good.call('ping')).param).toBe('pong');
  });

  it('a connection that never answers pings is cut; one that does stays', async () => {
    await setup({}, 100);
    await rawUpgrade(server!.port);
    const alive = await open();
    await until(() => server!.clients() === 2);
    await until(() => server!.clients() === 1, 5000);
    expect(logged).toContainEqual(expect.objectContaining({ reason: 'no pong' }));
    expect((await alive.call('ping')).param).toBe('pong');
  });

  it('subscriptions per connection are bounded', async () => {
    await setup({ maxSubscriptions: 3 });
    const c = await open();
    for (const id of ['a', 'b', 'c']) {
      expect((await c.call('subscribe', { feed: 'board', board: 1, id })).response).toBe('call');
    }
    expect((await c.call('subscribe', { feed: 'board', board: 1, id: 'd' })).param.code).toBe(
      'too-many-subscriptions',
    );
    // Re-using an id replaces that subscription instead of adding one.
    expect((await c.call('subscribe', { feed: 'board', board: 2, id: 'a' })).response).toBe('call');
  });

  it('a connection that floods calls is refused beyond its rate, then closed', async () => {
    await setup({ callsPerSecond: 20, maxErrors: 30 });
    const c = await open();
    const other = await open();
    for (let i = 0; i < 100; i++) c.ws.send(JSON.stringify({ id: 1000 + i, call: 'games' }));
    const closed = await c.closed();
    expect(closed).toEqual({ code: 1008, reason: 'too many errors' });
    const answered = c.messages.filter((m) => m.response === 'call').length;
    expect(answered).toBeGreaterThanOrEqual(20);
    expect(answered).toBeLessThan(30);
    expect(c.messages.filter((m) => m.response === 'error')[0].param.code).toBe('too-many-calls');
    expect((await other.call('ping')).param).toBe('pong');
  });
});
