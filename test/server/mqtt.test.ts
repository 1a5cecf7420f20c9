// The MQTT bridge against a real mosquitto started on a free loopback port.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer } from '../../daemon/server/index.ts';
import { type MqttBridge, startMqttBridge } from '../../daemon/server/mqtt.ts';
import { player } from '../game/helpers.ts';
import { FakeHub } from './fake-hub.ts';

let url: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

async function connectWithRetry(target: string): Promise<MqttClient> {
  const end = Date.now() + 10_000;
  for (;;) {
    try {
      return await connectAsync(target, { reconnectPeriod: 0, connectTimeout: 1000 });
    } catch (e) {
      if (Date.now() > end) throw e;
      await new Promise((r) => setTimeout(r, 100));
    }
  }
}

const brokers: ChildProcess[] = [];

/** A mosquitto on `port` (loopback only), ready when this resolves. */
async function startBroker(port: number): Promise<string> {
  const dir = mkdtempSync(join(tmpdir(), 'damlink-mqtt-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${port} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  brokers.push(spawn('mosquitto', ['-c', conf], { stdio: 'ignore' }));
  const target = `mqtt://127.0.0.1:${port}`;
  await (await connectWithRetry(target)).endAsync();
  return target;
}

beforeAll(async () => {
  url = await startBroker(await freePort());
});

afterAll(() => {
  for (const b of brokers) b.kill('SIGTERM');
});

describe('MQTT bridge', () => {
  it('startServer starts the bridge when mqtt is configured (the daemon path)', async () => {
    const hub = new FakeHub(1, 6);
    const server = await startServer({ hub, port: 0, mqtt: { url } });
    const sub = await connectWithRetry(url);
    try {
      const pdns = new Map<string, string>();
      sub.on('message', (topic, payload, packet) => {
        if (packet.retain) pdns.set(topic, payload.toString());
      });
      await sub.subscribeAsync('damlink/6/+/pdn');
      const until = Date.now() + 5000;
      while (pdns.size < 1 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect([...pdns.keys()]).toEqual(['damlink/6/1/pdn']);
      expect(pdns.get('damlink/6/1/pdn')).toContain('[Round "6"]');
    } finally {
      await server.close();
      await sub.endAsync();
    }
  });

  it('publishes each GameEvent to damlink/<round>/<board>/events and the PDN retained', async () => {
    const hub = new FakeHub(2, 5);
    let bridge: MqttBridge | undefined;
    const sub = await connectWithRetry(url);
    try {
      bridge = await startMqttBridge({ hub, url });
      const got: Array<{ topic: string; text: string; retain: boolean }> = [];
      sub.on('message', (topic, payload, packet) =>
        got.push({ topic, text: payload.toString(), retain: packet.retain }),
      );
      await sub.subscribeAsync('damlink/5/+/events');
      const p = player();
      hub.feed(2, p.move('32-28', 10), p.move('19-23', 20));
      const until = Date.now() + 5000;
      while (got.length < 2 && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(got.map((g) => g.topic)).toEqual(['damlink/5/2/events', 'damlink/5/2/events']);
      expect(got.map((g) => JSON.parse(g.text))).toMatchObject([
        { board: 2, version: 1, kind: 'move', move: { pdn: '32-28' } },
        { board: 2, version: 2, kind: 'move', move: { pdn: '19-23' } },
      ]);

      // A late subscriber gets the retained PDN of each board at once, already with both moves.
      const late = await connectWithRetry(url);
      const pdns = new Map<string, string>();
      late.on('message', (topic, payload, packet) => {
        if (packet.retain) pdns.set(topic, payload.toString());
      });
      await late.subscribeAsync('damlink/5/+/pdn');
      const until2 = Date.now() + 5000;
      while ((pdns.size < 2 || !pdns.get('damlink/5/2/pdn')?.includes('19-23')) && Date.now() < until2) {
        await new Promise((r) => setTimeout(r, 20));
      }
      expect([...pdns.keys()].sort()).toEqual(['damlink/5/1/pdn', 'damlink/5/2/pdn']);
      expect(pdns.get('damlink/5/2/pdn')).toContain('1. 32-28 19-23 *');
      expect(pdns.get('damlink/5/1/pdn')).toContain('[Round "5"]');
      await late.endAsync();
    } finally {
      await bridge?.close();
      await sub.endAsync();
    }
  });

  it('starts without the broker and publishes the retained PDN once it comes', async () => {
    const hub = new FakeHub(1, 2);
    hub.feed(1, player().move('32-28', 1));
    const port = await freePort();
    const t0 = Date.now();
    const bridge = await startMqttBridge({ hub, url: `mqtt://127.0.0.1:${port}`, firstConnectMs: 300 });
    try {
      expect(Date.now() - t0).toBeLessThan(2000);
      expect(bridge.client.connected).toBe(false);
      const target = await startBroker(port);
      const sub = await connectWithRetry(target);
      let pdn = '';
      sub.on('message', (_t, payload) => {
        pdn = payload.toString();
      });
      await sub.subscribeAsync('damlink/2/1/pdn');
      const until = Date.now() + 10_000;
      while (!pdn && Date.now() < until) await new Promise((r) => setTimeout(r, 50));
      expect(pdn).toContain('1. 32-28 *');
      await sub.endAsync();
    } finally {
      await bridge.close();
    }
  });
});
