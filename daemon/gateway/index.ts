// A gateway: no boards, no journal. It subscribes to the topics the daemons of one event publish
// and serves spectators the daemon's own HTTP files, JSON API, WebSocket API and viewer from them
// (daemon/server, unchanged). Gateways of one base topic answer alike: ETags come from the content
// and they share the WebSocket epoch, so a spectator resumes on any of them.
import { createHash } from 'node:crypto';
import type { MqttClient } from 'mqtt';
import { type RunningServer, type ServerLog, type ServerOptions, startServer } from '../server/index.ts';
import { connectBroker, type MqttSettings, redactUrl } from '../server/mqtt.ts';
import { DEFAULTS } from '../config/schema.ts';
import { DEFAULT_BASE_TOPIC, topics } from '../server/mqtt-topics.ts';
import { BrokerHub } from './broker-hub.ts';
import { readBrokerMessage } from './messages.ts';
import { daemonEvents } from './daemon-events.ts';

export interface GatewayOptions {
  mqtt: MqttSettings;
  /** Default 127.0.0.1. */
  host?: string;
  /** 0 picks a free port. */
  port: number;
  webRoot?: string;
  log?: ServerLog;
  limits?: ServerOptions['limits'];
  heartbeatMs?: number;
  /**
   * The daemons (their HTTP addresses) a gateway may ask for events it missed on the broker; none:
   * it asks none, and waits for their next state. An address a broker message names is only a hint:
   * anyone who can publish on the broker could name their own.
   */
  daemons?: readonly string[];
  /** Bytes of events held for one board (`limits.gatewayBoardBytes`). */
  boardBytes?: number;
}

/** An address as compared: its origin (`http://10.0.0.5:8080`). */
const originOf = (address: string): string | undefined => {
  try {
    return new URL(address).origin;
  } catch {
    return undefined;
  }
};

export interface Gateway {
  server: RunningServer;
  hub: BrokerHub;
  client: MqttClient;
  close(): Promise<void>;
}

/** The WebSocket epoch every gateway of `base` shares: the versions are the daemons', not its own. */
export const gatewayEpoch = (base: string): string =>
  `gw-${createHash('sha1').update(base).digest('hex').slice(0, 8)}`;

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const base = options.mqtt.baseTopic ?? DEFAULT_BASE_TOPIC;
  const t = topics(base);
  const log = options.log;
  const boardBytes = options.boardBytes ?? DEFAULTS.gatewayBoardBytes;
  const allowed = new Set((options.daemons ?? []).map(originOf).filter((o) => o !== undefined));
  const refused = new Set<string>();
  const fetchEvents = (api: string, board: number, version: number) => {
    const origin = originOf(api);
    if (origin && allowed.has(origin)) return daemonEvents(api, board, version, boardBytes);
    // Said once an address, for a bounded number of them (a flood of names costs nothing).
    if (!refused.has(api) && refused.size < 100) {
      refused.add(api);
      log?.warn({ api }, 'gateway: a daemon the config does not name is not asked for events');
    }
    return Promise.resolve(undefined);
  };
  const hub = new BrokerHub(log, fetchEvents, boardBytes);
  const client = connectBroker(options.mqtt, log, { resubscribe: false });
  client.on('message', (topic, payload) => {
    const read = readBrokerMessage(topic, payload);
    if (!read.ok) {
      log?.warn({ topic, error: read.error }, 'gateway: message dropped');
      return;
    }
    const m = read.value;
    try {
      if (m?.kind === 'daemon') hub.daemon(m.daemon, m.state);
      else if (m?.kind === 'state') hub.state(m.message);
      else if (m?.kind === 'event') hub.event(m.message);
    } catch (e) {
      // A message the checks let through and the hub could not take: the gateway goes on.
      log?.warn({ topic, err: (e as Error).message }, 'gateway: message dropped');
    }
  });
  // A clean session re-subscribes on every connection and so gets the retained states again.
  client.on('connect', () => {
    log?.info({ url: redactUrl(options.mqtt.url), base }, 'gateway: mqtt connected');
    client.subscribe([t.daemons, t.anyBoard('state'), t.anyBoard('events')], { qos: 1 });
  });
  const server = await startServer({
    hub,
    host: options.host,
    port: options.port,
    webRoot: options.webRoot,
    log,
    limits: options.limits,
    heartbeatMs: options.heartbeatMs,
    epoch: gatewayEpoch(base),
  });
  return {
    server,
    hub,
    client,
    async close() {
      await server.close();
      await client.endAsync();
    },
  };
}
