// Inputs checked: a correction FEN must be a position of the game's variant, an alert is decided
// once unless the arbiter revises it, tag values carry no control characters, and MQTT takes its
// credentials as settings and never writes them to the log.
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmodSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../../daemon/config/index.ts';
import { mqttSettings } from '../../daemon/config/schema.ts';
import type { Alert } from '../../src/tracker/types.ts';
import { FakeHub } from '../daemon/fixtures/fake-hub.ts';
import { ARBITER, removeTempDirs, type Served, serve, tempDir } from './fixtures/helpers.ts';

let served: Served | undefined;
afterEach(async () => {
  await served?.close();
  served = undefined;
  removeTempDirs();
});

const alert: Alert = {
  id: '1-5.4.6-1',
  rule: '5.4.6',
  ply: 1,
  side: 'white',
  message: 'touched 32, moved 33',
  t: 2,
  events: [],
};

async function withAlert(variant: 'international' | 'brazilian' = 'international') {
  const hub = new FakeHub(2, 1, { variant });
  hub.feed(1, { type: 'alert', t: 2, alert });
  served = await serve({}, hub);
  return { hub, c: await served.open(`?token=${ARBITER}`) };
}

describe('a correction FEN', () => {
  it('that is not a position of the game’s variant fails with bad-fen and reaches nothing', async () => {
    const { hub, c } = await withAlert();
    const correct = (fen: string) =>
      c.call('decide', { board: 1, alertId: alert.id, kind: 'corrected', fen }).then((m) => m.param);
    for (const fen of [
      'not a position',
      'W:W31-50:B1-20,51', // square 51 is not on a 10×10 board
      'W:W6-26:B40', // 21 white pieces
      'W:W31:B46', // a black man on its own crowning row
      'W:W3:B20', // a white man on its own crowning row
    ]) {
      expect(await correct(fen), fen).toMatchObject({ code: 'bad-fen' });
    }
    expect(hub.calls).toEqual([]);
    expect(await correct('W:W31-50:B1-20')).toEqual({ ok: true });
  });

  it('on a 64-square board: squares above 32 and more than 12 pieces a side fail', async () => {
    const { c } = await withAlert('brazilian');
    const correct = (fen: string) =>
      c.call('decide', { board: 1, alertId: alert.id, kind: 'corrected', fen }).then((m) => m.param.code);
    expect(await correct('W:W33:B1')).toBe('bad-fen');
    expect(await correct('W:W9-21:B1')).toBe('bad-fen');
  });
});

describe('an alert already decided', () => {
  it('is not decided again without revise: true; the revision is journaled as one', async () => {
    const { hub, c } = await withAlert();
    const decide = (param: object) =>
      c.call('decide', { board: 1, alertId: alert.id, ...param }).then((m) => m.param);
    expect(await decide({ kind: 'stands' })).toEqual({ ok: true });
    expect(await decide({ kind: 'corrected', fen: 'W:W31-50:B1-20' })).toMatchObject({
      code: 'already-decided',
    });
    expect(await decide({ kind: 'stands' })).toMatchObject({ code: 'already-decided' });
    expect(await decide({ kind: 'corrected', fen: 'W:W31-50:B1-20', revise: true })).toEqual({ ok: true });
    expect(hub.calls.map((call) => call.arg)).toEqual([
      { alertId: alert.id, kind: 'stands' },
      { alertId: alert.id, kind: 'corrected', fen: 'W:W31-50:B1-20', revises: true },
    ]);
    expect(hub.snapshot(1)!.alerts[0].decision).toMatchObject({ kind: 'corrected', revises: true });
  });

  it('two decisions racing for one alert: the second is refused while the first is on its way', async () => {
    const { hub, c } = await withAlert();
    const both = await Promise.all([
      c.call('decide', { board: 1, alertId: alert.id, kind: 'stands' }),
      c.call('decide', { board: 1, alertId: alert.id, kind: 'stands' }),
    ]);
    expect(both.map((m) => m.param.code ?? 'ok')).toEqual(['ok', 'already-decided']);
    expect(hub.calls).toHaveLength(1);
  });
});

describe('control characters in names and tag values', () => {
  it('are refused at the API', async () => {
    const { hub, c } = await withAlert();
    for (const info of [
      { white: 'Anna\n[Event "x"]' },
      { event: 'Open\r' },
      { black: 'B\u0000' },
      { timeControl: '5400+30\n[Round "9"]' },
    ]) {
      expect((await c.call('info', { board: 1, info })).param, JSON.stringify(info)).toMatchObject({
        code: 'bad-param',
      });
    }
    expect(hub.calls).toEqual([]);
    expect((await c.call('info', { board: 1, info: { white: 'Sijbrands, Ton' } })).param).toEqual({
      ok: true,
    });
  });

  it('are refused in the config, naming the key', () => {
    const file = join(tempDir(), 'damlink.yaml');
    writeFileSync(
      file,
      'event: "Open\\nX"\nboards:\n  - source: tcp://127.0.0.1:9\n    white: "Anna\\r\\n[Round \\"9\\"]"\n' +
        'timeControl: "5400+30\\n[Round \\"9\\"]"\n',
    );
    const r = loadConfig({ file });
    expect(r.ok).toBe(false);
    if (!r.ok)
      expect(r.error).toEqual([
        expect.stringMatching(/damlink\.yaml:1 event: control characters/),
        // One error: a time control with a control character is not parsed as one too.
        expect.stringMatching(/damlink\.yaml:5 timeControl: control characters/),
        expect.stringMatching(/damlink\.yaml:4 boards\[0\]\.white: control characters/),
      ]);
  });
});

