// Whoever can publish on the hall's broker can send a gateway anything, retained too. A real
// mosquitto carries malformed and oversized messages, a board's payload on another board's topic,
// and a flood of events for a board that never has a state: the gateway stays up, says what it
// dropped, holds a bounded number of events, and still serves the boards whose messages are good.
import { afterEach, describe, expect, it } from 'vitest';
import { WebSocketServer } from 'ws';
import { GATEWAY_BOUNDS } from '../../../daemon/gateway/broker-hub.ts';
import { startGateway } from '../../../daemon/gateway/index.ts';
import { readBrokerMessage } from '../../../daemon/gateway/messages.ts';
import { cleanUp, onCleanup, until } from '../../integration/fixtures/helpers.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { alertOutput } from '../fixtures/alerts.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { connectWithRetry, startBroker } from '../server/fixtures/mosquitto.ts';
import { eventMessage, stateMessage } from './fixtures/messages.ts';

afterEach(cleanUp);

describe('a gateway on a broker anyone may publish on', () => {
  it('drops malformed retained messages with a warning, bounds stateless events, and serves the good boards', async () => {
    const broker = await startBroker();
    onCleanup(() => broker.stop());
    const publisher = await connectWithRetry(broker.url);
    onCleanup(() => publisher.endAsync());
    const daemon = new FakeHub(2, 1);
    const p = player();
    daemon.feed(1, p.move('32-28', 1));
    const retained = { retain: true, qos: 1 as const };
    // What crashed the gateway at its start: states without a snapshot's parts, retained.
    await publisher.publishAsync(
      'damlink/boards/2/state',
      JSON.stringify({ board: 2, round: 1, version: 1, snapshot: {} }),
      retained,
    );
    await publisher.publishAsync(
      'damlink/boards/3/state',
      JSON.stringify({ version: 3, snapshot: { info: null } }),
      retained,
    );
    await publisher.publishAsync('damlink/boards/4/events', '{"version":1,"event":{}}', retained);
    await publisher.publishAsync('damlink/bridge/daemons/x', '[1,2', retained);
    await publisher.publishAsync(
      'damlink/boards/5/state',
      JSON.stringify({ ...stateMessage(daemon, 1) }),
      retained,
    );
    await publisher.publishAsync('damlink/boards/1/state', JSON.stringify(stateMessage(daemon, 1)), retained);
    const warnings: Array<Record<string, unknown>> = [];
    const record = (o: object) => warnings.push({ ...o });
    const gateway = await startGateway({
      mqtt: { url: broker.url },
      port: 0,
      log: { info() {}, warn: record, debug() {} },
    });
    onCleanup(() => gateway.close());
    await until(
      () => gateway.hub.snapshot(1) !== undefined && warnings.length >= 5,
      10_000,
      'the good board and five warnings',
    );
    expect(warnings.map((w) => w.topic).sort()).toEqual([
      'damlink/boards/2/state',
      'damlink/boards/3/state',
      'damlink/boards/4/events',
      'damlink/boards/5/state',
      'damlink/bridge/daemons/x',
    ]);
    expect(warnings.find((w) => w.topic === 'damlink/boards/5/state')?.error).toBe(
      'board 1 on the topic of board 5',
    );
    // A flood of events for a board with no state: held, but no more than the bound.
    const alert = (n: number) => alertOutput(n, `a${n}`);
    const events = daemon.feed(2, ...Array.from({ length: 2_700 }, (_, n) => alert(n)));
    for (const e of events.slice(0, 2_500))
      publisher.publish('damlink/boards/2/events', JSON.stringify(eventMessage(1, e)));
    const oversized = JSON.stringify({ ...eventMessage(1, events[2_600]), pad: 'x'.repeat(1 << 20) });
    await publisher.publishAsync('damlink/boards/2/events', oversized);
    await until(
      () => warnings.some((w) => String(w.error).includes('bytes: over')),
      10_000,
      'the oversized message dropped',
    );
    const early = (gateway.hub as unknown as { early: Map<number, Map<number, unknown>> }).early;
    expect(early.get(2)?.size).toBe(GATEWAY_BOUNDS.waitingEvents);
    // The good board is served and still moves.
    const [next] = daemon.feed(1, p.move('19-23', 2));
    await publisher.publishAsync('damlink/boards/1/events', JSON.stringify(eventMessage(1, next)));
    await publisher.publishAsync('damlink/boards/1/state', JSON.stringify(stateMessage(daemon, 1)), retained);
    await until(() => gateway.hub.snapshot(1)?.moves.length === 2, 10_000, 'the good board moved on');
    const health = await fetch(`${gateway.server.url}/health`);
    expect(health.status).toBe(200);
    const pdn = await (await fetch(`${gateway.server.url}/rounds/1/1.pdn`)).text();
    expect(pdn).toContain('1. 32-28 19-23');
  });

  it('reads each topic’s payload by its contract and names what is wrong', () => {
    const daemon = new FakeHub(1, 1);
    const good = Buffer.from(JSON.stringify(stateMessage(daemon, 1)));
    expect(readBrokerMessage('damlink/boards/1/state', good)).toMatchObject({
      ok: true,
      value: { kind: 'state' },
    });
    expect(readBrokerMessage('damlink/boards/1/availability', Buffer.from('x'))).toEqual({
      ok: true,
      value: undefined,
    });
    const bad = (topic: string, value: unknown) =>
      readBrokerMessage(topic, Buffer.from(JSON.stringify(value)));
    expect(bad('damlink/boards/1/state', { ...stateMessage(daemon, 1), version: -1 })).toMatchObject({
      ok: false,
    });
    expect(bad('damlink/boards/1/state', { ...stateMessage(daemon, 1), version: 7 })).toMatchObject({
      ok: false,
      error: 'message: the snapshot is not of this board and version',
    });
    expect(
      bad('damlink/bridge/daemons/a', { state: 'online', daemon: 'a', api: 'file:///etc/passwd' }),
    ).toMatchObject({ ok: false });
    expect(bad('damlink/bridge/daemons/a', { state: 'online', daemon: 'a', boards: [1, 0] })).toMatchObject({
      ok: false,
    });
    // Fields a daemon never writes are refused, not kept (a padded message costs the gateway nothing).
    const [move] = daemon.feed(1, player().move('32-28', 1));
    const ok = eventMessage(1, move);
    expect(bad('damlink/boards/1/events', ok)).toMatchObject({ ok: true });
    expect(bad('damlink/boards/1/events', { ...ok, pad: 'x' })).toMatchObject({ ok: false });
    expect(bad('damlink/boards/1/events', { ...ok, event: { ...move, pad: 'x' } })).toEqual({
      ok: false,
      error: 'event.pad: not a field of a move event',
    });
    expect(bad('damlink/boards/1/events', { ...ok, event: { ...move, kind: 'pwned' } })).toEqual({
      ok: false,
      error: 'event.kind: no event is of kind "pwned"',
    });
    const state = stateMessage(daemon, 1);
    expect(bad('damlink/boards/1/state', { ...state, snapshot: { ...state.snapshot, pad: 'x' } })).toEqual({
      ok: false,
      error: 'snapshot.pad: not a snapshot field',
    });
    expect(bad('damlink/bridge/daemons/a', { state: 'online', daemon: 'a', pad: 'x' })).toMatchObject({
      ok: false,
    });
  });

  it('asks no daemon a broker message names; a daemon it is given is read as the broker is', async () => {
    // A fake daemon: it answers every catch-up with a board of its own choosing and a poisoned event.
    const connections: string[] = [];
    const fake = new WebSocketServer({ port: 0, host: '127.0.0.1' });
    onCleanup(async () => fake.close());
    await new Promise((r) => fake.once('listening', r));
    fake.on('connection', (ws) => {
      connections.push('open');
      ws.on('message', (data) => {
        const m = JSON.parse(data.toString());
        if (m.call === 'subscribe')
          ws.send(
            JSON.stringify({
              response: 'feed',
              id: m.id,
              param: { board: 777, version: 2, t: 1, kind: 'pwned', html: '<img src=x onerror=alert(1)>' },
            }),
          );
        if (m.call === 'ping') ws.send(JSON.stringify({ response: 'call', id: m.id, param: {} }));
      });
    });
    const fakeUrl = `http://127.0.0.1:${(fake.address() as { port: number }).port}`;
    const broker = await startBroker();
    onCleanup(() => broker.stop());
    const publisher = await connectWithRetry(broker.url);
    onCleanup(() => publisher.endAsync());
    const daemon = new FakeHub(1, 1);
    const p = player();
    daemon.feed(1, p.move('32-28', 1));
    const retained = { retain: true, qos: 1 as const };
    /** The daemon moves on; the broker carries its new state and loses the move's event. */
    const stateWithoutEvent = async (text: string, t: number) => {
      daemon.feed(1, p.move(text, t));
      await publisher.publishAsync(
        'damlink/boards/1/state',
        JSON.stringify(stateMessage(daemon, 1)),
        retained,
      );
    };
    await publisher.publishAsync(
      'damlink/bridge/daemons/hall-a',
      JSON.stringify({ state: 'online', daemon: 'hall-a', round: 1, boards: [1], api: fakeUrl }),
      retained,
    );
    const warnings: Array<Record<string, unknown>> = [];
    const start = (daemons?: string[]) =>
      startGateway({
        mqtt: { url: broker.url },
        port: 0,
        log: { info() {}, warn: (o: object) => warnings.push({ ...o }), debug() {} },
        ...(daemons ? { daemons } : {}),
      });
    // Without daemons named: the one the broker names is never asked, whatever the gap.
    const first = await start();
    onCleanup(() => first.close());
    await publisher.publishAsync('damlink/boards/1/state', JSON.stringify(stateMessage(daemon, 1)), retained);
    await until(() => first.hub.snapshot(1) !== undefined, 10_000, 'the state read');
    await stateWithoutEvent('19-23', 2);
    await until(() => warnings.some((w) => w.api === fakeUrl), 10_000, 'the unnamed daemon said');
    expect(connections).toEqual([]);
    await until(() => first.hub.snapshot(1)?.moves.length === 2, 10_000, 'the state taken as it is');
    // Named (a daemon that turned hostile): its events are checked as the broker's; none passes.
    await first.close();
    const second = await start([fakeUrl]);
    onCleanup(() => second.close());
    await until(() => second.hub.snapshot(1)?.moves.length === 2, 10_000, 'the retained state read');
    await stateWithoutEvent('28x19', 3);
    await until(() => connections.length > 0, 10_000, 'the named daemon asked');
    await until(() => second.hub.snapshot(1)?.moves.length === 3, 10_000, 'the state taken as it is');
    expect(second.hub.boards().map((b) => b.board)).toEqual([1]);
    expect(JSON.stringify(second.hub.since(1, 0) ?? [])).not.toContain('pwned');
    expect(second.hub.snapshot(777)).toBeUndefined();
  });
});
