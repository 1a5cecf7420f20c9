// Optional MQTT bridge: every GameEvent to `damlink/<round>/<board>/events`, and the board's whole
// PDN game to `damlink/<round>/<board>/pdn` (retained: a new subscriber gets it at once). Events of
// one tick are coalesced into one PDN publish per board.
import { readFileSync } from 'node:fs';
import { connect, type IClientOptions, type MqttClient } from 'mqtt';
import type { GameEvent } from '../../src/game/types.ts';
import type { Hub } from '../hub.ts';
import { PdnCache } from './rounds.ts';
import type { ServerLog } from './ws.ts';

/** The broker and how to log in to it (config key `mqtt`). */
export interface MqttSettings {
  /** `mqtt://host:1883` (mqtts://, ws:// also work: whatever the mqtt package accepts). */
  url: string;
  username?: string;
  password?: string;
  /** PEM files: the CA that signed the broker's certificate, and a client certificate and key. */
  ca?: string;
  cert?: string;
  key?: string;
  clientId?: string;
}

export interface MqttBridgeOptions extends MqttSettings {
  hub: Hub;
  /** Topic prefix (default `damlink`). */
  prefix?: string;
  /** How long start waits for the broker before going on without it (default 3000 ms). */
  firstConnectMs?: number;
  log?: ServerLog;
}

export interface MqttBridge {
  client: MqttClient;
  close(): Promise<void>;
}

/**
 * Starts publishing; never fails because the broker is away: the client keeps reconnecting, events
 * meanwhile are dropped (QoS 0), and every (re)connection republishes each board's retained PDN.
 */
export async function startMqttBridge(options: MqttBridgeOptions): Promise<MqttBridge> {
  const { hub } = options;
  const prefix = options.prefix ?? 'damlink';
  const shownUrl = redactUrl(options.url);
  const client = connect(options.url, {
    reconnectPeriod: 2000,
    connectTimeout: 5000,
    queueQoSZero: false,
    ...loginOptions(options),
  });
  client.on('error', (e) =>
    options.log?.warn({ err: redactText(e.message, options), url: shownUrl }, 'mqtt error'),
  );
  const pdn = new PdnCache();
  const dirty = new Set<number>();
  let scheduled = false;

  const publishPdn = () => {
    scheduled = false;
    if (client.connected) {
      for (const board of dirty) {
        const snap = hub.snapshot(board);
        if (snap)
          client.publish(`${prefix}/${snap.info.round}/${board}/pdn`, pdn.of(snap), { qos: 0, retain: true });
      }
    }
    dirty.clear();
  };

  // Retained PDN of every board at each connection, so subscribers never wait for the next move.
  client.on('connect', () => {
    options.log?.info({ url: shownUrl }, 'mqtt connected');
    for (const b of hub.boards()) dirty.add(b.board);
    publishPdn();
  });

  const unsubscribe = hub.subscribe((event: GameEvent) => {
    if (!client.connected) return;
    const round = hub.snapshot(event.board)?.info.round ?? hub.round();
    client.publish(`${prefix}/${round}/${event.board}/events`, JSON.stringify(event), { qos: 0 });
    dirty.add(event.board);
    if (!scheduled) {
      scheduled = true;
      setImmediate(publishPdn);
    }
  });

  // Give the broker a moment so the first events are not dropped; start anyway when it is away.
  if (!client.connected) {
    await new Promise<void>((resolve) => {
      const timer = setTimeout(done, options.firstConnectMs ?? 3000);
      function done() {
        clearTimeout(timer);
        client.off('connect', done);
        resolve();
      }
      client.on('connect', done);
    });
  }

  return {
    client,
    async close() {
      unsubscribe();
      if (scheduled) publishPdn();
      await client.endAsync();
    },
  };
}

/** Credentials and TLS files as the mqtt package takes them (files are read here, at start). */
function loginOptions(settings: MqttSettings): IClientOptions {
  const file = (path: string | undefined) => (path === undefined ? undefined : readFileSync(path));
  const options: IClientOptions = {};
  if (settings.username !== undefined) options.username = settings.username;
  if (settings.password !== undefined) options.password = settings.password;
  if (settings.clientId !== undefined) options.clientId = settings.clientId;
  if (settings.ca !== undefined) options.ca = file(settings.ca);
  if (settings.cert !== undefined) options.cert = file(settings.cert);
  if (settings.key !== undefined) options.key = file(settings.key);
  return options;
}

/** `mqtt://user:secret@host` → `mqtt://***@host`, wherever a URL stands in the text (logs). */
export function redactUrl(text: string): string {
  return text.replace(/\b([a-z][a-z0-9+.-]*:\/\/)[^/@\s]*@/gi, '$1***@');
}

/** An error message with URL credentials and the password taken out. */
function redactText(text: string, settings: MqttSettings): string {
  const plain = redactUrl(text);
  return settings.password ? plain.split(settings.password).join('***') : plain;
}