describe('MQTT settings', () => {
  it('`mqtt: {url, username, password, ca, cert, key, clientId, baseTopic}`; `mqttUrl` still read, `mqtt` first', () => {
    const load = (yaml: string) => {
      const file = join(tempDir(), 'damlink.yaml');
      writeFileSync(file, `boards: [{ source: "tcp://127.0.0.1:9" }]\n${yaml}`);
      return loadConfig({ file });
    };
    const full = load(
      'mqtt: { url: "mqtts://b:8883", username: u, password: p, ca: /ca.pem, cert: /c.pem, key: /k.pem, clientId: hall }',
    );
    expect(full.ok && mqttSettings(full.value)).toEqual({
      url: 'mqtts://b:8883',
      username: 'u',
      password: 'p',
      ca: '/ca.pem',
      cert: '/c.pem',
      key: '/k.pem',
      clientId: 'hall',
      baseTopic: 'damlink',
    });
    const old = load('mqttUrl: mqtt://b:1883');
    expect(old.ok && mqttSettings(old.value)).toEqual({ url: 'mqtt://b:1883', baseTopic: 'damlink' });
    const both = load('mqttUrl: mqtt://b:1883\nmqtt: { url: "mqtt://c:1883" }');
    expect(both.ok && mqttSettings(both.value)).toEqual({ url: 'mqtt://c:1883', baseTopic: 'damlink' });
  });

  const brokers: ChildProcess[] = [];
  afterAll(() => {
    for (const b of brokers) b.kill('SIGTERM');
  });

  async function passwordBroker(user: string, password: string): Promise<number> {
    const port = await new Promise<number>((resolve) => {
      const s = createServer().listen(0, '127.0.0.1', () => {
        const p = (s.address() as { port: number }).port;
        s.close(() => resolve(p));
      });
    });
    const dir = tempDir();
    execFileSync('mosquitto_passwd', ['-b', '-c', join(dir, 'passwd'), user, password]);
    // Started as root, mosquitto reads its files as its own user.
    chmodSync(dir, 0o755);
    chmodSync(join(dir, 'passwd'), 0o644);
    writeFileSync(
      join(dir, 'mosquitto.conf'),
      `listener ${port} 127.0.0.1\nallow_anonymous false\npassword_file ${join(dir, 'passwd')}\npersistence false\n`,
    );
    brokers.push(spawn('mosquitto', ['-c', join(dir, 'mosquitto.conf')], { stdio: 'ignore' }));
    return port;
  }

  async function retainedPdn(url: string, user: string, password: string): Promise<string> {
    const end = Date.now() + 10_000;
    let sub: MqttClient | undefined;
    while (!sub) {
      sub = await connectAsync(url, { username: user, password, reconnectPeriod: 0 }).catch(async (e) => {
        if (Date.now() > end) throw e;
        await new Promise((r) => setTimeout(r, 100));
        return undefined;
      });
    }
    let pdn = '';
    sub.on('message', (_topic, payload) => {
      pdn = payload.toString();
    });
    await sub.subscribeAsync('damlink/rounds/1/boards/1.pdn');
    while (!pdn && Date.now() < end) await new Promise((r) => setTimeout(r, 20));
    await sub.endAsync();
    return pdn;
  }

  it('logs in with username and password; credentials in the URL never reach the log', async () => {
    const user = 'damlink';
    const password = 'broker-secret-pw-42';
    const port = await passwordBroker(user, password);
    const url = `mqtt://127.0.0.1:${port}`;
    const pdnBeforeBridge = retainedPdn(url, user, password);
    served = await serve({ mqtt: { url, username: user, password } }, new FakeHub(1));
    expect(await pdnBeforeBridge).toContain('[Round "1"]');
    await served.close();

    served = await serve({ mqtt: { url: `mqtt://${user}:${password}@127.0.0.1:${port}` } }, new FakeHub(1));
    const connected = served.logged.find((l) => l.msg === 'mqtt connected');
    expect(connected?.obj.url).toBe(`mqtt://***@127.0.0.1:${port}`);
    expect(JSON.stringify(served.logged)).not.toContain(password);
    await served.close();

    // A wrong password: the broker's refusal is logged, the password is not.
    served = await serve(
      { mqtt: { url: `mqtt://${user}:wrong-${password}@127.0.0.1:${port}` } },
      new FakeHub(1),
    );
    const end = Date.now() + 5000;
    while (!served.logged.some((l) => l.msg === 'mqtt error') && Date.now() < end)
      await new Promise((r) => setTimeout(r, 50));
    expect(served.logged.some((l) => l.msg === 'mqtt error')).toBe(true);
    expect(JSON.stringify(served.logged)).not.toContain(password);
  });
});
