// A real mosquitto on a free loopback port for the MQTT tests, and a client that waits for it.
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { connectAsync, type MqttClient } from 'mqtt';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

export async function connectWithRetry(target: string): Promise<MqttClient> {
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

export interface Broker {
  url: string;
  port: number;
  /** Stops the broker (its retained messages go with it: no persistence). */
  stop(): Promise<void>;
}

/** A mosquitto on `port` (loopback only), ready when this resolves. */
export async function startBroker(port?: number): Promise<Broker> {
  const p = port ?? (await freePort());
  const dir = mkdtempSync(join(tmpdir(), 'damlink-mqtt-'));
  const conf = join(dir, 'mosquitto.conf');
  writeFileSync(conf, `listener ${p} 127.0.0.1\nallow_anonymous true\npersistence false\n`);
  const proc: ChildProcess = spawn('mosquitto', ['-c', conf], { stdio: 'ignore' });
  const exited = new Promise<void>((resolve) => proc.once('exit', () => resolve()));
  const url = `mqtt://127.0.0.1:${p}`;
  await (await connectWithRetry(url)).endAsync();
  return {
    url,
    port: p,
    async stop() {
      if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/** Polls `ready` every 20 ms for up to `ms`. */
export async function waitFor(ready: () => boolean, ms = 5000): Promise<void> {
  const until = Date.now() + ms;
  while (!ready() && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
}
