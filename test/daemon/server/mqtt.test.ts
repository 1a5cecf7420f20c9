// The MQTT bridge against a real mosquitto started on a free loopback port: the topics of
// docs/api.md ("MQTT"), the catch-up after an outage, the board claims and a restart's dedup.
import type { MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../../daemon/server/index.ts';
import { BoardHeldError, type MqttBridge, startMqttBridge } from '../../../daemon/server/mqtt.ts';
import { player } from '../../src/game/fixtures/helpers.ts';
import { FakeHub } from '../fixtures/fake-hub.ts';
import { type Broker, connectWithRetry, freePort, startBroker, waitFor } from './fixtures/mosquitto.ts';

let broker: Broker;
const brokers: Broker[] = [];

beforeAll(async () => {
  broker = await startBroker();
  brokers.push(broker);
});

afterAll(async () => {
  for (const b of brokers) await b.stop();
});

interface Got {
  topic: string;
  text: string;
  retain: boolean;
  qos: number;
}

async function listen(url: string, filter: string): Promise<{ got: Got[]; client: MqttClient }> {
  const client = await connectWithRetry(url);
  const got: Got[] = [];
  client.on('message', (topic, payload, packet) =>
    got.push({ topic, text: payload.toString(), retain: packet.retain, qos: packet.qos }),
  );
  await client.subscribeAsync(filter, { qos: 1 });
  return { got, client };
}

/** A bridge of `hub`'s boards to the test's broker under `baseTopic`, as the daemon `clientId`. */
const bridgeOn = (hub: FakeHub, baseTopic: string, clientId: string, more: { apiUrl?: string } = {}) =>
  startMqttBridge({ hub, url: broker.url, baseTopic, clientId, ...more });

const last = (got: Got[], topic: string) => got.filter((g) => g.topic === topic).at(-1);

/** Gone as after kill -9: the sockets close without a DISCONNECT, so the broker sends the wills. */
const crash = (bridge: MqttBridge) => {
  bridge.client.end(true);
  bridge.presence.end(true);
};

describe('MQTT bridge', () => {
  it('announces the daemon, its boards and their states (retained), with its HTTP address', async () => {
    const hub = new FakeHub(1, 6);
    const server = await startServer({ hub, port: 0 });
    const bridge = await bridgeOn(hub, 'first', 'hall-a', { apiUrl: server.apiUrl });
    const { got, client } = await listen(broker.url, 'first/#');
    try {
      await waitFor(
        () =>
          got.some((g) => g.topic === 'first/rounds/6/boards/1.pdn') &&
          !!last(got, 'first/bridge/daemons/hall-a'),
      );
      expect(last(got, 'first/bridge/state')!.text).toBe('online');
      expect(JSON.parse(last(got, 'first/bridge/daemons/hall-a')!.text)).toMatchObject({
        state: 'online',
        daemon: 'hall-a',
        round: 6,
        boards: [1],
        api: server.url,
      });
      expect(JSON.parse(last(got, 'first/boards/1/availability')!.text)).toEqual({
        state: 'online',
        daemon: 'hall-a',
      });
      const state = JSON.parse(last(got, 'first/boards/1/state')!.text);
      expect(state).toMatchObject({ board: 1, round: 6, daemon: 'hall-a', version: state.snapshot.version });
      expect(last(got, 'first/rounds/6/boards/1.pdn')!.text).toContain('[Round "6"]');
      expect(got.every((g) => g.retain)).toBe(true);
    } finally {
      await bridge.close();
      await server.close();
    }
    // A clean stop says offline, retained, for the bridge, the daemon and each board.
    await waitFor(() => JSON.parse(last(got, 'first/bridge/daemons/hall-a')!.text).state === 'offline');
    expect(last(got, 'first/bridge/state')!.text).toBe('offline');
    expect(JSON.parse(last(got, 'first/boards/1/availability')!.text).state).toBe('offline');
    await client.endAsync();
  });

  it('publishes each GameEvent at QoS 1 with board, round, epoch and version, then the state and round PDN', async () => {
    const hub = new FakeHub(2, 5);
    let bridge: MqttBridge | undefined;
    const { got, client } = await listen(broker.url, 'second/boards/2/#');
    try {
      bridge = await bridgeOn(hub, 'second', 'b2');
      const p = player();
      hub.feed(2, p.move('32-28', 10), p.move('19-23', 20));
      const events = () => got.filter((g) => g.topic === 'second/boards/2/events');
      await waitFor(() => events().length >= 2);
      const bodies = events().map((g) => JSON.parse(g.text));
      expect(events().map((g) => g.qos)).toEqual([1, 1]);
      expect(bodies).toMatchObject([
        { board: 2, round: 5, version: 1, daemon: 'b2', event: { kind: 'move', move: { pdn: '32-28' } } },
        { board: 2, round: 5, version: 2, daemon: 'b2', event: { kind: 'move', move: { pdn: '19-23' } } },
      ]);
      expect(bodies[0].epoch).toMatch(/^[0-9a-f]{8}$/);
      expect(bodies[1].epoch).toBe(bodies[0].epoch);
      await waitFor(() => JSON.parse(last(got, 'second/boards/2/state')?.text ?? '{}').version === 2);

      // A late subscriber gets the retained PDN of the round at once, already with both moves.
      const late = await listen(broker.url, 'second/rounds/5/boards/+');
      await waitFor(() => late.got.length >= 2);
      expect(late.got.map((g) => g.topic).sort()).toEqual([
        'second/rounds/5/boards/1.pdn',
        'second/rounds/5/boards/2.pdn',
      ]);
      expect(last(late.got, 'second/rounds/5/boards/2.pdn')!.text).toContain('1. 32-28 19-23 *');
      await late.client.endAsync();
    } finally {
      await bridge?.close();
      await client.endAsync();
    }
  });

  it("a clock reading goes out as the board's state; its PDN again only when the reading gives a move its clock", async () => {
    const hub = new FakeHub(1, 3);
    let bridge: MqttBridge | undefined;
    const { got, client } = await listen(broker.url, 'clocks/#');
    const pdns = () => got.filter((g) => g.topic === 'clocks/rounds/3/boards/1.pdn');
    const stateAt = (version: number) => () =>
      JSON.parse(last(got, 'clocks/boards/1/state')?.text ?? '{}').version === version;
    try {
      bridge = await bridgeOn(hub, 'clocks', 'c1');
      await waitFor(() => pdns().length === 1);
      const p = player();
      hub.feed(1, p.move('32-28', 10));
      await waitFor(stateAt(1));
      await waitFor(() => pdns().length === 2);
      expect(pdns()[1].text).toContain('1. 32-28 *');
      // White's clock still runs: the move does not take this reading.
      hub.clock(1, 5_400_000, 5_400_000, 'white');
      await waitFor(stateAt(2));
      // White pressed: the move's clock, in its PDN.
      hub.clock(1, 5_390_000, 5_400_000, 'black');
      await waitFor(stateAt(3));
      await waitFor(() => pdns().length === 3);
      expect(pdns()[2].text).toContain('%clock');
      // Black thinks: readings, no new PDN.
      hub.clock(1, 5_390_000, 5_399_000, 'black');
      hub.state(1, 'silent');
      await waitFor(stateAt(5));
      await new Promise((r) => setTimeout(r, 200));
      expect(pdns()).toHaveLength(3);
      expect(JSON.parse(last(got, 'clocks/boards/1/state')!.text).snapshot.state).toBe('silent');
    } finally {
      await bridge?.close();
      await client.endAsync();
    }
  });

  it('starts without the broker, and once it comes publishes the missed events in order, none twice', async () => {
    const hub = new FakeHub(1, 2);
    const p = player();
    hub.feed(1, p.move('32-28', 1));
    const port = await freePort();
    const url = `mqtt://127.0.0.1:${port}`;
    const t0 = Date.now();
    const bridge = await startMqttBridge({ hub, url, firstConnectMs: 300, clientId: 'away' });
    try {
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(bridge.client.connected).toBe(false);
      hub.feed(1, p.move('19-23', 2));
      const late = await startBroker(port);
      brokers.push(late);
      const { got, client } = await listen(late.url, 'damlink/#');
      await waitFor(() => (last(got, 'damlink/rounds/2/boards/1.pdn')?.text ?? '').includes('19-23'), 10_000);
      expect(last(got, 'damlink/rounds/2/boards/1.pdn')!.text).toContain('1. 32-28 19-23 *');
      // The broker is lost and comes back empty: the events of the outage follow, in order.
      await late.stop();
      await waitFor(() => !bridge.client.connected);
      hub.feed(1, p.move('28x19', 3), p.move('14x23', 4));
      const again = await startBroker(port);
      brokers.push(again);
      const after = await listen(again.url, 'damlink/boards/1/events');
      await waitFor(() => after.got.length >= 2, 10_000);
      hub.feed(1, p.move('37-32', 5));
      await waitFor(() => after.got.length >= 3, 10_000);
      await new Promise((r) => setTimeout(r, 200));
      const live = after.got.filter((g) => !g.retain).map((g) => JSON.parse(g.text));
      expect(live.map((m) => m.event.move.pdn)).toEqual(['28x19', '14x23', '37-32']);
      expect(live.map((m) => m.version)).toEqual([3, 4, 5]);
      await client.endAsync();
      await after.client.endAsync();
    } finally {
      await bridge.close();
    }
  });

  it('refuses a board another online daemon holds; the same daemon restarted takes its boards back', async () => {
    const hub = new FakeHub(2, 1);
    const first = await bridgeOn(hub, 'claims', 'hall-a');
    try {
      const other = new FakeHub(3, 1);
      await expect(bridgeOn(other, 'claims', 'hall-b')).rejects.toThrow(BoardHeldError);
      await expect(bridgeOn(other, 'claims', 'hall-b')).rejects.toThrow(
        /board 1 is held by the daemon hall-a/,
      );
    } finally {
      // Gone without a goodbye (kill -9): the last will says the daemon is offline.
      crash(first);
    }
    const restarted = await bridgeOn(hub, 'claims', 'hall-a');
    await restarted.close();
  });

  it('after a crash, the same daemon publishes only what the broker does not have', async () => {
    const hub = new FakeHub(1, 3);
    const p = player();
    const { got, client } = await listen(broker.url, 'crash/boards/1/events');
    const first = await bridgeOn(hub, 'crash', 'c');
    hub.feed(1, p.move('32-28', 1), p.move('19-23', 2));
    await waitFor(() => got.length >= 2);
    crash(first);
    hub.feed(1, p.move('28x19', 3));
    const second = await bridgeOn(hub, 'crash', 'c');
    try {
      await waitFor(() => got.length >= 3);
      await new Promise((r) => setTimeout(r, 300));
      expect(got.map((g) => JSON.parse(g.text).version)).toEqual([1, 2, 3]);
      expect(JSON.parse(got[2].text).event.move.pdn).toBe('28x19');
    } finally {
      await second.close();
      await client.endAsync();
    }
  });

  it("puts its detail (the address gateways fill gaps from) on the broker before its boards' topics", async () => {
    const { got, client } = await listen(broker.url, 'order/#');
    const bridge = await bridgeOn(new FakeHub(1, 1), 'order', 'o', { apiUrl: 'http://hall-o' });
    try {
      await waitFor(() => !!last(got, 'order/boards/1/state'));
      const at = (topic: string) => got.findIndex((g) => g.topic === topic);
      expect(at('order/bridge/daemons/o')).toBeGreaterThanOrEqual(0);
      expect(at('order/bridge/daemons/o')).toBeLessThan(at('order/boards/1/availability'));
      expect(at('order/bridge/daemons/o')).toBeLessThan(at('order/boards/1/state'));
    } finally {
      await bridge.close();
      await client.endAsync();
    }
  });

  it('<base>/bridge/state reads online while any daemon is connected, offline once the last is gone', async () => {
    const { got, client } = await listen(broker.url, 'heal/bridge/#');
    const hallA = await bridgeOn(new FakeHub(1, 1), 'heal', 'a');
    const hallB = await bridgeOn(new FakeHub([{ board: 2 }], 1), 'heal', 'b');
    const states = () => got.filter((g) => g.topic === 'heal/bridge/state').map((g) => g.text);
    const retained = async () => {
      const probe = await listen(broker.url, 'heal/bridge/state');
      await waitFor(() => probe.got.length > 0);
      await probe.client.endAsync();
      return probe.got[0]?.text;
    };
    try {
      await waitFor(() => !!last(got, 'heal/bridge/daemons/b'));
      expect(states().at(-1)).toBe('online');
      // One daemon gone: its will says offline, the other daemon puts it back.
      crash(hallA);
      await waitFor(() => states().includes('offline') && states().at(-1) === 'online');
      expect(states().slice(-2)).toEqual(['offline', 'online']);
      expect(await retained()).toBe('online');
      // Its own detail is marked by its own will.
      await waitFor(() => JSON.parse(last(got, 'heal/bridge/daemons/a')!.text).state === 'offline');
      expect(JSON.parse(last(got, 'heal/bridge/daemons/b')!.text).state).toBe('online');
    } finally {
      crash(hallB);
    }
    // The last one gone: offline, and it stays so.
    await waitFor(() => JSON.parse(last(got, 'heal/bridge/daemons/b')!.text).state === 'offline');
    await waitFor(() => states().at(-1) === 'offline');
    await new Promise((r) => setTimeout(r, 300));
    expect(states().at(-1)).toBe('offline');
    expect(await retained()).toBe('offline');
    await client.endAsync();
  });
});
